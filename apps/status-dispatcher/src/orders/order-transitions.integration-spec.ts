import { randomUUID } from 'node:crypto';
import { RoutingKey } from '@courier/contracts';
import { internal, ISO_WITH_OFFSET, PREVIOUS_INTERNAL_KEY, startTestApp, TestApp } from '../../test/harness';

jest.setTimeout(120_000);

/** The order status table of interface.md, written out again: every row goes through HTTP. */
const TABLE: Array<[from: string, trigger: string, to: string, event: 'order.status_changed' | 'order.canceled']> = [
  ['NEW', 'APPROVE', 'VALIDATED', 'order.status_changed'],
  ['NEW', 'CANCEL', 'CANCELED', 'order.canceled'],
  ['VALIDATED', 'ROUTE', 'ROUTED', 'order.status_changed'],
  ['VALIDATED', 'ASSIGN', 'ASSIGNED', 'order.status_changed'],
  ['VALIDATED', 'PREPARE', 'PREPARED', 'order.status_changed'],
  ['VALIDATED', 'CANCEL', 'CANCELED', 'order.canceled'],
  ['ROUTED', 'ASSIGN', 'ASSIGNED', 'order.status_changed'],
  ['ROUTED', 'CANCEL', 'CANCELED', 'order.canceled'],
  ['ASSIGNED', 'ACCEPT', 'ACCEPTED', 'order.status_changed'],
  ['ASSIGNED', 'CANCEL', 'CANCELED', 'order.canceled'],
  ['ACCEPTED', 'PREPARE', 'PREPARED', 'order.status_changed'],
  ['ACCEPTED', 'CANCEL', 'CANCELED', 'order.canceled'],
  ['PREPARED', 'PICK_UP', 'ON_DELIVERY', 'order.status_changed'],
  ['PREPARED', 'CANCEL', 'CANCELED', 'order.canceled'],
  ['ON_DELIVERY', 'DELIVER', 'DELIVERED', 'order.status_changed'],
  ['ON_DELIVERY', 'CANCEL', 'CANCELED', 'order.canceled'],
];

/** Triggers that bring a new order into each status. */
const PATH_TO: Record<string, string[]> = {
  NEW: [],
  VALIDATED: ['APPROVE'],
  ROUTED: ['APPROVE', 'ROUTE'],
  ASSIGNED: ['APPROVE', 'ASSIGN'],
  ACCEPTED: ['APPROVE', 'ASSIGN', 'ACCEPT'],
  PREPARED: ['APPROVE', 'PREPARE'],
  ON_DELIVERY: ['APPROVE', 'PREPARE', 'PICK_UP'],
  DELIVERED: ['APPROVE', 'PREPARE', 'PICK_UP', 'DELIVER'],
  CANCELED: ['CANCEL'],
};

/** A sample of moves the table forbids (the full cross product is tested in libs/domain). */
const FORBIDDEN: Array<[from: string, trigger: string]> = [
  ['NEW', 'ROUTE'],
  ['NEW', 'ASSIGN'],
  ['NEW', 'PICK_UP'],
  ['NEW', 'DELIVER'],
  ['VALIDATED', 'APPROVE'],
  ['VALIDATED', 'ACCEPT'],
  ['VALIDATED', 'DELIVER'],
  ['ROUTED', 'ROUTE'],
  ['ROUTED', 'PREPARE'],
  ['ASSIGNED', 'PREPARE'],
  ['ASSIGNED', 'ROUTE'],
  ['ACCEPTED', 'PICK_UP'],
  ['PREPARED', 'DELIVER'],
  ['PREPARED', 'PREPARE'],
  ['ON_DELIVERY', 'PICK_UP'],
  ['DELIVERED', 'CANCEL'],
  ['DELIVERED', 'DELIVER'],
  ['CANCELED', 'APPROVE'],
  ['CANCELED', 'CANCEL'],
];

