/**
 * Accept-by deadlines: each platform gives up on a new order nobody accepted or rejected in time
 * (cancels it, and may close the store). Each platform's rule lives in its `*.assumptions.ts`; these
 * are the pieces they share.
 */

/**
 * `start + windowMs`, for a platform that counts its window from a time of its own (the order's
 * checkout or creation). A start after our receipt (clock skew) counts from the receipt instead:
 * the platform's clock cannot have started later than the order reached us.
 */
export function deadlineFrom(start: Date | undefined, receivedAt: Date, windowMs: number): Date {
  const from = start && !Number.isNaN(start.getTime()) && start.getTime() < receivedAt.getTime() ? start : receivedAt;
  return new Date(from.getTime() + windowMs);
}

/** When to warn about an unanswered order: `warningMs` before its deadline, never before it reached us. */
export function acceptanceWarningAt(acceptBy: Date, receivedAt: Date, warningMs: number): Date {
  return new Date(Math.max(receivedAt.getTime(), acceptBy.getTime() - warningMs));
}
