import { OrderStatus } from './order-status';
import { OrderTrigger, TransitionResult, applyTrigger } from './order-transitions';
import { ScheduledOrderTimes, checkScheduledGate } from './scheduled-order';

export interface ThirdPartyOrderState extends ScheduledOrderTimes {
  status: OrderStatus;
}

export type TransitionDecision = TransitionResult | { ok: false; reason: 'ORDER_NOT_DUE'; current: OrderStatus; dueAt: Date };

/**
 * The full check of a trigger on a third-party order. The table goes first: a move it forbids is
 * INVALID_TRANSITION for good, while ORDER_NOT_DUE would wrongly invite a retry later.
 */
export function decideOrderTransition(order: ThirdPartyOrderState, trigger: OrderTrigger, now: Date): TransitionDecision {
  const result = applyTrigger(order.status, trigger);
  if (!result.ok) return result;
  const gate = checkScheduledGate(order, trigger, now);
  if (!gate.ok) return { ok: false, reason: 'ORDER_NOT_DUE', current: order.status, dueAt: gate.dueAt };
  return result;
}
