import type { StatusPushAction } from '@courier/domain';

/**
 * What a budget counts: a status action, a platform read the pollers book (`poll:<name>`), or an
 * availability call (`availability:store`, `availability:product`, `availability:read`).
 */
export type BudgetedCall = StatusPushAction | `poll:${string}` | `availability:${string}` | `catalog:${string}`;

/**
 * One limit of a platform: at most `limit` requests in any `windowMs`, per set of credentials. The
 * numbers are ours, below the platform's documented ones (see each `*.assumptions.ts`), because the
 * budget sees only the status calls it books: a 401's repeated call and a call reaching the platform
 * a little after its slot are covered by that margin.
 */
export interface CallBudgetScope {
  /** Name within the platform ('token', 'cancel-options', an endpoint). */
  name: string;
  limit: number;
  windowMs: number;
  /** Requests each status action (or budgeted poll) makes in this scope (one absent makes none). */
  requests: Partial<Record<BudgetedCall, number>>;
}

/** A platform's call budget: every scope must have room before a status call is made. */
export interface CallBudget {
  scopes: readonly CallBudgetScope[];
}

/** A scope as a booking sees it: its limit and the times (epoch ms, ascending) of its latest booked calls. */
export interface BudgetLog {
  limit: number;
  windowMs: number;
  calls: readonly number[];
  /** Requests this booking adds to the scope. */
  count: number;
}

/** The slot of a booked call and each scope's log with it (the last `limit` calls, expired ones dropped). */
export interface BudgetBooking {
  at: number;
  calls: number[][];
}

/**
 * The earliest time, not before `now`, at which every scope has room for its `count` requests, and
 * the logs with them booked then. Bookings never go before the latest booking of a scope (a backlog
 * is served first come, first served), so the calls of a scope stay sorted and any window ending at
 * a new booking is the fullest one it joins: room means the request `limit - count` places before the
 * end of the log has left the window. Only the last `limit` calls can matter, so that is all a log keeps.
 */
export function bookCallBudget(logs: readonly BudgetLog[], now: number): BudgetBooking {
  let at = now;
  for (const log of logs) {
    if (log.count > log.limit) throw new RangeError(`a call of ${log.count} requests can never fit a budget of ${log.limit}`);
    const { calls } = log;
    if (calls.length > 0) at = Math.max(at, calls[calls.length - 1]);
    const leaving = calls.length + log.count - log.limit - 1;
    if (leaving >= 0) at = Math.max(at, calls[leaving] + log.windowMs);
  }
  return {
    at,
    calls: logs.map((log) => [...log.calls.filter((call) => call > at - log.windowMs), ...Array<number>(log.count).fill(at)].slice(-log.limit)),
  };
}

/** The scopes an action books, with its number of requests in each (scopes it makes no request in left out). */
export function budgetScopesOf(budget: CallBudget | undefined, action: BudgetedCall): Array<{ scope: CallBudgetScope; count: number }> {
  return (budget?.scopes ?? []).map((scope) => ({ scope, count: scope.requests[action] ?? 0 })).filter((entry) => entry.count > 0);
}
