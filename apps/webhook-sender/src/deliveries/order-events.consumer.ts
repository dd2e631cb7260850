import { Ctx, EventPattern } from '@nestjs/microservices';
import { Queues, RoutingKey } from '@courier/contracts';
import { MessageConsumer, MessageContext } from '@courier/messaging';
import { DeliveriesRepository } from '../repositories/deliveries.repository';
import { DeliveryPump } from '../sending/delivery-pump';
import { arrivalOf, DeliveryArrivals } from './delivery-arrivals';
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
  private readonly arrivals: DeliveryArrivals;

  constructor(deliveries: DeliveriesRepository, pump: DeliveryPump) {
    this.arrivals = new DeliveryArrivals(deliveries, pump, ORDER_EVENTS_CONSUMER);
  }

  // A deep prefetch lets the messages that arrive together be stored together (bigger batches).
  @EventPattern([RoutingKey.OrderStatusChanged, RoutingKey.OrderCanceled], { queue: Queues.senderOrderEvents, prefetch: PREFETCH })
  async onOrderEvent(@Ctx() context: MessageContext): Promise<void> {
    const message = context.message;
    // An event that cannot become a webhook throws: after the delivery limit it is dead-lettered.
    const webhook = webhookFromOrderEvent(message.routingKey, message.payload);
    await this.arrivals.submit(arrivalOf(webhook, message));
  }
}
