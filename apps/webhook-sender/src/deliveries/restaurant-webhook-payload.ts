import { createHash } from 'node:crypto';
import { RestaurantAvailabilityChangedEvent, RoutingKey, StoreAvailabilityState } from '@courier/contracts';
import type { WebhookDraft } from './webhook-payload';

/** A restaurant event this consumer cannot turn into a webhook (the message goes to the dead-letter queue). */
export class InvalidRestaurantEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidRestaurantEventError';
  }
}

const STATES: readonly StoreAvailabilityState[] = ['OPEN', 'CLOSED', 'BUSY'];
const DETECTED_BY: ReadonlyArray<RestaurantAvailabilityChangedEvent['detectedBy']> = ['read_back', 'platform_call'];

/** Name-based UUID namespace of the availability webhooks' ids (a fixed random UUID: ids of other kinds never collide with them). */
const AVAILABILITY_WEBHOOK_NAMESPACE = '5d3c3b7e-8f0a-4f7e-9a59-1c4b2f6e8d21';

/**
 * The webhook id of an availability change: the RFC 9562 version 5 UUID of its changeEventId, so
 * the id is the same however often the change is published, stored or redelivered.
 */
export function availabilityWebhookId(changeEventId: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(AVAILABILITY_WEBHOOK_NAMESPACE.replace(/-/g, ''), 'hex'))
    .update(changeEventId, 'utf8')
    .digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * restaurant.availability_changed: the event's fields in the order webhooks' shape (`event` first,
 * the time of the change as `timestamp` last); the routing data (restaurantId) stays out of it.
 */
export function availabilityChangedPayload(event: RestaurantAvailabilityChangedEvent) {
  return {
    event: RoutingKey.RestaurantAvailabilityChanged,
    changeEventId: event.changeEventId,
    integrationId: event.integrationId,
    provider: event.provider,
    providerRestaurantId: event.providerRestaurantId,
    state: event.state,
    until: event.until,
    expectedState: event.expectedState,
    detectedBy: event.detectedBy,
    platformReason: event.platformReason,
    timestamp: event.occurredAt,
  };
}

const isTime = (value: unknown) => typeof value === 'string' && !Number.isNaN(Date.parse(value));

/** The fields of the event that are missing or of the wrong kind. */
function wrongFields(fields: Record<string, unknown>): string[] {
  const wrong = ['changeEventId', 'restaurantId', 'integrationId', 'provider', 'providerRestaurantId'].filter((name) => typeof fields[name] !== 'string' || (fields[name] as string).length === 0);
  if (!STATES.includes(fields.state as StoreAvailabilityState)) wrong.push('state');
  if (fields.expectedState !== null && !STATES.includes(fields.expectedState as StoreAvailabilityState)) wrong.push('expectedState');
  if (fields.until !== null && !isTime(fields.until)) wrong.push('until');
  if (!DETECTED_BY.includes(fields.detectedBy as RestaurantAvailabilityChangedEvent['detectedBy'])) wrong.push('detectedBy');
  if (fields.platformReason !== null && typeof fields.platformReason !== 'string') wrong.push('platformReason');
  if (!isTime(fields.occurredAt)) wrong.push('occurredAt');
  return wrong;
}

/** Turns a restaurant.availability_changed of the broker into its webhook (to the status URL), compact JSON serialised once. */
export function webhookFromAvailabilityEvent(payload: unknown): WebhookDraft {
  const key = RoutingKey.RestaurantAvailabilityChanged;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new InvalidRestaurantEventError(`${key} payload is not an object`);
  const wrong = wrongFields(payload as Record<string, unknown>);
  if (wrong.length > 0) throw new InvalidRestaurantEventError(`${key} without valid ${wrong.join(', ')}`);
  const event = payload as RestaurantAvailabilityChangedEvent;
  return {
    event: key,
    restaurantId: event.restaurantId,
    orderId: null,
    yemekKuryeOrderId: null,
    integrationId: event.integrationId,
    sourceKey: `${key}:${event.changeEventId}`,
    deliveryId: availabilityWebhookId(event.changeEventId),
    body: JSON.stringify(availabilityChangedPayload(event)),
  };
}
