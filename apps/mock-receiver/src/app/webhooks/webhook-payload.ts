import type { FieldError } from '@courier/contracts';
import type { WebhookKind } from '../state/receiver-state';

export const EVENT_BY_KIND: Record<WebhookKind, string> = {
  status: 'order.status_changed',
  cancel: 'order.canceled',
};

/** Fields of order.status_changed and order.canceled (interface.md, Events). */
export interface WebhookPayload {
  event: string;
  orderId: string;
  yemekKuryeOrderId: string;
  timestamp: string;
  orderNumber?: string;
  status?: string;
  previousStatus?: string;
  provider?: string;
  providerRestaurantId?: string;
  reason?: string;
  cancelReasonId?: string;
  canceledBy?: string;
}

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

const REQUIRED: Record<WebhookKind, string[]> = {
  status: ['orderId', 'yemekKuryeOrderId', 'status', 'timestamp'],
  cancel: ['orderId', 'yemekKuryeOrderId', 'timestamp'],
};

const OPTIONAL_STRINGS: Record<WebhookKind, string[]> = {
  status: ['orderNumber', 'previousStatus', 'provider', 'providerRestaurantId'],
  cancel: ['reason', 'cancelReasonId', 'canceledBy'],
};

/** The store-status webhook, sent to the status URL next to order.status_changed (told apart by `event`). */
export const AVAILABILITY_EVENT = 'restaurant.availability_changed';

/** Fields of restaurant.availability_changed (docs/api.md, Webhooks). */
export interface AvailabilityPayload {
  event: typeof AVAILABILITY_EVENT;
  changeEventId: string;
  integrationId: string;
  provider: string;
  providerRestaurantId: string;
  state: 'OPEN' | 'CLOSED' | 'BUSY';
  until: string | null;
  expectedState: 'OPEN' | 'CLOSED' | 'BUSY' | null;
  detectedBy: string;
  platformReason: string | null;
  timestamp: string;
}

const STORE_STATES = ['OPEN', 'CLOSED', 'BUSY'];

/** Whether a body that came to the status URL is the store-status webhook rather than an order's. */
export function isAvailabilityWebhook(kind: WebhookKind, body: unknown): boolean {
  return kind === 'status' && typeof body === 'object' && body !== null && (body as { event?: unknown }).event === AVAILABILITY_EVENT;
}

const isIsoTime = (value: unknown) => typeof value === 'string' && ISO_WITH_OFFSET.test(value) && !Number.isNaN(Date.parse(value));

function checkAvailabilityPayload(payload: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of ['changeEventId', 'integrationId', 'provider', 'providerRestaurantId', 'detectedBy']) {
    if (typeof payload[field] !== 'string' || (payload[field] as string).length === 0) errors.push({ field, message: 'must be a non-empty string' });
  }
  if (!STORE_STATES.includes(payload.state as string)) errors.push({ field: 'state', message: `must be one of ${STORE_STATES.join(', ')}` });
  if (payload.expectedState !== undefined && payload.expectedState !== null && !STORE_STATES.includes(payload.expectedState as string)) {
    errors.push({ field: 'expectedState', message: `must be null or one of ${STORE_STATES.join(', ')}` });
  }
  if (payload.until !== undefined && payload.until !== null && !isIsoTime(payload.until)) errors.push({ field: 'until', message: 'must be null or an ISO 8601 date-time with offset' });
  if (payload.platformReason !== undefined && payload.platformReason !== null && typeof payload.platformReason !== 'string') errors.push({ field: 'platformReason', message: 'must be a string or null' });
  if (!isIsoTime(payload.timestamp)) errors.push({ field: 'timestamp', message: 'must be an ISO 8601 date-time with offset' });
  return errors;
}

/** The menu drift webhook, sent to the status URL next to order.status_changed (told apart by `event`). */
export const CATALOG_DRIFT_EVENT = 'catalog.drift_detected';

export const DRIFT_KINDS = ['price', 'name', 'status', 'added', 'removed', 'linked_removed'];

/** One difference of a catalog.drift_detected (docs/api.md, Webhooks). */
export interface CatalogDriftChangePayload {
  kind: string;
  platformProductId: string;
  productCode: string | null;
  before: string | number | null;
  after: string | number | null;
}

