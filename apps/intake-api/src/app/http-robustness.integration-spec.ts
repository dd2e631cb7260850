import fc from 'fast-check';
import { basicHeader, IntakeTestApp, keyHeader, startIntakeApp, TestAccount, validOrder } from '../../test/harness';

jest.setTimeout(240_000);

const ORDER = '/webhook/third-party/order';

/**
 * Property-based: random and malformed bodies, content types, credentials and order ids never get
 * a 5xx; every error is problem JSON with a code; a valid answer is one of the documented ones.
 */
describe('no bad input gives a 5xx (fast-check)', () => {
  let t: IntakeTestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await startIntakeApp({ env: { LOG_LEVEL: 'warn' } });
    account = await t.createAccount();
  });
  afterAll(() => t?.close());

  const FIELDS = [
    'orderId', 'restaurantId', 'customerName', 'customerPhone', 'customerEmail', 'deliveryAddress', 'deliveryLatitude', 'deliveryLongitude',
    'scheduledDeliveryTime', 'paymentMethod', 'paymentCaptured', 'subtotal', 'deliveryFee', 'serviceFee', 'discount', 'taxAmount', 'total',
    'currency', 'notes', 'items', '__proto__', 'constructor', 'toString',
  ];
  const ITEM_FIELDS = ['productCode', 'productName', 'quantity', 'unitPrice', 'totalAmount', 'discountAmount', 'productNote', 'features', '__proto__'];
  const strings = fc.oneof(
    fc.string(),
    fc.string({ unit: 'grapheme' }),
    fc.string({ unit: 'binary' }),
    fc.constantFrom('', ' ', '\u0000', 'a\ud800', '\udc00b', 'TRY', 'CASH', '2099-01-01T00:00:00Z', '2099-02-30T00:00:00+03:00', 'x'.repeat(70), 'x'.repeat(1200)),
  );
  const numbers = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 1e308, -1e308, 5e-324, 90, 180, 90.0000001));
  const scalars = fc.oneof(strings, numbers, fc.boolean(), fc.constant(null));
  const items = fc.array(fc.oneof(fc.dictionary(fc.constantFrom(...ITEM_FIELDS), scalars), scalars, fc.array(scalars, { maxLength: 2 })), { maxLength: 4 });
  const plausibleOrder = fc
    .dictionary(fc.constantFrom(...FIELDS), fc.oneof(scalars, items, fc.object({ maxDepth: 2 })))
    .map((fields) => ({ ...validOrder(account.restaurantId), ...fields }));
  const rawBody = fc.oneof(
    plausibleOrder.map((order) => JSON.stringify(order)),
    // Same orderId each time: replays, 409s and validation errors on one idempotency key.
    plausibleOrder.map((order) => JSON.stringify({ ...order, orderId: 'fuzz-fixed', restaurantId: account.restaurantId })),
    fc.json({ maxDepth: 4 }),
    fc.string(),
    fc.constantFrom('{', '[', '{"orderId":', 'null', 'true', '""', '[]', '{}', '\u0000', '\ufeff{}', '['.repeat(5000) + ']'.repeat(5000), `{"orderId":"a","restaurantId":"b","x":${'['.repeat(3000)}${']'.repeat(3000)}}`),
  );
  const contentType = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=UTF-8',
    'application/json; charset=latin1',
    'application/json; charset="utf-8"',
    'application/problem+json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    '',
    ';;;',
  );
  const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 700 });

  function expectSafe(response: any) {
    if (response.status >= 500) throw new Error(`${response.status} ${JSON.stringify(response.body)} ${response.req?.method} ${response.req?.path}`);
    expect([200, 202, 400, 401, 403, 404, 409, 413, 415, 422, 429]).toContain(response.status);
    // No X-Request-Id: Node's HTTP parser refused the framing (e.g. a false Content-Length) before the app saw it.
    if (response.status >= 400 && response.headers['x-request-id']) {
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(typeof response.body.code).toBe('string');
    }
  }

  it('random bodies and content types, with valid credentials', async () => {
    await fc.assert(
      fc.asyncProperty(rawBody, contentType, async (body, type) => {
        let call = t.http.post(ORDER).set(keyHeader(account));
        if (type) call = call.set('Content-Type', type);
        expectSafe(await call.send(body));
      }),
      { numRuns: 600 },
    );
  });

  it('random credentials and header combinations', async () => {
    const headerSets = fc.record(
      {
        'X-API-Key': fc.oneof(printable, fc.constant(account.apiKey)),
        Authorization: fc.oneof(
          printable,
          printable.map((text) => `Basic ${Buffer.from(text).toString('base64')}`),
          fc.constant(basicHeader(account.apiKey, account.apiSecret).Authorization),
          fc.constantFrom('Basic', 'Basic ', 'Basic ====', 'basic Og==', `Basic ${'A'.repeat(3000)}`),
        ),
        'Content-Encoding': fc.constantFrom('gzip', 'identity', 'br', 'x'),
        'Content-Length': fc.constantFrom('0', '999999999', '-1', 'abc'),
        'X-Request-Id': printable,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(headerSets, async (headers) => {
        const body = JSON.stringify(validOrder(account.restaurantId));
        const response = await t.http
          .post(ORDER)
          .set({ 'Content-Type': 'application/json', ...(headers as Record<string, string>) })
          .send(body)
          .catch((error: { response?: unknown }) => error.response ?? { status: 400, headers: { 'content-type': 'application/problem+json' }, body: { code: 'CLIENT' } });
        expectSafe(response);
      }),
      { numRuns: 400 },
    );
  });

  it('random order ids on GET /api/v1/orders/{orderId}', async () => {
    const ids = fc.oneof(fc.string().map(encodeURIComponent), fc.string({ unit: 'grapheme' }).map(encodeURIComponent), fc.constantFrom('%', '%E0%A4%A', '..', '%00', 'a%2Fb', 'x'.repeat(2000)));
    await fc.assert(
      fc.asyncProperty(ids, async (id) => {
        const response = await t.http.get(`/api/v1/orders/${id}`).set(keyHeader(account));
        expectSafe(response);
      }),
      { numRuns: 300 },
    );
  });

  it('still works after the storm', async () => {
    expect((await t.http.post(ORDER).set(keyHeader(account)).send(validOrder(account.restaurantId))).status).toBe(202);
    expect((await t.http.get('/health')).status).toBe(200);
  });
});
