import { ImmediateSends } from './immediate-sends';
import { StatusDispatchWorker } from './status-dispatch.worker';
import type { ClaimedUpdate } from './status-update.model';
import { StatusUpdateRepository } from './status-update.repository';

/** The immediate send of an update a push stored already claimed (ImmediateSends, then the worker), against fakes of its collaborators. */
describe('the immediate send of an update claimed at its push', () => {
  function setup(bookedSlot?: number) {
    // The booking answers its slot with the time it was decided at (PlatformCallBudgets.book).
    const book = jest.fn(async () => (bookedSlot === undefined ? undefined : { slot: bookedSlot, bookedAt: Date.now() }));
    const sendStatus = jest.fn(async () => ({ kind: 'done' as const, answer: { httpStatus: 200, body: null } }));
    const query = jest.fn(async (_sql: string, _params: unknown[]) => [] as unknown[]);
    const config = { SHUTDOWN_GRACE_MS: 1_000, PLATFORM_CALL_BUDGET_LATE_MS: 500 };
    const worker = new StatusDispatchWorker(
      { registerTask: jest.fn(), tasks: { nudge: jest.fn() } } as never,
      {} as never,
      new StatusUpdateRepository({ query } as never),
      { codes: () => ['PLATFORM_D'], get: () => ({ status: { send: sendStatus } }), config: { PLATFORM_HTTP_TIMEOUT_MS: 1_000 } } as never,
      { credentials: () => ({ apiKey: 'k' }) } as never,
      config as never,
      { recordCall: jest.fn(), finished: { inc: jest.fn() }, budgetWaits: { inc: jest.fn() } } as never,
      { book } as never,
      { keys: [], spaces: () => false, intervalMs: () => undefined } as never,
    );
    return { sends: new ImmediateSends(worker, config as never), sendStatus, query, book };
  }

  function claimed(claimedAt: Date): ClaimedUpdate {
    const claim = { at: claimedAt, until: new Date(claimedAt.getTime() + 7_000) };
    return {
      id: 'u1',
      orderId: 'o1',
      seq: 1,
      platform: 'PLATFORM_D',
      providerOrderId: 'p1',
      action: 'VERIFY',
      previousStatus: null,
      reason: null,
      state: 'queued',
      holdReason: null,
      notBefore: claimedAt,
      attempts: 1,
      sendingUntil: claim.until,
      firstAttemptAt: claim.at,
      lastAttemptAt: claim.at,
      sentAt: null,
      lastAnswer: null,
      lastError: null,
      budgetSlotAt: null,
      acceptedAt: claimedAt,
      correlationId: null,
      integrationId: 'i1',
      platformData: {},
      integration: { integrationId: 'i1', providerRestaurantId: 'r1', settings: {}, secrets: {} },
    };
  }

  const settle = (sends: ImmediateSends) => sends.beforeApplicationShutdown();

  it('calls the platform without a claim statement and stores the end in one statement', async () => {
    const { sends, sendStatus, query } = setup();
    sends.send(claimed(new Date()));
    await settle(sends);
    expect(sendStatus).toHaveBeenCalledTimes(1);
    expect(query).toHaveBeenCalledTimes(1);
    expect(query.mock.calls[0][0]).toMatch(/^WITH ended AS \(\s*UPDATE status_updates SET state = \$2/);
    expect(query.mock.calls[0][1].slice(0, 2)).toEqual(['u1', 'sent']);
  });

  it('leaves an update that waited past half the claim margin to its task: no call, nothing written', async () => {
    const { sends, sendStatus, query } = setup();
    sends.send(claimed(new Date(Date.now() - 2_600)));
    await settle(sends);
    expect(sendStatus).not.toHaveBeenCalled();
    expect(query).not.toHaveBeenCalled();
  });

  it('books the call in the platform\'s budget first; with no room now, the update waits queued for its slot, nothing sent, the attempt not counted', async () => {
    const slot = Date.now() + 60_000;
    const { sends, sendStatus, query, book } = setup(slot);
    sends.send(claimed(new Date()));
    await settle(sends);
    expect(book).toHaveBeenCalledWith('PLATFORM_D', expect.objectContaining({ apiKey: 'k' }), 'VERIFY');
    expect(sendStatus).not.toHaveBeenCalled();
    expect(query.mock.calls[0][0]).toMatch(/SET state = 'queued', hold_reason = 'PLATFORM_CALL_BUDGET', not_before = \$2, budget_slot_at = \$2, sending_until = NULL,\s+attempts = attempts - 1/);
    expect(query.mock.calls[0][1]).toEqual(['u1', new Date(slot)]);
    // Its task is moved to the slot.
    expect(query.mock.calls[1]).toEqual([expect.stringMatching(/^UPDATE scheduled_tasks SET due_at/), ['status-update:u1', new Date(slot)]]);
  });

  it('calls at once when its booked slot has come (no second booking)', async () => {
    const { sends, sendStatus, book } = setup(Date.now() + 60_000);
    sends.send({ ...claimed(new Date()), budgetSlotAt: new Date(Date.now() - 10) });
    await settle(sends);
    expect(book).not.toHaveBeenCalled();
    expect(sendStatus).toHaveBeenCalledTimes(1);
  });

  it('sends nothing once shutting down (the task takes it over after the claim)', async () => {
    const { sends, sendStatus } = setup();
    await settle(sends);
    sends.send(claimed(new Date()));
    await settle(sends);
    expect(sendStatus).not.toHaveBeenCalled();
  });
});