/** Fields of catalog.drift_detected (docs/api.md, Webhooks). */
export interface CatalogDriftPayload {
  event: typeof CATALOG_DRIFT_EVENT;
  driftEventId: string;
  integrationId: string;
  provider: string;
  providerRestaurantId: string;
  importId: string;
  changes: CatalogDriftChangePayload[];
  timestamp: string;
}

/** Whether a body that came to the status URL is the menu drift webhook. */
export function isCatalogDriftWebhook(kind: WebhookKind, body: unknown): boolean {
  return kind === 'status' && typeof body === 'object' && body !== null && (body as { event?: unknown }).event === CATALOG_DRIFT_EVENT;
}

const isDriftValue = (value: unknown) => value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** Errors of each change are reported up to this many (a menu can have hundreds of products). */
const CHANGE_ERRORS_LISTED = 20;

function checkCatalogDriftPayload(payload: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of ['driftEventId', 'integrationId', 'provider', 'providerRestaurantId', 'importId']) {
    if (typeof payload[field] !== 'string' || (payload[field] as string).length === 0) errors.push({ field, message: 'must be a non-empty string' });
  }
  if (!Array.isArray(payload.changes) || payload.changes.length === 0) {
    errors.push({ field: 'changes', message: 'must be a non-empty array' });
  } else {
    const changeErrors: FieldError[] = [];
    for (const [index, change] of (payload.changes as unknown[]).entries()) {
      const at = `changes[${index}]`;
      if (typeof change !== 'object' || change === null || Array.isArray(change)) {
        changeErrors.push({ field: at, message: 'must be an object' });
        continue;
      }
      const fields = change as Record<string, unknown>;
      if (!DRIFT_KINDS.includes(fields.kind as string)) changeErrors.push({ field: `${at}.kind`, message: `must be one of ${DRIFT_KINDS.join(', ')}` });
      if (typeof fields.platformProductId !== 'string' || fields.platformProductId.length === 0) changeErrors.push({ field: `${at}.platformProductId`, message: 'must be a non-empty string' });
      if (fields.productCode !== null && (typeof fields.productCode !== 'string' || fields.productCode.length === 0)) changeErrors.push({ field: `${at}.productCode`, message: 'must be null or a non-empty string' });
      for (const side of ['before', 'after']) {
        if (!isDriftValue(fields[side])) changeErrors.push({ field: `${at}.${side}`, message: 'must be a string, a number or null' });
      }
    }
    errors.push(...changeErrors.slice(0, CHANGE_ERRORS_LISTED));
  }
  if (!isIsoTime(payload.timestamp)) errors.push({ field: 'timestamp', message: 'must be an ISO 8601 date-time with offset' });
  return errors;
}

/**
 * Checks a parsed body against the contract of the URL it came to: the status URL takes
 * order.status_changed, restaurant.availability_changed and catalog.drift_detected, the cancel URL order.canceled. Extra
 * fields are allowed (a receiver should not break when the sender adds one); missing or mistyped
 * contract fields are not.
 */
export function checkWebhookPayload(kind: WebhookKind, body: unknown): FieldError[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [{ field: '', message: 'must be a JSON object' }];
  const payload = body as Record<string, unknown>;
  if (isAvailabilityWebhook(kind, body)) return checkAvailabilityPayload(payload);
  if (isCatalogDriftWebhook(kind, body)) return checkCatalogDriftPayload(payload);
  const errors: FieldError[] = [];
  if (payload.event !== EVENT_BY_KIND[kind]) errors.push({ field: 'event', message: `must be ${EVENT_BY_KIND[kind]}` });
  for (const field of REQUIRED[kind]) {
    if (typeof payload[field] !== 'string' || (payload[field] as string).length === 0) errors.push({ field, message: 'must be a non-empty string' });
  }
  for (const field of OPTIONAL_STRINGS[kind]) {
    const value = payload[field];
    if (value !== undefined && value !== null && typeof value !== 'string') errors.push({ field, message: 'must be a string' });
  }
  const timestamp = payload.timestamp;
  if (typeof timestamp === 'string' && timestamp.length > 0 && (!ISO_WITH_OFFSET.test(timestamp) || Number.isNaN(Date.parse(timestamp)))) {
    errors.push({ field: 'timestamp', message: 'must be an ISO 8601 date-time with offset' });
  }
  return errors;
}
