import { randomUUID } from 'node:crypto';
import { Queues, RoutingKey } from '@courier/contracts';
import { InProcessBroker } from '@courier/messaging';
import { internal, newRestaurantId, orderCreatedEvent, startTestApp, TestApp } from '../../test/harness';

jest.setTimeout(120_000);

describe('order.created consumer', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const read = (id: string) => t.http.get(`/internal/orders/${id}`).set(internal());

  it('creates the order in NEW with everything order.created carries', async () => {
    const event = orderCreatedEvent({ receivedAt: '2030-01-02T03:04:05.678Z' });
    await t.deliver(RoutingKey.OrderCreated, event);
    const response = await read(event.yemekKuryeOrderId);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: event.yemekKuryeOrderId,
      orderId: event.orderId,
      orderNumber: '1',
      restaurantId: event.restaurantId,
      provider: 'THIRD_PARTY',
      providerRestaurantId: event.providerRestaurantId,
      status: 'NEW',
      sequence: 0,
      receivedAt: '2030-01-02T03:04:05.678Z',
      scheduledDeliveryTime: null,
      finalApprovalDueAt: null,
      finalApprovedAt: null,
      statusChangedAt: '2030-01-02T03:04:05.678Z',
      acceptBy: null,
      acceptanceOverdue: false,
      history: [{ sequence: 0, status: 'NEW', previousStatus: null, trigger: null, timestamp: '2030-01-02T03:04:05.678Z', reason: null, cancelReasonId: null, canceledBy: null }],
      // The sender's items as given, mapped by the code it named.
      items: [{ productCode: 'P1', platformProductId: null, mapped: true, productName: 'Lahmacun', quantity: 2, unitPrice: 60.25, totalAmount: 120.5 }],
    });
    const [row] = await t.sql('SELECT details FROM orders WHERE id = $1', [event.yemekKuryeOrderId]);
    expect(row.details).toEqual(event.details);
    // Creation is not a status change (no order.status_changed, so no webhook); order.opened tells
    // intake that the lifecycle knows the order (its read says NEW from then on).
    const events = await t.outbox(undefined, event.yemekKuryeOrderId);
    expect(events.map((row) => [row.routing_key, row.payload])).toEqual([
      [
        'order.opened',
        { yemekKuryeOrderId: event.yemekKuryeOrderId, orderId: event.orderId, restaurantId: event.restaurantId, orderNumber: '1', status: 'NEW', sequence: 0, timestamp: expect.any(String) },
      ],
    ]);
  });

  it('numbers the orders of each restaurant 1, 2, 3 ... as strings, independently per restaurant', async () => {
    const first = newRestaurantId();
    const second = newRestaurantId();
    const numbers: Record<string, string[]> = { [first]: [], [second]: [] };
    for (const restaurantId of [first, second, first, first, second]) {
      numbers[restaurantId].push((await t.createOrder({ restaurantId })).orderNumber);
    }
    expect(numbers).toEqual({ [first]: ['1', '2', '3'], [second]: ['1', '2'] });
  });

  it('gives concurrent creations of one restaurant distinct numbers without gaps', async () => {
    const restaurantId = newRestaurantId();
    const events = Array.from({ length: 25 }, () => orderCreatedEvent({ restaurantId }));
    await Promise.all(events.map((event) => t.deliver(RoutingKey.OrderCreated, event)));
    const rows = await t.sql<{ order_number: string }>('SELECT order_number FROM orders WHERE restaurant_id = $1', [restaurantId]);
    expect(rows.map((row) => Number(row.order_number)).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    const [counter] = await t.sql('SELECT last_number FROM restaurant_order_counters WHERE restaurant_id = $1', [restaurantId]);
    expect(counter.last_number).toBe('25');
  });

  it('creates one order from a redelivered message (same message id)', async () => {
    const event = orderCreatedEvent();
    const messageId = randomUUID();
    await t.deliver(RoutingKey.OrderCreated, event, messageId);
    await t.deliver(RoutingKey.OrderCreated, event, messageId);
    await Promise.all([t.deliver(RoutingKey.OrderCreated, event, messageId), t.deliver(RoutingKey.OrderCreated, event, messageId)]);
    expect(await t.sql('SELECT id FROM orders WHERE restaurant_id = $1', [event.restaurantId])).toHaveLength(1);
    expect(await t.sql('SELECT 1 FROM order_status_changes WHERE order_id = $1', [event.yemekKuryeOrderId])).toHaveLength(1);
    expect((await read(event.yemekKuryeOrderId)).body.orderNumber).toBe('1');
  });

  it('creates one order when the same order comes again under another message id, even concurrently', async () => {
    const event = orderCreatedEvent();
    await Promise.all(Array.from({ length: 8 }, () => t.deliver(RoutingKey.OrderCreated, event)));
    await t.deliver(RoutingKey.OrderCreated, { ...event, details: { ...event.details, notes: 'changed' } });
    const rows = await t.sql('SELECT id, order_number, details FROM orders WHERE restaurant_id = $1', [event.restaurantId]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: event.yemekKuryeOrderId, order_number: '1', details: event.details });
    const [counter] = await t.sql('SELECT last_number FROM restaurant_order_counters WHERE restaurant_id = $1', [event.restaurantId]);
    expect(counter.last_number).toBe('1');
  });

  it('keeps one order per restaurant and sender orderId even under another yemekKuryeOrderId', async () => {
    const event = orderCreatedEvent();
    await t.deliver(RoutingKey.OrderCreated, event);
    const other = randomUUID();
    await t.deliver(RoutingKey.OrderCreated, { ...event, yemekKuryeOrderId: other });
    expect((await read(other)).status).toBe(404);
    expect(await t.sql('SELECT id FROM orders WHERE restaurant_id = $1', [event.restaurantId])).toEqual([{ id: event.yemekKuryeOrderId }]);
  });

  it('dead-letters a malformed order.created after the delivery limit and stores nothing', async () => {
    const broker = InProcessBroker.shared();
    const deadBefore = broker.deadLetters(Queues.dispatcherOrderEvents.name).length;
    const valid = orderCreatedEvent();
    const malformed = [
      { ...valid, yemekKuryeOrderId: 'not-a-uuid' },
      { ...valid, yemekKuryeOrderId: randomUUID(), provider: 'PLATFORM_A' },
      { ...valid, yemekKuryeOrderId: randomUUID(), receivedAt: 'soon' },
      { ...valid, yemekKuryeOrderId: randomUUID(), details: { ...valid.details, scheduledDeliveryTime: 'tomorrow' } },
    ];
    await Promise.all(malformed.map((payload) => t.deliver(RoutingKey.OrderCreated, payload)));
    expect(broker.deadLetters(Queues.dispatcherOrderEvents.name).length - deadBefore).toBe(malformed.length);
    expect(await t.sql('SELECT id FROM orders WHERE restaurant_id = $1', [valid.restaurantId])).toEqual([]);
  });

  it('stores a scheduled order with its final approval due time and a durable task; an order exactly 1 h ahead is not scheduled', async () => {
    const receivedAt = new Date(Date.now() - 1_000);
    const delivery = new Date(receivedAt.getTime() + 3 * 3_600_000);
    const scheduled = orderCreatedEvent({ receivedAt: receivedAt.toISOString() });
    scheduled.details.scheduledDeliveryTime = delivery.toISOString();
    await t.deliver(RoutingKey.OrderCreated, scheduled);
    const order = (await read(scheduled.yemekKuryeOrderId)).body;
    expect(order).toMatchObject({ scheduledDeliveryTime: delivery.toISOString(), finalApprovalDueAt: new Date(delivery.getTime() - 3_600_000).toISOString(), finalApprovedAt: null });
    const tasks = await t.sql('SELECT kind, due_at, payload, dedupe_key FROM scheduled_tasks WHERE dedupe_key = $1', [`order-final-approval:${scheduled.yemekKuryeOrderId}`]);
    expect(tasks).toEqual([
      { kind: 'order.final-approval', due_at: new Date(delivery.getTime() - 3_600_000), payload: { yemekKuryeOrderId: scheduled.yemekKuryeOrderId }, dedupe_key: `order-final-approval:${scheduled.yemekKuryeOrderId}` },
    ]);

    const ordinary = orderCreatedEvent({ receivedAt: receivedAt.toISOString() });
    ordinary.details.scheduledDeliveryTime = new Date(receivedAt.getTime() + 3_600_000).toISOString();
    await t.deliver(RoutingKey.OrderCreated, ordinary);
    expect((await read(ordinary.yemekKuryeOrderId)).body).toMatchObject({ scheduledDeliveryTime: ordinary.details.scheduledDeliveryTime, finalApprovalDueAt: null });
    expect(await t.sql('SELECT 1 FROM scheduled_tasks WHERE dedupe_key = $1', [`order-final-approval:${ordinary.yemekKuryeOrderId}`])).toEqual([]);
  });
});
