import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { problemFor, sendProblem, titleFor } from '@courier/http';
import { PlatformBPluginReason, platformBPluginRefusal } from './yemeksepeti.plugin-answers';

/**
 * Every refusal of a PLATFORM_B plugin route, whatever threw it (the JWT guard and its failure
 * throttle, the body reader and its depth scan, validation, the handler), answered within the statuses
 * the DH middleware expects (platformBPluginRefusal): our problem JSON with its `code`, its status
 * mapped, and DH's `{ reason, message }` beside it.
 */
@Catch()
export class PlatformBPluginAnswerFilter implements ExceptionFilter {
  private readonly logger = new Logger('PlatformBPlugin');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    if (response.headersSent) return;
    const { problem, headers } = problemFor(exception, http.getRequest<Request & { id?: string }>().id, this.logger);
    const given = typeof problem.reason === 'string' ? (problem.reason as PlatformBPluginReason) : undefined;
    const refusal = platformBPluginRefusal(problem.status, given);
    sendProblem(
      response,
      { ...problem, status: refusal.status, title: titleFor(refusal.status), reason: refusal.reason, message: typeof problem.message === 'string' ? problem.message : problem.detail },
      headers,
    );
  }
}
