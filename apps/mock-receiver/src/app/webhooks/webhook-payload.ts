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

/**
 * Checks a parsed body against the contract of the URL it came to. Extra fields are allowed (a
 * receiver should not break when the sender adds one); missing or mistyped contract fields are not.
 */
export function checkWebhookPayload(kind: WebhookKind, body: unknown): FieldError[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [{ field: '', message: 'must be a JSON object' }];
  const payload = body as Record<string, unknown>;
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
