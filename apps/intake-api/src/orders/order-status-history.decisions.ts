import { OrderCanceledEvent, OrderStatusChangedEvent, RoutingKey } from '@courier/contracts';
import { OrderStatusChange } from './intake-order';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type StatusEvent = Partial<OrderStatusChangedEvent & OrderCanceledEvent>;

/**
 * The history entry an order.opened, order.status_changed or order.canceled event records
 * (order.canceled is the status CANCELED); undefined when the event lacks what an entry needs.
 */
export function statusChangeOf(routingKey: string, payload: unknown): OrderStatusChange | undefined {
  const event = (payload ?? {}) as StatusEvent;
  const status = routingKey === RoutingKey.OrderCanceled ? 'CANCELED' : event.status;
  const occurredAt = typeof event.timestamp === 'string' ? new Date(event.timestamp) : undefined;
  if (
    typeof event.yemekKuryeOrderId !== 'string' ||
    !UUID.test(event.yemekKuryeOrderId) ||
    !Number.isSafeInteger(event.sequence) ||
    typeof status !== 'string' ||
    !occurredAt ||
    Number.isNaN(occurredAt.getTime())
  ) {
    return undefined;
  }
  return {
    yemekKuryeOrderId: event.yemekKuryeOrderId,
    sequence: event.sequence as number,
    status,
    previousStatus: typeof event.previousStatus === 'string' ? event.previousStatus : null,
    orderNumber: typeof event.orderNumber === 'string' ? event.orderNumber : null,
    occurredAt,
  };
}
