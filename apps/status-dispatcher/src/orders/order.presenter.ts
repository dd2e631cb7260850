import { OrderDto, OrderStatusChangeDto } from './dto/order.dto';
import { Order, OrderStatusChange } from './order.model';

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

/** The order with its history (given oldest first), as the internal endpoints answer. */
export function presentOrder(order: Order, history: OrderStatusChange[]): OrderDto {
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
    history: history.map(presentStatusChange),
  };
}
