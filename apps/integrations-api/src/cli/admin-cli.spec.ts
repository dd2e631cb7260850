import { runAdminCli } from './admin-cli';

describe('admin CLI', () => {
  function harness(status = 200, body: unknown = { ok: true }) {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }) as unknown as typeof fetch;
    let stdout = '';
    let stderr = '';
    const run = (args: string[], env: NodeJS.ProcessEnv = { ADMIN_TOKEN: 'tok' }) =>
      runAdminCli(args, env, { fetch: fakeFetch, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), cwd: '/nonexistent' });
    return { calls, run, out: () => stdout, err: () => stderr };
  }

  it.each([
    [['create-restaurant', '--name', 'A'], 'POST', '/admin/v1/restaurants', { name: 'A' }],
    [['create-restaurant', '--name', 'A', '--provider-restaurant-id', 'p', '--status-url', 's', '--cancel-url', 'c', '--signing-secret'], 'POST', '/admin/v1/restaurants', { name: 'A', providerRestaurantId: 'p', statusUrl: 's', cancelUrl: 'c', generateSigningSecret: true }],
    [['list-restaurants'], 'GET', '/admin/v1/restaurants', undefined],
    [['list-restaurants', '--limit', '5', '--status', 'active'], 'GET', '/admin/v1/restaurants?limit=5&status=active', undefined],
    [['get-restaurant', 'rest_x'], 'GET', '/admin/v1/restaurants/rest_x', undefined],
    [['disable-restaurant', 'rest_x'], 'POST', '/admin/v1/restaurants/rest_x/disable', undefined],
    [['enable-restaurant', 'rest_x'], 'POST', '/admin/v1/restaurants/rest_x/enable', undefined],
    [['rotate-keys', 'rest_x'], 'POST', '/admin/v1/restaurants/rest_x/rotate-keys', undefined],
    [['rotate-keys', 'a/b'], 'POST', '/admin/v1/restaurants/a%2Fb/rotate-keys', undefined],
    [['reencrypt-secrets'], 'POST', '/admin/v1/secrets/reencrypt', undefined],
    [
      ['lookup-platform-restaurant', '--platform', 'PLATFORM_B', '--provider-restaurant-id', 'v/1', '--operator', 'ops:a'],
      'GET',
      '/admin/v1/platform-restaurants?platform=PLATFORM_B&providerRestaurantId=v%2F1&operator=ops%3Aa',
      undefined,
    ],
    [
      ['verify-platform-restaurant', '--platform', 'PLATFORM_B', '--provider-restaurant-id', 'v1', '--integration-id', 'i1', '--operator', 'ops:a', '--note', 'ticket 7'],
      'POST',
      '/admin/v1/platform-restaurants/verify',
      { platform: 'PLATFORM_B', providerRestaurantId: 'v1', integrationId: 'i1', operator: 'ops:a', note: 'ticket 7' },
    ],
    [
      ['transfer-platform-restaurant', '--platform', 'PLATFORM_A', '--provider-restaurant-id', 'g1', '--to-integration-id', 'i2', '--operator', 'ops:b'],
      'POST',
      '/admin/v1/platform-restaurants/transfer',
      { platform: 'PLATFORM_A', providerRestaurantId: 'g1', toIntegrationId: 'i2', operator: 'ops:b' },
    ],
    [['list-withheld-orders'], 'GET', '/admin/v1/withheld-orders', undefined],
    [['list-withheld-orders', '--platform', 'PLATFORM_A', '--limit', '10'], 'GET', '/admin/v1/withheld-orders?platform=PLATFORM_A&limit=10', undefined],
  ])('%p calls %s %s with the admin token', async (args, method, path, body) => {
    const cli = harness();
    expect(await cli.run(args)).toBe(0);
    expect(cli.calls).toHaveLength(1);
    expect(cli.calls[0].url).toBe(`http://localhost:3001${path}`);
    expect(cli.calls[0].init.method).toBe(method);
    expect((cli.calls[0].init.headers as Record<string, string>)['X-Admin-Token']).toBe('tok');
    expect(cli.calls[0].init.body === undefined ? undefined : JSON.parse(cli.calls[0].init.body as string)).toEqual(body);
    expect(JSON.parse(cli.out())).toEqual({ ok: true });
  });

  it('takes --url and --token over POS_URL and ADMIN_TOKEN', async () => {
    const cli = harness();
    await cli.run(['list-restaurants', '--url', 'http://pos:9000/', '--token', 'cli-token'], { POS_URL: 'http://other', ADMIN_TOKEN: 'env' });
    expect(cli.calls[0].url).toBe('http://pos:9000/admin/v1/restaurants');
    expect((cli.calls[0].init.headers as Record<string, string>)['X-Admin-Token']).toBe('cli-token');
    const fromEnv = harness();
    await fromEnv.run(['list-restaurants'], { POS_URL: 'http://other:1', ADMIN_TOKEN: 'env' });
    expect(fromEnv.calls[0].url).toBe('http://other:1/admin/v1/restaurants');
  });

  it('asks status-dispatcher for withheld orders: --dispatcher-url, else STATUS_DISPATCHER_URL, else the --url', async () => {
    const cli = harness();
    await cli.run(['list-withheld-orders', '--dispatcher-url', 'http://dispatcher:3002/'], { STATUS_DISPATCHER_URL: 'http://other', ADMIN_TOKEN: 'env' });
    expect(cli.calls[0].url).toBe('http://dispatcher:3002/admin/v1/withheld-orders');
    const fromEnv = harness();
    await fromEnv.run(['list-withheld-orders'], { STATUS_DISPATCHER_URL: 'http://dispatcher:1', ADMIN_TOKEN: 'env' });
    expect(fromEnv.calls[0].url).toBe('http://dispatcher:1/admin/v1/withheld-orders');
  });

  it('exits 1 and prints the problem to stderr when refused', async () => {
    const cli = harness(404, { code: 'RESTAURANT_NOT_FOUND' });
    expect(await cli.run(['get-restaurant', 'rest_x'])).toBe(1);
    expect(JSON.parse(cli.err())).toEqual({ code: 'RESTAURANT_NOT_FOUND' });
    expect(cli.out()).toBe('');
  });

  it('exits 2 on usage errors, without calling the API', async () => {
    const cli = harness();
    for (const args of [[], ['nope'], ['create-restaurant'], ['get-restaurant'], ['--unknown-flag']]) expect(await cli.run(args)).toBe(2);
    for (const args of [
      ['lookup-platform-restaurant', '--platform', 'PLATFORM_B'],
      ['verify-platform-restaurant', '--platform', 'PLATFORM_B', '--provider-restaurant-id', 'v1', '--operator', 'o'],
      ['transfer-platform-restaurant', '--platform', 'PLATFORM_B', '--provider-restaurant-id', 'v1', '--operator', 'o'],
      ['lookup-platform-restaurant', '--platform', 'PLATFORM_B', '--provider-restaurant-id', 'v1'],
    ]) {
      expect(await cli.run(args)).toBe(2);
    }
    expect(await cli.run(['list-restaurants'], {})).toBe(2);
    expect(await cli.run(['list-restaurants', '--url', 'ftp://x'])).toBe(2);
    expect(cli.calls).toHaveLength(0);
  });
});
