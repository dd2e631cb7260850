import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { platformRequest } from '../adapters/common/platform-http';
import { startLocalPlatforms } from './local-platforms';

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
        ['PLATFORM_A_APP_SECRET_KEY', 'PLATFORM_A_BASE_URL', 'PLATFORM_A_WEBHOOK_API_KEY', 'PLATFORM_B_BASE_URL', 'PLATFORM_B_PLUGIN_TOKEN', 'PLATFORM_C_BASE_URL', 'PLATFORM_C_INTEGRATOR_NAME', 'PLATFORM_D_BASE_URL'].sort(),
      );
      const post = (base: string, path: string, json: unknown = {}) => platformRequest({ method: 'POST', url: `${base}${path}`, json, timeoutMs: 5000 });
      expect((await post(platforms.a.baseUrl, '/_simulator/orders')).status).toBe(201);
      expect((await post(platforms.b.baseUrl, '/_simulator/orders', { remoteId: platforms.integrationBodies.PLATFORM_B.providerRestaurantId })).status).toBe(201);
      expect((await post(platforms.d.baseUrl, '/_simulator/orders')).status).toBe(201);
      expect((await post(platforms.c.baseUrl, '/_simulator/packages')).status).toBe(201);
      expect(received.map((call) => call.url)).toEqual(['/platforms/platform-a/orders', `/platforms/platform-b/order/${platforms.integrationBodies.PLATFORM_B.providerRestaurantId}`, '/platforms/platform-d/orders']);
      expect(received[0].headers['x-api-key']).toBe(platforms.env.PLATFORM_A_WEBHOOK_API_KEY);
      expect(received[1].headers.authorization).toBe(`Bearer ${platforms.env.PLATFORM_B_PLUGIN_TOKEN}`);
      expect(received[2].headers['x-api-key']).toBe(platforms.integrationBodies.PLATFORM_D.apiKey);
      expect(platforms.c.packages.size).toBe(1);
    } finally {
      await platforms.stop();
      suite.close();
    }
  });
});
