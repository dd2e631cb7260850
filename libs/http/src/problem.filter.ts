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

/** Errors thrown by body-parser before Nest sees the request. */
interface BodyParserError {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
}

export function buildProblem(status: number, code: string, detail: string, requestId?: string, errors?: FieldError[]): ProblemDetails {
  return {
    type: `https://docs.courier-integration.dev/problems/${code.toLowerCase().replace(/_/g, '-')}`,
    title: titleFor(status),
    status,
    detail,
    code,
    ...(errors && errors.length > 0 ? { errors } : {}),
    ...(requestId ? { requestId } : {}),
  };
}

/** Renders every error as application/problem+json with a `code`; never leaks a stack or internals. */
@Catch()
export class ProblemJsonFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemJsonFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const request = http.getRequest<Request & { id?: string }>();
    if (response.headersSent) return;
    const requestId = request.id;
    let problem: ProblemDetails;
    let headers: Record<string, string> = {};

    if (exception instanceof ProblemException) {
      problem = { ...buildProblem(exception.getStatus(), exception.code, exception.detail, requestId, exception.errors), ...exception.extensions };
      headers = exception.headers;
    } else if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const body = exception.getResponse();
      const message =
        typeof body === 'string' ? body : Array.isArray((body as { message?: unknown }).message) ? ((body as { message: string[] }).message).join('; ') : String((body as { message?: unknown }).message ?? exception.message);
      if (status >= 500) this.logger.error({ err: exception, requestId }, 'request failed');
      problem = buildProblem(status, CODE_BY_STATUS[status] ?? (status >= 500 ? ErrorCode.InternalError : ErrorCode.InvalidPayload), status >= 500 ? 'The request could not be completed.' : message, requestId);
    } else if (isBodyParserError(exception)) {
      const status = exception.status ?? exception.statusCode ?? 400;
      if (exception.type === 'entity.too.large') {
        problem = buildProblem(413, ErrorCode.PayloadTooLarge, 'The request body is larger than the limit.', requestId);
      } else if (exception.type === 'encoding.unsupported' || exception.type === 'charset.unsupported') {
        problem = buildProblem(415, ErrorCode.UnsupportedMediaType, 'The request body encoding is not supported.', requestId);
      } else {
        problem = buildProblem(status >= 400 && status < 500 ? 400 : 400, ErrorCode.InvalidPayload, 'The request body is not valid JSON.', requestId);
      }
    } else {
      this.logger.error({ err: exception, requestId }, 'unexpected error');
      problem = buildProblem(500, ErrorCode.InternalError, 'An unexpected error occurred. Quote the requestId when reporting it.', requestId);
    }

    response.status(problem.status).setHeader('Content-Type', 'application/problem+json');
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    response.send(JSON.stringify(problem));
  }
}

function isBodyParserError(error: unknown): error is BodyParserError {
  return typeof error === 'object' && error !== null && typeof (error as BodyParserError).type === 'string' && 'expose' in error;
}
