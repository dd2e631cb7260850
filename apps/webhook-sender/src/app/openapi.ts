import { AUTH_FAILURE_THROTTLED, HttpAppOptions, INTERNAL_ERROR_PROBLEM, POS_SERVER, REQUEST_INPUT_PROBLEMS } from '@courier/http';
import { WEBHOOK_SCHEMAS, WEBHOOKS } from './webhooks.openapi';

export const SERVICE_DESCRIPTION: HttpAppOptions = {
  title: 'Webhook sender ({pos_url}/api/v1/my/webhooks/deliveries)',
  description:
    'The log of the webhooks (order.status_changed, order.canceled, restaurant.availability_changed, catalog.drift_detected; their bodies and headers under Webhooks) sent to your receivers: every delivery with its attempts, and redelivery. Each webhook carries X-Webhook-Id (the delivery id here, the same on every attempt), X-Webhook-Attempt and X-Correlation-Id (the id of the request that changed the order, the same on every attempt and redelivery: quote both ids when asking support). Authenticate with X-API-Key and X-API-Secret. Errors are problem JSON with a `code`.',
  server: POS_SERVER,
  everyOperationProblems: [...REQUEST_INPUT_PROBLEMS, AUTH_FAILURE_THROTTLED, INTERNAL_ERROR_PROBLEM],
  apiKeyHeaders: ['X-API-Key', 'X-API-Secret'],
  tags: [
    { name: 'webhook deliveries', description: 'Every webhook sent to your receivers, its attempts, and redelivery.' },
    { name: 'webhooks', description: 'What the suite POSTs to your status and cancel URLs.' },
  ],
  schemas: WEBHOOK_SCHEMAS,
  webhooks: WEBHOOKS,
};
