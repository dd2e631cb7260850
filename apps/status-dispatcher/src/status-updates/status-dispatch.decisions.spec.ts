import { lanePlace } from '@courier/messaging';
import type { PlatformCallOutcome } from '@courier/platforms';
import {
  bookedSlotUsable,
  budgetWait,
  ClaimFacts,
  decideAfterAnswer,
  decideClaim,
  fallbackDueAt,
  immediateHandOff,
  lastSpacedStepSent,
  MAX_IMMEDIATE_SENDS,
  MAX_WAITING_SENDS,
  mayStillSendClaimed,
  nextAttempt,
  pushSendPath,
  RECHECK_MS,
  SENDING_MARGIN_MS,
  sendingUntil,
} from './status-dispatch.decisions';

const now = new Date('2026-01-01T12:00:00.000Z');
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);
const HOLD_MS = 60_000;

describe('pushSendPath', () => {
  const common = { held: false, earlierPending: false, spacedStep: false, stopping: false };

  it('a held update goes to its task, whatever else holds', () => {
    expect(pushSendPath({ ...common, held: true }, now, HOLD_MS)).toBe('task');
    expect(pushSendPath({ held: true, earlierPending: true, spacedStep: true, stopping: true }, now, HOLD_MS)).toBe('task');
  });

  it('the common case is stored claimed at the push', () => {
    expect(pushSendPath(common, now, HOLD_MS)).toBe('claimed-at-push');
  });

  it.each([
    ['an earlier update of the order is pending', { earlierPending: true }],
    ['the platform spaces the step (the claim must look at the sent steps)', { spacedStep: true }],
    ['the worker is stopping', { stopping: true }],
  ])('is claimed at once after the write when %s', (_why, facts) => {
    expect(pushSendPath({ ...common, ...facts }, now, HOLD_MS)).toBe('claim-at-once');
  });
});

describe('pushSendPath is the claim rule (decideClaim) on what the push read', () => {
  const common = { held: false, earlierPending: false, spacedStep: true, stopping: false };

  it('claims a spaced step at the push once the order\'s last spaced step is older than the spacing (or none was sent)', () => {
    expect(pushSendPath({ ...common, lastSpacedStepSentAt: null }, now, HOLD_MS)).toBe('claimed-at-push');
    expect(pushSendPath({ ...common, lastSpacedStepSentAt: at(-HOLD_MS) }, now, HOLD_MS)).toBe('claimed-at-push');
  });

  it('leaves a spaced step within the spacing to the claim (which holds it until then)', () => {
    expect(pushSendPath({ ...common, lastSpacedStepSentAt: at(-HOLD_MS + 1) }, now, HOLD_MS)).toBe('claim-at-once');
    expect(decideClaim({ state: 'queued', notBefore: now, sendingUntil: null, blockerNotBefore: null, spacedStep: true, lastSpacedStepSentAt: at(-HOLD_MS + 1) }, now, HOLD_MS)).toEqual({ kind: 'hold', until: at(1) });
  });

  it('the last spaced step sent is the latest sent update of a spaced step', () => {
    expect(
      lastSpacedStepSent([
        { state: 'sent', sentAt: at(-3), spacedStep: true },
        { state: 'sent', sentAt: at(-1), spacedStep: false },
        { state: 'queued', sentAt: null, spacedStep: true },
        { state: 'sent', sentAt: at(-2), spacedStep: true },
      ]),
    ).toEqual(at(-2));
    expect(lastSpacedStepSent([])).toBeNull();
  });
});

describe('immediate sends: the lane\'s place and what a hand-off does', () => {
  const room = { stopping: false, leaseOver: false, waiting: 0, lineLimit: MAX_WAITING_SENDS };

  it('starts a send while fewer than MAX_IMMEDIATE_SENDS run', () => {
    expect(lanePlace({ ...room, free: MAX_IMMEDIATE_SENDS - (MAX_IMMEDIATE_SENDS - 1) })).toBe('run');
    expect(lanePlace({ ...room, free: 1, waiting: MAX_WAITING_SENDS })).toBe('run');
  });

  it('puts it in line when the sends are all taken and the line has room', () => {
    expect(lanePlace({ ...room, free: 0, waiting: MAX_WAITING_SENDS - 1 })).toBe('line');
  });

  it('with a full line, wakes the task of an update to claim and leaves one claimed at its push to its task', () => {
    expect(lanePlace({ ...room, free: 0, waiting: MAX_WAITING_SENDS })).toBe('full');
    expect(immediateHandOff('full', false)).toBe('wake-task');
    expect(immediateHandOff('full', true)).toBe('leave-to-task');
    expect(immediateHandOff('lease', true)).toBe('leave-to-task');
  });

  it('does nothing once stopping (the task is the durable copy)', () => {
    expect(lanePlace({ ...room, free: 1, stopping: true })).toBe('stopping');
    expect(immediateHandOff('stopping', false)).toBe('none');
    expect(immediateHandOff('stopping', true)).toBe('none');
  });
});