describe('POST /internal/orders/{id}/transitions', () => {
  let t: TestApp;
  /** The events of an order's moves (order.opened, written at creation, is not one). */
  const moveEvents = async (id: string) => (await t.outbox(undefined, id)).filter((row) => row.routing_key !== RoutingKey.OrderOpened);

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  async function orderIn(status: string): Promise<any> {
    const order = await t.createOrder();
    for (const trigger of PATH_TO[status]) {
      const response = await t.transition(order.id, { trigger });
      if (response.status !== 200) throw new Error(`${trigger} on the way to ${status}: ${response.status} ${JSON.stringify(response.body)}`);
    }
    return order;
  }

  describe.each(TABLE)('%s --%s--> %s', (from, trigger, to, eventKind) => {
    it(`answers 200 with the order in ${to} and publishes only ${eventKind}`, async () => {
      const order = await orderIn(from);
      const before = await moveEvents(order.id);
      const response = await t.transition(order.id, { trigger });

      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: order.id, orderId: order.orderId, orderNumber: order.orderNumber, restaurantId: order.restaurantId, status: to });
      const step = PATH_TO[from].length + 1;
      expect(response.body.sequence).toBe(step);
      expect(response.body.history).toHaveLength(step + 1);
      expect(response.body.history[step]).toMatchObject({ sequence: step, status: to, previousStatus: from, trigger });

      const after = await moveEvents(order.id);
      const added = after.slice(before.length);
      expect(added.map((row) => row.routing_key)).toEqual([eventKind]);
      expect(added[0].payload).toMatchObject({ yemekKuryeOrderId: order.id, previousStatus: from, sequence: step });
      if (eventKind === 'order.status_changed') expect(added[0].payload.status).toBe(to);

      const stored = await t.http.get(`/internal/orders/${order.id}`).set(internal());
      expect(stored.body.status).toBe(to);
    });
  });

  describe.each(FORBIDDEN)('%s --%s--> (forbidden)', (from, trigger) => {
    it('answers 409 INVALID_TRANSITION with the current status and changes nothing', async () => {
      const order = await orderIn(from);
      const before = await moveEvents(order.id);
      const response = await t.transition(order.id, { trigger });

      expect(response.status).toBe(409);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body).toMatchObject({ status: 409, code: 'INVALID_TRANSITION', currentStatus: from });
      expect(Array.isArray(response.body.allowedTriggers)).toBe(true);
      expect(response.body.allowedTriggers).not.toContain(trigger);
      expect(await moveEvents(order.id)).toHaveLength(before.length);
      const stored = await t.http.get(`/internal/orders/${order.id}`).set(internal());
      expect(stored.body).toMatchObject({ status: from, sequence: PATH_TO[from].length });
      expect(stored.body.history).toHaveLength(PATH_TO[from].length + 1);
    });
  });

  describe('event payloads (exact field sets of interface.md plus restaurantId and sequence)', () => {
    it('order.status_changed', async () => {
      const order = await t.createOrder();
      const response = await t.transition(order.id, { trigger: 'APPROVE' });
      const [event] = await t.outbox('order.status_changed', order.id);
      expect(event.payload).toEqual({
        yemekKuryeOrderId: order.id,
        orderId: order.orderId,
        orderNumber: order.orderNumber,
        status: 'VALIDATED',
        previousStatus: 'NEW',
        timestamp: response.body.history[1].timestamp,
        provider: 'THIRD_PARTY',
        providerRestaurantId: order.providerRestaurantId,
        restaurantId: order.restaurantId,
        sequence: 1,
      });
      expect(event.payload.timestamp).toMatch(ISO_WITH_OFFSET);
      expect(typeof event.payload.orderNumber).toBe('string');
    });

    it('order.canceled, with reason, cancelReasonId, canceledBy as given', async () => {
      const order = await orderIn('ASSIGNED');
      const response = await t.transition(order.id, { trigger: 'CANCEL', reason: 'Adres bulunamadı', cancelReasonId: 'WRONG_ADDRESS', canceledBy: 'Courier' });
      expect(response.status).toBe(200);
      expect(await t.outbox('order.status_changed', order.id)).toHaveLength(2);
      const [event] = await t.outbox('order.canceled', order.id);
      expect(event.payload).toEqual({
        yemekKuryeOrderId: order.id,
        orderId: order.orderId,
        reason: 'Adres bulunamadı',
        cancelReasonId: 'WRONG_ADDRESS',
        canceledBy: 'Courier',
        timestamp: response.body.history[3].timestamp,
        orderNumber: order.orderNumber,
        previousStatus: 'ASSIGNED',
        provider: 'THIRD_PARTY',
        providerRestaurantId: order.providerRestaurantId,
        restaurantId: order.restaurantId,
        sequence: 3,
      });
      expect(event.payload.timestamp).toMatch(ISO_WITH_OFFSET);
      expect(response.body.history[3]).toEqual({
        sequence: 3,
        status: 'CANCELED',
        previousStatus: 'ASSIGNED',
        trigger: 'CANCEL',
        timestamp: event.payload.timestamp,
        reason: 'Adres bulunamadı',
        cancelReasonId: 'WRONG_ADDRESS',
        canceledBy: 'Courier',
      });
    });

    it('order.canceled defaults: OTHER by System, the reason\'s meaning, the reason\'s only party', async () => {
      const bare = await t.createOrder();
      await t.transition(bare.id, { trigger: 'CANCEL' });
      expect((await t.outbox('order.canceled', bare.id))[0].payload).toMatchObject({ cancelReasonId: 'OTHER', canceledBy: 'System', reason: 'Other reasons' });

      const closed = await t.createOrder();
      await t.transition(closed.id, { trigger: 'CANCEL', cancelReasonId: 'RESTAURANT_CLOSED' });
      expect((await t.outbox('order.canceled', closed.id))[0].payload).toMatchObject({ cancelReasonId: 'RESTAURANT_CLOSED', canceledBy: 'System', reason: 'Restaurant closed' });

      const byCustomer = await t.createOrder();
      await t.transition(byCustomer.id, { trigger: 'CANCEL', cancelReasonId: 'CUSTOMER_REQUEST', reason: 'Changed their mind' });
      expect((await t.outbox('order.canceled', byCustomer.id))[0].payload).toMatchObject({ cancelReasonId: 'CUSTOMER_REQUEST', canceledBy: 'Restaurant', reason: 'Changed their mind' });
    });

    it('the sequence grows by one per move across a whole order', async () => {
      const order = await orderIn('DELIVERED');
      const events = await t.outbox('order.status_changed', order.id);
      expect(events.map((row) => row.payload.sequence)).toEqual([1, 2, 3, 4]);
      expect(events.map((row) => row.payload.status)).toEqual(['VALIDATED', 'PREPARED', 'ON_DELIVERY', 'DELIVERED']);
      const times = events.map((row) => Date.parse(row.payload.timestamp));
      for (let i = 1; i < times.length; i += 1) expect(times[i]).toBeGreaterThan(times[i - 1]);
    });
  });

  describe('occurredAt', () => {
    it('is the event timestamp when given (normalised to UTC), else now', async () => {
      const order = await t.createOrder({ receivedAt: new Date(Date.now() - 10 * 60_000).toISOString() });
      const occurredAt = new Date(Date.now() - 60_000 + 3 * 3_600_000);
      const withOffset = `${new Date(occurredAt.getTime()).toISOString().slice(0, 19)}+03:00`;
      const response = await t.transition(order.id, { trigger: 'APPROVE', occurredAt: withOffset });
      expect(response.status).toBe(200);
      const [event] = await t.outbox('order.status_changed', order.id);
      expect(event.payload.timestamp).toBe(new Date(withOffset).toISOString());

      const started = Date.now();
      await t.transition(order.id, { trigger: 'PREPARE' });
      const events = await t.outbox('order.status_changed', order.id);
      expect(Math.abs(Date.parse(events[1].payload.timestamp) - started)).toBeLessThan(5_000);
    });

    it('refuses a time without an offset, an impossible date, a time too far ahead, and a time before the last change', async () => {
      const order = await t.createOrder({ receivedAt: new Date(Date.now() - 10 * 60_000).toISOString() });
      for (const occurredAt of ['2025-06-01T12:00:00', '2025-06-01', '2025-02-31T10:00:00Z', '2025-06-01T24:00:00Z', 'yesterday', new Date(Date.now() + 120_000).toISOString()]) {
        const response = await t.transition(order.id, { trigger: 'APPROVE', occurredAt });
        expect({ occurredAt, status: response.status, field: response.body.errors?.[0]?.field }).toEqual({ occurredAt, status: 422, field: 'occurredAt' });
      }
      const beforeReceipt = await t.transition(order.id, { trigger: 'APPROVE', occurredAt: new Date(Date.now() - 20 * 60_000).toISOString() });
      expect(beforeReceipt.status).toBe(422);
      expect(beforeReceipt.body.errors[0].message).toMatch(/earlier than the order's last change/);
      expect(await moveEvents(order.id)).toHaveLength(0);

      const withinSkew = await t.transition(order.id, { trigger: 'APPROVE', occurredAt: new Date(Date.now() + 10_000).toISOString() });
      expect(withinSkew.status).toBe(200);
    });

    it('keeps timestamps of one order strictly increasing when moves share a time', async () => {
      const order = await t.createOrder({ receivedAt: new Date(Date.now() - 60_000).toISOString() });
      const same = new Date(Date.now() - 1_000).toISOString();
      expect((await t.transition(order.id, { trigger: 'APPROVE', occurredAt: same })).status).toBe(200);
      expect((await t.transition(order.id, { trigger: 'PREPARE', occurredAt: same })).status).toBe(200);
      const [first, second] = await t.outbox('order.status_changed', order.id);
      expect(first.payload.timestamp).toBe(same);
      expect(Date.parse(second.payload.timestamp)).toBe(Date.parse(same) + 1);
    });
  });

  describe('errors', () => {
    it('401 AUTHENTICATION_FAILED without a configured key, before anything else', async () => {
      const order = await t.createOrder();
      for (const headers of [{}, internal('wrong-key-wrong-key-wrong-key'), internal(''), { 'X-API-Key': 'internal-key-current-0123456789abcdef' }]) {
        const response = await t.transition(order.id, { trigger: 'NOPE' }, headers as Record<string, string>);
        expect(response.status).toBe(401);
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(response.body).toMatchObject({ status: 401, code: 'AUTHENTICATION_FAILED' });
        expect(typeof response.body.requestId).toBe('string');
      }
      expect((await t.http.get(`/internal/orders/${order.id}`)).status).toBe(401);
      expect((await t.transition(order.id, { trigger: 'APPROVE' }, internal(PREVIOUS_INTERNAL_KEY))).status).toBe(200);
      expect(await moveEvents(order.id)).toHaveLength(1);
    });

    it('404 ORDER_NOT_FOUND for an unknown or malformed id', async () => {
      for (const id of [randomUUID(), 'not-a-uuid', '123', `${randomUUID()}x`, '%27%20OR%201%3D1--']) {
        const response = await t.transition(id, { trigger: 'APPROVE' });
        expect({ id, status: response.status, code: response.body.code }).toEqual({ id, status: 404, code: 'ORDER_NOT_FOUND' });
        const read = await t.http.get(`/internal/orders/${id}`).set(internal());
        expect({ id, status: read.status, code: read.body.code }).toEqual({ id, status: 404, code: 'ORDER_NOT_FOUND' });
      }
    });

    it('404 for an order of another provider (platform orders move by the status push, not by the table)', async () => {
      const order = await t.createOrder();
      await t.sql(`UPDATE orders SET provider = 'PLATFORM_A' WHERE id = $1`, [order.id]);
      const response = await t.transition(order.id, { trigger: 'APPROVE' });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('ORDER_NOT_FOUND');
      expect(await moveEvents(order.id)).toHaveLength(0);
    });

    it('accepts the id in upper case too', async () => {
      const order = await t.createOrder();
      const response = await t.transition(order.id.toUpperCase(), { trigger: 'APPROVE' });
      expect(response.status).toBe(200);
      expect(response.body.id).toBe(order.id);
    });

    it('422 VALIDATION_ERROR for unknown or missing triggers, unknown fields and wrong types', async () => {
      const order = await t.createOrder();
      const cases: Array<[Record<string, unknown>, string]> = [
        [{}, 'trigger'],
        [{ trigger: 'TELEPORT' }, 'trigger'],
        [{ trigger: 'approve' }, 'trigger'],
        [{ trigger: 42 }, 'trigger'],
        [{ trigger: null }, 'trigger'],
        [{ trigger: 'APPROVE', status: 'DELIVERED' }, 'status'],
        [{ trigger: 'APPROVE', reason: 7 }, 'reason'],
        [{ trigger: 'APPROVE', reason: '' }, 'reason'],
        [{ trigger: 'APPROVE', reason: 'x'.repeat(501) }, 'reason'],
        [{ trigger: 'APPROVE', cancelReasonId: 'OTHER' }, 'cancelReasonId'],
        [{ trigger: 'APPROVE', canceledBy: 'System' }, 'canceledBy'],
        [{ trigger: 'CANCEL', cancelReasonId: 'BORED' }, 'cancelReasonId'],
        [{ trigger: 'CANCEL', canceledBy: 'Customer' }, 'canceledBy'],
        [{ trigger: 'CANCEL', cancelReasonId: 'WRONG_ADDRESS', canceledBy: 'Restaurant' }, 'canceledBy'],
        [{ trigger: 'CANCEL', cancelReasonId: 'other' }, 'cancelReasonId'],
        [{ trigger: 'APPROVE', occurredAt: 1735725600000 }, 'occurredAt'],
      ];
      for (const [body, field] of cases) {
        const response = await t.transition(order.id, body);
        expect({ body, status: response.status, code: response.body.code }).toEqual({ body, status: 422, code: 'VALIDATION_ERROR' });
        expect({ body, fields: response.body.errors.map((error: any) => error.field) }).toEqual({ body, fields: expect.arrayContaining([field]) });
      }
      expect(await moveEvents(order.id)).toHaveLength(0);
      expect((await t.http.get(`/internal/orders/${order.id}`).set(internal())).body.status).toBe('NEW');
    });

    it('400 INVALID_PAYLOAD for broken JSON, 413 for a huge body', async () => {
      const order = await t.createOrder();
      const broken = await t.http.post(`/internal/orders/${order.id}/transitions`).set(internal()).set('Content-Type', 'application/json').send('{"trigger":');
      expect(broken.status).toBe(400);
      expect(broken.body.code).toBe('INVALID_PAYLOAD');
      const huge = await t.transition(order.id, { trigger: 'APPROVE', reason: 'x'.repeat(300 * 1024) });
      expect(huge.status).toBe(413);
      expect(huge.body.code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('a reason given with a non-cancel trigger is kept in the history', async () => {
      const order = await t.createOrder();
      const response = await t.transition(order.id, { trigger: 'APPROVE', reason: 'approved by phone' });
      expect(response.body.history[1]).toMatchObject({ trigger: 'APPROVE', reason: 'approved by phone', cancelReasonId: null, canceledBy: null });
    });
  });

  describe('GET /internal/orders/{id}', () => {
    it('returns the order with its history and its items', async () => {
      const order = await orderIn('PREPARED');
      const response = await t.http.get(`/internal/orders/${order.id}`).set(internal());
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: order.id,
        orderId: order.orderId,
        orderNumber: order.orderNumber,
        restaurantId: order.restaurantId,
        provider: 'THIRD_PARTY',
        providerRestaurantId: order.providerRestaurantId,
        status: 'PREPARED',
        sequence: 2,
        receivedAt: order.receivedAt,
        scheduledDeliveryTime: null,
        finalApprovalDueAt: null,
        finalApprovedAt: null,
        statusChangedAt: response.body.history[2].timestamp,
        acceptBy: null,
        acceptanceOverdue: false,
        history: [
          { sequence: 0, status: 'NEW', previousStatus: null, trigger: null, timestamp: order.receivedAt, reason: null, cancelReasonId: null, canceledBy: null },
          { sequence: 1, status: 'VALIDATED', previousStatus: 'NEW', trigger: 'APPROVE', timestamp: expect.stringMatching(ISO_WITH_OFFSET), reason: null, cancelReasonId: null, canceledBy: null },
          { sequence: 2, status: 'PREPARED', previousStatus: 'VALIDATED', trigger: 'PREPARE', timestamp: expect.stringMatching(ISO_WITH_OFFSET), reason: null, cancelReasonId: null, canceledBy: null },
        ],
        items: [{ productCode: 'P1', platformProductId: null, mapped: true, productName: 'Lahmacun', quantity: 2, unitPrice: 60.25, totalAmount: 120.5 }],
      });
    });
  });

  it('hands the events to the consumers of the other apps (outbox relay)', async () => {
    const order = await t.createOrder();
    await t.transition(order.id, { trigger: 'APPROVE' });
    await t.transition(order.id, { trigger: 'CANCEL' });
    const deadline = Date.now() + 10_000;
    const mine = () => t.delivered.filter((message) => (message.payload as any).yemekKuryeOrderId === order.id);
    while (mine().length < 5 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(
      mine()
        .map((message) => `${message.queue} ${message.routingKey}`)
        .sort(),
    ).toEqual(
      [
        'intake-api.order-events order.opened',
        'intake-api.order-events order.canceled',
        'intake-api.order-events order.status_changed',
        'webhook-sender.order-events order.canceled',
        'webhook-sender.order-events order.status_changed',
      ].sort(),
    );
  });
});
