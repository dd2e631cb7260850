import { MAX_FIELD_ERRORS } from '@courier/http';
import { IntakeTestApp, keyHeader, startIntakeApp, TestAccount, validOrder } from '../../test/harness';

jest.setTimeout(120_000);

const ORDER = '/webhook/third-party/order';

/** Bad input never costs a 500, a big answer or a stored payload it should not. */
describe('intake input handling', () => {
  let t: IntakeTestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await startIntakeApp({ env: { LOG_LEVEL: 'warn' } });
    account = await t.createAccount();
  });
  afterAll(() => t?.close());

  const post = (body: string) => t.http.post(ORDER).set(keyHeader(account)).set('Content-Type', 'application/json').send(body);
  const storedOrders = async (orderId: string) => (await t.sql<{ count: number }>('SELECT count(*)::int AS count FROM orders WHERE order_id = $1', [orderId]))[0].count;

  it('answers 20,000 unknown fields with a capped 422 (the hand-written check and the DTO give the same list)', async () => {
    const order = validOrder(account.restaurantId);
    const unknown = Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`k${index}`, 1]));
    const response = await post(JSON.stringify({ ...order, ...unknown }));
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.errors).toHaveLength(MAX_FIELD_ERRORS);
    expect(response.body.errors[0]).toEqual({ field: 'k0', message: 'is not allowed' });
    expect(response.body.errorsOmitted).toBe(20_000 - MAX_FIELD_ERRORS);
    expect(response.text.length).toBeLessThan(4096);
    expect(await storedOrders(order.orderId)).toBe(0);
  });

  it('answers 20,000 unknown fields inside an item the same way (named, capped, no class-transformer pass)', async () => {
    const order = validOrder(account.restaurantId);
    const unknown = Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`k${index}`, 1]));
    const response = await post(JSON.stringify({ ...order, items: [{ ...order.items[0], ...unknown }] }));
    expect(response.status).toBe(422);
    expect(response.body.errors).toHaveLength(MAX_FIELD_ERRORS);
    expect(response.body.errors[0]).toEqual({ field: 'items[0].k0', message: 'is not allowed' });
    expect(response.body.errorsOmitted).toBe(20_000 - MAX_FIELD_ERRORS);
    expect(response.text.length).toBeLessThan(4096);
  });

  it('caps a long list of field errors from the DTO and the domain checks too', async () => {
    const items = Array.from({ length: 40 }, () => ({ productName: 5, quantity: 'x' }));
    const response = await post(JSON.stringify(validOrder(account.restaurantId, { items })));
    expect(response.status).toBe(422);
    expect(response.body.errors).toHaveLength(MAX_FIELD_ERRORS);
    expect(response.body.errorsOmitted).toBeGreaterThan(0);
  });

  it.each([
    ['a top-level __proto__', '__proto__', (order: Record<string, unknown>) => JSON.stringify(order).replace(/^\{/, '{"__proto__":{"isAdmin":true},')],
    ['constructor.prototype', 'constructor.prototype', (order: Record<string, unknown>) => JSON.stringify(order).replace(/^\{/, '{"constructor":{"prototype":{"isAdmin":true}},')],
    ['__proto__ inside an item', 'items[0].__proto__', (order: Record<string, unknown>) => JSON.stringify(order).replace('{"productCode"', '{"__proto__":{"x":1},"productCode"')],
  ])('refuses %s with 422 VALIDATION_ERROR and stores nothing', async (_name, field, encode) => {
    const order = validOrder(account.restaurantId);
    const body = encode(order);
    expect(body).toMatch(/__proto__|prototype/);
    const response = await post(body);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(response.body.errors).toContainEqual({ field, message: 'is not allowed' });
    expect(await storedOrders(order.orderId)).toBe(0);
  });

  it('refuses NUL and lone surrogates in the order and in the order id of a status read (4xx, never 500)', async () => {
    const withNul = validOrder(account.restaurantId, { customerName: 'A\u0000B' });
    const refused = await post(JSON.stringify(withNul));
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toContainEqual({ field: 'customerName', message: 'must not contain NUL characters or unpaired surrogates' });
    const lone = await post(JSON.stringify(validOrder(account.restaurantId)).replace('"items":[{', '"items":[{"productNote":"\\ud800",'));
    expect(lone.status).toBe(422);
    expect(lone.body.errors).toContainEqual({ field: 'items[0].productNote', message: 'must not contain NUL characters or unpaired surrogates' });
    for (const id of ['%00', 'a%00b']) {
      const read = await t.http.get(`/api/v1/orders/${id}`).set(keyHeader(account));
      expect(read.status).toBe(422);
      expect(read.body.errors).toEqual([{ field: 'orderId', message: 'must not contain NUL characters or unpaired surrogates' }]);
    }
    const query = await t.http.get('/api/v1/orders/x?q=%00').set(keyHeader(account));
    expect(query.status).toBe(422);
  });

  it('never quotes a malformed body, and sends nosniff (not no-store) on its answers', async () => {
    const broken = await post('{"orderId": DEADBEEF-secret}');
    expect(broken.status).toBe(400);
    expect(broken.text).not.toContain('DEADBEEF');
    for (const response of [broken, await t.http.get('/health'), await t.http.get('/api/v1/orders/x').set(keyHeader(account)), await t.http.get('/docs-json')]) {
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});