describe('claim times', () => {
  it('a claim holds for three requests and the margin; the fallback task is due a recheck later', () => {
    expect(sendingUntil(now, 2_000)).toEqual(at(3 * 2_000 + SENDING_MARGIN_MS));
    expect(fallbackDueAt(now, 2_000)).toEqual(at(3 * 2_000 + SENDING_MARGIN_MS + RECHECK_MS));
  });

  it('an update claimed at its push may be sent until half the margin after the claim', () => {
    expect(mayStillSendClaimed(now, at(SENDING_MARGIN_MS / 2))).toBe(true);
    expect(mayStillSendClaimed(now, at(SENDING_MARGIN_MS / 2 + 1))).toBe(false);
  });
});

describe('decideClaim', () => {
  const due: ClaimFacts = { state: 'queued', notBefore: at(-1), sendingUntil: null, blockerNotBefore: null, spacedStep: false, lastSpacedStepSentAt: null };

  it.each(['queued', 'held', 'retrying'] as const)('claims a due %s update first of its order', (state) => {
    expect(decideClaim({ ...due, state }, now, HOLD_MS)).toEqual({ kind: 'claim' });
  });

  it.each(['sent', 'skipped', 'failed'] as const)('leaves an update that is %s', (state) => {
    expect(decideClaim({ ...due, state, sendingUntil: at(10_000) }, now, HOLD_MS)).toEqual({ kind: 'nothing' });
  });

  it('claims an update whose previous claim has run out (its run died)', () => {
    expect(decideClaim({ ...due, sendingUntil: now }, now, HOLD_MS)).toEqual({ kind: 'claim' });
  });

  it('while another run calls the platform, looks again when that call must be over, a recheck at the latest', () => {
    expect(decideClaim({ ...due, sendingUntil: at(300) }, now, HOLD_MS)).toEqual({ kind: 'later', at: at(300) });
    expect(decideClaim({ ...due, sendingUntil: at(30_000) }, now, HOLD_MS)).toEqual({ kind: 'later', at: at(RECHECK_MS) });
  });

  it('waits for its release time', () => {
    expect(decideClaim({ ...due, state: 'held', notBefore: at(5_000) }, now, HOLD_MS)).toEqual({ kind: 'later', at: at(5_000) });
  });

  it('behind an earlier pending update, looks again a recheck after that one is due', () => {
    expect(decideClaim({ ...due, blockerNotBefore: at(-5_000) }, now, HOLD_MS)).toEqual({ kind: 'later', at: at(RECHECK_MS) });
    expect(decideClaim({ ...due, blockerNotBefore: at(20_000) }, now, HOLD_MS)).toEqual({ kind: 'later', at: at(20_000 + RECHECK_MS) });
  });

  it('holds a spaced step until the spacing after the order\'s last spaced step (PLATFORM_A: 60 s)', () => {
    expect(decideClaim({ ...due, spacedStep: true, lastSpacedStepSentAt: at(-10_000) }, now, HOLD_MS)).toEqual({ kind: 'hold', until: at(50_000) });
  });

  it('claims a spaced step once the spacing has passed, or with no spaced step sent before', () => {
    expect(decideClaim({ ...due, spacedStep: true, lastSpacedStepSentAt: at(-HOLD_MS) }, now, HOLD_MS)).toEqual({ kind: 'claim' });
    expect(decideClaim({ ...due, spacedStep: true, lastSpacedStepSentAt: null }, now, HOLD_MS)).toEqual({ kind: 'claim' });
  });

  it('does not space a step the platform does not space', () => {
    expect(decideClaim({ ...due, spacedStep: false, lastSpacedStepSentAt: at(-1_000) }, now, HOLD_MS)).toEqual({ kind: 'claim' });
  });

  it('an earlier pending update comes before the spacing, the release time before both', () => {
    const all = { ...due, notBefore: at(2_000), blockerNotBefore: at(4_000), spacedStep: true, lastSpacedStepSentAt: at(-1_000) };
    expect(decideClaim(all, now, HOLD_MS)).toEqual({ kind: 'later', at: at(2_000) });
    expect(decideClaim({ ...all, notBefore: at(-1) }, now, HOLD_MS)).toEqual({ kind: 'later', at: at(4_000 + RECHECK_MS) });
  });
});

describe('call budget', () => {
  it('a booked slot is used when it has come and is at most lateMs past', () => {
    expect(bookedSlotUsable(now, now, 500)).toBe(true);
    expect(bookedSlotUsable(at(-500), now, 500)).toBe(true);
    expect(bookedSlotUsable(at(-501), now, 500)).toBe(false);
    expect(bookedSlotUsable(at(1), now, 500)).toBe(false);
    expect(bookedSlotUsable(null, now, 500)).toBe(false);
  });

  it('after booking, waits only for a slot still to come', () => {
    expect(budgetWait(undefined, now.getTime())).toBeUndefined();
    expect(budgetWait(now.getTime(), now.getTime())).toBeUndefined();
    expect(budgetWait(now.getTime() + 1, now.getTime())).toEqual(at(1));
  });
});

