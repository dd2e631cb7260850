import { Injectable, Logger } from '@nestjs/common';
import { OrderCanceledEvent, OrderStatusChangedEvent, RoutingKey } from '@courier/contracts';
import { IncomingMessage } from '@courier/messaging';
import { OrdersRepository } from './orders.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type StatusEvent = Partial<OrderStatusChangedEvent & OrderCanceledEvent>;

/**
 * Keeps the status history GET /api/v1/orders/{orderId} shows, from order.opened (the lifecycle
 * knows the order: NEW, sequence 0), order.status_changed and order.canceled. Keyed by (yemekKuryeOrderId, sequence): a redelivery or a late duplicate is
 * ignored, and the newest status is the one with the highest sequence whatever the arrival order.
 */
@Injectable()
export class OrderStatusHistoryService {
  private readonly logger = new Logger('OrderStatusHistory');

  constructor(private readonly orders: OrdersRepository) {}

  async record(message: IncomingMessage): Promise<void> {
    const event = (message.payload ?? {}) as StatusEvent;
    const canceled = message.routingKey === RoutingKey.OrderCanceled;
    const status = canceled ? 'CANCELED' : event.status;
    const occurredAt = typeof event.timestamp === 'string' ? new Date(event.timestamp) : undefined;
    if (
      typeof event.yemekKuryeOrderId !== 'string' ||
      !UUID.test(event.yemekKuryeOrderId) ||
      !Number.isSafeInteger(event.sequence) ||
      typeof status !== 'string' ||
      !occurredAt ||
      Number.isNaN(occurredAt.getTime())
    ) {
      throw new Error(`malformed ${message.routingKey} event ${message.messageId}`);
    }
    const recorded = await this.orders.recordStatus({
      yemekKuryeOrderId: event.yemekKuryeOrderId,
      sequence: event.sequence as number,
      status,
      previousStatus: typeof event.previousStatus === 'string' ? event.previousStatus : null,
      orderNumber: typeof event.orderNumber === 'string' ? event.orderNumber : null,
      occurredAt,
    });
    this.logger.debug({ routingKey: message.routingKey, yemekKuryeOrderId: event.yemekKuryeOrderId, sequence: event.sequence, recorded }, 'order status event');
  }
}
