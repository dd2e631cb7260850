import type { OpenApiSchema } from '@courier/http';

/**
 * The webhooks the sender POSTs to the restaurant's URLs, for the OpenAPI document (`x-webhooks`)
 * and their body schemas. The bodies are what webhook-payload.ts and restaurant-webhook-payload.ts
 * serialise, field for field and in that order; docs/api.md "Webhooks" says the same in prose.
 */

const TIME = { type: 'string', format: 'date-time' };
const STORE_STATES = ['OPEN', 'CLOSED', 'BUSY'];
/** A drift's before / after: a price, a name or status, or null (OpenAPI 3.0 spells null as a nullable enum of null). */
const DRIFT_VALUE = [{ type: 'string' }, { type: 'number' }, { type: 'object', nullable: true, enum: [null] }];

export const WEBHOOK_SCHEMAS: Record<string, OpenApiSchema> = {
  OrderStatusChangedWebhook: {
    type: 'object',
    description: 'Sent to the status URL on every move of an order that does not end in CANCELED.',
    required: ['event', 'orderId', 'yemekKuryeOrderId', 'orderNumber', 'status', 'previousStatus', 'timestamp', 'provider', 'providerRestaurantId'],
    properties: {
      event: { type: 'string', enum: ['order.status_changed'] },
      orderId: { type: 'string', description: 'The orderId sent at intake (a platform order: the platform\'s id).', example: 'pos-1001' },
      yemekKuryeOrderId: { type: 'string', format: 'uuid' },
      orderNumber: { type: 'string', example: '17' },
      status: { type: 'string', example: 'VALIDATED' },
      previousStatus: { type: 'string', example: 'NEW' },
      timestamp: { ...TIME, description: 'When the move happened: apply a status only when this is newer than the last one applied.' },
      provider: { type: 'string', description: 'THIRD_PARTY, or the code of the platform the order came from.', example: 'THIRD_PARTY' },
      providerRestaurantId: { type: 'string' },
    },
  },
  OrderCanceledWebhook: {
    type: 'object',
    description: 'Sent to the cancel URL on a move into CANCELED (no status webhook for it), and when intake could not process an order.',
    required: ['event', 'orderId', 'yemekKuryeOrderId', 'reason', 'cancelReasonId', 'canceledBy', 'timestamp'],
    properties: {
      event: { type: 'string', enum: ['order.canceled'] },
      orderId: { type: 'string', example: 'pos-1001' },
      yemekKuryeOrderId: { type: 'string', format: 'uuid' },
      reason: { type: 'string', example: 'Customer asked' },
      cancelReasonId: { type: 'string', example: 'CUSTOMER_REQUEST' },
      canceledBy: { type: 'string', example: 'Restaurant' },
      timestamp: TIME,
    },
  },
  RestaurantAvailabilityChangedWebhook: {
    type: 'object',
    description:
      'Sent to the status URL when a delivery platform changed one of your stores on its own (not as you last asked): seen by reading the store back or by the platform\'s own call. One webhook per change seen.',
    required: ['event', 'changeEventId', 'integrationId', 'provider', 'providerRestaurantId', 'state', 'until', 'expectedState', 'detectedBy', 'platformReason', 'timestamp'],
    properties: {
      event: { type: 'string', enum: ['restaurant.availability_changed'] },
      changeEventId: { type: 'string', description: 'The change seen; the webhook id (X-Webhook-Id) is derived from it.' },
      integrationId: { type: 'string', format: 'uuid', description: 'Your platform integration (GET /api/v1/my/integrations).' },
      provider: { type: 'string', description: 'The platform\'s code.' },
      providerRestaurantId: { type: 'string', description: 'The store\'s id on the platform.' },
      state: { type: 'string', enum: STORE_STATES, description: 'What the platform reports now.' },
      until: { ...TIME, nullable: true, description: 'Until when the platform keeps that state, where it says; else null.' },
      expectedState: { type: 'string', enum: [...STORE_STATES, null], nullable: true, description: 'What you (or the courier core) asked for last; null when nothing was ever asked.' },
      detectedBy: { type: 'string', enum: ['read_back', 'platform_call'], description: 'read_back: our read of the store\'s status; platform_call: the platform\'s call to us.' },
      platformReason: { type: 'string', nullable: true, description: 'The platform\'s own reason or status text, where it gives one.' },
      timestamp: { ...TIME, description: 'When the change was seen: per integration, apply a state only when this is newer than the last one applied.' },
    },
  },
  CatalogDriftDetectedWebhook: {
    type: 'object',
    description:
      'Sent to the status URL when a re-import of one integration\'s menu found it changed on the platform\'s side (not by your own price or sold-out changes through the suite). One webhook per import that found a difference, listing the differences (the first 200; `omittedChanges` says how many more GET /api/v1/my/catalog/drift lists).',
    required: ['event', 'driftEventId', 'integrationId', 'provider', 'providerRestaurantId', 'importId', 'changes', 'omittedChanges', 'timestamp'],
    properties: {
      event: { type: 'string', enum: ['catalog.drift_detected'] },
      driftEventId: { type: 'string', description: 'The drift found by one import; the webhook id (X-Webhook-Id) is derived from it.' },
      integrationId: { type: 'string', format: 'uuid', description: 'Your platform integration (GET /api/v1/my/integrations).' },
      provider: { type: 'string', description: 'The platform\'s code.' },
      providerRestaurantId: { type: 'string', description: 'The store\'s id on the platform.' },
      importId: { type: 'string', description: 'The import that found it.' },
      changes: {
        type: 'array',
        minItems: 1,
        description: 'What changed on the platform\'s side, one entry per product and kind (GET /api/v1/my/catalog/drift lists the same).',
        items: {
          type: 'object',
          required: ['kind', 'platformProductId', 'productCode', 'before', 'after'],
          additionalProperties: false,
          properties: {
            kind: {
              type: 'string',
              enum: ['price', 'name', 'status', 'added', 'removed', 'linked_removed'],
              description: 'price, name, status: the value changed; added: a product new on the platform; removed: a product gone; linked_removed: a product linked to one of your codes is gone.',
            },
            platformProductId: { type: 'string', description: 'The product\'s id on the platform.' },
            productCode: { type: 'string', nullable: true, description: 'Your productCode the product is linked to; null when it is linked to none.' },
            before: { anyOf: DRIFT_VALUE, description: 'The value before: the price as a number, the name as text, the status ACTIVE or INACTIVE; null for added and removed.' },
            after: { anyOf: DRIFT_VALUE, description: 'The value now, as `before`; null for added and removed.' },
          },
        },
      },
      omittedChanges: { type: 'integer', minimum: 0, description: 'How many more differences the import found than `changes` lists (at most 200 are listed); 0 normally.' },
      timestamp: { ...TIME, description: 'When the import found it.' },
    },
  },
};

