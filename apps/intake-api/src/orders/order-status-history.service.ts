import { Injectable, Logger } from '@nestjs/common';
import { IncomingMessage } from '@courier/messaging';
import { statusChangeOf } from './order-status-history.decisions';
import { OrderStatusHistoryRepository } from './order-status-history.repository';

/**
 * Keeps the status history GET /api/v1/orders/{orderId} shows, from order.opened (the lifecycle
 * knows the order: NEW, sequence 0), order.status_changed and order.canceled. Keyed by (yemekKuryeOrderId, sequence): a redelivery or a late duplicate is
 * ignored, and the newest status is the one with the highest sequence whatever the arrival order.
 */
@Injectable()
export class OrderStatusHistoryService {
  private readonly logger = new Logger('OrderStatusHistory');

  constructor(private readonly history: OrderStatusHistoryRepository) {}

  async record(message: IncomingMessage): Promise<void> {
    const change = statusChangeOf(message.routingKey, message.payload);
    if (!change) throw new Error(`malformed ${message.routingKey} event ${message.messageId}`);
    const recorded = await this.history.record(change);
    this.logger.debug({ routingKey: message.routingKey, yemekKuryeOrderId: change.yemekKuryeOrderId, sequence: change.sequence, recorded }, 'order status event');
  }
}
