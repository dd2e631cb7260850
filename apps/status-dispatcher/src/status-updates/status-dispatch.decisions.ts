import type { PlatformCallOutcome, RetryPacing } from '@courier/platforms';
import type { StatusUpdateState } from './dto/status-update.dto';
import type { StoredAnswer } from './status-update.model';

/**
 * What the status dispatcher decides, as pure functions of the facts it read (no database, no
 * clock, no randomness of their own): which send path an update takes, whether it may be claimed
 * now, and what a platform's answer leads to. StatusDispatchWorker and StatusPushService gather
 * the facts and apply the decisions.
 */

/** Room for the call's timeout before another run may take an update over as abandoned. */
export const SENDING_MARGIN_MS = 5_000;
/** HTTP requests one status call makes at most, each bounded by PLATFORM_HTTP_TIMEOUT_MS: a login and two calls. */
export const CALL_REQUESTS_AT_MOST = 3;
/** An update waiting for another run's call, or behind an earlier update, looks again after this at the latest. */
export const RECHECK_MS = 1_000;
/** Immediate sends in flight at most (a slow platform must not pile up calls); past it updates wait in line. */
export const MAX_IMMEDIATE_SENDS = 64;
/** Updates waiting in line for an immediate send at most; past it they go to their tasks, the much slower path (docs/benchmarks.md). */
export const MAX_WAITING_SENDS = 10_000;

export const PENDING_UPDATE_STATES: readonly StatusUpdateState[] = ['queued', 'held', 'retrying'];

export function isPending(state: StatusUpdateState): boolean {
  return PENDING_UPDATE_STATES.includes(state);
}

/** Until when a claim made at `now` holds the update: room for the longest call (a login and two requests: a platform's cancel may read its options first). */
export function sendingUntil(now: Date, httpTimeoutMs: number): Date {
  return new Date(now.getTime() + httpTimeoutMs * CALL_REQUESTS_AT_MOST + SENDING_MARGIN_MS);
}

/** When the task of an update sent at once is due: after that send's claim has run out. */
export function fallbackDueAt(now: Date, httpTimeoutMs: number): Date {
  return new Date(sendingUntil(now, httpTimeoutMs).getTime() + RECHECK_MS);
}

/** `PLATFORM:ACTION`, the key of a step a platform spaces out. */
export function stepKey(platform: string, action: string): string {
  return `${platform}:${action}`;
}

/**
 * The send path of an accepted push (the three paths of the dispatcher):
 * - `task`: held; its durable task wakes it at its release time;
 * - `claimed-at-push`: stored already claimed and sent at once (no claim round trip), when the claim
 *   (decideClaim, on the facts the push read) would claim it now: no earlier update of the order
 *   pending (the write is conditional, so none can be added) and, for a step the platform spaces,
 *   the order's last spaced step sent long enough ago (unknown: left to the claim). It saves the
 *   claim's round trip (measured: docs/benchmarks.md);
 * - `claim-at-once`: sent at once after its claim; its task is the fallback. Kept because a
 *   platform's spaced steps failed the two-replica 401 re-login test without it (docs/benchmarks.md).
 */
export type PushSendPath = 'task' | 'claimed-at-push' | 'claim-at-once';

export interface PushSendFacts {
  held: boolean;
  earlierPending: boolean;
  spacedStep: boolean;
  /** When a spaced step of the order was last sent, as the push read it (null: never; undefined: not read). */
  lastSpacedStepSentAt?: Date | null;
  /** Immediate sends are draining (shutdown): the update's task takes it. */
  stopping: boolean;
}

export function pushSendPath(facts: PushSendFacts, now: Date, stepSpacingMs: number): PushSendPath {
  if (facts.held) return 'task';
  if (facts.stopping) return 'claim-at-once';
  // The update as the push is about to store it: queued, due now, nobody sending it.
  const claim = decideClaim(
    {
      state: 'queued',
      notBefore: now,
      sendingUntil: null,
      blockerNotBefore: facts.earlierPending ? now : null,
      spacedStep: facts.spacedStep,
      // Not read: taken as just sent, so the claim looks at the order's sent steps.
      lastSpacedStepSentAt: facts.lastSpacedStepSentAt === undefined ? now : facts.lastSpacedStepSentAt,
    },
    now,
    facts.lastSpacedStepSentAt === undefined ? Math.max(stepSpacingMs, 1) : stepSpacingMs,
  );
  return claim.kind === 'claim' ? 'claimed-at-push' : 'claim-at-once';
}

