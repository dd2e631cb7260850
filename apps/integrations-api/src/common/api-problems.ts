import { apiProblemsDecorator, RATE_LIMIT_HEADER_DOCS } from '@courier/http';

/** Documents error answers as problem JSON (@courier/http's ProblemDto), with this API's description per status (overridable). */
export const ApiProblems = apiProblemsDecorator({
  descriptions: {
    400: 'INVALID_PAYLOAD: the body is not valid JSON.',
    401: 'AUTHENTICATION_FAILED: credentials missing or wrong, or the account is disabled.',
    404: 'Not found (for another account\'s resource as well).',
    409: 'Conflict.',
    413: 'PAYLOAD_TOO_LARGE: the body is larger than 256 KiB.',
    422: 'VALIDATION_ERROR: invalid fields, listed in `errors`.',
    500: 'INTERNAL_ERROR: unexpected failure; quote the requestId.',
  },
  headers: { 429: RATE_LIMIT_HEADER_DOCS },
});
