import { Injectable, Logger } from '@nestjs/common';
import { MalformedMessageError } from '@courier/messaging';
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

  /** Records the change an event of `routingKey` says; throws (redelivery, then dead letter) when it says none. */
  async record(routingKey: string, event: unknown, messageId: string): Promise<void> {
    const change = statusChangeOf(routingKey, event);
    if (!change) throw new MalformedMessageError(`${routingKey} event ${messageId}`, ['needs a UUID yemekKuryeOrderId, an integer sequence, a status and an ISO 8601 timestamp']);
    const recorded = await this.history.record(change);
    this.logger.debug({ routingKey, yemekKuryeOrderId: change.yemekKuryeOrderId, sequence: change.sequence, recorded }, 'order status event');
  }
}
