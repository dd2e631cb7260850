import { randomUUID } from 'node:crypto';
import { RoutingKey } from '@courier/contracts';
import { waitFor } from '@courier/testing';
import { basicHeader, IntakeTestApp, keyHeader, startIntakeApp, TestAccount, validOrder } from '../../test/harness';

const ORDER = '/webhook/third-party/order';

describe('POST /webhook/third-party/order', () => {
  let t: IntakeTestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await startIntakeApp();
    account = await t.createAccount();
  });
  afterAll(() => t?.close());

  const post = (body: unknown, headers: Record<string, string> = keyHeader(account)) =>
    t.http.post(ORDER).set(headers).set('Content-Type', 'application/json').send(typeof body === 'string' ? body : JSON.stringify(body));
  const storedOrders = async (orderId: string) => (await t.sql('SELECT order_id FROM orders WHERE order_id = $1', [orderId])).length;

  const expectProblem = (response: { status: number; body: any; headers: Record<string, string> }, status: number, code: string) => {
    expect({ status: response.status, code: response.body.code }).toEqual({ status, code });
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String), requestId: expect.any(String) });
  };

  describe('accepts', () => {
    it('with X-API-Key: 202 with the body of decisions.md, stored with its order.received event', async () => {
      const order = validOrder(account.restaurantId);
      const before = Date.now();
      const response = await post(order);
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ status: 'accepted', orderId: order.orderId, yemekKuryeOrderId: expect.stringMatching(/^[0-9a-f-]{36}$/), receivedAt: expect.any(String) });
      expect(Date.parse(response.body.receivedAt)).toBeGreaterThanOrEqual(before - 5);
      expect(response.headers['idempotent-replayed']).toBeUndefined();
      const [row] = await t.sql('SELECT * FROM orders WHERE order_id = $1', [order.orderId]);
      expect(row).toMatchObject({ restaurant_id: account.restaurantId, yemek_kurye_order_id: response.body.yemekKuryeOrderId, payload: order, attempt: 1 });
      expect(row.received_at.toISOString()).toBe(response.body.receivedAt);
      const events = await t.sql(`SELECT payload FROM outbox_messages WHERE routing_key = $1 AND payload->>'orderId' = $2`, [RoutingKey.OrderReceived, order.orderId]);
      expect(events.map((event) => event.payload)).toEqual([{ yemekKuryeOrderId: response.body.yemekKuryeOrderId, restaurantId: account.restaurantId, orderId: order.orderId }]);
    });

    it('with Basic base64(key:secret), base64(key:) and base64(key)', async () => {
      for (const headers of [basicHeader(account.apiKey, account.apiSecret), basicHeader(account.apiKey), { Authorization: `Basic ${Buffer.from(account.apiKey).toString('base64')}` }]) {
        expect((await post(validOrder(account.restaurantId), headers)).status).toBe(202);
      }
    });

    it('with a minimal order (customerName, deliveryAddress) and application/*+json', async () => {
      const order = { orderId: `min-${randomUUID()}`, restaurantId: account.restaurantId, customerName: 'A', deliveryAddress: 'B' };
      const response = await t.http.post(ORDER).set(keyHeader(account)).set('Content-Type', 'application/vnd.order+json; charset=utf-8').send(JSON.stringify(order));
      expect(response.status).toBe(202);
    });
  });

  describe('refuses, in the check order of decisions.md', () => {
    it('401 AUTHENTICATION_FAILED for missing, unknown or malformed credentials and a wrong secret', async () => {
      const cases: Array<Record<string, string>> = [
        {},
        { 'X-API-Key': 'not-a-key' },
        { 'X-API-Key': '' },
        basicHeader('not-a-key'),
        basicHeader(account.apiKey, 'wrong-secret'),
        { Authorization: `Bearer ${account.apiKey}` },
        { Authorization: 'Basic %%%' },
        { 'X-API-Key': 'x', Authorization: `Basic ${Buffer.from(`${account.apiKey}:`).toString('base64')}` },
      ];
      for (const headers of cases) {
        const response = await post(validOrder(account.restaurantId), headers);
        expectProblem(response, 401, 'AUTHENTICATION_FAILED');
        expect(response.headers['www-authenticate']).toMatch(/^Basic /);
      }
    });

    it('401 comes before everything else: a bad key with a broken body is still a 401', async () => {
      expectProblem(await post('{broken', { 'X-API-Key': 'nope' }), 401, 'AUTHENTICATION_FAILED');
      expectProblem(await post('x'.repeat(300 * 1024), { 'X-API-Key': 'nope' }), 401, 'AUTHENTICATION_FAILED');
    });

    it('415 UNSUPPORTED_MEDIA_TYPE for a body that is not JSON-typed (after authentication), before the body is read', async () => {
      const order = JSON.stringify(validOrder(account.restaurantId));
      for (const type of ['text/plain', 'text/html', 'application/x-www-form-urlencoded']) {
        expectProblem(await t.http.post(ORDER).set(keyHeader(account)).set('Content-Type', type).send(order), 415, 'UNSUPPORTED_MEDIA_TYPE');
      }
      expectProblem(await t.http.post(ORDER).set('X-API-Key', 'nope').set('Content-Type', 'text/plain').send(order), 401, 'AUTHENTICATION_FAILED');
      const accepted = await t.http.post(ORDER).set(keyHeader(account)).set('Content-Type', 'application/vnd.order+json').send(order);
      expect(accepted.status).toBe(202);
    });

    it('400 INVALID_PAYLOAD for invalid JSON, non-objects, no body, other charsets, compression and deep nesting', async () => {
      for (const body of ['{broken', '', '[]', '"text"', '42', 'null', JSON.stringify({ a: JSON.parse('['.repeat(40) + ']'.repeat(40)) })]) {
        expectProblem(await post(body), 400, 'INVALID_PAYLOAD');
      }
      const order = JSON.stringify(validOrder(account.restaurantId));
      expectProblem(await t.http.post(ORDER).set(keyHeader(account)).send(), 400, 'INVALID_PAYLOAD');
      expectProblem(await t.http.post(ORDER).set(keyHeader(account)).set('Content-Type', 'application/json; charset=latin1').send(order), 400, 'INVALID_PAYLOAD');
      expectProblem(await t.http.post(ORDER).set(keyHeader(account)).set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').send(order), 400, 'INVALID_PAYLOAD');
    });

    it('413 PAYLOAD_TOO_LARGE over 256 KiB (after authentication)', async () => {
      const big = validOrder(account.restaurantId, { notes: 'x'.repeat(257 * 1024) });
      expectProblem(await post(big), 413, 'PAYLOAD_TOO_LARGE');
      // Still under the limit: the 1000-character rule answers instead.
      const justUnder = validOrder(account.restaurantId, { notes: 'x'.repeat(250 * 1024) });
      expectProblem(await post(justUnder), 422, 'VALIDATION_ERROR');
    });

    it('400 MISSING_REQUIRED_FIELD for a missing, empty or non-string orderId or restaurantId, before 404 and 422', async () => {
      for (const changes of [{ orderId: undefined }, { restaurantId: undefined }, { orderId: '' }, { orderId: 12 }, { restaurantId: ['x'] }]) {
        const body = { ...validOrder(account.restaurantId), ...changes, customerName: '' };
        const response = await post(JSON.parse(JSON.stringify(body)));
        expectProblem(response, 400, 'MISSING_REQUIRED_FIELD');
        expect(response.body.errors).toEqual([{ field: expect.stringMatching(/^(orderId|restaurantId)$/), message: expect.any(String) }]);
      }
    });

    it('404 RESTAURANT_NOT_FOUND when restaurantId is not the key\'s restaurant, before 403 and 422', async () => {
      const other = await t.createAccount();
      for (const restaurantId of [other.restaurantId, 'rest_unknownunknownunknown', 'x']) {
        expectProblem(await post({ ...validOrder(restaurantId), customerName: '' }), 404, 'RESTAURANT_NOT_FOUND');
      }
    });

    it('403 INTEGRATION_DISABLED when the THIRD_PARTY integration is inactive or absent, before 422', async () => {
      let paused = await t.createAccount();
      paused = await t.updateAccount(paused, { thirdParty: { ...paused.snapshot.thirdParty!, isActive: false } });
      expectProblem(await post({ ...validOrder(paused.restaurantId), customerName: '' }, keyHeader(paused)), 403, 'INTEGRATION_DISABLED');
      let none = await t.createAccount();
      none = await t.updateAccount(none, { thirdParty: null });
      expectProblem(await post(validOrder(none.restaurantId), keyHeader(none)), 403, 'INTEGRATION_DISABLED');
    });

    it('422 VALIDATION_ERROR with every problem in `errors`', async () => {
      const response = await post(validOrder(account.restaurantId, { customerName: ' ', currency: 'try', deliveryLatitude: 95, deliveryLongitude: 0, items: [{ quantity: 0 }], extra: true }));
      expectProblem(response, 422, 'VALIDATION_ERROR');
      expect(response.body.errors.map((error: { field: string }) => error.field).sort()).toEqual(['currency', 'customerName', 'deliveryLatitude', 'extra', 'items[0].quantity'].sort());
    });

    it('refused requests reserve nothing: the orderId is free afterwards', async () => {
      const order = validOrder(account.restaurantId);
      expect((await post({ ...order, customerName: '' })).status).toBe(422);
      expect((await post(order, { 'X-API-Key': 'nope' })).status).toBe(401);
      expect(await storedOrders(order.orderId)).toBe(0);
      expect((await post({ ...order, customerName: 'Another name' })).status).toBe(202);
    });
  });

  describe('idempotency', () => {
    it('replays the first 202 for the same payload, even with other key order and spacing', async () => {
      const order = validOrder(account.restaurantId);
      const first = await post(order);
      const reordered = `{ "restaurantId": ${JSON.stringify(order.restaurantId)}, ${JSON.stringify(order).slice(1).replace(`,"restaurantId":${JSON.stringify(order.restaurantId)}`, '')}`;
      const replay = await post(reordered);
      expect(replay.status).toBe(202);
      expect(replay.body).toEqual(first.body);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      // Basic authentication is the same restaurant: the same order.
      const viaBasic = await post(order, basicHeader(account.apiKey, account.apiSecret));
      expect(viaBasic.body).toEqual(first.body);
      expect(await storedOrders(order.orderId)).toBe(1);
    });

    it('409 DUPLICATE_ORDER_ID for the same orderId with another payload', async () => {
      const order = validOrder(account.restaurantId);
      const first = await post(order);
      expectProblem(await post({ ...order, customerName: 'Someone else' }), 409, 'DUPLICATE_ORDER_ID');
      const [row] = await t.sql('SELECT payload FROM orders WHERE order_id = $1', [order.orderId]);
      expect(row.payload.customerName).toBe(order.customerName);
      expect((await post(order)).body).toEqual(first.body);
    });

    it('takes orderIds differing only by case, width or surrounding space as one: the same 202 for the same payload, 409 for another', async () => {
      const tag = randomUUID().slice(0, 8).toUpperCase();
      const order = validOrder(account.restaurantId, { orderId: ` POS-${tag} ` });
      const first = await post(order);
      expect(first.status).toBe(202);
      expect(first.body.orderId).toBe(`POS-${tag}`);
      const fullWidth = [...`pos-${tag}`].map((char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0)).join('');
      for (const orderId of [`pos-${tag}`, `POS-${tag}`, `\u3000Pos-${tag}`, fullWidth]) {
        const replay = await post({ ...order, orderId });
        expect({ orderId, status: replay.status, body: replay.body, replayed: replay.headers['idempotent-replayed'] }).toEqual({ orderId, status: 202, body: first.body, replayed: 'true' });
      }
      expectProblem(await post({ ...order, orderId: `pos-${tag}`, customerName: 'Someone else' }), 409, 'DUPLICATE_ORDER_ID');
      expect(await t.sql('SELECT order_id FROM orders WHERE restaurant_id = $1 AND lower(order_id) = lower($2)', [account.restaurantId, `POS-${tag}`])).toEqual([{ order_id: `POS-${tag}` }]);
      const status = await t.http.get(`/api/v1/orders/${encodeURIComponent(`pos-${tag}`)}`).set(keyHeader(account));
      expect({ status: status.status, orderId: status.body.orderId }).toEqual({ status: 200, orderId: `POS-${tag}` });
    });

    it('refuses bidi, zero-width and C1 characters in orderId with 422 naming it; a blank orderId is missing (400)', async () => {
      for (const orderId of ['POS-\u202e1', 'POS\u200b-1', 'POS-\u00851', '\ufeffPOS-1', 'POS-\u20661']) {
        const response = await post(validOrder(account.restaurantId, { orderId }));
        expectProblem(response, 422, 'VALIDATION_ERROR');
        expect(response.body.errors).toEqual([{ field: 'orderId', message: expect.stringContaining('must not contain control, bidirectional or zero-width characters') }]);
      }
      expectProblem(await post(validOrder(account.restaurantId, { orderId: ' \u3000 ' })), 400, 'MISSING_REQUIRED_FIELD');
    });

    it('keeps orderIds apart per restaurant', async () => {
      const other = await t.createAccount();
      const orderId = `shared-${randomUUID()}`;
      const mine = await post(validOrder(account.restaurantId, { orderId }));
      const theirs = await post(validOrder(other.restaurantId, { orderId }), keyHeader(other));
      expect([mine.status, theirs.status]).toEqual([202, 202]);
      expect(mine.body.yemekKuryeOrderId).not.toBe(theirs.body.yemekKuryeOrderId);
    });

    it('50 concurrent copies of one order create exactly one order and one event', async () => {
      const order = validOrder(account.restaurantId);
      const responses = await Promise.all(Array.from({ length: 50 }, () => post(order)));
      expect(responses.map((response) => response.status)).toEqual(Array(50).fill(202));
      expect(new Set(responses.map((response) => response.body.yemekKuryeOrderId)).size).toBe(1);
      expect(responses.filter((response) => response.headers['idempotent-replayed'] === 'true')).toHaveLength(49);
      expect(await storedOrders(order.orderId)).toBe(1);
      const events = await t.sql(`SELECT count(*)::int AS n FROM outbox_messages WHERE routing_key = $1 AND payload->>'orderId' = $2`, [RoutingKey.OrderReceived, order.orderId]);
      expect(events[0].n).toBe(1);
    });

    it('50 concurrent requests with one orderId and two payloads: one order, the rest replay or 409', async () => {
      const order = validOrder(account.restaurantId);
      const variants = [order, { ...order, customerName: 'Other' }];
      const responses = await Promise.all(Array.from({ length: 50 }, (_, index) => post(variants[index % 2])));
      const [row] = await t.sql('SELECT payload FROM orders WHERE order_id = $1', [order.orderId]);
      const winner = row.payload.customerName;
      for (const [index, response] of responses.entries()) {
        expect(response.status).toBe(variants[index % 2].customerName === winner ? 202 : 409);
      }
      expect(await storedOrders(order.orderId)).toBe(1);
    });
  });

  describe('GET /api/v1/orders/{orderId}', () => {
    it('shows the order, its status and its history from the status events', async () => {
      const order = validOrder(account.restaurantId);
      const accepted = (await post(order)).body;
      await waitFor('processed', async () => (await t.sql(`SELECT 1 FROM orders WHERE order_id = $1 AND state = 'PROCESSED'`, [order.orderId])).length === 1);
      const base = { yemekKuryeOrderId: accepted.yemekKuryeOrderId, orderId: order.orderId, restaurantId: account.restaurantId, provider: 'THIRD_PARTY', providerRestaurantId: 'p' };
      const change = (sequence: number, status: string, previousStatus: string) => ({ ...base, orderNumber: '42', status, previousStatus, sequence, timestamp: `2030-01-01T10:0${sequence}:00+03:00` });
      // Out of order, and one twice: the history is by sequence, each once.
      for (const payload of [change(2, 'ROUTED', 'VALIDATED'), change(1, 'VALIDATED', 'NEW'), change(2, 'ROUTED', 'VALIDATED')]) {
        await t.transport.publish([{ messageId: randomUUID(), routingKey: RoutingKey.OrderStatusChanged, payload }]);
      }
      const opened = { ...base, orderNumber: '42', status: 'NEW', sequence: 0, timestamp: '2030-01-01T10:00:00+03:00' };
      await t.transport.publish([{ messageId: randomUUID(), routingKey: RoutingKey.OrderOpened, payload: opened }]);
      await waitFor('history', async () => (await t.sql('SELECT count(*)::int AS n FROM order_status_history WHERE yemek_kurye_order_id = $1', [accepted.yemekKuryeOrderId]))[0].n === 3);
      const response = await t.http.get(`/api/v1/orders/${encodeURIComponent(order.orderId)}`).set(keyHeader(account));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        orderId: order.orderId,
        restaurantId: account.restaurantId,
        yemekKuryeOrderId: accepted.yemekKuryeOrderId,
        orderNumber: '42',
        status: 'ROUTED',
        receivedAt: accepted.receivedAt,
        history: [
          { status: 'NEW', previousStatus: null, timestamp: '2030-01-01T07:00:00.000Z' },
          { status: 'VALIDATED', previousStatus: 'NEW', timestamp: '2030-01-01T07:01:00.000Z' },
          { status: 'ROUTED', previousStatus: 'VALIDATED', timestamp: '2030-01-01T07:02:00.000Z' },
        ],
      });
      await t.transport.publish([
        {
          messageId: randomUUID(),
          routingKey: RoutingKey.OrderCanceled,
          payload: { ...base, orderNumber: '42', previousStatus: 'ROUTED', reason: 'customer', cancelReasonId: 'CUSTOMER_REQUEST', canceledBy: 'Restaurant', sequence: 3, timestamp: '2030-01-01T10:05:00Z' },
        },
      ]);
      await waitFor('canceled', async () => (await t.http.get(`/api/v1/orders/${order.orderId}`).set(basicHeader(account.apiKey))).body.status === 'CANCELED');
    });

    it('ignores status events of orders it does not know', async () => {
      const unknown = randomUUID();
      await t.transport.publish([
        { messageId: randomUUID(), routingKey: RoutingKey.OrderStatusChanged, payload: { yemekKuryeOrderId: unknown, orderId: 'x', restaurantId: 'r', orderNumber: '1', status: 'VALIDATED', previousStatus: 'NEW', sequence: 1, timestamp: new Date().toISOString(), provider: 'PLATFORM_A', providerRestaurantId: 'p' } },
      ]);
      expect(await t.sql('SELECT 1 FROM order_status_history WHERE yemek_kurye_order_id = $1', [unknown])).toEqual([]);
    });

    it('404 ORDER_NOT_FOUND for unknown orders and other restaurants\' orders; 401 without a key', async () => {
      const order = validOrder(account.restaurantId);
      await post(order);
      const other = await t.createAccount();
      expectProblem(await t.http.get(`/api/v1/orders/${order.orderId}`).set(keyHeader(other)), 404, 'ORDER_NOT_FOUND');
      expectProblem(await t.http.get('/api/v1/orders/nope').set(keyHeader(account)), 404, 'ORDER_NOT_FOUND');
      expectProblem(await t.http.get(`/api/v1/orders/${'x'.repeat(300)}`).set(keyHeader(account)), 404, 'ORDER_NOT_FOUND');
      expectProblem(await t.http.get(`/api/v1/orders/${order.orderId}`), 401, 'AUTHENTICATION_FAILED');
    });
  });
});
