import { AUTH_FAILURE_THROTTLED, HttpAppOptions, INTERNAL_ERROR_PROBLEM, POS_SERVER, REQUEST_INPUT_PROBLEMS } from '@courier/http';
import { INTEGRATION_SCHEMAS } from '../integrations/integration-schemas';

export const SERVICE_DESCRIPTION: HttpAppOptions = {
  title: 'Integration management API ({pos_url}/api/v1, /admin/v1)',
  description:
    'Restaurant credentials on the delivery platforms, webhook settings, and the operator\'s account provisioning. ' +
    '/api/v1/my/* needs both X-API-Key and X-API-Secret (401 AUTHENTICATION_FAILED otherwise); /admin/v1/* needs X-Admin-Token. ' +
    'Every error is RFC 9457 problem JSON (application/problem+json) with a `code`.',
  server: POS_SERVER,
  everyOperationProblems: [...REQUEST_INPUT_PROBLEMS, AUTH_FAILURE_THROTTLED, INTERNAL_ERROR_PROBLEM],
  apiKeyHeaders: ['X-API-Key', 'X-API-Secret', 'X-Admin-Token'],
  tags: [
    { name: 'account', description: 'The restaurant account whose key pair authenticated.' },
    { name: 'integrations', description: 'The account\'s credentials on the delivery platforms (one field set per platform).' },
    { name: 'webhooks', description: 'Where the status and cancel webhooks go, and their signing secret.' },
    { name: 'admin', description: 'The operator\'s account provisioning and platform-restaurant disputes (X-Admin-Token).' },
  ],
  // The integration bodies and record, built from the platform registry (integration-schemas.ts).
  schemas: INTEGRATION_SCHEMAS,
  // Answers carry API secrets, signing secrets and platform credentials (admin create, rotate,
  // webhook secret); every response rather than a list of routes, so a new one cannot be missed.
  noStore: true,
};
