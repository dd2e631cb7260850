import { AUTH_FAILURE_THROTTLED, HttpAppOptions, INTERNAL_ERROR_PROBLEM, POS_SERVER, REQUEST_INPUT_PROBLEMS } from '@courier/http';
import { PLATFORMS } from '@courier/platforms';
import { INTERNAL_API_KEY_HEADER } from '../internal-auth/internal-api-key.guard';

/** Each registered platform's part of the document (its inbound entry's `openApi`). */
const PLATFORM_CALLBACKS = PLATFORMS.flatMap((platform) => (platform.inbound?.openApi ? [platform.inbound.openApi] : []));
const bearerJwt = PLATFORM_CALLBACKS.find((callbacks) => callbacks.bearerJwt)?.bearerJwt;

export const SERVICE_DESCRIPTION: HttpAppOptions = {
  title: 'Status dispatcher ({pos_url}/internal, {pos_url}/platforms)',
  description:
    'Internal endpoints of the courier core: the order lifecycle of THIRD_PARTY orders (transitions along the order status table, ' +
    'scheduled-order gate), the status push of platform orders (POST /internal/orders/status, GET /internal/status-updates/{id}) and the order read ' +
    'for operators, and a restaurant\'s availability asked by the courier core (PUT /internal/restaurants/{restaurantId}/availability); they need X-Internal-Api-Key (one of INTERNAL_API_KEYS; 401 AUTHENTICATION_FAILED otherwise). ' +
    `Platform callbacks under /platforms/...: ${PLATFORM_CALLBACKS.map((callbacks) => callbacks.callbacks).join(', ')}. ` +
    'Restaurants: their availability on every platform (/api/v1/my/availability, products under /api/v1/my/integrations/{id}/products) with X-API-Key and X-API-Secret. Operators: /admin/v1/* with X-Admin-Token (ADMIN_TOKEN). Every error is RFC 9457 problem JSON (application/problem+json) with a `code`.',
  server: POS_SERVER,
  everyOperationProblems: [...REQUEST_INPUT_PROBLEMS, AUTH_FAILURE_THROTTLED, INTERNAL_ERROR_PROBLEM],
  restrictedAnswers: PLATFORM_CALLBACKS.flatMap((callbacks) => callbacks.restrictedAnswers ?? []),
  apiKeyHeaders: [INTERNAL_API_KEY_HEADER, ...PLATFORM_CALLBACKS.flatMap((callbacks) => callbacks.apiKeyHeaders ?? []), 'X-Admin-Token', 'X-API-Key', 'X-API-Secret'],
  ...(bearerJwt ? { bearerJwt } : {}),
  tags: [
    { name: 'orders', description: 'The order lifecycle of THIRD_PARTY orders, and the order read for operators (X-Internal-Api-Key).' },
    { name: 'status push', description: 'Status updates of platform orders, pushed to their platform (X-Internal-Api-Key).' },
    { name: 'availability', description: 'A restaurant open, closed or busy on all its platforms at once, and products sold out (X-API-Key and X-API-Secret; the courier core\'s call with X-Internal-Api-Key).' },
    { name: 'catalog', description: 'The restaurant\'s products by its own codes across its platforms: menu imports, links (automatic by the code a platform product carries, proposed by name, set by hand), the drift re-imports find, and sold out and prices sent to every platform where a product is linked, each change followed per integration (X-API-Key and X-API-Secret).' },
    { name: 'admin', description: 'For operators (X-Admin-Token): platform orders withheld because their integration is not verified by its platform yet.' },
    { name: 'platform callbacks', description: 'What the delivery platforms call: new and cancelled orders, and plugin endpoints. Each platform authenticates its own way.' },
  ],
};
