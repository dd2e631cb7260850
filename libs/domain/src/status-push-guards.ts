import { OrderStatus } from './order-status';
import { StatusPushAction } from './status-push-actions';

export const DEFAULT_PREPARE_HOLD_MS = 60_000;

/** A status update already accepted for the order (queued, held, sent or being retried). */
export interface AcceptedStatusUpdate {
  statusUpdateId: string;
  action: StatusPushAction;
  acceptedAt: Date;
  /** While the update is held in the queue: when it is released. */
  releaseAt?: Date | null;
}

export interface StatusPushHistory {
  accepted: readonly AcceptedStatusUpdate[];
  /** When the order was approved (VERIFY sent, or approved on the platform itself). */
  approvedAt?: Date | null;
  /** The order's current status, to catch a cancellation that did not come through a push. */
  orderStatus?: OrderStatus;
}

/** A platform's own rules the guards apply: the caller passes them from the platform's definition. */
export interface StatusPushRules {
  /** PREPARE waits `holdMs` after approval (the platform refuses a step sooner). */
  holdsPrepareAfterApproval?: boolean;
}

export interface StatusPushOptions {
  /** How long PREPARE waits after approval on a platform whose rules hold it (its configured hold). */
  holdMs?: number;
}

export type StatusPushRefusal = 'DELIVER_BEFORE_PREPARE' | 'ALREADY_VERIFIED' | 'ORDER_CANCELED';

export type StatusPushDecision =
  | { decision: 'duplicate'; of: string }
  | { decision: 'refuse'; code: StatusPushRefusal }
  | { decision: 'hold'; releaseAt: Date; reason: 'PREPARE_HOLD' | 'BEHIND_HELD_UPDATE' }
  | { decision: 'dispatch' };

const CANCELING_ACTIONS: readonly StatusPushAction[] = ['CANCEL', 'REJECT'];
const PREPARING_ACTIONS: readonly StatusPushAction[] = ['PREPARE', 'HANDOVER'];
const PREPARED_OR_LATER: readonly OrderStatus[] = ['PREPARED', 'ON_DELIVERY', 'DELIVERED'];

/**
 * Decides what happens to a status push. Precedence, first match wins:
 * 1. duplicate (guard 5): a repeat of an accepted action gets the first statusUpdateId back, whatever
 *    happened since. A retrying client must see the answer the first call had, and a repeat changes
 *    nothing; so a repeated VERIFY is a duplicate, not ALREADY_VERIFIED, and a repeated CANCEL is a
 *    duplicate, not ORDER_CANCELED.
 * 2. ORDER_CANCELED (guard 3): nothing new is accepted once the order is cancelled.
 * 3. ALREADY_VERIFIED (guard 2) and DELIVER_BEFORE_PREPARE (guard 1): they concern different actions,
 *    so their mutual order does not matter. ALREADY_VERIFIED thus only fires for an order approved
 *    without an accepted VERIFY (approvedAt known, for example approved on the platform).
 * 4. hold (guard 4, PREPARE less than holdMs after approval where the platform's rules hold it), and any update accepted
 *    behind a still-held one waits until that one is released, so the platform sees them in order.
 * 5. dispatch.
 */
export function evaluateStatusPush(
  history: StatusPushHistory,
  action: StatusPushAction,
  rules: StatusPushRules,
  now: Date,
  options: StatusPushOptions = {},
): StatusPushDecision {
  const earlier = firstAccepted(history.accepted, action);
  if (earlier) return { decision: 'duplicate', of: earlier.statusUpdateId };

  const canceled = history.orderStatus === 'CANCELED' || history.accepted.some((update) => CANCELING_ACTIONS.includes(update.action));
  if (canceled) return { decision: 'refuse', code: 'ORDER_CANCELED' };

  if (action === 'VERIFY' && history.approvedAt) return { decision: 'refuse', code: 'ALREADY_VERIFIED' };

  if (action === 'DELIVER') {
    const prepared =
      history.accepted.some((update) => PREPARING_ACTIONS.includes(update.action)) ||
      (history.orderStatus !== undefined && PREPARED_OR_LATER.includes(history.orderStatus));
    if (!prepared) return { decision: 'refuse', code: 'DELIVER_BEFORE_PREPARE' };
  }

  return holdOrDispatch(history, action, rules, now, options.holdMs ?? DEFAULT_PREPARE_HOLD_MS);
}

function holdOrDispatch(
  history: StatusPushHistory,
  action: StatusPushAction,
  rules: StatusPushRules,
  now: Date,
  holdMs: number,
): StatusPushDecision {
  let hold: { releaseAt: Date; reason: 'PREPARE_HOLD' | 'BEHIND_HELD_UPDATE' } | undefined;

  const approvedAt = approvalTime(history);
  if (rules.holdsPrepareAfterApproval && action === 'PREPARE' && approvedAt) {
    const releaseAt = new Date(approvedAt.getTime() + holdMs);
    if (now.getTime() < releaseAt.getTime()) hold = { releaseAt, reason: 'PREPARE_HOLD' };
  }

  for (const update of history.accepted) {
    const releaseAt = update.releaseAt;
    if (releaseAt && releaseAt.getTime() > now.getTime() && (!hold || releaseAt.getTime() > hold.releaseAt.getTime())) {
      hold = { releaseAt, reason: 'BEHIND_HELD_UPDATE' };
    }
  }

  return hold ? { decision: 'hold', ...hold } : { decision: 'dispatch' };
}

/** The given approval time, else the acceptance of the VERIFY push; none means nothing to wait for. */
function approvalTime(history: StatusPushHistory): Date | undefined {
  return history.approvedAt ?? firstAccepted(history.accepted, 'VERIFY')?.acceptedAt;
}

function firstAccepted(accepted: readonly AcceptedStatusUpdate[], action: StatusPushAction): AcceptedStatusUpdate | undefined {
  let first: AcceptedStatusUpdate | undefined;
  for (const update of accepted) {
    if (update.action === action && (!first || update.acceptedAt.getTime() < first.acceptedAt.getTime())) first = update;
  }
  return first;
}
