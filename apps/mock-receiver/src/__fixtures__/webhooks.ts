import { createHmac, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A signing secret in the form the panel shows it. */
export const TEST_SECRET = `whsec_${Buffer.from('mock-receiver-test-secret-0123456789').toString('base64')}`;

export interface StatusWebhookFields {
  orderId: string;
  yemekKuryeOrderId: string;
  status: string;
  previousStatus?: string;
  timestamp: string;
}

export function statusPayload(fields: StatusWebhookFields): Record<string, unknown> {
  return {
    event: 'order.status_changed',
    orderId: fields.orderId,
    yemekKuryeOrderId: fields.yemekKuryeOrderId,
    orderNumber: '1001',
    status: fields.status,
    previousStatus: fields.previousStatus ?? 'NEW',
    timestamp: fields.timestamp,
    provider: 'THIRD_PARTY',
    providerRestaurantId: 'store-42',
  };
}

export function cancelPayload(fields: { orderId: string; yemekKuryeOrderId: string; timestamp: string }): Record<string, unknown> {
  return {
    event: 'order.canceled',
    orderId: fields.orderId,
    yemekKuryeOrderId: fields.yemekKuryeOrderId,
    reason: 'Müşteri iptal etti',
    cancelReasonId: 'CUSTOMER_REQUEST',
    canceledBy: 'Restaurant',
    timestamp: fields.timestamp,
  };
}

export interface AvailabilityWebhookFields {
  integrationId: string;
  state: 'OPEN' | 'CLOSED' | 'BUSY';
  timestamp: string;
  until?: string | null;
  expectedState?: 'OPEN' | 'CLOSED' | 'BUSY' | null;
  provider?: string;
  platformReason?: string | null;
}

/** restaurant.availability_changed as webhook-sender serialises it (to the status URL). */
export function availabilityPayload(fields: AvailabilityWebhookFields): Record<string, unknown> {
  return {
    event: 'restaurant.availability_changed',
    changeEventId: randomUUID(),
    integrationId: fields.integrationId,
    provider: fields.provider ?? 'SOME_PLATFORM',
    providerRestaurantId: 'store-77',
    state: fields.state,
    until: fields.until ?? null,
    expectedState: fields.expectedState === undefined ? 'OPEN' : fields.expectedState,
    detectedBy: 'read_back',
    platformReason: fields.platformReason === undefined ? 'Closed by the platform' : fields.platformReason,
    timestamp: fields.timestamp,
  };
}

export interface CatalogDriftWebhookFields {
  integrationId: string;
  timestamp: string;
  changes?: Array<{ kind: string; platformProductId: string; productCode: string | null; before: string | number | null; after: string | number | null }>;
  provider?: string;
}

/** catalog.drift_detected as webhook-sender serialises it (to the status URL). */
export function catalogDriftPayload(fields: CatalogDriftWebhookFields): Record<string, unknown> {
  return {
    event: 'catalog.drift_detected',
    driftEventId: randomUUID(),
    integrationId: fields.integrationId,
    provider: fields.provider ?? 'SOME_PLATFORM',
    providerRestaurantId: 'store-77',
    importId: randomUUID(),
    changes: fields.changes ?? [
      { kind: 'price', platformProductId: 'prd-101', productCode: 'LHM-1', before: 90, after: 95.5 },
      { kind: 'added', platformProductId: 'prd-104', productCode: null, before: null, after: null },
    ],
    timestamp: fields.timestamp,
  };
}

/**
 * Headers a sender following decisions.md puts on a webhook: X-Service-Signature over the exact
 * bytes (keyed with the secret string), X-Webhook-Id, and the Standard Webhooks trio.
 */
export function signedHeaders(body: string, options: { secret?: string; id?: string; standard?: boolean; attempt?: number } = {}): Record<string, string> {
  const secret = options.secret ?? TEST_SECRET;
  const id = options.id ?? `wh_${randomUUID()}`;
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-Service-Signature': createHmac('sha256', secret).update(body).digest('hex'),
    'X-Webhook-Id': id,
    'X-Webhook-Attempt': String(options.attempt ?? 1),
  };
  if (options.standard !== false && secret.startsWith('whsec_')) {
    const now = new Date();
    headers['webhook-id'] = id;
    headers['webhook-timestamp'] = String(Math.floor(now.getTime() / 1000));
    headers['webhook-signature'] = new Webhook(secret).sign(id, now, body);
  }
  return headers;
}

/**
 * Headers webhook-sender puts on a webhook during a secret rotation's grace period: X-Service-Signature
 * with the previous secret, X-Service-Signature-New with the new one, and one v1 Standard Webhooks
 * signature per secret, space-delimited (the new one's first).
 */
export function rotationHeaders(body: string, options: { current: string; previous: string; id?: string }): Record<string, string> {
  const id = options.id ?? `wh_${randomUUID()}`;
  const now = new Date();
  return {
    'Content-Type': 'application/json',
    'X-Service-Signature': createHmac('sha256', options.previous).update(body).digest('hex'),
    'X-Service-Signature-New': createHmac('sha256', options.current).update(body).digest('hex'),
    'X-Webhook-Id': id,
    'X-Webhook-Attempt': '1',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': `${new Webhook(options.current).sign(id, now, body)} ${new Webhook(options.previous).sign(id, now, body)}`,
  };
}
