import { PlatformRegistry } from '@courier/platforms';
import { ProblemException } from '@courier/http';
import { waitFor } from '@courier/testing';
import { DispatcherMedium, receivePlatformOrder, startDispatcherMedium, storeIntegration } from '../../test/medium';
import { StatusPushService } from './status-push.service';
import { STATUS_UPDATE_TASK, StatusUpdateRepository } from './status-update.repository';

/**
 * The status push with its real repositories and worker on PostgreSQL: the guards' decisions as they
 * land in the tables, and the immediate send's claim and recorded result (the platform's port is
 * closed, so the call ends in a network error, which is stored as a retry).
 */
describe('StatusPushService (medium)', () => {
  let m: DispatcherMedium;
  let sut: StatusPushService;
  let updates: StatusUpdateRepository;
  /** The platform of these tests: one whose credentials are a single key (no login round trip). */
  const PLATFORM = 'PLATFORM_D';
  let wireCode: string;

  beforeAll(async () => {
    // Room for four status calls per ten minutes per credentials (each test but the last has its own integration).
    m = await startDispatcherMedium({ PLATFORM_CALL_BUDGETS: `${PLATFORM}:credentials=4/600000` });
    sut = m.ctx.get(StatusPushService);
    updates = m.ctx.get(StatusUpdateRepository);
    wireCode = m.ctx.get(PlatformRegistry).wireCodeOf(PLATFORM);
  });
  afterAll(() => m?.close());

  async function newOrder() {
    const integration = await storeIntegration(m.ctx, PLATFORM, { apiKey: 'medium-store-key' }, { providerMerchantId: '511' });
    return receivePlatformOrder(m.ctx, integration);
  }

  const problemOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as ProblemException);

  it('accepts VERIFY: the update, its task and the order\'s move are stored together, and the send\'s result is recorded', async () => {
    const { platformOrderId, yemekKuryeOrderId } = await newOrder();
    const wakesBefore = m.ctx.wakes.enqueued;

    const accepted = await sut.push({ platform: wireCode, providerOrderId: platformOrderId, action: 'VERIFY' } as never);

    expect(accepted).toMatchObject({ status: 'queued', message: `VERIFY queued for ${wireCode}.` });
    const [order] = await m.db.sql<{ status: string; sequence: number }>('SELECT status, sequence FROM orders WHERE id = $1', [yemekKuryeOrderId]);
    expect(order).toEqual({ status: 'VALIDATED', sequence: 1 });
    const tasks = await m.db.sql("SELECT id FROM scheduled_tasks WHERE payload->>'statusUpdateId' = $1", [accepted.statusUpdateId]);
    expect(tasks).toHaveLength(1);
    const events = await m.db.sql<{ routing_key: string }>("SELECT routing_key FROM outbox_messages WHERE payload->>'yemekKuryeOrderId' = $1 ORDER BY created_at, id", [yemekKuryeOrderId]);
    expect(events.map((event) => event.routing_key)).toContain('order.status_changed');
    // The relay is woken once the move's events are committed.
    expect(m.ctx.wakes.enqueued).toBeGreaterThan(wakesBefore);

    // Claimed by the push's statement and sent at once: the platform is unreachable, so a retry is recorded.
    const recorded = await waitFor('the send\'s result', async () => {
      const update = await updates.find(accepted.statusUpdateId);
      return update && update.state === 'retrying' ? update : undefined;
    }, 20_000);
    expect(recorded).toMatchObject({ attempts: 1, action: 'VERIFY', platform: PLATFORM });
    expect(recorded.lastAnswer).toMatchObject({ outcome: 'retry', httpStatus: null, error: expect.stringContaining('ECONNREFUSED') });
    expect(recorded.sendingUntil).toBeNull();
    expect(recorded.firstAttemptAt).toBeInstanceOf(Date);
    expect(recorded.notBefore.getTime()).toBeGreaterThan(recorded.firstAttemptAt!.getTime());
  });

  it('claims a due retry from its task and records the second attempt', async () => {
    const { platformOrderId } = await newOrder();
    const accepted = await sut.push({ platform: wireCode, providerOrderId: platformOrderId, action: 'VERIFY' } as never);
    const first = await waitFor('the first attempt', async () => {
      const update = await updates.find(accepted.statusUpdateId);
      return update && update.state === 'retrying' ? update : undefined;
    }, 20_000);
    await waitFor('the retry to fall due', async () => Date.now() > first.notBefore.getTime() || undefined, 60_000);

    await m.ctx.runTask(STATUS_UPDATE_TASK, { statusUpdateId: accepted.statusUpdateId });

    const second = await updates.find(accepted.statusUpdateId);
    expect(second).toMatchObject({ state: 'retrying', attempts: 2, sendingUntil: null, firstAttemptAt: first.firstAttemptAt });
    expect(second!.lastAttemptAt!.getTime()).toBeGreaterThan(first.lastAttemptAt!.getTime());
    expect(second!.lastAnswer).toMatchObject({ outcome: 'retry', error: expect.stringContaining('ECONNREFUSED') });
  });

  it('answers a repeated action with the first update\'s id and stores nothing new', async () => {
    const { platformOrderId, yemekKuryeOrderId } = await newOrder();
    const first = await sut.push({ platform: wireCode, providerOrderId: platformOrderId, action: 'VERIFY' } as never);
    const again = await sut.push({ platform: wireCode, providerOrderId: platformOrderId, action: 'VERIFY' } as never);

    expect(again.statusUpdateId).toBe(first.statusUpdateId);
    expect(again.message).toMatch(/already accepted/);
    const rows = await m.db.sql('SELECT id FROM status_updates WHERE order_id = $1', [yemekKuryeOrderId]);
    expect(rows).toHaveLength(1);
  });

  it('refuses DELIVER before PREPARE (409 DELIVER_BEFORE_PREPARE) and writes nothing', async () => {
    const { platformOrderId, yemekKuryeOrderId } = await newOrder();
    const verify = await sut.push({ platform: wireCode, providerOrderId: platformOrderId, action: 'VERIFY' } as never);
    // Its send's result recorded first: only the refusal can change the rows below.
    await waitFor('the VERIFY attempt', async () => (await updates.find(verify.statusUpdateId))?.state === 'retrying' || undefined, 20_000);
    const before = await m.db.sql('SELECT id, state FROM status_updates WHERE order_id = $1 ORDER BY seq', [yemekKuryeOrderId]);

    const refusal = await problemOf(sut.push({ platform: wireCode, providerOrderId: platformOrderId, action: 'DELIVER' } as never));

    expect(refusal).toBeInstanceOf(ProblemException);
    expect(refusal!.getStatus()).toBe(409);
    expect(refusal!.code).toBe('DELIVER_BEFORE_PREPARE');
    expect(await m.db.sql('SELECT id, state FROM status_updates WHERE order_id = $1 ORDER BY seq', [yemekKuryeOrderId])).toEqual(before);
  });

  it('refuses a push for an order it does not know (404 ORDER_NOT_FOUND) and an unknown platform (422)', async () => {
    const unknown = await problemOf(sut.push({ platform: wireCode, providerOrderId: 'no-such-order', action: 'VERIFY' } as never));
    expect(unknown!.getStatus()).toBe(404);
    expect(unknown!.code).toBe('ORDER_NOT_FOUND');

    const badPlatform = await problemOf(sut.push({ platform: 'NOT_A_PLATFORM', providerOrderId: 'x', action: 'VERIFY' } as never));
    expect(badPlatform!.getStatus()).toBe(422);
    expect(badPlatform!.code).toBe('VALIDATION_ERROR');
  });

  it('refuses every push once the order is cancelled (409 ORDER_CANCELED)', async () => {
    const { platformOrderId } = await newOrder();
    await sut.push({ platform: wireCode, providerOrderId: platformOrderId, action: 'CANCEL', reason: 'Closed early' } as never);

    const refusal = await problemOf(sut.push({ platform: wireCode, providerOrderId: platformOrderId, action: 'PREPARE' } as never));
    expect(refusal!.getStatus()).toBe(409);
    expect(refusal!.code).toBe('ORDER_CANCELED');
  });

  it('books each call once before it is made: four calls of the credentials are sent, the fifth waits for its slot', async () => {
    const integration = await storeIntegration(m.ctx, PLATFORM, { apiKey: 'medium-budget-key' }, { providerMerchantId: '511' });
    const orders = [];
    for (let index = 0; index < 5; index += 1) orders.push(await receivePlatformOrder(m.ctx, integration));
    const attemptOf = (statusUpdateId: string) =>
      waitFor(`update ${statusUpdateId} attempted or waiting`, async () => {
        const update = await updates.find(statusUpdateId);
        return update && (update.state === 'retrying' || update.holdReason === 'PLATFORM_CALL_BUDGET') ? update : undefined;
      }, 20_000);

    const sent = [];
    for (const order of orders.slice(0, 4)) {
      const accepted = await sut.push({ platform: wireCode, providerOrderId: order.platformOrderId, action: 'VERIFY' } as never);
      sent.push(await attemptOf(accepted.statusUpdateId));
    }
    // Each attempted at once: a call booked twice would have left no room for the fourth.
    expect(sent.map((update) => [update.state, update.attempts])).toEqual(Array(4).fill(['retrying', 1]));
    const [budget] = await m.db.sql<{ calls: string[] }>('SELECT calls FROM platform_call_budgets WHERE scope LIKE $1', [`${PLATFORM}:credentials:${integration.integrationId}:%`]);
    expect(budget.calls).toHaveLength(4);

    const fifth = await sut.push({ platform: wireCode, providerOrderId: orders[4].platformOrderId, action: 'VERIFY' } as never);
    const parked = await attemptOf(fifth.statusUpdateId);
    expect(parked).toMatchObject({ state: 'queued', attempts: 0, sendingUntil: null, holdReason: 'PLATFORM_CALL_BUDGET' });
    expect(parked.notBefore.getTime()).toBe(Number(budget.calls[0]) + 600_000);
  });
});
