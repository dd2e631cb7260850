import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ErrorCode } from '@courier/contracts';
import { hasRequestBody, isJsonMediaType, ProblemException } from '@courier/http';
import { RECEIVER_CONFIG } from '../receiver.tokens';
import { ReceiverConfig } from '../receiver.config';

/** Names the receiver answers to on the port it listens on, whatever the configuration. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** `Sec-Fetch-Site` values of requests a page on another origin cannot have made. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

export interface HostName {
  name: string;
  /** Absent: any port. */
  port?: number;
}

/** `name`, `name:port`, `[v6]` or `[v6]:port`, lower-cased; undefined when it is none of these. */
export function parseHost(value: string, defaultPort?: number): HostName | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(value.trim().toLowerCase());
  if (!match) return undefined;
  const port = match[2] !== undefined ? Number(match[2]) : defaultPort;
  return { name: match[1], ...(port !== undefined ? { port } : {}) };
}

/** RECEIVER_ALLOWED_HOSTS: comma-separated `name` (any port) or `name:port`. */
export function allowedHosts(setting: string | undefined): HostName[] {
  return (setting ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => parseHost(entry))
    .filter((host): host is HostName => host !== undefined);
}

/**
 * Whether a request may trigger one of the receiver's actions (they spend the demo API key):
 * - its Host must be one of the receiver's own names (loopback on the port it listens on, or a name
 *   of RECEIVER_ALLOWED_HOSTS): a page whose DNS name was rebound to this machine sends its own name;
 * - a browser must say it comes from the receiver's own page: `Sec-Fetch-Site` same-origin (or none,
 *   the user's own navigation) and an `Origin`, when sent, equal to `<protocol>://<Host>`. Without
 *   either header the client is not a browser (curl, scripts), which cannot be made to send a
 *   request by a foreign page;
 * - a non-empty body must be JSON (415 otherwise); no body is the default order.
 */
export function actionRefusal(request: Request, configured: readonly HostName[]): ProblemException | undefined {
  const hostHeader = request.headers.host ?? '';
  const defaultPort = request.protocol === 'https' ? 443 : 80;
  const host = parseHost(hostHeader, defaultPort);
  const localPort = request.socket.localPort;
  const own =
    host !== undefined &&
    ((LOOPBACK_NAMES.includes(host.name) && host.port === localPort) ||
      configured.some((allowed) => allowed.name === host.name && (allowed.port === undefined || allowed.port === host.port)));
  if (!own) {
    return new ProblemException(403, ErrorCode.Forbidden, `Host ${JSON.stringify(hostHeader)} is not one of this receiver's names (localhost, 127.0.0.1 or [::1] on its port, or RECEIVER_ALLOWED_HOSTS).`);
  }
  const fetchSite = request.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string' && !OWN_FETCH_SITES.has(fetchSite.trim().toLowerCase())) {
    return new ProblemException(403, ErrorCode.Forbidden, `Requests from other sites (Sec-Fetch-Site: ${fetchSite}) are refused: only the receiver's own dashboard may send them.`);
  }
  const origin = request.headers.origin;
  const ownOrigin = `${request.protocol}://${hostHeader}`.toLowerCase();
  if (origin !== undefined && origin.trim().toLowerCase() !== ownOrigin) {
    return new ProblemException(403, ErrorCode.Forbidden, `Requests from the origin ${origin} are refused: only the receiver's own dashboard (${ownOrigin}) may send them.`);
  }
  if (hasRequestBody(request) && !isJsonMediaType(request.headers['content-type'])) {
    return new ProblemException(415, ErrorCode.UnsupportedMediaType, 'Send a JSON body with Content-Type: application/json, or no body for the default order.');
  }
  return undefined;
}

/** The receiver's actions (send an order, move an order): see actionRefusal. Not the webhooks, which servers post. */
@Injectable()
export class OwnOriginGuard implements CanActivate {
  private readonly configured: HostName[];

  constructor(@Inject(RECEIVER_CONFIG) config: ReceiverConfig) {
    this.configured = allowedHosts(config.RECEIVER_ALLOWED_HOSTS);
  }

  canActivate(context: ExecutionContext): boolean {
    const problem = actionRefusal(context.switchToHttp().getRequest<Request>(), this.configured);
    if (problem) throw problem;
    return true;
  }
}