describe('nextAttempt', () => {
  const policy = { baseMs: 1_000, maxDelayMs: 60_000, maxAgeMs: 3_600_000 };
  const update = { attempts: 1, firstAttemptAt: now, acceptedAt: now };

  it('backs off exponentially from the base, capped, with ±20 % jitter', () => {
    expect(nextAttempt(update, {}, now, policy, 0.5)).toEqual({ at: at(1_000) });
    expect(nextAttempt({ ...update, attempts: 3 }, {}, now, policy, 0.5)).toEqual({ at: at(4_000) });
    expect(nextAttempt({ ...update, attempts: 30 }, {}, now, policy, 0.5)).toEqual({ at: at(60_000) });
    expect(nextAttempt(update, {}, now, policy, 0)).toEqual({ at: at(800) });
    expect(nextAttempt(update, {}, now, policy, 0.999999)).toEqual({ at: at(1_000 * (0.8 + 0.999999 * 0.4)) });
  });

  it("waits at least the platform's Retry-After", () => {
    expect(nextAttempt(update, { retryAfterMs: 30_000 }, now, policy, 0.5)).toEqual({ at: at(30_000) });
    expect(nextAttempt(update, { retryAfterMs: 10 }, now, policy, 0.5)).toEqual({ at: at(1_000) });
  });

  it('gives up when the next attempt would be past the maximum age after acceptance', () => {
    const old = { ...update, acceptedAt: at(-policy.maxAgeMs + 999) };
    expect(nextAttempt(old, {}, now, policy, 0.5)).toEqual({ giveUp: expect.stringContaining('STATUS_PUSH_RETRY_MAX_AGE_MS (3600000 ms)') });
    expect(nextAttempt({ ...update, acceptedAt: at(-policy.maxAgeMs + 1_000) }, {}, now, policy, 0.5)).toEqual({ at: at(1_000) });
  });

  it("follows the platform's pacing within its window from the first attempt, then gives up", () => {
    const pacing = { rule: 'RULE_409', intervalMs: 5_000, windowMs: 30_000 };
    expect(nextAttempt({ ...update, attempts: 5, firstAttemptAt: at(-10_000) }, { pacing, retryAfterMs: 99_000 }, now, policy, 0.5)).toEqual({ at: at(5_000) });
    expect(nextAttempt({ ...update, firstAttemptAt: at(-25_000) }, { pacing }, now, policy, 0.5)).toEqual({ at: at(5_000) });
    expect(nextAttempt({ ...update, firstAttemptAt: at(-25_001) }, { pacing }, now, policy, 0.5)).toEqual({ giveUp: 'RULE_409: still refused 30 s after the first attempt' });
    expect(nextAttempt({ ...update, firstAttemptAt: null }, { pacing: { ...pacing, windowMs: 1_000 } }, now, policy, 0.5)).toEqual({ giveUp: 'RULE_409: still refused 1 s after the first attempt' });
  });
});

describe('decideAfterAnswer', () => {
  const policy = { baseMs: 1_000, maxDelayMs: 60_000, maxAgeMs: 3_600_000 };
  const update = { attempts: 1, firstAttemptAt: now, acceptedAt: now };
  const answer = { httpStatus: 200, body: { ok: true } };
  const decide = (outcome: PlatformCallOutcome, facts = update) => decideAfterAnswer(facts, outcome, now, policy, 0.5);

  it('done: sent now, with the answer and whether the platform had it already', () => {
    expect(decide({ kind: 'done', answer, alreadyDone: true })).toEqual({
      kind: 'end',
      state: 'sent',
      answer: { ...answer, outcome: 'done', alreadyDone: true, at: now.toISOString() },
      error: null,
      sentAt: now,
    });
  });

  it('skipped: ends skipped with its reason, no answer', () => {
    expect(decide({ kind: 'skipped', reason: 'nothing to send' })).toEqual({
      kind: 'end',
      state: 'skipped',
      answer: { httpStatus: null, body: null, outcome: 'skipped', at: now.toISOString() },
      error: 'nothing to send',
    });
  });

  it('failed: ends failed with the answer and its reason', () => {
    expect(decide({ kind: 'failed', answer: { httpStatus: 400, body: 'no' }, reason: 'refused' })).toEqual({
      kind: 'end',
      state: 'failed',
      answer: { httpStatus: 400, body: 'no', outcome: 'failed', at: now.toISOString() },
      error: 'refused',
    });
  });

  it('retry: tried again at the next attempt, the answer kept', () => {
    expect(decide({ kind: 'retry', answer: { httpStatus: 503, body: null } })).toEqual({
      kind: 'retry',
      at: at(1_000),
      answer: { httpStatus: 503, body: null, outcome: 'retry', at: now.toISOString() },
    });
  });

  it('retry past the maximum age: failed with the last answer kept', () => {
    expect(decide({ kind: 'retry', answer: { httpStatus: 503, body: null } }, { ...update, acceptedAt: at(-policy.maxAgeMs) })).toEqual({
      kind: 'end',
      state: 'failed',
      answer: { httpStatus: 503, body: null, outcome: 'retry', at: now.toISOString() },
      error: expect.stringContaining('not sent within STATUS_PUSH_RETRY_MAX_AGE_MS'),
    });
  });
});
