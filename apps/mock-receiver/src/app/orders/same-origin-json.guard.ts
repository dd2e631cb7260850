import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ErrorCode } from '@courier/contracts';
import { ProblemException } from '@courier/http';

/**
 * Cross-site request forgery on the receiver's actions (they spend the demo key): a page on another
 * origin can POST a "simple" request (text/plain, a form, or no body) without a preflight. So an
 * action takes only `Content-Type: application/json` (which a cross-origin page can send only
 * after a CORS preflight, and the receiver answers none), and when the browser says where the
 * request comes from (`Origin`), it must be the receiver's own origin, the dashboard's. No Origin:
 * a non-browser client (curl, scripts, tests), which is allowed.
 */
export function sameOriginJsonProblem(request: Pick<Request, 'headers' | 'protocol'>): ProblemException | undefined {
  const contentType = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (contentType !== 'application/json') {
    return new ProblemException(415, ErrorCode.UnsupportedMediaType, 'Send the request with Content-Type: application/json (an empty order is {}).');
  }
  const origin = request.headers.origin;
  if (origin === undefined) return undefined;
  const own = `${request.protocol}://${request.headers.host ?? ''}`.toLowerCase();
  if (origin.toLowerCase() !== own) {
    return new ProblemException(403, ErrorCode.Forbidden, `Requests from the origin ${origin} are refused: only the receiver's own dashboard (${own}) may send them.`);
  }
  return undefined;
}

@Injectable()
export class SameOriginJsonGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const problem = sameOriginJsonProblem(context.switchToHttp().getRequest<Request>());
    if (problem) throw problem;
    return true;
  }
}
