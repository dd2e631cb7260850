import { ProblemHeaderDocs, RATE_LIMIT_HEADER_DOCS } from '@courier/http';

/** The error answers every intake route may give, for `@ApiProblem(...)` (the DTO is @courier/http's ProblemDto). */
export const UNAUTHORIZED: readonly [number, string, ProblemHeaderDocs] = [
  401,
  'AUTHENTICATION_FAILED: no usable X-API-Key or Basic credentials, unknown key, wrong secret, or a disabled account.',
  { 'WWW-Authenticate': { description: 'Basic realm="order-intake"', schema: { type: 'string' } } },
];

export const RATE_LIMITED: readonly [number, string, ProblemHeaderDocs] = [
  429,
  'RATE_LIMIT_EXCEEDED: more than INTAKE_RATE_LIMIT_PER_MINUTE (default 600) requests in the current minute for this API key, across all replicas (policy "orders" for order intake, "reads" for status reads).',
  { ...RATE_LIMIT_HEADER_DOCS, 'Retry-After': { description: 'Seconds to wait: always 60 (RateLimit\'s t too).', schema: { type: 'integer' } } },
];

export const INTERNAL_ERROR: readonly [number, string] = [500, 'INTERNAL_ERROR: unexpected failure (e.g. the database is down); nothing was accepted; quote the requestId.'];
