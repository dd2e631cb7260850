import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { CORRELATION_HEADER, currentCorrelationId, REQUEST_ID_HEADER, sanitiseCorrelationId, setScopeLogger, withCorrelationId } from './correlation';

type Request = IncomingMessage & { originalUrl?: string };
/** The request id property (Express-style `req.id`). */
type WithId = { id?: unknown };
type Response = ServerResponse & { err?: unknown };

/** Requests not logged: probes and scrapes. */
export function isUnloggedRequest(url: string): boolean {
  return url.startsWith('/health') || url === '/metrics';
}

/** The request's id: the one given to it already (libs/http), else the caller's when plausible, else a new UUID. */
function requestId(req: Request): string {
  const given = (req as WithId).id;
  if (typeof given === 'string') return given;
  return sanitiseCorrelationId(req.headers[REQUEST_ID_HEADER]) ?? sanitiseCorrelationId(req.headers[CORRELATION_HEADER]) ?? randomUUID();
}

/**
 * One line per HTTP request when its response closes, on the app's logger itself. The lines written
 * while the request is handled carry its id as `correlationId` and go to `logger` through the
 * correlation scope (libs/http opens it; this opens one only when nothing did).
 *
 * No child logger, no second AsyncLocalStorage scope, one `close` listener: pino-http's per-request
 * loggers and nestjs-pino's scope were a large share of intake's request path (docs/benchmarks.md).
 */
export function requestLogging(logger: Logger): (req: Request, res: Response, next: () => void) => void {
  return function logRequest(req, res, next) {
    const url = req.originalUrl ?? req.url ?? '';
    if (isUnloggedRequest(url)) return next();
    const started = Date.now();
    const id = requestId(req);
    (req as WithId).id = id;
    const scoped = currentCorrelationId();
    const correlationId = scoped ?? id;
    // 'close' comes after 'finish' for a completed response, and alone when the connection went first.
    res.on('close', () => {
      const fields = {
        req: { id, method: req.method, url },
        res: { statusCode: res.headersSent ? res.statusCode : null },
        responseTime: Date.now() - started,
        correlationId,
      };
      if (res.err || res.statusCode >= 500) {
        logger.info({ ...fields, err: res.err ?? new Error(`failed with status code ${res.statusCode}`) }, 'request errored');
      } else {
        logger.info(fields, !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted');
      }
    });
    if (scoped) {
      setScopeLogger(logger);
      next();
    } else {
      withCorrelationId(id, () => {
        setScopeLogger(logger);
        next();
      });
    }
  };
}
