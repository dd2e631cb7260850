import { Ctx, EventPattern } from '@nestjs/microservices';
import { Queues, RoutingKey } from '@courier/contracts';
import { currentCorrelationId } from '@courier/logging';
import { MessageConsumer, MessageContext, traceHeaders } from '@courier/messaging';
import { WriteCoalescer } from '@courier/persistence';
import { DeliveriesRepository } from '../repositories/deliveries.repository';
import type { DeliveryArrival, StoredDelivery } from '../repositories/delivery.model';
import { DeliveryPump } from '../sending/delivery-pump';
import { webhookFromOrderEvent } from './webhook-payload';

/** The consumer name of the inbox rows (processed_messages) of this queue. */
export const ORDER_EVENTS_CONSUMER = 'webhook-sender.order-events';
const PREFETCH = 256;

/**
 * order.status_changed and order.canceled become deliveries: each message's inbox row and delivery
 * in one statement (a redelivered message does nothing), messages that arrive together in one batch
 * (one message alone when a batch fails).
 * An account without a URL for the event gets a `skipped` delivery (a redelivery sends it once a URL
 * is set); one the sender does not know yet (its events lag) a pending one, which the attempt retries.
 */
@MessageConsumer()
export class OrderEventsConsumer {
  private readonly batches = new WriteCoalescer<DeliveryArrival, void>(
    async (arrivals) => {
      await this.store(arrivals);
      return arrivals.map(() => undefined);
    },
    { maxBatch: 100, maxInFlight: 3 },
  );

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly pump: DeliveryPump,
  ) {}

  // A deep prefetch lets the messages that arrive together be stored together (bigger batches).
  @EventPattern([RoutingKey.OrderStatusChanged, RoutingKey.OrderCanceled], { queue: Queues.senderOrderEvents, prefetch: PREFETCH })
  async onOrderEvent(@Ctx() context: MessageContext): Promise<void> {
    const message = context.message;
    // An event that cannot become a webhook throws: after the delivery limit it is dead-lettered.
    const webhook = webhookFromOrderEvent(message.routingKey, message.payload);
    // Read here: the batch is written later, outside this message's scope.
    await this.batches.submit({ ...webhook, messageId: message.messageId, correlationId: currentCorrelationId() ?? null, traceparent: traceHeaders().traceparent ?? null });
  }

  private async store(arrivals: DeliveryArrival[]): Promise<void> {
    // Free slots of the pump: the new deliveries that fit are leased by the store statement and started at once,
    // which saves the pump a claim per delivery (measured: docs/benchmarks.md).
    const handover = this.pump.reserve(arrivals.length);
    let stored: StoredDelivery[] = [];
    try {
      stored = await this.deliveries.store(ORDER_EVENTS_CONSUMER, arrivals, handover);
    } finally {
      this.pump.start(
        handover,
        stored.filter((delivery) => delivery.handedOver),
      );
    }
    // Queued without a lease (no free slot, or their host is busy): the pump claims them.
    if (stored.some((delivery) => !delivery.handedOver)) this.pump.nudge();
  }
}
