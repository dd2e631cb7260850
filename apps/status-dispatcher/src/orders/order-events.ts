import { OrderCanceledEvent, OrderFinalApprovalDueEvent, OrderStatusChangedEvent } from '@courier/contracts';
import { Cancellation, OrderStatus } from '@courier/domain';
import { Order } from './order.model';

/**
 * Payloads of the events the lifecycle publishes, built from the order after its change (status,
 * sequence and statusChangedAt already moved). Field sets: libs/contracts (interface.md's webhook
 * fields plus restaurantId and sequence for routing and ordering).
 */
export function orderStatusChangedEvent(order: Order, previousStatus: OrderStatus): OrderStatusChangedEvent {
  return {
    yemekKuryeOrderId: order.id,
    orderId: order.orderId,
    restaurantId: order.restaurantId,
    orderNumber: order.orderNumber,
    status: order.status,
    previousStatus,
    timestamp: order.statusChangedAt.toISOString(),
    provider: order.provider,
    providerRestaurantId: order.providerRestaurantId,
    sequence: order.sequence,
  };
}

export function orderCanceledEvent(order: Order, previousStatus: OrderStatus, cancellation: Cancellation & { reason: string }): OrderCanceledEvent {
  return {
    yemekKuryeOrderId: order.id,
    orderId: order.orderId,
    restaurantId: order.restaurantId,
    orderNumber: order.orderNumber,
    previousStatus,
    reason: cancellation.reason,
    cancelReasonId: cancellation.cancelReasonId,
    canceledBy: cancellation.canceledBy,
    timestamp: order.statusChangedAt.toISOString(),
    provider: order.provider,
    providerRestaurantId: order.providerRestaurantId,
    sequence: order.sequence,
  };
}

/** For a scheduled order (scheduledDeliveryTime and finalApprovalDueAt set). */
export function orderFinalApprovalDueEvent(order: Order): OrderFinalApprovalDueEvent {
  return {
    yemekKuryeOrderId: order.id,
    orderId: order.orderId,
    restaurantId: order.restaurantId,
    scheduledDeliveryTime: order.scheduledDeliveryTime!.toISOString(),
    dueAt: order.finalApprovalDueAt!.toISOString(),
  };
}
