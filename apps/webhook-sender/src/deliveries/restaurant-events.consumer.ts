import { Ctx, EventPattern } from '@nestjs/microservices';
import { Queues, RoutingKey } from '@courier/contracts';
import { MessageConsumer, MessageContext } from '@courier/messaging';
import { DeliveriesRepository } from '../repositories/deliveries.repository';
import { DeliveryPump } from '../sending/delivery-pump';
import { arrivalOf, DeliveryArrivals } from './delivery-arrivals';
import { webhookFromAvailabilityEvent, webhookFromCatalogDriftEvent } from './restaurant-webhook-payload';

/** The consumer name of the inbox rows (processed_messages) of this queue. */
export const RESTAURANT_EVENTS_CONSUMER = 'webhook-sender.restaurant-events';

/**
 * restaurant.availability_changed and catalog.drift_detected become deliveries to the restaurant's
 * status URL, stored and sent as the order webhooks are (same inbox, log, signing, retries, limits),
 * with the webhook id derived from the change's (or the drift's) id. Without a status URL they are
 * `skipped`, like an order webhook.
 */
@MessageConsumer()
export class RestaurantEventsConsumer {
  private readonly arrivals: DeliveryArrivals;

  constructor(deliveries: DeliveriesRepository, pump: DeliveryPump) {
    this.arrivals = new DeliveryArrivals(deliveries, pump, RESTAURANT_EVENTS_CONSUMER);
  }

  @EventPattern(RoutingKey.RestaurantAvailabilityChanged, { queue: Queues.senderRestaurantEvents })
  async onAvailabilityChanged(@Ctx() context: MessageContext): Promise<void> {
    const message = context.message;
    // An event that cannot become a webhook throws: after the delivery limit it is dead-lettered.
    const webhook = webhookFromAvailabilityEvent(message.payload);
    await this.arrivals.submit(arrivalOf(webhook, message));
  }

  @EventPattern(RoutingKey.CatalogDriftDetected, { queue: Queues.senderRestaurantEvents })
  async onCatalogDriftDetected(@Ctx() context: MessageContext): Promise<void> {
    const message = context.message;
    // Same as above: a drift that cannot become a webhook is dead-lettered after the delivery limit.
    const webhook = webhookFromCatalogDriftEvent(message.payload);
    await this.arrivals.submit(arrivalOf(webhook, message));
  }
}
