import { HttpAppOptions, INTAKE_SERVER, INTERNAL_ERROR_PROBLEM, REQUEST_INPUT_PROBLEMS } from '@courier/http';
import { ORDER_INTAKE_PATH } from '../orders/orders.controller';

export const SERVICE_DESCRIPTION: HttpAppOptions = {
  title: 'Order intake API ({base_url})',
  description:
    'Third-party order intake (202, processed asynchronously) and order status. Authenticate with X-API-Key, or with ' +
    'Authorization: Basic base64(apiKey ":" apiSecret) where the secret part may be empty. Every error is RFC 9457 ' +
    'problem JSON (application/problem+json) with a `code`. Rate limit: INTAKE_RATE_LIMIT_PER_MINUTE (default 600) ' +
    'requests a minute per API key, 429 with Retry-After: 60.',
  server: INTAKE_SERVER,
  everyOperationProblems: [...REQUEST_INPUT_PROBLEMS, INTERNAL_ERROR_PROBLEM],
  apiKeyHeaders: ['X-API-Key'],
  basicAuth: true,
  tags: [{ name: 'orders', description: 'Order intake and the order\'s status.' }],
  // Authentication and the rate limit come before parsing (decisions.md check order).
  selfParsedBodyPaths: [ORDER_INTAKE_PATH],
};