/** What a push stores for the send of its update: the path, the claim (claimed at push), and when its task is due. */
export interface PushSendPlan {
  path: PushSendPath;
  claim?: { at: Date; until: Date };
  taskDueAt: Date;
}

/**
 * The send plan of an accepted push: held -> its task at the release; else the task is the
 * fallback, due once an immediate send must be over (after the claim's `sending_until`).
 */
export function pushSendPlan(facts: PushSendFacts & { releaseAt: Date }, now: Date, timing: { stepSpacingMs: number; httpTimeoutMs: number }): PushSendPlan {
  const path = pushSendPath(facts, now, timing.stepSpacingMs);
  if (path === 'task') return { path, taskDueAt: facts.releaseAt };
  const claim = path === 'claimed-at-push' ? { at: now, until: sendingUntil(now, timing.httpTimeoutMs) } : undefined;
  return { path, claim, taskDueAt: fallbackDueAt(now, timing.httpTimeoutMs) };
}

/** The latest `sentAt` of the sent updates whose step is spaced (null: none). */
export function lastSpacedStepSent(updates: ReadonlyArray<{ state: StatusUpdateState; sentAt: Date | null; spacedStep: boolean }>): Date | null {
  return updates.reduce<Date | null>((latest, update) => (update.state === 'sent' && update.spacedStep && update.sentAt && (!latest || update.sentAt > latest) ? update.sentAt : latest), null);
}

/** The latest start of the call of an update claimed at `claimedAt`: half of SENDING_MARGIN_MS after it, so the call ends well before the claim. */
export function claimedStartBy(claimedAt: Date): Date {
  return new Date(claimedAt.getTime() + SENDING_MARGIN_MS / 2);
}

/**
 * Whether an update claimed at its push may still be sent: its call must start while the claim has
 * room for it (half of SENDING_MARGIN_MS after the claim); later, its task takes it over once the
 * claim has run out, so it is never sent twice.
 */
export function mayStillSendClaimed(claimedAt: Date, now: Date): boolean {
  return now.getTime() <= claimedStartBy(claimedAt).getTime();
}

/**
 * What becomes of an update the immediate sends could not take (LaneHandOff): one still to claim
 * gets its task woken now when the line is full; one claimed at its push (or whose start came too
 * late) is its task's once the claim has run out; nothing is done while stopping (the tasks are the
 * durable copies, due at their fallback times).
 */
export type ImmediateHandOff = 'wake-task' | 'leave-to-task' | 'none';

export function immediateHandOff(why: 'full' | 'lease' | 'stopping', claimedAtPush: boolean): ImmediateHandOff {
  if (why === 'stopping') return 'none';
  return claimedAtPush ? 'leave-to-task' : 'wake-task';
}

/** What the claim reads of an update and its order. */
export interface ClaimFacts {
  state: StatusUpdateState;
  notBefore: Date;
  /** Another run calls the platform for it until then (null: nobody). */
  sendingUntil: Date | null;
  /** `not_before` of the order's first earlier pending update (null: none). */
  blockerNotBefore: Date | null;
  /** Whether the platform spaces this update's step. */
  spacedStep: boolean;
  /** When a spaced step of the order was last sent (null: never). */
  lastSpacedStepSentAt: Date | null;
}

/**
 * Whether an update may be sent now: `claim`; it has ended (`nothing`); it must wait for another
 * run's call, its release time or an earlier update (`later`); or it must keep the platform's
 * spacing after the order's last spaced step (`hold` until then: the platform's interval between
 * verify, prepare, handover and deliver). The one rule of when an update is sent: the push's send
 * path is derived from it, and the claim statement only re-checks that no other run took the update.
 */
export type ClaimDecision = { kind: 'nothing' } | { kind: 'later'; at: Date } | { kind: 'hold'; until: Date } | { kind: 'claim' };

export function decideClaim(facts: ClaimFacts, now: Date, stepSpacingMs: number): ClaimDecision {
  if (!isPending(facts.state)) return { kind: 'nothing' };
  // Another run is calling the platform for it: look again once that call must have ended.
  if (facts.sendingUntil && facts.sendingUntil > now) return { kind: 'later', at: new Date(Math.min(facts.sendingUntil.getTime(), now.getTime() + RECHECK_MS)) };
  if (facts.notBefore > now) return { kind: 'later', at: facts.notBefore };
  // Updates reach the platform in order: the earlier one wakes this one when it ends; the recheck
  // only covers a wake-up lost in a crash.
  if (facts.blockerNotBefore) return { kind: 'later', at: new Date(Math.max(facts.blockerNotBefore.getTime(), now.getTime()) + RECHECK_MS) };
  if (facts.spacedStep && facts.lastSpacedStepSentAt) {
    const earliest = new Date(facts.lastSpacedStepSentAt.getTime() + stepSpacingMs);
    if (earliest > now) return { kind: 'hold', until: earliest };
  }
  return { kind: 'claim' };
}

