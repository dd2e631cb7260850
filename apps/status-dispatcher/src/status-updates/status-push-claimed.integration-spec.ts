import { PLATFORM_D_PATHS, PLATFORM_D_STEP_STATUS } from '@courier/platforms';
import { waitFor } from '@courier/testing';
import { TestApp } from '../../test/harness';
import { CREDENTIALS, Platforms, push, startPlatformApp, startPlatforms, upsertIntegration } from '../../test/platforms';

jest.setTimeout(120_000);

/**
 * The path where the push's own statement claims the update and the call starts right after it
 * (PLATFORM_D: no step of it is spaced), under pushes of one order at once: each accepted update
 * reaches the platform exactly once, in the order's sequence, one attempt each (Migros refuses a step
 * out of its order, e.g. Delivery before Prepared: such an update ends failed after its one call).
 */
describe('status push claimed by the push (PLATFORM_D)', () => {
  let platforms: Platforms;
  let t: TestApp;

  beforeAll(async () => {
    platforms = await startPlatforms();
    t = await startPlatformApp(platforms);
    await upsertIntegration(t, 'PLATFORM_D');
  });
  afterAll(async () => {
    await t?.close();
    await platforms?.stop();
  });

  it('20 concurrent pushes of four actions to one order: one platform call per accepted update, in seq order', async () => {
    const { order, response } = await platforms.d.placeOrder(CREDENTIALS.PLATFORM_D.providerRestaurantId);
    expect(response.status).toBe(200);
    const yemekKuryeOrderId = (response.body as { yemekKuryeOrderId: string }).yemekKuryeOrderId;
    const actions = ['VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER'].flatMap((action) => Array(5).fill(action) as string[]);
    const responses = await Promise.all(actions.map((action) => push(t, { providerOrderId: String(order.id), platform: 'PLATFORM_D', action })));
    responses.forEach((answer, index) => {
      if (answer.status === 409) expect([actions[index], answer.body.code]).toEqual(['DELIVER', 'DELIVER_BEFORE_PREPARE']);
      else expect(answer.status).toBe(202);
    });

    type Row = { id: string; seq: number; action: string; state: string; attempts: number; accepted_at: Date; first_attempt_at: Date | null };
    const updates = () => t.sql<Row>('SELECT id, seq, action, state, attempts, accepted_at, first_attempt_at FROM status_updates WHERE order_id = $1 ORDER BY seq', [yemekKuryeOrderId]);
    await waitFor('every update sent (or refused by Migros)', async () => (await updates()).every((update) => update.state === 'sent' || update.state === 'failed'), 20_000, 50);
    const sent = await updates();
    expect(new Set(sent.map((update) => update.action)).size).toBe(sent.length);
    expect(sent.every((update) => update.attempts === 1)).toBe(true);
    // The first one was claimed by its push's statement: its first attempt is its acceptance.
    expect(sent[0].first_attempt_at?.getTime()).toBe(sent[0].accepted_at.getTime());

    expect(sent[0]).toMatchObject({ action: 'VERIFY', state: 'sent' });
    const calls = platforms.d.received.filter((call) => call.path === PLATFORM_D_PATHS.updateOrderStatus && call.body.orderId === order.id);
    expect(calls).toHaveLength(sent.length);
    // In the order's sequence: the platform heard the updates as they were accepted.
    expect(calls.map((call) => call.body.orderStatus)).toEqual(sent.map((update) => PLATFORM_D_STEP_STATUS[update.action as keyof typeof PLATFORM_D_STEP_STATUS]));
  });
});
