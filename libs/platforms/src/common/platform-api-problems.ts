import { apiProblemsDecorator } from '@courier/http';

/** Documents the platform callbacks' error answers as problem JSON (@courier/http's ProblemDto), with the default description per status. */
export const PlatformApiProblems = apiProblemsDecorator({
  descriptions: {
    400: 'INVALID_PAYLOAD: the body is not valid JSON, or nests objects or arrays more than 32 levels (refused before it is parsed).',
    401: 'AUTHENTICATION_FAILED: the platform\'s key or token is missing or wrong.',
    413: 'PAYLOAD_TOO_LARGE: the body is larger than 256 KiB.',
    422: 'VALIDATION_ERROR: invalid fields, listed in `errors`.',
    500: 'INTERNAL_ERROR: unexpected failure; quote the requestId.',
  },
});
