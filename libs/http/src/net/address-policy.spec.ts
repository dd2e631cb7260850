import { assertPublicUrl, classifyAddress, HostResolver, isPublicAddress, UrlPolicyError } from './address-policy';

describe('classifyAddress / isPublicAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['93.184.216.34', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['11.0.0.0', 'public'],
    ['100.63.255.255', 'public'],
    ['100.64.0.0', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['100.128.0.0', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.15.255.255', 'public'],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.0', 'public'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['192.88.99.1', 'reserved'],
    ['192.167.255.255', 'public'],
    ['192.168.0.1', 'private'],
    ['192.169.0.0', 'public'],
    ['198.17.255.255', 'public'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.20.0.0', 'public'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['223.255.255.255', 'public'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
  ])('IPv4 %s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
    expect(isPublicAddress(ip)).toBe(kind === 'public');
  });

  it.each([
    ['2001:4860:4860::8888', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4001:80b::200e', 'public'],
    ['::', 'unspecified'],
    ['0:0:0:0:0:0:0:0', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:8.8.8.8', 'ipv4-mapped'],
    ['::127.0.0.1', 'reserved'],
    ['::8.8.8.8', 'reserved'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b:1::1', 'reserved'],
    ['100::1', 'reserved'],
    ['2001::1', 'reserved'],
    ['2001:1ff::1', 'reserved'],
    ['2001:200::1', 'public'],
    ['2001:db8::1', 'documentation'],
    ['2002:c0a8:0101::1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:0808:0808::1', 'public'],
    ['3fff::1', 'documentation'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['ff05::2', 'multicast'],
    ['4000::1', 'reserved'],
    ['1000::1', 'reserved'],
    ['[2001:4860:4860::8888]', 'public'],
    ['[::1]', 'loopback'],
  ])('IPv6 %s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
    expect(isPublicAddress(ip)).toBe(kind === 'public');
  });

  it.each(['', 'localhost', 'example.com', '256.1.1.1', '1.2.3', '01.2.3.4', '::g', '1::2::3', undefined as unknown as string])(
    'treats %p as invalid, never public',
    (input) => {
      expect(classifyAddress(input)).toBe('invalid');
      expect(isPublicAddress(input)).toBe(false);
    },
  );
});

describe('assertPublicUrl', () => {
  const hosts: Record<string, string[]> = {
    'receiver.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'internal.example': ['10.0.0.5'],
    'mixed.example': ['93.184.216.34', '127.0.0.1'],
    'mapped.example': ['::ffff:192.168.1.1'],
    localhost: ['127.0.0.1', '::1'],
  };
  const resolve: HostResolver = async (host) => {
    if (host in hosts) return hosts[host];
    throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
  };
  const secure = { allowInsecure: false, resolve };
  const refused = async (url: string, reason: string, options = secure) => {
    await expect(assertPublicUrl(url, options)).rejects.toBeInstanceOf(UrlPolicyError);
    await expect(assertPublicUrl(url, options)).rejects.toMatchObject({ reason });
  };

  it('accepts an https URL whose every address is public, and returns the addresses', async () => {
    const checked = await assertPublicUrl('https://receiver.example:8443/hooks/status?x=1', secure);
    expect(checked.url.hostname).toBe('receiver.example');
    expect(checked.addresses).toEqual(hosts['receiver.example']);
  });

  it('accepts public IP literals without resolving them', async () => {
    const noLookup: HostResolver = async () => {
      throw new Error('must not resolve');
    };
    await expect(assertPublicUrl('https://93.184.216.34/hook', { allowInsecure: false, resolve: noLookup })).resolves.toMatchObject({ addresses: ['93.184.216.34'] });
    await expect(assertPublicUrl('https://[2001:4860:4860::8888]/hook', { allowInsecure: false, resolve: noLookup })).resolves.toMatchObject({
      addresses: ['2001:4860:4860::8888'],
    });
  });

  it('refuses http, other schemes and garbage', async () => {
    await refused('http://receiver.example/hook', 'scheme');
    await refused('ftp://receiver.example/hook', 'scheme');
    await refused('javascript:alert(1)', 'scheme');
    await refused('file:///etc/passwd', 'scheme');
    await refused('not a url', 'malformed');
    await refused('', 'malformed');
    await refused('/relative/path', 'malformed');
    await refused(`https://receiver.example/${'a'.repeat(2100)}`, 'too-long');
  });

  it('refuses credentials in the URL', async () => {
    await refused('https://user:pass@receiver.example/hook', 'credentials');
    await refused('https://user@receiver.example/hook', 'credentials');
    await refused('https://:pass@receiver.example/hook', 'credentials');
  });

  it('refuses private, loopback and link-local literals in all their spellings', async () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://127.1/',
      'https://0x7f000001/',
      'https://2130706433/',
      'https://0177.0.0.1/',
      'https://10.0.0.1/',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.1.1/',
      'https://0.0.0.0/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:a9fe:a9fe]/',
      'https://[fe80::1]/',
      'https://[fd00::1]/',
      'https://[ff02::1]/',
      'https://224.0.0.1/',
    ]) {
      await refused(url, 'non-public-address');
    }
  });

  it('refuses a host name when any resolved address is not public', async () => {
    await refused('https://internal.example/hook', 'non-public-address');
    await refused('https://mixed.example/hook', 'non-public-address');
    await refused('https://mapped.example/hook', 'non-public-address');
    await refused('https://localhost/hook', 'non-public-address');
  });

  it('refuses a host name that does not resolve, or resolves too slowly', async () => {
    await refused('https://nowhere.invalid/hook', 'unresolvable');
    const slow: HostResolver = () => new Promise((resolve) => setTimeout(() => resolve(['93.184.216.34']), 200));
    await refused('https://receiver.example/hook', 'unresolvable', { allowInsecure: false, resolve: slow, resolveTimeoutMs: 20 } as never);
    await refused('https://receiver.example/hook', 'unresolvable', { allowInsecure: false, resolve: async () => [] } as never);
  });

  it('allows http and private addresses when insecure URLs are allowed, but never credentials or other schemes', async () => {
    await expect(assertPublicUrl('http://localhost:4444/webhook/status', { allowInsecure: true, resolve })).resolves.toMatchObject({ addresses: [] });
    await expect(assertPublicUrl('https://10.0.0.1/x', { allowInsecure: true, resolve })).resolves.toBeDefined();
    await refused('http://user:pw@localhost/', 'credentials', { allowInsecure: true, resolve });
    await refused('ftp://localhost/', 'scheme', { allowInsecure: true, resolve });
  });

  it('allows exactly the listed insecure origins (the local receiver), and still refuses every other loopback or private URL', async () => {
    const options = { allowInsecure: false, resolve, allowedInsecureOrigins: ['http://127.0.0.1:4444'] };
    await expect(assertPublicUrl('http://127.0.0.1:4444/webhook/status', options)).resolves.toMatchObject({ addresses: [] });
    await expect(assertPublicUrl('http://127.0.0.1:4444/webhook/cancel', { ...options, resolveWhenInsecure: true })).resolves.toMatchObject({ addresses: ['127.0.0.1'] });
    await refused('http://127.0.0.1:4445/webhook/status', 'scheme', options);
    await refused('https://127.0.0.1:4445/webhook/status', 'non-public-address', options);
    await refused('https://127.0.0.1:4444/webhook/status', 'non-public-address', options);
    await refused('http://localhost:4444/webhook/status', 'scheme', options);
    await refused('http://10.0.0.5:4444/', 'scheme', options);
    await refused('http://user:pw@127.0.0.1:4444/', 'credentials', options);
  });

  it('resolves without refusing when insecure URLs are allowed and the caller asks for the addresses', async () => {
    const options = { allowInsecure: true, resolve, resolveWhenInsecure: true };
    await expect(assertPublicUrl('http://localhost:4444/webhook/status', options)).resolves.toMatchObject({ addresses: ['127.0.0.1', '::1'] });
    await expect(assertPublicUrl('http://[::1]:4444/x', options)).resolves.toMatchObject({ addresses: ['::1'] });
    await refused('http://nowhere.invalid/', 'unresolvable', options);
    await refused('https://user:pw@localhost/', 'credentials', options);
  });

  it('gives messages that are safe to show and say why', async () => {
    await expect(assertPublicUrl('https://10.0.0.1/', secure)).rejects.toThrow('host must be a public address (10.0.0.1 is private)');
    await expect(assertPublicUrl('http://receiver.example/', secure)).rejects.toThrow('must be an https URL');
  });
});
