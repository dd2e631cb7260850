import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ErrorCode, FieldError, ProblemDetails } from '@courier/contracts';
import { ProblemException, titleFor } from './problem.exception';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: ErrorCode.InvalidPayload,
  401: ErrorCode.AuthenticationFailed,
  403: ErrorCode.Forbidden,
  404: ErrorCode.NotFound,
  405: ErrorCode.MethodNotAllowed,
  409: ErrorCode.Conflict,
  413: ErrorCode.PayloadTooLarge,
  415: ErrorCode.UnsupportedMediaType,
  422: ErrorCode.ValidationError,
  429: ErrorCode.RateLimitExceeded,
  503: ErrorCode.ServiceUnavailable,
};

/**
 * Most field errors an answer lists; the rest are counted in `errorsOmitted`. Applied here, to every
 * problem of every app: a 200 KiB body of unknown fields would otherwise get a 900 KB answer.
 */
export const MAX_FIELD_ERRORS = 20;

export function buildProblem(status: number, code: string, detail: string, requestId?: string, errors?: FieldError[]): ProblemDetails {
  const omitted = (errors?.length ?? 0) - MAX_FIELD_ERRORS;
  return {
    type: `https://docs.courier-integration.dev/problems/${code.toLowerCase().replace(/_/g, '-')}`,
    title: titleFor(status),
    status,
    detail,
    code,
    ...(errors && errors.length > 0 ? { errors: errors.slice(0, MAX_FIELD_ERRORS) } : {}),
    ...(omitted > 0 ? { errorsOmitted: omitted } : {}),
    ...(requestId ? { requestId } : {}),
  };
}

/** The problem JSON (and headers) an error is answered with; errors of ours (5xx, unexpected) are logged. */
export function problemFor(exception: unknown, requestId: string | undefined, logger: Logger): { problem: ProblemDetails; headers: Record<string, string> } {
  if (exception instanceof ProblemException) {
    return { problem: { ...buildProblem(exception.getStatus(), exception.code, exception.detail, requestId, exception.errors), ...exception.extensions }, headers: exception.headers };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const body = exception.getResponse();
    const message =
      typeof body === 'string' ? body : Array.isArray((body as { message?: unknown }).message) ? ((body as { message: string[] }).message).join('; ') : String((body as { message?: unknown }).message ?? exception.message);
    if (status >= 500) logger.error({ err: exception, requestId }, 'request failed');
    return { problem: buildProblem(status, CODE_BY_STATUS[status] ?? (status >= 500 ? ErrorCode.InternalError : ErrorCode.InvalidPayload), status >= 500 ? 'The request could not be completed.' : message, requestId), headers: {} };
  }
  logger.error({ err: exception, requestId }, 'unexpected error');
  return { problem: buildProblem(500, ErrorCode.InternalError, 'An unexpected error occurred. Quote the requestId when reporting it.', requestId), headers: {} };
}

/** Sends a problem as application/problem+json. */
export function sendProblem(response: Response, problem: ProblemDetails, headers: Record<string, string> = {}): void {
  response.status(problem.status).setHeader('Content-Type', 'application/problem+json');
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  response.send(JSON.stringify(problem));
}

/** Renders every error as application/problem+json with a `code`; never leaks a stack or internals. */
@Catch()
export class ProblemJsonFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemJsonFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    if (response.headersSent) return;
    const { problem, headers } = problemFor(exception, http.getRequest<Request & { id?: string }>().id, this.logger);
    sendProblem(response, problem, headers);
  }
}