/**
 * Whether a call may go without booking a slot in the platform's call budget: it booked one that has
 * come and is not more than `lateMs` past (a slot claimed too late is booked anew: its call could
 * crowd the window of later bookings).
 */
export function bookedSlotUsable(budgetSlotAt: Date | null, now: Date, lateMs: number): boolean {
  return budgetSlotAt !== null && budgetSlotAt.getTime() <= now.getTime() && now.getTime() - budgetSlotAt.getTime() <= lateMs;
}

/** The slot to wait for after booking (`slot` in epoch ms, undefined: room now), or undefined when the call may go now. */
export function budgetWait(slot: number | undefined, now: number): Date | undefined {
  return slot !== undefined && slot > now ? new Date(slot) : undefined;
}

/** How a status update is retried (STATUS_PUSH_RETRY_*). */
export interface RetryPolicy {
  baseMs: number;
  maxDelayMs: number;
  /** Past this after acceptance it is not tried again. */
  maxAgeMs: number;
}

/** What a retry decision reads of the update. */
export interface AttemptFacts {
  /** Attempts so far, this one included. */
  attempts: number;
  firstAttemptAt: Date | null;
  acceptedAt: Date;
}

/**
 * When to try again after a "not now" answer: the platform's own pacing when it has one (given up
 * once past its window from the first attempt), else exponential backoff with jitter (`jitter` in
 * [0, 1): ±20 %), at least the platform's Retry-After; given up past the policy's maximum age.
 */
export function nextAttempt(
  update: AttemptFacts,
  outcome: { retryAfterMs?: number; pacing?: RetryPacing },
  now: Date,
  policy: RetryPolicy,
  jitter: number,
): { at: Date } | { giveUp: string } {
  if (outcome.pacing) {
    const at = new Date(now.getTime() + outcome.pacing.intervalMs);
    const windowEnd = (update.firstAttemptAt ?? now).getTime() + outcome.pacing.windowMs;
    return at.getTime() > windowEnd ? { giveUp: `${outcome.pacing.rule}: still refused ${Math.round(outcome.pacing.windowMs / 1000)} s after the first attempt` } : { at };
  }
  const backoff = Math.min(policy.baseMs * 2 ** Math.max(0, update.attempts - 1), policy.maxDelayMs) * (0.8 + jitter * 0.4);
  const at = new Date(now.getTime() + Math.max(backoff, outcome.retryAfterMs ?? 0));
  if (at.getTime() - update.acceptedAt.getTime() > policy.maxAgeMs) {
    return { giveUp: `not sent within STATUS_PUSH_RETRY_MAX_AGE_MS (${policy.maxAgeMs} ms) after acceptance; last answer kept` };
  }
  return { at };
}

/** What a platform's answer does to the update: it ends (sent, skipped, failed) or is tried again at `at`. */
export type AnswerDecision =
  | { kind: 'end'; state: 'sent' | 'skipped' | 'failed'; answer: StoredAnswer; error: string | null; sentAt?: Date }
  | { kind: 'retry'; at: Date; answer: StoredAnswer };

export function decideAfterAnswer(update: AttemptFacts, outcome: PlatformCallOutcome, now: Date, policy: RetryPolicy, jitter: number): AnswerDecision {
  const at = now.toISOString();
  switch (outcome.kind) {
    case 'done':
      return { kind: 'end', state: 'sent', answer: { ...outcome.answer, outcome: 'done', alreadyDone: outcome.alreadyDone, at }, error: null, sentAt: now };
    case 'skipped':
      return { kind: 'end', state: 'skipped', answer: { httpStatus: null, body: null, outcome: 'skipped', at }, error: outcome.reason };
    case 'failed':
      return { kind: 'end', state: 'failed', answer: { ...outcome.answer, outcome: 'failed', at }, error: outcome.reason };
    case 'retry': {
      const answer: StoredAnswer = { ...outcome.answer, outcome: 'retry', at };
      const next = nextAttempt(update, outcome, now, policy, jitter);
      return 'giveUp' in next ? { kind: 'end', state: 'failed', answer, error: next.giveUp } : { kind: 'retry', at: next.at, answer };
    }
  }
}
