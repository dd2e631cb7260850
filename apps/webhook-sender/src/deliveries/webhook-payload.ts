import { OrderCanceledEvent, OrderStatusChangedEvent, RoutingKey } from '@courier/contracts';
import { WebhookEvent } from './webhook-delivery.entity';

/** The webhook an event becomes, serialised once: `body` is the exact bytes every attempt sends. */
export interface WebhookDraft {
  event: WebhookEvent;
  restaurantId: string;
  /** Null for a webhook about the restaurant rather than an order. */
  orderId: string | null;
  yemekKuryeOrderId: string | null;
  /** The platform integration a restaurant webhook is about; null for order webhooks. */
  integrationId: string | null;
  /** Identifies the change (not the message): the same change published twice is one webhook. */
  sourceKey: string;
  /** The webhook id when the event fixes it (derived from the change's id); else a random one is given when stored. */
  deliveryId?: string;
  body: string;
}

/** An order event this consumer cannot turn into a webhook (the message goes to the dead-letter queue). */
export class InvalidOrderEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidOrderEventError';
  }
}

type Fields = Record<string, unknown>;

function requireFields(event: string, payload: Fields, strings: string[], nonEmpty: string[]): void {
  const wrong = strings.filter((name) => typeof payload[name] !== 'string' || (nonEmpty.includes(name) && (payload[name] as string).length === 0));
  if (!Number.isInteger(payload.sequence)) wrong.push('sequence');
  if (wrong.length > 0) throw new InvalidOrderEventError(`${event} without valid ${wrong.join(', ')}`);
}

const IDS = ['yemekKuryeOrderId', 'orderId', 'restaurantId', 'timestamp'];

/** order.status_changed: the fields of interface.md, in its order. */
export function statusChangedPayload(event: OrderStatusChangedEvent) {
  return {
    event: RoutingKey.OrderStatusChanged,
    orderId: event.orderId,
    yemekKuryeOrderId: event.yemekKuryeOrderId,
    orderNumber: event.orderNumber,
    status: event.status,
    previousStatus: event.previousStatus,
    timestamp: event.timestamp,
    provider: event.provider,
    providerRestaurantId: event.providerRestaurantId,
  };
}

/** order.canceled: the fields of interface.md, in its order. */
export function canceledPayload(event: OrderCanceledEvent) {
  return {
    event: RoutingKey.OrderCanceled,
    orderId: event.orderId,
    yemekKuryeOrderId: event.yemekKuryeOrderId,
    reason: event.reason,
    cancelReasonId: event.cancelReasonId,
    canceledBy: event.canceledBy,
    timestamp: event.timestamp,
  };
}

/**
 * Turns an order event of the broker into its webhook. The body is compact JSON (JSON.stringify
 * without spacing, UTF-8 on the wire) of exactly the fields interface.md lists for the event; the
 * routing data (restaurantId, sequence) stays out of it.
 */
export function webhookFromOrderEvent(routingKey: string, payload: unknown): WebhookDraft {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new InvalidOrderEventError(`${routingKey} payload is not an object`);
  const fields = payload as Fields;
  let body: object;
  if (routingKey === RoutingKey.OrderStatusChanged) {
    requireFields(routingKey, fields, [...IDS, 'orderNumber', 'status', 'previousStatus', 'provider', 'providerRestaurantId'], IDS);
    body = statusChangedPayload(fields as unknown as OrderStatusChangedEvent);
  } else if (routingKey === RoutingKey.OrderCanceled) {
    requireFields(routingKey, fields, [...IDS, 'reason', 'cancelReasonId', 'canceledBy'], IDS);
    body = canceledPayload(fields as unknown as OrderCanceledEvent);
  } else {
    throw new InvalidOrderEventError(`no webhook for ${routingKey}`);
  }
  const event = routingKey as WebhookEvent;
  const { yemekKuryeOrderId, orderId, restaurantId, sequence, timestamp } = fields as { yemekKuryeOrderId: string; orderId: string; restaurantId: string; sequence: number; timestamp: string };
  return {
    event,
    restaurantId,
    orderId,
    yemekKuryeOrderId,
    integrationId: null,
    sourceKey: `${event}:${yemekKuryeOrderId}:${sequence}:${timestamp}`,
    body: JSON.stringify(body),
  };
}
