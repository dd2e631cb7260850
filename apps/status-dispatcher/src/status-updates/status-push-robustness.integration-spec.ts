import fc from 'fast-check';
import { internal, startTestApp, TestApp } from '../../test/harness';
import { A_WEBHOOK_KEY, bPluginAuthorization, CALLBACKS_ONLY_ENV, CREDENTIALS, upsertIntegration } from '../../test/platforms';

jest.setTimeout(180_000);

// Platform calls go nowhere (a closed port of 127.0.0.1): accepted pushes just retry.

/** Property-based: random bodies, content types, ids and keys at the status push and the platform callbacks never get a 5xx. */
describe('no bad input gives a 5xx at the status push and the platform callbacks (fast-check)', () => {
  let t: TestApp;
  const orderIds: string[] = [];
  let restaurantA: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { ...CALLBACKS_ONLY_ENV } });
    restaurantA = (await upsertIntegration(t, 'PLATFORM_A')).restaurantId;
    await upsertIntegration(t, 'PLATFORM_B');
    await upsertIntegration(t, 'PLATFORM_D');
    for (let i = 0; i < 4; i += 1) {
      const id = `fc-order-${i}`;
      const response = await t.http.post('/platforms/platform-a/orders').set('x-api-key', A_WEBHOOK_KEY).send({ id, status: 400, restaurant: { id: CREDENTIALS.PLATFORM_A.providerRestaurantId } });
      if (response.status !== 200) throw new Error(`order not created: ${response.status} ${JSON.stringify(response.body)}`);
      orderIds.push(id);
    }
  });
  afterAll(() => t?.close());

  const strings = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('', ' ', '\u0000', 'PLATFORM_A', 'PLATFORM_B', 'THIRD_PARTY', 'VERIFY', 'CANCELED', 'x'.repeat(600), '__proto__'));
  const values = fc.oneof(strings, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.object({ maxDepth: 2 }));
  const plausiblePush = fc.record(
    {
      providerOrderId: fc.oneof(fc.constantFrom('fc-order-0', 'fc-order-1', 'fc-order-2', 'fc-order-3', 'missing'), values),
      platform: fc.oneof(fc.constantFrom('PLATFORM_A', 'PLATFORM_B', 'PLATFORM_C', 'PLATFORM_D', 'THIRD_PARTY', 'platform_a'), values),
      action: fc.oneof(fc.constantFrom('VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER', 'CANCEL', 'REJECT', 'verify'), values),
      previousStatus: fc.oneof(fc.constantFrom('NEW', 'VALIDATED', 'PREPARED', 'CANCELED'), values),
      reason: values,
      restaurantId: fc.oneof(fc.constantFrom('restaurant-of-order-a', 'rest_000000000000000000000000'), values).map((value) => (value === 'restaurant-of-order-a' ? restaurantA : value)),
      extra: values,
    },
    { requiredKeys: [] },
  );
  const rawBody = fc.oneof(plausiblePush.map((body) => JSON.stringify(body)), fc.json({ maxDepth: 4 }), fc.string(), fc.constantFrom('{', '[]', 'null', '"x"', '['.repeat(4000) + ']'.repeat(4000)));
  const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', '', 'application/json; charset=utf-16');

  function expectSafe(response: { status: number; headers: Record<string, string>; body: { code?: unknown } }, where: string): void {
    if (response.status >= 500) throw new Error(`${where}: ${response.status} ${JSON.stringify(response.body)}`);
    if (response.status >= 400) {
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(typeof response.body.code).toBe('string');
    }
  }

  it('random bodies and content types on POST /internal/orders/status', async () => {
    await fc.assert(
      fc.asyncProperty(rawBody, contentType, async (body, type) => {
        const call = t.http.post('/internal/orders/status').set(internal());
        expectSafe(await (type ? call.set('Content-Type', type) : call).send(body), 'push');
      }),
      { numRuns: 300 },
    );
  });

  it('random plausible pushes: only 202, 404, 409 or 422', async () => {
    await fc.assert(
      fc.asyncProperty(plausiblePush, async (body) => {
        const response = await t.http.post('/internal/orders/status').set(internal()).send(body);
        expectSafe(response, 'push');
        expect([202, 404, 409, 422]).toContain(response.status);
      }),
      { numRuns: 300 },
    );
  });

  it('random ids on GET /internal/status-updates/{id}: 404 (400 for broken encodings)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uuid(), fc.string().map(encodeURIComponent), fc.constantFrom('%', '%E0%A4%A', '..', 'null')), async (id) => {
        const response = await t.http.get(`/internal/status-updates/${id}`).set(internal());
        expectSafe(response, 'get');
        expect([400, 404]).toContain(response.status);
      }),
      { numRuns: 200 },
    );
  });

  it('random bodies at every platform callback, with valid credentials', async () => {
    const callbacks = [
      { method: 'post' as const, path: '/platforms/platform-a/orders', headers: { 'x-api-key': A_WEBHOOK_KEY } },
      { method: 'post' as const, path: '/platforms/platform-a/orders/cancelled', headers: { 'x-api-key': A_WEBHOOK_KEY } },
      { method: 'post' as const, path: `/platforms/platform-b/order/${CREDENTIALS.PLATFORM_B.providerRestaurantId}`, headers: { Authorization: bPluginAuthorization() } },
      { method: 'put' as const, path: `/platforms/platform-b/remoteId/${CREDENTIALS.PLATFORM_B.providerRestaurantId}/remoteOrder/00000000-0000-4000-8000-000000000000/posOrderStatus`, headers: { Authorization: bPluginAuthorization() } },
      { method: 'put' as const, path: `/platforms/platform-b/remoteId/${CREDENTIALS.PLATFORM_B.providerRestaurantId}/availability`, headers: { Authorization: bPluginAuthorization() } },
      { method: 'post' as const, path: '/platforms/platform-d/orders', headers: { XApiKey: CREDENTIALS.PLATFORM_D.secrets.apiKey } },
      { method: 'post' as const, path: '/platforms/platform-d/orders/cancelled', headers: { XApiKey: CREDENTIALS.PLATFORM_D.secrets.apiKey } },
      { method: 'post' as const, path: '/platforms/platform-d/orders/delivery-status', headers: { XApiKey: CREDENTIALS.PLATFORM_D.secrets.apiKey } },
    ];
    const platformish = fc.record(
      {
        id: values,
        token: values,
        status: fc.oneof(fc.constantFrom(400, 500, 1500, 'ORDER_CANCELLED'), values),
        restaurant: fc.oneof(fc.record({ id: fc.oneof(fc.constant(CREDENTIALS.PLATFORM_A.providerRestaurantId), values) }), values),
        store: fc.oneof(fc.record({ id: fc.oneof(fc.constant(CREDENTIALS.PLATFORM_D.providerRestaurantId), values), group: values }), values),
        OrderId: values,
        StoreId: fc.oneof(fc.constant(CREDENTIALS.PLATFORM_D.providerRestaurantId), values),
        storeId: fc.oneof(fc.constant(CREDENTIALS.PLATFORM_D.providerRestaurantId), values),
        orderId: values,
        deliveryStatus: fc.oneof(fc.constantFrom('DELIVERED', 'IN_DELIVERY'), values),
        isCancelled: fc.oneof(fc.boolean(), values),
        value: fc.oneof(fc.base64String({ maxLength: 64 }), values),
        items: fc.oneof(fc.array(fc.object({ maxDepth: 1 }), { maxLength: 3 }), values),
        customer: values,
        prices: values,
        products: fc.oneof(fc.array(fc.object({ maxDepth: 1 }), { maxLength: 3 }), values),
        client: values,
        delivery: values,
        scheduledDate: values,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...callbacks), fc.oneof(platformish.map((body) => JSON.stringify(body)), rawBody), contentType, async (callback, body, type) => {
        const call = t.http[callback.method](callback.path).set(callback.headers);
        expectSafe(await (type ? call.set('Content-Type', type) : call).send(body), callback.path);
      }),
      { numRuns: 500 },
    );
  });
});
