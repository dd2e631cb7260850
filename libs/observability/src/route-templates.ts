/** Label of a request no route matched (404s, scanners): one value, whatever the URL. */
export const UNMATCHED_ROUTE = '(unmatched)';

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The method label: one of the HTTP methods the apps serve, else OTHER (a label no client can inflate). */
export function methodLabel(method: string | undefined): string {
  const upper = (method ?? '').toUpperCase();
  return KNOWN_METHODS.has(upper) ? upper : 'OTHER';
}

export interface RouteDefinition {
  /** Upper-case methods, or ['ALL']. */
  methods: string[];
  /** Express path template: `/internal/orders/:id/transitions`, `{*rest}` / `*rest` wildcards. */
  path: string;
}

type Segment = { kind: 'literal'; value: string } | { kind: 'param' } | { kind: 'rest' };

interface CompiledRoute {
  methods: Set<string>;
  path: string;
  segments: Segment[];
  /** Fewer parameters = more specific: it wins when several templates match. */
  params: number;
}

function compile(route: RouteDefinition): CompiledRoute {
  const segments: Segment[] = splitPath(route.path).map((part) => {
    if (/^(\{\*[^}]*\}|\*.*)$/.test(part)) return { kind: 'rest' };
    if (part.startsWith(':')) return { kind: 'param' };
    return { kind: 'literal', value: part };
  });
  return {
    methods: new Set(route.methods.map((method) => method.toUpperCase())),
    path: route.path,
    segments,
    params: segments.filter((segment) => segment.kind !== 'literal').length,
  };
}

function splitPath(path: string): string[] {
  return path.split('/').filter((part) => part.length > 0);
}

function matches(route: CompiledRoute, parts: string[]): boolean {
  for (let i = 0; i < route.segments.length; i += 1) {
    const segment = route.segments[i];
    if (segment.kind === 'rest') return parts.length > i;
    if (i >= parts.length) return false;
    if (segment.kind === 'literal' && segment.value !== parts[i]) return false;
  }
  return parts.length === route.segments.length;
}

/**
 * Maps a request's raw path to the template of the route that serves it, so that metric labels
 * never carry ids (bounded cardinality). Used when the router did not record a matched route on the
 * request, e.g. a body the JSON parser refused (413) before routing; unknown paths map to one label.
 */
export class RouteTemplates {
  private readonly routes: CompiledRoute[];

  constructor(routes: RouteDefinition[]) {
    this.routes = routes.map(compile).sort((a, b) => a.params - b.params);
  }

  get size(): number {
    return this.routes.length;
  }

  match(method: string, rawUrl: string): string {
    const upper = method.toUpperCase();
    const parts = splitPath(decodePathname(rawUrl));
    const route = this.routes.find(
      (candidate) => (candidate.methods.has(upper) || candidate.methods.has('ALL') || (upper === 'HEAD' && candidate.methods.has('GET'))) && matches(candidate, parts),
    );
    return route?.path ?? UNMATCHED_ROUTE;
  }
}

function decodePathname(rawUrl: string): string {
  const pathname = rawUrl.split(/[?#]/)[0];
  try {
    return decodeURI(pathname);
  } catch {
    return pathname;
  }
}

/**
 * A path matching every URL (`/{*path}`): Nest registers middleware applied "for all routes" (the
 * request logger) as such a route, so it says nothing about which handler served a request.
 */
function isCatchAll(path: string): boolean {
  return /^\/?(\{\*[^}]*\}|\*[^/]*)$/.test(path);
}

/** The route an Express request was dispatched to (`req.route`), as `baseUrl` + template, if any. */
export function matchedRouteTemplate(req: { route?: { path?: unknown }; baseUrl?: string }): string | undefined {
  const path = req.route?.path;
  if (typeof path !== 'string' || isCatchAll(path)) return undefined;
  return `${req.baseUrl ?? ''}${path}` || '/';
}

/**
 * The routes of an Express 5 app's router (Nest registers each handler as a route there). Empty
 * before the app is initialised.
 */
export function expressRoutes(app: unknown): RouteDefinition[] {
  const stack = (app as { router?: { stack?: Array<{ route?: { path?: unknown; methods?: Record<string, boolean> } }> } })?.router?.stack ?? [];
  const routes: RouteDefinition[] = [];
  for (const layer of stack) {
    const route = layer.route;
    if (!route || typeof route.path !== 'string' || isCatchAll(route.path)) continue;
    const methods = Object.keys(route.methods ?? {})
      .filter((method) => route.methods?.[method])
      .map((method) => (method === '_all' ? 'ALL' : method.toUpperCase()));
    routes.push({ methods, path: route.path });
  }
  return routes;
}
