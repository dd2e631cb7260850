import { apiProblemsDecorator, RATE_LIMIT_HEADER_DOCS } from '@courier/http';

/** Documents error answers as problem JSON (@courier/http's ProblemDto), with this API's description per status. */
export const ApiProblems = apiProblemsDecorator({
  descriptions: {
    401: 'AUTHENTICATION_FAILED: X-API-Key or X-API-Secret missing or wrong, or the account is disabled.',
    404: 'DELIVERY_NOT_FOUND: no delivery with this id for this account (malformed ids and other accounts\' deliveries too).',
    422: 'VALIDATION_ERROR: invalid query parameters, listed in `errors`.',
    429: 'RATE_LIMIT_EXCEEDED: too many redeliveries this minute (policy "redeliveries"), or wrong credentials from an address or for a key that failed too often ("failures", "key-failures"); Retry-After says when to try again.',
    500: 'INTERNAL_ERROR: unexpected failure; quote the requestId.',
  },
  headers: { 429: RATE_LIMIT_HEADER_DOCS },
});
