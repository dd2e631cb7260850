import fc from 'fast-check';
import { admin, credentials, CreatedRestaurant, platformBodies, startTestApp, TestApp } from '../../test/harness';

jest.setTimeout(180_000);

/**
 * Property-based: malformed and random bodies, headers, ids and queries at every endpoint never
 * get a 5xx, and every error is problem JSON with a code.
 */
describe('no bad input gives a 5xx (fast-check)', () => {
  let t: TestApp;
  let account: CreatedRestaurant;
  /** Admin routes act on this one: disabling or rotating the fuzzed account would turn later requests into 401s. */
  let adminTarget: CreatedRestaurant;
  let integrationId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { LOG_LEVEL: 'warn' } });
    account = await t.createRestaurant({ name: 'Fuzzed' });
    adminTarget = await t.createRestaurant({ name: 'Fuzzed by the admin routes' });
    const created = await t.http.post('/api/v1/my/integrations').set(credentials(account)).send(platformBodies('fuzz').PLATFORM_B);
    integrationId = created.body.id;
  });
  afterAll(() => t?.close());

  type Route = { method: 'get' | 'post' | 'put' | 'patch' | 'delete'; path: (id: string) => string; auth: 'api' | 'admin' };
  const ROUTES: Route[] = [
    { method: 'post', path: () => '/api/v1/my/integrations', auth: 'api' },
    { method: 'get', path: () => '/api/v1/my/integrations', auth: 'api' },
    { method: 'get', path: (id) => `/api/v1/my/integrations/${id}`, auth: 'api' },
    { method: 'put', path: (id) => `/api/v1/my/integrations/${id}`, auth: 'api' },
    { method: 'patch', path: (id) => `/api/v1/my/integrations/${id}/activate`, auth: 'api' },
    { method: 'patch', path: (id) => `/api/v1/my/integrations/${id}/deactivate`, auth: 'api' },
    { method: 'delete', path: (id) => `/api/v1/my/integrations/${id}`, auth: 'api' },
    { method: 'get', path: () => '/api/v1/my/webhooks', auth: 'api' },
    { method: 'put', path: () => '/api/v1/my/webhooks', auth: 'api' },
    { method: 'post', path: () => '/api/v1/my/webhooks/secret', auth: 'api' },
    { method: 'get', path: () => '/api/v1/my/account', auth: 'api' },
    { method: 'post', path: () => '/admin/v1/restaurants', auth: 'admin' },
    { method: 'get', path: () => '/admin/v1/restaurants', auth: 'admin' },
    { method: 'get', path: (id) => `/admin/v1/restaurants/${id}`, auth: 'admin' },
    { method: 'post', path: (id) => `/admin/v1/restaurants/${id}/disable`, auth: 'admin' },
    { method: 'post', path: (id) => `/admin/v1/restaurants/${id}/enable`, auth: 'admin' },
  ];

  const FIELD_NAMES = ['platform', 'providerRestaurantId', 'isActive', 'secretKey', 'chainCode', 'username', 'password', 'supplierId', 'apiKey', 'storeId', 'providerMerchantId', 'name', 'statusUrl', 'cancelUrl', 'generateSigningSecret', '__proto__', 'constructor', 'id'];
  const PLATFORMS = ['PLATFORM_A', 'PLATFORM_B', 'PLATFORM_C', 'PLATFORM_D', 'THIRD_PARTY', 'platform_a', '', 'X'];
  const strings = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('', ' ', '\u0000', '****1234', 'https://127.0.0.1/', 'http://[::1]/', 'https://93.184.216.34/x', 'x'.repeat(5000)));
  const values = fc.oneof(strings, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.object({ maxDepth: 2 }));
  const plausibleBody = fc.dictionary(fc.constantFrom(...FIELD_NAMES), values).map((body) => ({ ...body, ...(Math.random() < 0.7 ? { platform: PLATFORMS[Math.floor(Math.random() * PLATFORMS.length)] } : {}) }));
  const rawBody = fc.oneof(
    plausibleBody.map((body) => JSON.stringify(body)),
    fc.json({ maxDepth: 4 }),
    fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value) ?? 'null'),
    fc.string(),
    fc.constantFrom('{', '[', '{"a":', 'null', 'true', '""', '[]', '{}', '\u0000', '{"platform":"PLATFORM_A","secretKey":{"$gt":""}}', '['.repeat(5000) + ']'.repeat(5000), `{"name":"x","a":${'['.repeat(3000)}${']'.repeat(3000)}}`),
  );
  const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'application/merge-patch+json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', '', 'application/json; charset=utf-16');
  const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 600 });
  const ids = fc.oneof(
    fc.uuid(),
    fc.string().map(encodeURIComponent),
    fc.string({ unit: 'grapheme' }).map(encodeURIComponent),
    fc.constantFrom('%', '%E0%A4%A', '..', '%2e%2e', 'null', 'undefined', '0', '-1', 'rest_', 'rest_aaaaaaaaaaaaaaaaaaaa', "x'--", '%00', 'a%2Fb'),
  );

  async function send(route: Route, id: string, headers: Record<string, string>, body?: string, type?: string, query?: Record<string, string>) {
    let call = (t.http as any)[route.method](route.path(id)).set(headers);
    if (query) call = call.query(query);
    if (body !== undefined) {
      if (type) call = call.set('Content-Type', type);
      call = call.send(body);
    }
    return call;
  }

  function expectSafe(response: any) {
    if (response.status >= 500) throw new Error(`${response.status} ${JSON.stringify(response.body)} ${response.req?.method} ${response.req?.path}`);
    if (response.status >= 400 && response.headers['content-type']?.startsWith('application/problem+json')) {
      expect(typeof response.body.code).toBe('string');
    }
  }

  const authHeaders = (route: Route): Record<string, string> => (route.auth === 'admin' ? admin : credentials(account));

  it('random bodies and content types, with valid credentials', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), rawBody, contentType, fc.constantFrom(integrationId, 'known-restaurant', 'nope'), async (route, body, type, pick) => {
        const id = pick === 'known-restaurant' ? (route.auth === 'admin' ? adminTarget.restaurantId : account.restaurantId) : pick;
        expectSafe(await send(route, id, authHeaders(route), body, type));
      }),
      { numRuns: 400 },
    );
  });

  it('random credentials and admin tokens', async () => {
    const headerSets = fc.record(
      { 'X-API-Key': fc.oneof(printable, fc.constant(account.apiKey)), 'X-API-Secret': fc.oneof(printable, fc.constant(account.apiSecret)), 'X-Admin-Token': printable, Authorization: printable },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), headerSets, async (route, headers) => {
        const response = await send(route, integrationId, headers as Record<string, string>, '{}', 'application/json');
        expectSafe(response);
      }),
      { numRuns: 300 },
    );
  });

  it('random ids on every id route', async () => {
    const idRoutes = ROUTES.filter((route) => route.path('ID').includes('ID'));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...idRoutes), ids, async (route, id) => {
        const response = await send(route, id, authHeaders(route), '{"isActive":true}', 'application/json');
        expectSafe(response);
        if (route.auth === 'api' && /^[0-9a-f-]{36}$/i.test(id) && id !== integrationId) expect(response.status).toBe(404);
      }),
      { numRuns: 300 },
    );
  });

  it('random query strings on the lists', async () => {
    const query = fc.dictionary(fc.constantFrom('limit', 'cursor', 'platform', 'isActive', 'status', 'x', 'limit[]', 'cursor[a]'), printable, { maxKeys: 4 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(ROUTES[1], ROUTES[12]), query, async (route, parameters) => {
        expectSafe(await send(route, '', authHeaders(route), undefined, undefined, parameters));
      }),
      { numRuns: 300 },
    );
  });

  it('still works after the storm', async () => {
    const response = await t.http.get(`/api/v1/my/integrations/${integrationId}`).set(credentials(account));
    expect([200, 404]).toContain(response.status);
    expect((await t.http.get('/health')).status).toBe(200);
  });
});
