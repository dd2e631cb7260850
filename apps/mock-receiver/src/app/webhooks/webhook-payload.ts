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

/**
 * Checks a parsed body against the contract of the URL it came to: the status URL takes
 * order.status_changed and restaurant.availability_changed, the cancel URL order.canceled. Extra
 * fields are allowed (a receiver should not break when the sender adds one); missing or mistyped
 * contract fields are not.
 */
export function checkWebhookPayload(kind: WebhookKind, body: unknown): FieldError[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [{ field: '', message: 'must be a JSON object' }];
  const payload = body as Record<string, unknown>;
  if (isAvailabilityWebhook(kind, body)) return checkAvailabilityPayload(payload);
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
