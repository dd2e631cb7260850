import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RoutingKey } from '@courier/contracts';
import { internal, startTestApp, TestApp } from '../../test/harness';
import { OrderLifecycleService, TRANSITION_OPTIMISTIC_ATTEMPTS } from './order-lifecycle.service';
import { OrderRepository } from './order.repository';

jest.setTimeout(120_000);

const CONCURRENCY = 20;

/**
 * Transitions of one order are serialised: by compare-and-set on the order (the default), and
 * under its row lock (after repeated conflicts; here forced with 0 optimistic attempts). No lost
 * update, no double event, either way.
 */
describe.each([
  ['compare-and-set, then the row lock', TRANSITION_OPTIMISTIC_ATTEMPTS],
  ['the row lock only', 0],
])('concurrent transitions of one order (%s)', (_mode, attempts) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    t.app.get(OrderLifecycleService).optimisticAttempts = attempts;
  });
  afterAll(() => t?.close());

  const burst = (id: string, bodies: Array<Record<string, unknown>>) => Promise.all(bodies.map((body) => t.transition(id, body)));

  it(`${CONCURRENCY} identical requests per step: exactly one succeeds, the others get 409 with the new status, one event per move`, async () => {
    const order = await t.createOrder();
    const steps: Array<[trigger: string, to: string]> = [
      ['APPROVE', 'VALIDATED'],
      ['ASSIGN', 'ASSIGNED'],
      ['ACCEPT', 'ACCEPTED'],
      ['PREPARE', 'PREPARED'],
      ['PICK_UP', 'ON_DELIVERY'],
      ['DELIVER', 'DELIVERED'],
    ];
    for (const [trigger, to] of steps) {
      const responses = await burst(order.id, Array.from({ length: CONCURRENCY }, () => ({ trigger })));
      const statuses = responses.map((response) => response.status);
      expect({ trigger, ok: statuses.filter((status) => status === 200).length, conflicts: statuses.filter((status) => status === 409).length }).toEqual({
        trigger,
        ok: 1,
        conflicts: CONCURRENCY - 1,
      });
      for (const response of responses.filter((candidate) => candidate.status === 409)) {
        expect(response.body).toMatchObject({ code: 'INVALID_TRANSITION', currentStatus: to });
      }
    }
    const events = (await t.outbox(undefined, order.id)).filter((row) => row.routing_key !== RoutingKey.OrderOpened);
    expect(events.map((row) => [row.routing_key, row.payload.sequence, row.payload.status])).toEqual(
      steps.map(([, to], index) => ['order.status_changed', index + 1, to]),
    );
    const history = await t.sql('SELECT sequence, status FROM order_status_changes WHERE order_id = $1 ORDER BY sequence', [order.id]);
    expect(history).toEqual([{ sequence: 0, status: 'NEW' }, ...steps.map(([, to], index) => ({ sequence: index + 1, status: to }))]);
  });

  it('competing different triggers: the first wins, the rest are judged against its result, never lost', async () => {
    const order = await t.createOrder();
    await t.transition(order.id, { trigger: 'APPROVE' });
    // From VALIDATED, ROUTE, ASSIGN, PREPARE and CANCEL are all allowed; after each move fewer remain.
    const triggers = Array.from({ length: CONCURRENCY }, (_, i) => ['ROUTE', 'ASSIGN', 'PREPARE', 'CANCEL'][i % 4]);
    const responses = await burst(order.id, triggers.map((trigger) => ({ trigger })));
    expect(responses.every((response) => response.status === 200 || response.status === 409)).toBe(true);
    const successes = responses.filter((response) => response.status === 200);

    const events = (await t.outbox(undefined, order.id)).filter((row) => row.payload.sequence > 1);
    // One event per successful move of the burst, each step taken once.
    expect(events).toHaveLength(successes.length);
    expect(events.map((row) => row.payload.sequence).sort((a, b) => a - b)).toEqual(successes.map((_, i) => i + 2));
    const final = await t.http.get(`/internal/orders/${order.id}`).set(internal());
    expect(final.body.sequence).toBe(1 + successes.length);
    expect(final.body.history).toHaveLength(2 + successes.length);
    // Every successful answer reports a distinct step; the history is one chain.
    expect(new Set(successes.map((response) => response.body.sequence)).size).toBe(successes.length);
    for (let i = 2; i < final.body.history.length; i += 1) expect(final.body.history[i].previousStatus).toBe(final.body.history[i - 1].status);
    // CANCEL is allowed from every non-final status, so one of the five CANCELs ends the order, once.
    expect(final.body.status).toBe('CANCELED');
    expect(events.filter((row) => row.routing_key === 'order.canceled')).toHaveLength(1);
    expect(events.find((row) => row.routing_key === 'order.canceled')!.payload.sequence).toBe(final.body.sequence);
  });

  it('orders do not wait for each other', async () => {
    const orders = await Promise.all(Array.from({ length: 10 }, () => t.createOrder()));
    const responses = await Promise.all(orders.map((order) => t.transition(order.id, { trigger: 'APPROVE' })));
    expect(responses.map((response) => response.status)).toEqual(orders.map(() => 200));
  });
});

/** OrderRepository.writeMove, the transition's one statement: all or nothing, and only on the order as it was read. */
describe('writeMove', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await startTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t?.close());

  const move = (sequence: number) => ({
    change: { sequence, status: 'VALIDATED' as const, previousStatus: 'NEW' as const, trigger: 'APPROVE' as const, occurredAt: new Date(), reason: null, cancelReasonId: null, canceledBy: null },
    event: { id: randomUUID(), routingKey: 'order.status_changed', payload: { sequence }, headers: {} },
    expectedSequence: sequence - 1,
    expectedFinalApprovedAt: null,
  });
  const written = async (id: string, eventId: string) => ({
    order: (await t.sql('SELECT status, sequence FROM orders WHERE id = $1', [id]))[0],
    history: (await t.sql('SELECT sequence FROM order_status_changes WHERE order_id = $1', [id])).length,
    events: (await t.sql('SELECT count(*)::int AS n FROM outbox_messages WHERE id = $1', [eventId]))[0].n,
  });

  it('writes the move, its history row and its event when the order is as read', async () => {
    const order = await t.createOrder();
    const write = move(1);
    await expect(t.app.get(OrderRepository).writeMove(db.manager, order.id, write)).resolves.toBe(true);
    expect(await written(order.id, write.event.id)).toEqual({ order: { status: 'VALIDATED', sequence: 1 }, history: 2, events: 1 });
  });

  it('writes nothing when the sequence moved on since the read', async () => {
    const order = await t.createOrder();
    await t.transition(order.id, { trigger: 'APPROVE' });
    // Decided on sequence 0, but the order is at 1 now.
    const write = move(1);
    await expect(t.app.get(OrderRepository).writeMove(db.manager, order.id, write)).resolves.toBe(false);
    const after = await written(order.id, write.event.id);
    expect(after).toEqual({ order: { status: 'VALIDATED', sequence: 1 }, history: 2, events: 0 });
  });

  it('writes nothing when the final approval was marked since the read', async () => {
    const order = await t.createOrder();
    await t.sql('UPDATE orders SET final_approved_at = now() WHERE id = $1', [order.id]);
    const write = move(1);
    await expect(t.app.get(OrderRepository).writeMove(db.manager, order.id, write)).resolves.toBe(false);
    expect(await written(order.id, write.event.id)).toEqual({ order: { status: 'NEW', sequence: 0 }, history: 1, events: 0 });
  });
});
