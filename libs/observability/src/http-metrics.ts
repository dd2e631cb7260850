import type { IncomingMessage, ServerResponse } from 'node:http';
import { Histogram, Registry } from 'prom-client';
import { expressRoutes, matchedRouteTemplate, methodLabel, RouteTemplates } from './route-templates';

type Request = IncomingMessage & { originalUrl?: string; route?: { path?: unknown }; baseUrl?: string };

/** Status label of a request whose client went away before the response was complete (nginx's 499). */
export const CLIENT_CLOSED_STATUS = '499';

/**
 * HTTP request latency (and, through the histogram's `_count`, request rate) by method, route
 * template and status code. Recorded when the response finishes, so every answer counts: guard
 * rejections, validation errors, 404s and bodies the JSON parser refused before routing.
 */
export class HttpMetrics {
  readonly duration: Histogram<'method' | 'route' | 'status_code'>;
  private templates?: RouteTemplates;

  constructor(
    registry: Registry,
    /** The Express app whose router knows the route templates (read once it has routes). */
    private readonly app?: unknown,
  ) {
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request reaching the app to the end of its response, by method, route template and status code. _count is the request count.',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
  }

  /** Express/Connect middleware; must run before anything that may answer (it is installed first). */
  readonly middleware = (req: Request, res: ServerResponse, next: () => void): void => {
    const started = process.hrtime.bigint();
    let recorded = false;
    const record = (status: string) => {
      if (recorded) return;
      recorded = true;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.duration.observe({ method: methodLabel(req.method), route: this.routeOf(req), status_code: status }, seconds);
    };
    res.once('finish', () => record(String(res.statusCode)));
    res.once('close', () => record(res.writableFinished ? String(res.statusCode) : CLIENT_CLOSED_STATUS));
    next();
  };

  /** The template of the route that served `req`: the router's record, else the app's route table. */
  routeOf(req: Request): string {
    const matched = matchedRouteTemplate(req);
    if (matched) return matched;
    return this.routeTable().match(req.method ?? 'GET', req.originalUrl ?? req.url ?? '/');
  }

  private routeTable(): RouteTemplates {
    if (this.templates) return this.templates;
    const table = new RouteTemplates(expressRoutes(this.app));
    // Before the app is initialised the router is empty: look again next time.
    if (table.size > 0) this.templates = table;
    return table;
  }
}
