import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { platformRequest } from '../common/platform-http';
import tokenRequired from './examples/error-token-required.json';
import { PlatformASimulator } from './getir.simulator';

/** The simulator's own rules, as G describes Getir (the adapter's view is in platform-a.adapter.spec.ts). */
describe('PlatformASimulator', () => {
  let sim: PlatformASimulator;
  let received: Array<{ url: string; headers: http.IncomingHttpHeaders; body: unknown }>;
  let partner: http.Server;

  beforeAll(async () => {
    received = [];
    partner = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ url: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
    const partnerUrl = `http://127.0.0.1:${(partner.address() as AddressInfo).port}`;
    sim = new PlatformASimulator({
      appSecretKey: 'app-secret-key-0001',
      restaurants: [{ restaurantId: 'getir-r-1', secretKey: 'restaurant-secret-1' }],
      rateLimit: { limit: 3, windowMs: 60_000, blockMs: 20_000 },
      cancelOptionsRateLimit: { limit: 2, windowMs: 600_000, blockMs: 60_000 },
      newOrderUrl: `${partnerUrl}/new`,
      cancelledOrderUrl: `${partnerUrl}/cancelled`,
      webhookApiKey: 'partner-key',
    });
    await sim.start();
  });
  afterAll(async () => {
    await sim.stop();
    await new Promise((resolve) => partner.close(resolve));
  });

  const call = (method: 'GET' | 'POST', path: string, token?: string, json?: unknown) => platformRequest({ method, url: `${sim.baseUrl}${path}`, headers: token ? { token } : {}, json, timeoutMs: 2000 });
  const login = async () => ((await call('POST', '/auth/login', undefined, { appSecretKey: 'app-secret-key-0001', restaurantSecretKey: 'restaurant-secret-1' })).body as { token: string }).token;

  it('keeps the POS closed (200) until PUT /restaurants/pos-status with the two keys opens it (100); no token needed', async () => {
    const keys = { appSecretKey: 'app-secret-key-0001', restaurantSecretKey: 'restaurant-secret-1' };
    const put = (body: unknown) => platformRequest({ method: 'PUT', url: `${sim.baseUrl}/restaurants/pos-status`, json: body, timeoutMs: 2000 });
    expect(sim.posStatusOf('getir-r-1')).toBe(200);
    expect(await call('POST', '/restaurants/pos-status', undefined, keys)).toMatchObject({ status: 200, body: { posStatus: 200 } });
    expect(await put({ ...keys, posStatus: 300 })).toMatchObject({ status: 400, body: { code: -2 } });
    expect(await put({ ...keys, restaurantSecretKey: 'wrong', posStatus: 100 })).toMatchObject({ status: 401 });
    expect(await put({ posStatus: 100 })).toMatchObject({ status: 400, body: { code: -2, source: 'body' } });
    expect(sim.posStatusOf('getir-r-1')).toBe(200);
    expect(await put({ ...keys, posStatus: 100 })).toMatchObject({ status: 200 });
    expect(sim.posStatusOf('getir-r-1')).toBe(100);
    expect((await platformRequest({ method: 'GET', url: `${sim.baseUrl}/_simulator/pos-status`, timeoutMs: 2000 })).body).toEqual({ 'getir-r-1': 100 });
  });

  it('answers a call without the token header with Getir\'s observed -2 ValidationError', async () => {
    expect(await call('POST', '/food-orders/active')).toMatchObject({ status: 400, body: tokenRequired });
    expect(await call('POST', '/auth/login', undefined, {})).toMatchObject({ status: 400, body: { code: -2, source: 'body' } });
  });

  it('blocks a token past its budget for the block time; the periodic polls stay exempt; cancel-options has its own budget', async () => {
    const token = await login();
    const order = sim.createOrder('getir-r-1');
    for (let i = 0; i < 3; i += 1) expect((await call('GET', `/food-orders/${order.id}`, token)).status).toBe(200);
    expect(await call('GET', `/food-orders/${order.id}`, token)).toMatchObject({ status: 429, body: { code: 429 } });
    expect(await call('POST', '/food-orders/active', token)).toMatchObject({ status: 429 });
    expect(await call('POST', '/food-orders/periodic/unapproved', token)).toMatchObject({ status: 200, body: [expect.objectContaining({ id: order.id, status: 400 })] });
    expect((await call('POST', '/food-orders/periodic/cancelled', token)).status).toBe(200);

    const other = await login();
    for (let i = 0; i < 2; i += 1) expect((await call('GET', `/food-orders/${order.id}/cancel-options`, other)).status).toBe(200);
    expect((await call('GET', `/food-orders/${order.id}/cancel-options`, other)).status).toBe(429);
    expect((await call('GET', `/food-orders/${order.id}`, other)).status).toBe(200);
  });

  it('sends the new- and cancelled-order webhooks with x-api-key, bare or wrapped in { foodOrder }', async () => {
    received.length = 0;
    const { order } = await sim.placeOrder('getir-r-1');
    await sim.redeliver(order.id, { wrapped: true });
    await sim.cancelOrder(order.id, 'Client left', { wrapped: true });
    expect(received.map((entry) => [entry.url, entry.headers['x-api-key']])).toEqual([
      ['/new', 'partner-key'],
      ['/new', 'partner-key'],
      ['/cancelled', 'partner-key'],
    ]);
    expect(received[0].body).toMatchObject({ id: order.id, status: 400, restaurant: { id: 'getir-r-1' } });
    expect(received[1].body).toEqual({ foodOrder: expect.objectContaining({ id: order.id }) });
    expect(received[2].body).toEqual({ foodOrder: expect.objectContaining({ id: order.id, cancelNote: 'Client left', cancelDate: expect.any(String), cancelReason: { id: expect.any(String), messages: { tr: expect.any(String), en: expect.any(String) }, cancelSource: 'CLIENT' } }) });
  });

  it('refuses a handover before Getir\'s courier can take the order (71 no courier, 15 not at the restaurant, 14 courier status) until /_simulator says it arrived', async () => {
    sim.options.minStepIntervalMs = 0;
    sim.options.courierArrivesAfterMs = null;
    try {
      const token = await login();
      const order = sim.createOrder('getir-r-1', { deliveryType: 1 });
      const handover = () => call('POST', `/food-orders/${order.id}/handover`, token);
      expect((await call('POST', `/food-orders/${order.id}/verify`, token)).status).toBe(200);
      expect((await call('POST', `/food-orders/${order.id}/prepare`, token)).status).toBe(200);
      expect(await handover()).toMatchObject({ status: 400, body: { code: 15, error: 'CourierNotReachedToRestaurant' } });
      sim.setCourier(order.id, 'none');
      expect(await handover()).toMatchObject({ status: 400, body: { code: 71, error: 'FoodOrderHasNoCourierError' } });
      expect(await call('POST', `/_simulator/orders/${order.id}/courier`, undefined, { state: 'unavailable' })).toMatchObject({ status: 200, body: { order: { courier: 'unavailable' } } });
      expect(await handover()).toMatchObject({ status: 400, body: { code: 14, error: 'CourierStatusInvalid' } });
      expect(await call('POST', `/_simulator/orders/${order.id}/courier`, undefined, { state: 'nearby' })).toMatchObject({ status: 422 });
      expect(await call('POST', `/_simulator/orders/${order.id}/courier`)).toMatchObject({ status: 200, body: { order: { courier: 'at-restaurant' } } });
      expect(await handover()).toMatchObject({ status: 200 });
      expect(sim.orders.get(order.id)!.status).toBe(600);
    } finally {
      sim.options.minStepIntervalMs = undefined;
      sim.options.courierArrivesAfterMs = undefined;
    }
  });

  it('moves a scheduled order approved with verify-scheduled (350) to 500 itself: prepare follows without a second verify', async () => {
    sim.options.minStepIntervalMs = 0;
    try {
      const token = await login();
      const order = sim.createOrder('getir-r-1', { isScheduled: true });
      expect((await call('POST', `/food-orders/${order.id}/verify-scheduled`, token)).status).toBe(200);
      expect(sim.orders.get(order.id)!.status).toBe(350);
      sim.activateScheduled(order.id);
      expect(sim.orders.get(order.id)!.status).toBe(500);
      expect(await call('POST', `/food-orders/${order.id}/verify`, token)).toMatchObject({ status: 400, body: { code: 2 } });
      expect((await call('POST', `/food-orders/${order.id}/prepare`, token)).status).toBe(200);
    } finally {
      sim.options.minStepIntervalMs = undefined;
    }
  });

  it('names Getir\'s order statuses in its admin routes (400 is AwaitingApproval, not an HTTP error)', async () => {
    const placed = await call('POST', '/_simulator/orders', undefined, { deliveryType: 1, webhook: false });
    expect(placed).toMatchObject({ status: 201, body: { order: { status: 400, statusName: 'AwaitingApproval', deliveryType: 1 }, partnerAnswer: null } });
    const id = (placed.body as { order: { id: string } }).order.id;
    expect(await call('POST', `/_simulator/orders/${id}/cancel`, undefined, { webhook: false })).toMatchObject({ status: 200, body: { order: { status: 1500, statusName: 'CancelledByPlatform' } } });
  });
});
