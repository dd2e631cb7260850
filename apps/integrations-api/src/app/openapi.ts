import { HttpAppOptions } from '@courier/http';

export const SERVICE_DESCRIPTION: HttpAppOptions = {
  title: 'Integration management API ({pos_url}/api/v1, /admin/v1)',
  description:
    'Restaurant credentials on the delivery platforms, webhook settings, and the operator\'s account provisioning. ' +
    '/api/v1/my/* needs both X-API-Key and X-API-Secret (401 AUTHENTICATION_FAILED otherwise); /admin/v1/* needs X-Admin-Token. ' +
    'Every error is RFC 9457 problem JSON (application/problem+json) with a `code`.',
  apiKeyHeaders: ['X-API-Key', 'X-API-Secret', 'X-Admin-Token'],
  // Answers carry API secrets, signing secrets and platform credentials (admin create, rotate,
  // webhook secret); every response rather than a list of routes, so a new one cannot be missed.
  noStore: true,
};
