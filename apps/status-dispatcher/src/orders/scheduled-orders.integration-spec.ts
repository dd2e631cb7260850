import { RoutingKey } from '@courier/contracts';
import { waitFor } from '@courier/testing';
import { internal, orderCreatedEvent, startTestApp, TestApp } from '../../test/harness';

jest.setTimeout(120_000);

const HOUR = 3_600_000;

/** An order.created whose final approval falls due `dueInMs` from now (delivery = due + 1 h). */
function scheduledOrder(dueInMs: number) {
  const receivedAt = new Date();
  const event = orderCreatedEvent({ receivedAt: receivedAt.toISOString() });
  event.details.scheduledDeliveryTime = new Date(receivedAt.getTime() + HOUR + dueInMs).toISOString();
  return event;
}

describe('scheduled orders', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const read = async (id: string) => (await t.http.get(`/internal/orders/${id}`).set(internal())).body;

  it('APPROVE is the pre-approval; ROUTE and ASSIGN get 409 ORDER_NOT_DUE until the final approval, which the task marks and announces', async () => {
    const event = scheduledOrder(1_500);
    await t.deliver(RoutingKey.OrderCreated, event);
    const id = event.yemekKuryeOrderId;
    const dueAt = new Date(Date.parse(event.details.scheduledDeliveryTime!) - HOUR).toISOString();

    const approved = await t.transition(id, { trigger: 'APPROVE' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'VALIDATED', finalApprovalDueAt: dueAt, finalApprovedAt: null });

    for (const trigger of ['ROUTE', 'ASSIGN']) {
      const early = await t.transition(id, { trigger });
      expect(early.status).toBe(409);
      expect(early.body).toMatchObject({ code: 'ORDER_NOT_DUE', currentStatus: 'VALIDATED', dueAt });
    }
    // A move the table forbids stays INVALID_TRANSITION (final), not ORDER_NOT_DUE (retry later).
    expect((await t.transition(id, { trigger: 'ACCEPT' })).body.code).toBe('INVALID_TRANSITION');
    expect(await t.outbox(RoutingKey.OrderFinalApprovalDue, id)).toEqual([]);

    const marked = await waitFor('final approval', async () => (await read(id)).finalApprovedAt, 10_000);
    expect(Date.parse(marked)).toBeGreaterThanOrEqual(Date.parse(dueAt));
    const events = await t.outbox(RoutingKey.OrderFinalApprovalDue, id);
    expect(events.map((row) => row.payload)).toEqual([
      { yemekKuryeOrderId: id, orderId: event.orderId, restaurantId: event.restaurantId, scheduledDeliveryTime: event.details.scheduledDeliveryTime, dueAt },
    ]);
    expect(await t.sql('SELECT 1 FROM scheduled_tasks WHERE dedupe_key = $1', [`order-final-approval:${id}`])).toEqual([]);

    const routed = await t.transition(id, { trigger: 'ROUTE' });
    expect(routed.status).toBe(200);
    expect(routed.body.status).toBe('ROUTED');
    // The final approval is not a status change: the order's sequence counts APPROVE and ROUTE only.
    expect(routed.body.sequence).toBe(2);
  });

  it('PREPARE and CANCEL are not held by the gate', async () => {
    const prepared = scheduledOrder(HOUR);
    await t.deliver(RoutingKey.OrderCreated, prepared);
    await t.transition(prepared.yemekKuryeOrderId, { trigger: 'APPROVE' });
    expect((await t.transition(prepared.yemekKuryeOrderId, { trigger: 'PREPARE' })).status).toBe(200);

    const canceled = scheduledOrder(HOUR);
    await t.deliver(RoutingKey.OrderCreated, canceled);
    expect((await t.transition(canceled.yemekKuryeOrderId, { trigger: 'CANCEL', cancelReasonId: 'CUSTOMER_REQUEST' })).status).toBe(200);
  });

  it('a cancelled scheduled order gets no final approval', async () => {
    const event = scheduledOrder(800);
    await t.deliver(RoutingKey.OrderCreated, event);
    expect((await t.transition(event.yemekKuryeOrderId, { trigger: 'CANCEL' })).status).toBe(200);
    await waitFor('the task to run', async () => (await t.sql('SELECT 1 FROM scheduled_tasks WHERE dedupe_key = $1', [`order-final-approval:${event.yemekKuryeOrderId}`])).length === 0, 10_000);
    expect((await read(event.yemekKuryeOrderId)).finalApprovedAt).toBeNull();
    expect(await t.outbox(RoutingKey.OrderFinalApprovalDue, event.yemekKuryeOrderId)).toEqual([]);
  });

  it('an order whose due time passed before it arrived is approved at once; running the task again changes nothing', async () => {
    const receivedAt = new Date(Date.now() - 2 * HOUR);
    const event = orderCreatedEvent({ receivedAt: receivedAt.toISOString() });
    event.details.scheduledDeliveryTime = new Date(receivedAt.getTime() + HOUR + 60_000).toISOString();
    await t.deliver(RoutingKey.OrderCreated, event);
    const first = await waitFor('final approval', async () => (await read(event.yemekKuryeOrderId)).finalApprovedAt, 10_000);
    // The gate is open even before the marking (due time passed), and after it.
    expect((await t.transition(event.yemekKuryeOrderId, { trigger: 'APPROVE' })).status).toBe(200);
    expect((await t.transition(event.yemekKuryeOrderId, { trigger: 'ASSIGN' })).status).toBe(200);

    // A task that runs twice (crash after commit, before its row was deleted) is a no-op.
    await t.sql(`INSERT INTO scheduled_tasks (id, kind, dedupe_key, payload, due_at, headers) VALUES (gen_random_uuid(), 'order.final-approval', NULL, $1, now(), '{}')`, [
      JSON.stringify({ yemekKuryeOrderId: event.yemekKuryeOrderId }),
    ]);
    await waitFor('the repeated task to run', async () => (await t.sql(`SELECT 1 FROM scheduled_tasks WHERE payload->>'yemekKuryeOrderId' = $1`, [event.yemekKuryeOrderId])).length === 0, 10_000);
    expect((await read(event.yemekKuryeOrderId)).finalApprovedAt).toBe(first);
    expect(await t.outbox(RoutingKey.OrderFinalApprovalDue, event.yemekKuryeOrderId)).toHaveLength(1);
  });
});

describe('the final-approval task survives a restart', () => {
  it('fires in a new instance on the same database after the first one closed', async () => {
    const first = await startTestApp();
    const event = scheduledOrder(2_500);
    await first.deliver(RoutingKey.OrderCreated, event);
    await first.close({ keepDatabase: true });

    const second = await startTestApp({ database: first.database });
    try {
      expect(await second.outbox(RoutingKey.OrderFinalApprovalDue, event.yemekKuryeOrderId)).toEqual([]);
      const marked = await waitFor(
        'final approval after restart',
        async () => (await second.http.get(`/internal/orders/${event.yemekKuryeOrderId}`).set(internal())).body.finalApprovedAt,
        15_000,
      );
      expect(Date.parse(marked)).toBeGreaterThanOrEqual(Date.parse(event.details.scheduledDeliveryTime!) - HOUR);
      expect(await second.outbox(RoutingKey.OrderFinalApprovalDue, event.yemekKuryeOrderId)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
