import { MAX_FIELD_ERRORS } from '@courier/http';
import { internal, startTestApp, TestApp } from '../../test/harness';
import { A_WEBHOOK_KEY, bPluginAuthorization, CALLBACKS_ONLY_ENV, CREDENTIALS, upsertIntegration } from '../../test/platforms';

jest.setTimeout(120_000);

const UNSTORABLE = 'must not contain NUL characters or unpaired surrogates';

/** Bad input at {pos_url}/internal and the platform callbacks: no 500, no big answer, no echo. */
describe('status-dispatcher input handling', () => {
  let t: TestApp;
  let orderId: string;
  let before: string;

  beforeAll(async () => {
    // Platform calls go nowhere (a closed port): the callbacks are what is tested here.
    t = await startTestApp({ env: { ...CALLBACKS_ONLY_ENV } });
    await upsertIntegration(t, 'PLATFORM_A');
    await upsertIntegration(t, 'PLATFORM_B');
    orderId = (await t.createOrder()).id;
    before = (await t.sql<{ state: string }>('SELECT status AS state FROM orders WHERE id = $1', [orderId]))[0].state;
  });
  afterAll(() => t?.close());

  const countOrders = async (provider: string) => (await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE provider = $1', [provider]))[0].n;
  const unknownFields = Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`k${index}`, 1]));

  it.each([
    ['the status push', () => '/internal/orders/status'],
    ['a transition', () => `/internal/orders/${orderId}/transitions`],
  ])('answers 20,000 unknown fields at %s with a capped, small 422', async (_name, path) => {
    const response = await t.http.post(path()).set(internal()).send(unknownFields);
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.errors.length).toBeLessThanOrEqual(MAX_FIELD_ERRORS);
    expect(response.body.errorsOmitted).toBeGreaterThan(0);
    expect(response.text.length).toBeLessThan(4096);
  });

  it('refuses a PLATFORM_A order whose id is a lone surrogate (422, nothing stored)', async () => {
    const before = await countOrders('PLATFORM_A');
    const body = `{"id":"\\ud800","status":400,"restaurant":{"id":"${CREDENTIALS.PLATFORM_A.providerRestaurantId}"}}`;
    const response = await t.http.post('/platforms/platform-a/orders').set('x-api-key', A_WEBHOOK_KEY).set('Content-Type', 'application/json').send(body);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'id', message: UNSTORABLE }] });
    const cancelled = await t.http.post('/platforms/platform-a/orders/cancelled').set('x-api-key', A_WEBHOOK_KEY).set('Content-Type', 'application/json').send(body);
    expect(cancelled.status).toBe(422);
    expect(await countOrders('PLATFORM_A')).toBe(before);
  });

  it('refuses a PLATFORM_B remoteId with %00 (dispatch and posOrderStatus) and a lone-surrogate token (VALIDATION_ERROR, answered 400: the middleware expects no 422)', async () => {
    const bearer = { Authorization: bPluginAuthorization() };
    const before = await countOrders('PLATFORM_B');
    const dispatch = await t.http.post('/platforms/platform-b/order/ven%00dor').set(bearer).send({ token: 'tok-1', code: 'c-1' });
    expect(dispatch.status).toBe(400);
    expect(dispatch.body).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'MENU_ACCOUNT_SETTINGS' });
    expect(dispatch.body.errors).toEqual([{ field: 'remoteId', message: UNSTORABLE }]);
    const status = await t.http.put(`/platforms/platform-b/remoteId/%00/remoteOrder/${orderId}/posOrderStatus`).set(bearer).send({ status: 'ORDER_CANCELLED' });
    expect(status.status).toBe(400);
    const token = await t.http
      .post(`/platforms/platform-b/order/${CREDENTIALS.PLATFORM_B.providerRestaurantId}`)
      .set(bearer)
      .set('Content-Type', 'application/json')
      .send('{"token":"\\ud800","code":"c-2"}');
    expect(token.status).toBe(400);
    expect(token.body.errors).toEqual([{ field: 'token', message: UNSTORABLE }]);
    expect(await countOrders('PLATFORM_B')).toBe(before);
  });

  it('refuses NUL anywhere on the internal API (params, query, body) with 4xx', async () => {
    expect((await t.http.get('/internal/orders/%00').set(internal())).status).toBe(422);
    expect((await t.http.get('/internal/status-updates/%00').set(internal())).status).toBe(422);
    const push = await t.http.post('/internal/orders/status').set(internal()).send({ providerOrderId: 'a\u0000', platform: 'PLATFORM_A', action: 'VERIFY' });
    expect(push.status).toBe(422);
    expect(push.body.errors).toContainEqual({ field: 'providerOrderId', message: UNSTORABLE });
  });

  it('reads a body only after the internal key is checked, and never quotes a malformed one', async () => {
    const send = (headers: Record<string, string>, body: string) => t.http.post('/internal/orders/status').set(headers).set('Content-Type', 'application/json').send(body);
    expect((await send({}, '{"apiKey": DEADBEEF-secret}')).status).toBe(401);
    expect((await send({}, `{"pad":"${'x'.repeat(300 * 1024)}"}`)).status).toBe(401);
    const response = await send(internal(), '{"apiKey": DEADBEEF-secret}');
    expect(response.status).toBe(400);
    expect(response.body.detail).toBe('The request body is not valid JSON.');
    expect(response.text).not.toContain('DEADBEEF');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect((await t.http.get('/metrics')).headers['x-content-type-options']).toBe('nosniff');
  });

  it.each(['text/plain', 'text/html', 'application/x-www-form-urlencoded'])('refuses a body typed %s with 415 at the internal endpoints and the platform callbacks', async (type) => {
    // PLATFORM_B's middleware is answered 400 for every refusal (it expects no other 4xx); the code says why.
    const calls = [
      [t.http.post('/internal/orders/status').set(internal()), 415],
      [t.http.post(`/internal/orders/${orderId}/transitions`).set(internal()), 415],
      [t.http.post('/platforms/platform-a/orders').set('x-api-key', A_WEBHOOK_KEY), 415],
      [t.http.post(`/platforms/platform-b/order/${CREDENTIALS.PLATFORM_B.providerRestaurantId}`).set({ Authorization: bPluginAuthorization() }), 400],
    ] as const;
    for (const [call, status] of calls) {
      const response = await call.set('Content-Type', type).send('{"status":"ACCEPTED"}');
      expect({ url: call.url, status: response.status, code: response.body.code }).toEqual({ url: call.url, status, code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    expect((await t.sql<{ state: string }>('SELECT status AS state FROM orders WHERE id = $1', [orderId]))[0].state).toBe(before);
  });

  it('refuses a bidi, zero-width or C1 character in a reason with 422 naming it; stores a reason NFC and trimmed', async () => {
    for (const reason of ['Customer \u202eevil', 'no\u200bshow', 'late\u0085', '\u2066x\u2069']) {
      const transition = await t.http.post(`/internal/orders/${orderId}/transitions`).set(internal()).send({ trigger: 'CANCEL', reason });
      expect({ status: transition.status, code: transition.body.code, fields: transition.body.errors?.map((error: { field: string }) => error.field) }).toEqual({ status: 422, code: 'VALIDATION_ERROR', fields: ['reason'] });
      const push = await t.http.post('/internal/orders/status').set(internal()).send({ providerOrderId: 'any-order', platform: 'PLATFORM_A', action: 'CANCEL', reason });
      expect({ status: push.status, code: push.body.code, fields: push.body.errors?.map((error: { field: string }) => error.field) }).toEqual({ status: 422, code: 'VALIDATION_ERROR', fields: ['reason'] });
    }
    expect((await t.sql<{ state: string }>('SELECT status AS state FROM orders WHERE id = $1', [orderId]))[0].state).toBe(before);
    const cancelled = await t.http.post(`/internal/orders/${orderId}/transitions`).set(internal()).send({ trigger: 'CANCEL', reason: '  Cafe\u0301 closed ' });
    expect(cancelled.status).toBe(200);
    expect((await t.sql<{ reason: string }>('SELECT reason FROM order_status_changes WHERE order_id = $1 AND status = $2', [orderId, 'CANCELED']))[0]?.reason).toBe('Café closed');
  });
});