const header = (name: string, description: string, required = false) => ({ name, in: 'header', required, description, schema: { type: 'string' } });

const HEADERS = [
  header('X-Webhook-Id', 'The delivery id, the same on every attempt and redelivery: deduplicate on it.', true),
  header('webhook-id', 'The same id (Standard Webhooks).', true),
  header('webhook-timestamp', 'Unix seconds of this attempt (Standard Webhooks).', true),
  header('X-Webhook-Attempt', '1, 2, ... (a redelivery goes on counting).', true),
  header('X-Correlation-Id', 'The request or event that caused the webhook: quote it with the webhook id when asking support.'),
  header('X-Service-Signature', 'With a signing secret: lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the secret string (whsec_..., prefix included). During a rotation grace period, the previous secret\'s.'),
  header('X-Service-Signature-New', 'During a secret rotation grace period only: the new secret\'s, like X-Service-Signature.'),
  header('webhook-signature', 'With a signing secret: `v1,<base64 HMAC-SHA256 of {webhook-id}.{webhook-timestamp}.{body}>`, keyed with the base64-decoded part after whsec_; two space-delimited entries during a rotation (Standard Webhooks).'),
];

const ANSWERS = {
  '200': { description: 'Any 2xx within 5 s (WEBHOOK_TIMEOUT_MS) is delivered; the body is ignored.' },
  default: { description: 'Anything else (another status, a redirect, no answer in time) is retried: 1 min, 5 min, 15 min, 1 h, 4 h, then every 24 h for up to 3 days.' },
};

function webhook(summary: string, description: string, schema: string, operationId: string) {
  return {
    post: {
      summary,
      description,
      operationId,
      tags: ['webhooks'],
      // The receiver authenticates the sender by the signature headers, not by a security scheme.
      security: [],
      parameters: HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } },
      responses: ANSWERS,
    },
  };
}

/** The webhooks by event name, as `x-webhooks` path items. */
export const WEBHOOKS = {
  'order.status_changed': webhook('An order moved (status URL)', 'POSTed to your status URL. Compact JSON, serialised once: every attempt sends the same bytes.', 'OrderStatusChangedWebhook', 'orderStatusChangedWebhook'),
  'order.canceled': webhook('An order was cancelled (cancel URL)', 'POSTed to your cancel URL. Compact JSON, serialised once: every attempt sends the same bytes.', 'OrderCanceledWebhook', 'orderCanceledWebhook'),
  'restaurant.availability_changed': webhook(
    'A platform changed a store on its own (status URL)',
    'POSTed to your status URL, next to order.status_changed: tell them apart by `event`. Signed, retried, logged (GET /api/v1/my/webhooks/deliveries?event=restaurant.availability_changed) and redelivered like the order webhooks.',
    'RestaurantAvailabilityChangedWebhook',
    'restaurantAvailabilityChangedWebhook',
  ),
  'catalog.drift_detected': webhook(
    'A platform\'s menu changed on its own (status URL)',
    'POSTed to your status URL, next to order.status_changed: tell them apart by `event`. Signed, retried, logged (GET /api/v1/my/webhooks/deliveries?event=catalog.drift_detected) and redelivered like the order webhooks.',
    'CatalogDriftDetectedWebhook',
    'catalogDriftDetectedWebhook',
  ),
};
