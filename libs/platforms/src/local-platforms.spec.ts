import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { platformRequest } from './common/platform-http';
import { checkPlatformBPluginAuthorization } from './yemeksepeti/yemeksepeti.plugin-auth';
import { generateLocalPlatformSecrets, isLocalPlatformSecrets, startLocalPlatforms } from './local-platforms';
import type { PlatformCSimulator } from './trendyol-go/trendyol-go.simulator';

describe('startLocalPlatforms (one-machine mode)', () => {
  it('starts the four simulators with matching keys, and their admin routes send orders to the callback URLs', async () => {
    const received: Array<{ url: string; headers: http.IncomingHttpHeaders; body: unknown }> = [];
    const suite = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ url: req.url!, headers: req.headers, body: JSON.parse(body) });
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ received: true, remoteResponse: { remoteOrderId: '00000000-0000-4000-8000-000000000001' } }));
      });
    });
    await new Promise<void>((resolve) => suite.listen(0, '127.0.0.1', resolve));
    const platforms = await startLocalPlatforms({ callbackBaseUrl: `http://127.0.0.1:${(suite.address() as AddressInfo).port}/` });
    try {
      expect(Object.keys(platforms.env).sort()).toEqual(
        ['PLATFORM_A_APP_SECRET_KEY', 'PLATFORM_A_BASE_URL', 'PLATFORM_A_WEBHOOK_API_KEY', 'PLATFORM_B_BASE_URL', 'PLATFORM_B_PLUGIN_SECRET', 'PLATFORM_C_BASE_URL', 'PLATFORM_C_INTEGRATOR_NAME', 'PLATFORM_D_BASE_URL'].sort(),
      );
      const post = (base: string, path: string, json: unknown = {}) => platformRequest({ method: 'POST', url: `${base}${path}`, json, timeoutMs: 5000 });
      expect((await post(platforms.simulators.PLATFORM_A.baseUrl, '/_simulator/orders')).status).toBe(201);
      expect((await post(platforms.simulators.PLATFORM_B.baseUrl, '/_simulator/orders', { remoteId: platforms.integrationBodies.PLATFORM_B.providerRestaurantId })).status).toBe(201);
      expect((await post(platforms.simulators.PLATFORM_D.baseUrl, '/_simulator/orders')).status).toBe(201);
      expect((await post(platforms.simulators.PLATFORM_C.baseUrl, '/_simulator/packages')).status).toBe(201);
      expect(received.map((call) => call.url)).toEqual(['/platforms/platform-a/orders', `/platforms/platform-b/order/${platforms.integrationBodies.PLATFORM_B.providerRestaurantId}`, '/platforms/platform-d/orders']);
      expect((platforms.simulators.PLATFORM_C as PlatformCSimulator).packages.size).toBe(1);
      expect(received[0].headers['x-api-key']).toBe(platforms.env.PLATFORM_A_WEBHOOK_API_KEY);
      expect(await checkPlatformBPluginAuthorization(received[1].headers.authorization, platforms.env.PLATFORM_B_PLUGIN_SECRET)).toEqual({ ok: true });
      expect(received[2].headers.xapikey).toBe(platforms.integrationBodies.PLATFORM_D.apiKey);
      expect(received[2].body).toMatchObject({ status: 'NEW_PENDING', store: { id: Number(platforms.integrationBodies.PLATFORM_D.providerRestaurantId), group: { id: 511 } } });
      const orderId = (received[2].body as { id: number }).id;
      expect((await post(platforms.simulators.PLATFORM_D.baseUrl, `/_simulator/orders/${orderId}/cancel`)).status).toBe(200);
      expect(received[3]).toMatchObject({ url: '/platforms/platform-d/orders/cancelled', body: { OrderId: orderId, StoreId: 23000000101833 } });
      expect(received[3].headers.xapikey).toBe(platforms.integrationBodies.PLATFORM_D.apiKey);
    } finally {
      await platforms.stop();
      suite.close();
    }
  });

  it('uses the keys it is given (stable across restarts), and lists the platform calls it answered, secrets masked', async () => {
    const secrets = generateLocalPlatformSecrets();
    expect(isLocalPlatformSecrets(secrets)).toBe(true);
    expect(isLocalPlatformSecrets({ ...secrets, platformDApiKey: undefined })).toBe(false);
    expect(isLocalPlatformSecrets(JSON.parse(JSON.stringify(secrets)))).toBe(true);
    const first = await startLocalPlatforms({ callbackBaseUrl: 'http://127.0.0.1:9', secrets });
    const firstView = { env: { ...first.env }, bodies: first.integrationBodies };
    await first.stop();
    const platforms = await startLocalPlatforms({ callbackBaseUrl: 'http://127.0.0.1:9', secrets });
    try {
      const { PLATFORM_A_BASE_URL: _a, PLATFORM_B_BASE_URL: _b, PLATFORM_C_BASE_URL: _c, PLATFORM_D_BASE_URL: _d, ...keys } = platforms.env;
      const { PLATFORM_A_BASE_URL: _a1, PLATFORM_B_BASE_URL: _b1, PLATFORM_C_BASE_URL: _c1, PLATFORM_D_BASE_URL: _d1, ...firstKeys } = firstView.env;
      expect(keys).toEqual(firstKeys);
      expect(platforms.integrationBodies).toEqual(firstView.bodies);
      expect(keys.PLATFORM_A_APP_SECRET_KEY).toBe(secrets.platformAAppSecretKey);
      expect(platforms.integrationBodies.PLATFORM_B.password).toBe(secrets.platformBPassword);

      const login = await platformRequest({ method: 'POST', url: `${platforms.simulators.PLATFORM_B.baseUrl}/v2/login`, form: { grant_type: 'client_credentials', username: 'demo-pos', password: secrets.platformBPassword }, timeoutMs: 5000 });
      expect(login.status).toBe(200);
      const wrong = await platformRequest({ method: 'POST', url: `${platforms.simulators.PLATFORM_D.baseUrl}/Order/v2/UpdateOrderStatus`, headers: { XApiKey: 'wrong-key' }, json: { value: 'x' }, timeoutMs: 5000 });
      expect(wrong.status).toBe(401);
      const all = await platformRequest({ method: 'GET', url: `${platforms.simulators.PLATFORM_B.baseUrl}/_simulator/calls`, timeoutMs: 5000 });
      expect(all.status).toBe(200);
      expect(all.body).toEqual([expect.objectContaining({ method: 'POST', path: '/v2/login', status: 200, body: expect.objectContaining({ username: 'demo-pos', password: '****' }), answer: expect.objectContaining({ access_token: '****' }) })]);
      expect(JSON.stringify(all.body)).not.toContain(secrets.platformBPassword);
      const filtered = await platformRequest({ method: 'GET', url: `${platforms.simulators.PLATFORM_D.baseUrl}/_simulator/calls?method=post&path=/Order/v2`, timeoutMs: 5000 });
      expect(filtered.body).toEqual([expect.objectContaining({ method: 'POST', path: '/Order/v2/UpdateOrderStatus', status: 401 })]);
      const none = await platformRequest({ method: 'GET', url: `${platforms.simulators.PLATFORM_D.baseUrl}/_simulator/calls?method=GET`, timeoutMs: 5000 });
      expect(none.body).toEqual([]);
    } finally {
      await platforms.stop();
    }
  });
});
