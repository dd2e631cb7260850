import { createHash } from 'node:crypto';
import { CatalogDriftDetectedEvent, CatalogDriftKind, RestaurantAvailabilityChangedEvent, RoutingKey, StoreAvailabilityState } from '@courier/contracts';
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

/** Name-based UUID namespace of the catalog drift webhooks' ids (another fixed random UUID, for the same reason). */
const CATALOG_DRIFT_WEBHOOK_NAMESPACE = 'b8e41c07-3f2d-4a6e-9d15-7c0a9e2f4b63';

/** The RFC 9562 version 5 UUID of `name` in `namespace`. */
function nameBasedUuid(namespace: string, name: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The webhook id of an availability change: the RFC 9562 version 5 UUID of its changeEventId, so
 * the id is the same however often the change is published, stored or redelivered.
 */
export function availabilityWebhookId(changeEventId: string): string {
  return nameBasedUuid(AVAILABILITY_WEBHOOK_NAMESPACE, changeEventId);
}

/** The webhook id of a catalog drift: the version 5 UUID of its driftEventId, stable across publications and redeliveries. */
export function catalogDriftWebhookId(driftEventId: string): string {
  return nameBasedUuid(CATALOG_DRIFT_WEBHOOK_NAMESPACE, driftEventId);
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

/**
 * A restaurant event of the broker as its webhook draft (to the status URL, compact JSON serialised
 * once), or InvalidRestaurantEventError naming the fields that are missing or of the wrong kind.
 */
function restaurantWebhook<E extends { restaurantId: string; integrationId: string }>(
  key: RoutingKey.RestaurantAvailabilityChanged | RoutingKey.CatalogDriftDetected,
  payload: unknown,
  wrongFieldsOf: (fields: Record<string, unknown>) => string[],
  webhook: (event: E) => { eventId: string; deliveryId: string; body: unknown },
): WebhookDraft {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new InvalidRestaurantEventError(`${key} payload is not an object`);
  const wrong = wrongFieldsOf(payload as Record<string, unknown>);
  if (wrong.length > 0) throw new InvalidRestaurantEventError(`${key} without valid ${wrong.slice(0, 10).join(', ')}${wrong.length > 10 ? ` and ${wrong.length - 10} more` : ''}`);
  const event = payload as E;
  const { eventId, deliveryId, body } = webhook(event);
  return {
    event: key,
    restaurantId: event.restaurantId,
    orderId: null,
    yemekKuryeOrderId: null,
    integrationId: event.integrationId,
    sourceKey: `${key}:${eventId}`,
    deliveryId,
    body: JSON.stringify(body),
  };
}

/** Turns a restaurant.availability_changed of the broker into its webhook (to the status URL). */
export function webhookFromAvailabilityEvent(payload: unknown): WebhookDraft {
  return restaurantWebhook<RestaurantAvailabilityChangedEvent>(RoutingKey.RestaurantAvailabilityChanged, payload, wrongFields, (event) => ({
    eventId: event.changeEventId,
    deliveryId: availabilityWebhookId(event.changeEventId),
    body: availabilityChangedPayload(event),
  }));
}

const DRIFT_KINDS: readonly CatalogDriftKind[] = ['price', 'name', 'status', 'added', 'removed', 'linked_removed'];

/**
 * catalog.drift_detected: the event's fields in the order webhooks' shape (`event` first, the time
 * the import found it as `timestamp` last), each change's fields in the contract's order; the
 * routing data (restaurantId) stays out of it.
 */
export function catalogDriftPayload(event: CatalogDriftDetectedEvent) {
  return {
    event: RoutingKey.CatalogDriftDetected,
    driftEventId: event.driftEventId,
    integrationId: event.integrationId,
    provider: event.provider,
    providerRestaurantId: event.providerRestaurantId,
    importId: event.importId,
    changes: event.changes.map((change) => ({
      kind: change.kind,
      platformProductId: change.platformProductId,
      productCode: change.productCode,
      before: change.before,
      after: change.after,
    })),
    // Absent from an event of a dispatcher that never omitted any.
    omittedChanges: event.omittedChanges ?? 0,
    timestamp: event.detectedAt,
  };
}

const isDriftValue = (value: unknown) => value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** The fields of one change that are missing or of the wrong kind, as `changes[i].field`. */
function wrongChangeFields(change: unknown, index: number): string[] {
  if (typeof change !== 'object' || change === null || Array.isArray(change)) return [`changes[${index}]`];
  const fields = change as Record<string, unknown>;
  const wrong: string[] = [];
  if (!DRIFT_KINDS.includes(fields.kind as CatalogDriftKind)) wrong.push('kind');
  if (typeof fields.platformProductId !== 'string' || fields.platformProductId.length === 0) wrong.push('platformProductId');
  if (fields.productCode !== null && (typeof fields.productCode !== 'string' || fields.productCode.length === 0)) wrong.push('productCode');
  if (!isDriftValue(fields.before)) wrong.push('before');
  if (!isDriftValue(fields.after)) wrong.push('after');
  return wrong.map((name) => `changes[${index}].${name}`);
}

/** The fields of the drift event that are missing or of the wrong kind. */
function wrongDriftFields(fields: Record<string, unknown>): string[] {
  const wrong = ['driftEventId', 'restaurantId', 'integrationId', 'provider', 'providerRestaurantId', 'importId'].filter((name) => typeof fields[name] !== 'string' || (fields[name] as string).length === 0);
  // An import that found no difference publishes nothing: an empty list is a producer's fault.
  if (!Array.isArray(fields.changes) || fields.changes.length === 0) wrong.push('changes');
  else wrong.push(...(fields.changes as unknown[]).flatMap(wrongChangeFields));
  if (fields.omittedChanges !== undefined && !(Number.isInteger(fields.omittedChanges) && (fields.omittedChanges as number) >= 0)) wrong.push('omittedChanges');
  if (!isTime(fields.detectedAt)) wrong.push('detectedAt');
  return wrong;
}

/** Turns a catalog.drift_detected of the broker into its webhook (to the status URL). */
export function webhookFromCatalogDriftEvent(payload: unknown): WebhookDraft {
  return restaurantWebhook<CatalogDriftDetectedEvent>(RoutingKey.CatalogDriftDetected, payload, wrongDriftFields, (event) => ({
    eventId: event.driftEventId,
    deliveryId: catalogDriftWebhookId(event.driftEventId),
    body: catalogDriftPayload(event),
  }));
}
