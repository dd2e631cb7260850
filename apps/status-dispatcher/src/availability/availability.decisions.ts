import type { StoreAvailabilityState } from '@courier/contracts';

/**
 * What the availability machinery decides, as pure functions of the facts read (no database, no
 * clock of their own): whether a request is well formed beyond its DTO, and what a state the
 * platform reports means (confirmation, or a change of the platform's own to publish once).
 */

/** Longest `until` accepted: a timed close is for hours or days, not a permanent change. */
export const MAX_UNTIL_AHEAD_MS = 31 * 24 * 3_600_000;

export interface StoreRequestFacts {
  state: StoreAvailabilityState;
  until?: Date;
  busyMinutes?: number;
}

/** A request's problem beyond its DTO's field checks: `code` is the problem JSON's code. */
export interface RequestProblem {
  code: 'UNTIL_IN_PAST' | 'VALIDATION_ERROR';
  field: string;
  message: string;
}

export function storeRequestProblem(request: StoreRequestFacts, now: Date): RequestProblem | undefined {
  if (request.state === 'BUSY' && request.busyMinutes === undefined) return { code: 'VALIDATION_ERROR', field: 'busyMinutes', message: 'is required when state is BUSY' };
  if (request.state !== 'BUSY' && request.busyMinutes !== undefined) return { code: 'VALIDATION_ERROR', field: 'busyMinutes', message: 'is only for state BUSY' };
  if (request.state === 'OPEN' && request.until !== undefined) return { code: 'VALIDATION_ERROR', field: 'until', message: 'is only for CLOSED or BUSY (OPEN lasts until the next change)' };
  return untilProblem(request.until, now);
}

export function productRequestProblem(request: { available: boolean; until?: Date }, now: Date): RequestProblem | undefined {
  if (request.available && request.until !== undefined) return { code: 'VALIDATION_ERROR', field: 'until', message: 'is only for available: false (sold out until then)' };
  return untilProblem(request.until, now);
}

function untilProblem(until: Date | undefined, now: Date): RequestProblem | undefined {
  if (until === undefined) return undefined;
  if (until.getTime() <= now.getTime()) return { code: 'UNTIL_IN_PAST', field: 'until', message: 'must be in the future' };
  if (until.getTime() - now.getTime() > MAX_UNTIL_AHEAD_MS) return { code: 'VALIDATION_ERROR', field: 'until', message: 'must be at most 31 days ahead' };
  return undefined;
}

/** Whether a platform's reported state is the one asked: a store busy on our side takes orders, as OPEN (busy mode is rarely readable). */
export function sameAvailability(asked: StoreAvailabilityState, reported: StoreAvailabilityState): boolean {
  const takesOrders = (state: StoreAvailabilityState) => state !== 'CLOSED';
  return takesOrders(asked) === takesOrders(reported);
}

export interface PlatformReportFacts {
  /** What was asked last (null: never asked). */
  asked: StoreAvailabilityState | null;
  /** A command of the store is queued, retrying or being sent: the platform may not have it yet. */
  commandPending: boolean;
  reported: StoreAvailabilityState;
  /** The platform's state seen before this report (null: none seen). */
  previouslySeen: StoreAvailabilityState | null;
  /** The state last published as the platform's own change (null: none, or it came back as asked). */
  lastPublished: StoreAvailabilityState | null;
}

export interface PlatformReportDecision {
  /** Publish restaurant.availability_changed for this report. */
  publish: boolean;
  /** The platform reports what was asked: record it as confirmed. */
  confirms: boolean;
  /** The new `lastPublished`. */
  lastPublished: StoreAvailabilityState | null;
}

/**
 * A state the platform reports (read back, or its own call). Published once per change: a report
 * differing from what was asked, unless the same state was published already and has not come back
 * as asked since. Nothing is published while a command of ours is on its way (the platform may not
 * have it yet). Nothing asked: a change of the platform's state from the one seen before.
 */
export function decidePlatformReport(facts: PlatformReportFacts): PlatformReportDecision {
  if (facts.commandPending) return { publish: false, confirms: false, lastPublished: facts.lastPublished };
  if (facts.asked !== null) {
    if (sameAvailability(facts.asked, facts.reported)) return { publish: false, confirms: facts.asked === facts.reported, lastPublished: null };
    return { publish: facts.lastPublished !== facts.reported, confirms: false, lastPublished: facts.reported };
  }
  const changed = facts.previouslySeen !== null && facts.previouslySeen !== facts.reported && facts.lastPublished !== facts.reported;
  return { publish: changed, confirms: false, lastPublished: changed ? facts.reported : facts.lastPublished };
}
