import { internal, startTestApp, TestApp } from '../../test/harness';

jest.setTimeout(120_000);

const CONCURRENCY = 20;

/** Transitions of one order are serialised on its row lock: no lost update, no double event. */
describe('concurrent transitions of one order', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
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
    const events = await t.outbox(undefined, order.id);
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
