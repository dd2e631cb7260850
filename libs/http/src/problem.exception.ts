import { HttpException } from '@nestjs/common';
import { ErrorCode, FieldError } from '@courier/contracts';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function titleFor(status: number): string {
  return TITLES[status] ?? 'Error';
}

/**
 * An error with a contract code. Thrown anywhere in a request; the problem filter turns it into
 * RFC 9457 problem JSON. `extensions` add members (e.g. currentStatus of an invalid transition).
 */
export class ProblemException extends HttpException {
  constructor(
    status: number,
    readonly code: ErrorCode | string,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super({ code, detail }, status);
  }
}
