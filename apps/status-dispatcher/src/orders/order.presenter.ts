import { OrderDto, OrderStatusChangeDto } from './dto/order.dto';
import { isFinalOrderStatus } from '@courier/domain';
import type { Order, OrderAcceptance, OrderStatusChange } from './order.model';

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

export function presentStatusChange(change: OrderStatusChange): OrderStatusChangeDto {
  return {
    sequence: change.sequence,
    status: change.status,
    previousStatus: change.previousStatus,
    trigger: change.trigger,
    timestamp: change.occurredAt.toISOString(),
    reason: change.reason,
    cancelReasonId: change.cancelReasonId,
    canceledBy: change.canceledBy,
  };
}

/**
 * Overdue: past its accept-by time, not finished, and no VERIFY, REJECT or CANCEL of it reached the
 * platform (which gives up on such an order).
 */
export function isAcceptanceOverdue(order: Pick<Order, 'status'>, acceptance: OrderAcceptance, now: Date): boolean {
  return acceptance.acceptBy !== null && acceptance.acceptBy.getTime() <= now.getTime() && !acceptance.answered && !isFinalOrderStatus(order.status);
}

/** The order with its history (given oldest first), as the internal endpoints answer; its acceptance when read (platform orders). */
export function presentOrder(order: Order, history: OrderStatusChange[], acceptance: OrderAcceptance = { acceptBy: null, answered: false }, now = new Date()): OrderDto {
  return {
    id: order.id,
    orderId: order.orderId,
    orderNumber: order.orderNumber,
    restaurantId: order.restaurantId,
    provider: order.provider,
    providerRestaurantId: order.providerRestaurantId,
    status: order.status,
    sequence: order.sequence,
    receivedAt: order.receivedAt.toISOString(),
    scheduledDeliveryTime: iso(order.scheduledDeliveryTime),
    finalApprovalDueAt: iso(order.finalApprovalDueAt),
    finalApprovedAt: iso(order.finalApprovedAt),
    statusChangedAt: order.statusChangedAt.toISOString(),
    acceptBy: iso(acceptance.acceptBy),
    acceptanceOverdue: isAcceptanceOverdue(order, acceptance, now),
    history: history.map(presentStatusChange),
  };
}
