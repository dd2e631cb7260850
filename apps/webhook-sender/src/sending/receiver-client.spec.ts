import { HostResolver } from '@courier/http';
import { makeCertificates, startReceiver, TestCertificates, TestReceiver } from '../../test/receivers';
import { ReceiverClient } from './receiver-client';

const body = Buffer.from('{"event":"order.status_changed","orderId":"pos-1"}');
const headers = { 'Content-Type': 'application/json' };

describe('ReceiverClient', () => {
  let certificates: TestCertificates;
  const receivers: TestReceiver[] = [];
  const clients: ReceiverClient[] = [];
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const started = await startReceiver(...args);
    receivers.push(started);
    return started;
  };
  const client = (options: Partial<ConstructorParameters<typeof ReceiverClient>[0]> = {}) => {
    const made = new ReceiverClient({ allowInsecure: true, resolve: async () => ['127.0.0.1'], ...options });
    clients.push(made);
    return made;
  };

  beforeAll(() => {
    certificates = makeCertificates();
  });
  afterEach(async () => {
    clients.splice(0).forEach((made) => made.close());
    await Promise.all(receivers.splice(0).map((started) => started.close()));
  });

  it('posts the exact bytes with the given headers; 2xx is success', async () => {
    const target = await receiver(() => ({ status: 204 }));
    const outcome = await client().post({ url: target.url('/hooks/status?x=1'), headers, body, timeoutMs: 2_000 });
    expect(outcome).toMatchObject({ ok: true, statusCode: 204, error: null });
    expect(target.requests).toHaveLength(1);
    expect(target.requests[0]).toMatchObject({ method: 'POST', path: '/hooks/status?x=1' });
    expect(target.requests[0].body.equals(body)).toBe(true);
    expect(target.requests[0].headers['content-length']).toBe(String(body.length));
  });

  it('any other status is a failure, recorded as the status line only: nothing of the answer is echoed', async () => {
    const target = await receiver((_request, count) => (count === 1 ? { status: 500, body: 'internal-service-secret\n database down' } : { status: 404 }));
    const failed = await client().post({ url: target.url('/'), headers, body, timeoutMs: 2_000 });
    expect(failed).toMatchObject({ ok: false, statusCode: 500, error: 'HTTP 500 Internal Server Error' });
    expect(failed.error).not.toContain('secret');
    await expect(client().post({ url: target.url('/'), headers, body, timeoutMs: 2_000 })).resolves.toMatchObject({ ok: false, statusCode: 404, error: 'HTTP 404 Not Found' });
  });

  it('does not follow a redirect: a 302 is a failure and its target gets nothing', async () => {
    const target = await receiver((request) => (request.path === '/moved' ? { status: 302, headers: { Location: '/elsewhere' } } : { status: 200 }));
    const outcome = await client().post({ url: target.url('/moved'), headers, body, timeoutMs: 2_000 });
    expect(outcome).toMatchObject({ ok: false, statusCode: 302 });
    expect(outcome.error).toBe('HTTP 302 Found (redirect not followed)');
    expect(target.at('/elsewhere')).toHaveLength(0);
  });

  it('gives up when the receiver takes longer than the timeout for the whole exchange', async () => {
    const target = await receiver(() => ({ status: 200, delayMs: 1_000 }));
    const started = Date.now();
    const outcome = await client().post({ url: target.url('/'), headers, body, timeoutMs: 200 });
    expect(outcome).toMatchObject({ ok: false, statusCode: null, error: 'timed out after 200 ms' });
    expect(Date.now() - started).toBeLessThan(800);
  });

  it('counts a slow resolution against the same timeout', async () => {
    const slow: HostResolver = () => new Promise((resolve) => setTimeout(() => resolve(['127.0.0.1']), 500));
    const outcome = await client({ resolve: slow }).post({ url: 'http://receiver.test:1/', headers, body, timeoutMs: 100 });
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toContain('could not be resolved');
  });

  it('connects to the address the resolver gave and checked, keeping the host name in Host', async () => {
    const target = await receiver();
    const seen: string[] = [];
    const resolve: HostResolver = async (host) => {
      seen.push(host);
      return ['127.0.0.1'];
    };
    const outcome = await client({ resolve }).post({ url: target.url('/x', 'receiver.test'), headers, body, timeoutMs: 2_000 });
    expect(outcome.ok).toBe(true);
    expect(seen).toEqual(['receiver.test']);
    expect(target.requests[0].headers.host).toBe(`receiver.test:${target.port}`);
  });

  it('refuses private, loopback and IPv4-mapped addresses (literal or resolved) unless insecure URLs are allowed', async () => {
    const target = await receiver();
    const secure = client({ allowInsecure: false, resolve: async (host) => (host === 'mapped.test' ? ['::ffff:127.0.0.1'] : host === 'private.test' ? ['10.1.2.3'] : ['127.0.0.1']) });
    const refused = async (url: string, message: string) => {
      const outcome = await secure.post({ url, headers, body, timeoutMs: 2_000 });
      expect(outcome).toMatchObject({ ok: false, statusCode: null });
      expect(outcome.error).toContain(message);
    };
    await refused(`https://127.0.0.1:${target.port}/`, 'URL refused: host must be a public address (127.0.0.1 is loopback)');
    await refused(`https://[::ffff:127.0.0.1]:${target.port}/`, 'URL refused: host must be a public address');
    await refused(`https://mapped.test:${target.port}/`, 'URL refused: host must be a public address (mapped.test is loopback)');
    await refused(`https://private.test:${target.port}/`, 'is private');
    await refused(`https://localhost.test:${target.port}/`, 'is loopback');
    await refused(target.url('/'), 'URL refused: must be an https URL');
    expect(target.requests).toHaveLength(0);
    await expect(client({ allowInsecure: true }).post({ url: target.url('/'), headers, body, timeoutMs: 2_000 })).resolves.toMatchObject({ ok: true });
  });

  it('sends to an allowed insecure origin (the local receiver) only: another loopback origin is refused at send time', async () => {
    const allowed = await receiver();
    const other = await receiver();
    const local = client({ allowInsecure: false, allowedInsecureOrigins: [new URL(allowed.url('/')).origin] });
    await expect(local.post({ url: allowed.url('/webhook/status'), headers, body, timeoutMs: 2_000 })).resolves.toMatchObject({ ok: true, statusCode: 200 });
    const refused = await local.post({ url: other.url('/webhook/status'), headers, body, timeoutMs: 2_000 });
    expect(refused).toMatchObject({ ok: false, statusCode: null });
    expect(refused.error).toContain('URL refused: must be an https URL');
    expect(allowed.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(0);
  });

  it('verifies certificates: a self-signed receiver is refused, even in development mode', async () => {
    const target = await receiver(undefined, certificates.selfSigned);
    const outcome = await client({ allowInsecure: true }).post({ url: target.url('/'), headers, body, timeoutMs: 2_000 });
    expect(outcome).toMatchObject({ ok: false, statusCode: null });
    expect(outcome.error).toMatch(/^TLS certificate refused \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)/);
    expect(target.requests).toHaveLength(0);
  });

  it('verifies the certificate against the host name while connecting to the checked address', async () => {
    const target = await receiver(undefined, certificates.issued);
    const trusted = client({ ca: certificates.ca, resolve: async () => ['127.0.0.1'] });
    await expect(trusted.post({ url: target.url('/ok', 'receiver.test'), headers, body, timeoutMs: 2_000 })).resolves.toMatchObject({ ok: true, statusCode: 200 });
    expect(target.requests[0].headers.host).toBe(`receiver.test:${target.port}`);
    const wrongName = await trusted.post({ url: target.url('/', 'other.test'), headers, body, timeoutMs: 2_000 });
    expect(wrongName.error).toContain('ERR_TLS_CERT_ALTNAME_INVALID');
    // Without the test CA (Node's bundle), the same receiver is not trusted.
    const untrusted = await client().post({ url: target.url('/', 'receiver.test'), headers, body, timeoutMs: 2_000 });
    expect(untrusted.error).toMatch(/^TLS certificate refused/);
    expect(target.requests).toHaveLength(1);
  });

  it('reports refused connections', async () => {
    const target = await receiver();
    const url = target.url('/');
    await target.close();
    const outcome = await client().post({ url, headers, body, timeoutMs: 2_000 });
    expect(outcome).toMatchObject({ ok: false, statusCode: null });
    expect(outcome.error).toContain('ECONNREFUSED');
  });
});
