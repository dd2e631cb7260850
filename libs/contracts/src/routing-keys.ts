/**
 * Every message the suite exchanges, by routing key. Producers and consumers import the same
 * enum, so they cannot disagree on a name. Payload classes live in one folder per message.
 */
export enum RoutingKey {
  AccountCreated = 'account.created',
  AccountUpdated = 'account.updated',
  AccountDisabled = 'account.disabled',
  AccountKeysRotated = 'account.keys_rotated',
  WebhookSettingsChanged = 'account.webhook_settings_changed',
  IntegrationUpserted = 'integration.upserted',
  IntegrationDeleted = 'integration.deleted',
  OrderReceived = 'order.received',
  OrderCreated = 'order.created',
  /** status-dispatcher created an order.created in its lifecycle (intake shows it as NEW from then on). */
  OrderOpened = 'order.opened',
  OrderStatusChanged = 'order.status_changed',
  OrderCanceled = 'order.canceled',
  OrderFinalApprovalDue = 'order.final_approval_due',
  /** A delivery platform's order accepted by status-dispatcher (for the courier core; no queue of the suite binds it). */
  PlatformOrderReceived = 'order.platform_received',
  /** A platform order is near its accept-by time and nobody answered it on the platform (for the courier core; no queue of the suite binds it). */
  OrderAcceptanceDue = 'order.acceptance_due',
  /** A delivery platform changed a store's state on its own (status-dispatcher; webhook-sender delivers it). */
  RestaurantAvailabilityChanged = 'restaurant.availability_changed',
  /** A re-import found a restaurant's menu changed on a platform's side (status-dispatcher; webhook-sender delivers it). */
  CatalogDriftDetected = 'catalog.drift_detected',
  /** Diagnostic message used by the messaging self-test and broker tests. */
  SystemProbe = 'system.probe',
}

/** The topic exchange every event is published to, and the dead-letter exchange. */
export const EVENTS_EXCHANGE = 'courier.events';
export const DEAD_LETTER_EXCHANGE = 'courier.dead-letter';

/** A consumer's durable queue and the routing keys bound to it. */
export interface QueueSpec {
  name: string;
  /** Routing keys (or topic patterns) bound to the queue. */
  bindings: string[];
  /** Deliveries before a message is dead-lettered (default 5). Part of the queue's identity. */
  deliveryLimit?: number;
}

/** Queues of the suite: one per consuming app and concern; names carry the owning app. */
export const Queues = {
  intakeAccountEvents: {
    name: 'intake-api.account-events',
    bindings: [
      RoutingKey.AccountCreated,
      RoutingKey.AccountUpdated,
      RoutingKey.AccountDisabled,
      RoutingKey.AccountKeysRotated,
      RoutingKey.IntegrationUpserted,
      RoutingKey.IntegrationDeleted,
    ],
  },
  intakeOrderEvents: {
    name: 'intake-api.order-events',
    bindings: [RoutingKey.OrderReceived, RoutingKey.OrderOpened, RoutingKey.OrderStatusChanged, RoutingKey.OrderCanceled],
  },
  dispatcherAccountEvents: {
    name: 'status-dispatcher.account-events',
    bindings: [
      RoutingKey.AccountCreated,
      RoutingKey.AccountUpdated,
      RoutingKey.AccountDisabled,
      RoutingKey.AccountKeysRotated,
      RoutingKey.IntegrationUpserted,
      RoutingKey.IntegrationDeleted,
    ],
  },
  dispatcherOrderEvents: {
    name: 'status-dispatcher.order-events',
    bindings: [RoutingKey.OrderCreated],
  },
  senderAccountEvents: {
    name: 'webhook-sender.account-events',
    bindings: [
      RoutingKey.AccountCreated,
      RoutingKey.AccountUpdated,
      RoutingKey.AccountDisabled,
      RoutingKey.AccountKeysRotated,
      RoutingKey.WebhookSettingsChanged,
    ],
  },
  senderOrderEvents: {
    name: 'webhook-sender.order-events',
    bindings: [RoutingKey.OrderStatusChanged, RoutingKey.OrderCanceled],
  },
  /**
   * A queue of its own rather than a binding on the order events': a rare event with its own
   * consumer, inbox name and dead-letter queue, so a message it cannot take never sits among (or is
   * replayed with) the order webhooks, and the name says what the queue holds.
   */
  senderRestaurantEvents: {
    name: 'webhook-sender.restaurant-events',
    bindings: [RoutingKey.RestaurantAvailabilityChanged, RoutingKey.CatalogDriftDetected],
  },
} satisfies Record<string, QueueSpec>;
