import fc from 'fast-check';
import { expressRoutes, matchedRouteTemplate, methodLabel, RouteTemplates, UNMATCHED_ROUTE } from './route-templates';

const table = new RouteTemplates([
  { methods: ['POST'], path: '/internal/orders/:id/transitions' },
  { methods: ['GET'], path: '/internal/orders/:id' },
  { methods: ['GET'], path: '/internal/orders/status-updates' },
  { methods: ['POST'], path: '/api/v1/my/webhooks/deliveries/:id/redeliver' },
  { methods: ['GET'], path: '/api/v1/my/webhooks/deliveries' },
  { methods: ['GET'], path: '/health' },
  { methods: ['ALL'], path: '/files/{*rest}' },
  { methods: ['GET'], path: '/' },
]);

describe('RouteTemplates (metric label of a raw path)', () => {
  it.each([
    ['POST', '/internal/orders/3f9c2a4e-0000-4000-8000-000000000001/transitions', '/internal/orders/:id/transitions'],
    ['POST', '/internal/orders/ord_123/transitions?trace=1', '/internal/orders/:id/transitions'],
    ['POST', '/internal/orders/ord_123/transitions/', '/internal/orders/:id/transitions'],
    ['GET', '/internal/orders/ord_123', '/internal/orders/:id'],
    ['HEAD', '/internal/orders/ord_123', '/internal/orders/:id'],
    ['GET', '/internal/orders/status-updates', '/internal/orders/status-updates'],
    ['POST', '/api/v1/my/webhooks/deliveries/del_9/redeliver', '/api/v1/my/webhooks/deliveries/:id/redeliver'],
    ['GET', '/api/v1/my/webhooks/deliveries?limit=5&cursor=abc', '/api/v1/my/webhooks/deliveries'],
    ['DELETE', '/files/a/b/c.txt', '/files/{*rest}'],
    ['GET', '/', '/'],
  ])('%s %s -> %s', (method, url, template) => {
    expect(table.match(method, url)).toBe(template);
  });

  it.each([
    ['GET', '/internal/orders/ord_123/transitions'],
    ['DELETE', '/internal/orders/ord_123'],
    ['GET', '/internal/orders/ord_123/transitions/extra'],
    ['GET', '/internal/orders'],
    ['GET', '/files'],
    ['GET', '/wp-login.php'],
    ['GET', '/%E0%A4%A'],
  ])('%s %s is unmatched', (method, url) => {
    expect(table.match(method, url)).toBe(UNMATCHED_ROUTE);
  });

  it('prefers a literal segment over a parameter, whatever the registration order', () => {
    const reversed = new RouteTemplates([
      { methods: ['GET'], path: '/orders/:id' },
      { methods: ['GET'], path: '/orders/summary' },
    ]);
    expect(reversed.match('GET', '/orders/summary')).toBe('/orders/summary');
    expect(reversed.match('GET', '/orders/o-1')).toBe('/orders/:id');
  });

  it('never puts anything of the raw path into the label: every answer is a template or the unmatched label', () => {
    const templates = new Set(['/internal/orders/:id/transitions', '/internal/orders/:id', '/internal/orders/status-updates', '/api/v1/my/webhooks/deliveries/:id/redeliver', '/api/v1/my/webhooks/deliveries', '/health', '/files/{*rest}', '/', UNMATCHED_ROUTE]);
    fc.assert(
      fc.property(fc.constantFrom('GET', 'POST', 'DELETE', 'PATCH'), fc.array(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 6 }), (method, segments) => {
        expect(templates.has(table.match(method, `/${segments.join('/')}`))).toBe(true);
      }),
    );
  });
});

describe('methodLabel', () => {
  it('keeps the HTTP methods the apps serve and folds everything else into OTHER', () => {
    expect(['get', 'POST', 'Patch', 'delete', 'HEAD', 'OPTIONS', 'PUT'].map(methodLabel)).toEqual(['GET', 'POST', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'PUT']);
    expect(['PROPFIND', 'BREW', '', undefined].map(methodLabel)).toEqual(['OTHER', 'OTHER', 'OTHER', 'OTHER']);
  });
});

describe('matchedRouteTemplate / expressRoutes', () => {
  it('reads the route Express recorded on the request, with its mount path', () => {
    expect(matchedRouteTemplate({ route: { path: '/orders/:id' } })).toBe('/orders/:id');
    expect(matchedRouteTemplate({ route: { path: '/:id' }, baseUrl: '/api' })).toBe('/api/:id');
    expect(matchedRouteTemplate({ route: { path: /regex/ } })).toBeUndefined();
    expect(matchedRouteTemplate({})).toBeUndefined();
    // Middleware Nest applies to every route is itself a catch-all route: not a handler's template.
    expect(matchedRouteTemplate({ route: { path: '/{*path}' } })).toBeUndefined();
    expect(matchedRouteTemplate({ route: { path: '*path' } })).toBeUndefined();
  });

  it('lists the routes of an Express router stack and skips plain middleware', () => {
    const app = {
      router: {
        stack: [
          { name: 'jsonParser' },
          { route: { path: '/{*path}', methods: { _all: true } } },
          { route: { path: '/orders/:id', methods: { get: true } } },
          { route: { path: '/orders', methods: { post: true, get: false } } },
          { route: { path: '/any', methods: { _all: true } } },
        ],
      },
    };
    expect(expressRoutes(app)).toEqual([
      { methods: ['GET'], path: '/orders/:id' },
      { methods: ['POST'], path: '/orders' },
      { methods: ['ALL'], path: '/any' },
    ]);
    expect(expressRoutes(undefined)).toEqual([]);
  });
});
