import { OrderTrigger } from './order-transitions';

/** A scheduled order is finally approved (and gets a courier) this long before its delivery time. */
export const FINAL_APPROVAL_LEAD_MS = 60 * 60 * 1000;

/** Triggers that need a courier, hence wait for the final approval of a scheduled order. */
export const TRIGGERS_AWAITING_FINAL_APPROVAL: readonly OrderTrigger[] = ['ROUTE', 'ASSIGN'];

export interface ScheduledOrderTimes {
  /** Requested delivery time; absent for an order to deliver as soon as possible. */
  scheduledDeliveryTime?: Date | null;
  /** When intake accepted the order. */
  acceptedAt: Date;
  /** When the service marked the final approval; absent until then. */
  finalApprovedAt?: Date | null;
}

export type ScheduledGateResult = { ok: true } | { ok: false; reason: 'ORDER_NOT_DUE'; dueAt: Date };

/** Scheduled means delivery more than one hour after acceptance: exactly one hour is an ordinary order. */
export function isScheduledOrder(order: ScheduledOrderTimes): boolean {
  if (!order.scheduledDeliveryTime) return false;
  // NaN on either side compares false, so an unreadable time never makes an order scheduled.
  return order.scheduledDeliveryTime.getTime() - order.acceptedAt.getTime() > FINAL_APPROVAL_LEAD_MS;
}

export function finalApprovalDueAt(scheduledDeliveryTime: Date): Date {
  return new Date(scheduledDeliveryTime.getTime() - FINAL_APPROVAL_LEAD_MS);
}

/** Whether the final approval should be marked now (the scheduler's question); the caller skips final statuses. */
export function isFinalApprovalDue(order: ScheduledOrderTimes, now: Date): boolean {
  if (!isScheduledOrder(order) || order.finalApprovedAt) return false;
  return now.getTime() >= finalApprovalDueAt(order.scheduledDeliveryTime as Date).getTime();
}

/**
 * ROUTE and ASSIGN of a scheduled order wait for the final approval. The gate opens at the due time
 * even when the marking job has not run yet, so a late scheduler never blocks an on-time assignment.
 */
export function checkScheduledGate(order: ScheduledOrderTimes, trigger: OrderTrigger, now: Date): ScheduledGateResult {
  if (!TRIGGERS_AWAITING_FINAL_APPROVAL.includes(trigger)) return { ok: true };
  if (!isScheduledOrder(order) || order.finalApprovedAt) return { ok: true };
  const dueAt = finalApprovalDueAt(order.scheduledDeliveryTime as Date);
  return now.getTime() >= dueAt.getTime() ? { ok: true } : { ok: false, reason: 'ORDER_NOT_DUE', dueAt };
}
