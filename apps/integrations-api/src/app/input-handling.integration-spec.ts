import { MAX_FIELD_ERRORS } from '@courier/http';
import { admin, credentials, CreatedRestaurant, platformBodies, startTestApp, TestApp } from '../../test/harness';

jest.setTimeout(120_000);

const UNSTORABLE = 'must not contain NUL characters or unpaired surrogates';

/** Bad input at {pos_url}: no 500, no big answer, no echo of the body, secrets never cached. */
describe('integrations-api input handling and headers', () => {
  let t: TestApp;
  let account: CreatedRestaurant;

  beforeAll(async () => {
    t = await startTestApp({ env: { LOG_LEVEL: 'warn' } });
    account = await t.createRestaurant({ name: 'Input handling' });
  });
  afterAll(() => t?.close());

  const restaurants = async () => (await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM restaurants'))[0].n;
  const unknown = Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`k${index}`, 1]));

  it.each([
    ['admin create', 'post', '/admin/v1/restaurants', admin, {}],
    ['webhook settings', 'put', '/api/v1/my/webhooks', null, {}],
    // Checked against the platform's own field set (integration-schemas), not a DTO.
    ['integration create', 'post', '/api/v1/my/integrations', null, platformBodies('big').PLATFORM_B],
  ] as const)('answers a 200 KiB body of unknown fields at %s with a capped, small 422', async (_name, method, path, headers, known) => {
    const response = await t.http[method](path).set(headers ?? credentials(account)).set('Content-Type', 'application/json').send(JSON.stringify({ ...known, ...unknown }));
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.errors.length).toBeLessThanOrEqual(MAX_FIELD_ERRORS);
    expect(response.body.errorsOmitted).toBe(20_000 - MAX_FIELD_ERRORS);
    expect(response.text.length).toBeLessThan(4096);
  });

  it('refuses __proto__ and constructor.prototype keys with 422 VALIDATION_ERROR and creates nothing', async () => {
    const before = await restaurants();
    for (const [body, field] of [['{"name":"Proto","__proto__":{"isAdmin":true}}', '__proto__'], ['{"name":"Proto","constructor":{"prototype":{"isAdmin":true}}}', 'constructor.prototype']]) {
      const response = await t.http.post('/admin/v1/restaurants').set(admin).set('Content-Type', 'application/json').send(body);
      expect(response.status).toBe(422);
      expect(response.body.errors).toContainEqual({ field, message: 'is not allowed' });
    }
    expect(await restaurants()).toBe(before);
  });

  it('refuses NUL and lone surrogates in params, query and body with 422', async () => {
    for (const suffix of ['', '/disable', '/enable', '/rotate-keys']) {
      const method = suffix ? 'post' : 'get';
      expect((await t.http[method](`/admin/v1/restaurants/%00${suffix}`).set(admin)).body).toMatchObject({ status: 422, errors: [{ field: 'id', message: UNSTORABLE }] });
    }
    expect((await t.http.get('/admin/v1/restaurants?cursor=%00').set(admin)).status).toBe(422);
    expect((await t.http.get('/api/v1/my/integrations/a%00').set(credentials(account))).status).toBe(422);
    const body = JSON.stringify(platformBodies('nul').PLATFORM_A).replace('"secretKey":"', '"secretKey":"\\ud800');
    const response = await t.http.post('/api/v1/my/integrations').set(credentials(account)).set('Content-Type', 'application/json').send(body);
    expect(response.status).toBe(422);
    expect(response.body.errors).toContainEqual({ field: 'secretKey', message: UNSTORABLE });
  });

  it('reads a body only after authentication (401, not 400 or 413), and never quotes a malformed one', async () => {
    const send = (path: string, headers: Record<string, string>, body: string) => t.http.post(path).set(headers).set('Content-Type', 'application/json').send(body);
    for (const path of ['/admin/v1/restaurants', '/api/v1/my/integrations']) {
      expect((await send(path, {}, '{"adminToken": DEADBEEF-secret}')).status).toBe(401);
      expect((await send(path, { 'X-Admin-Token': 'wrong-token-0123456789', 'X-API-Key': 'nope', 'X-API-Secret': 'nope' }, `{"pad":"${'x'.repeat(300 * 1024)}"}`)).status).toBe(401);
    }
    const response = await send('/admin/v1/restaurants', admin, '{"adminToken": DEADBEEF-secret}');
    expect(response.status).toBe(400);
    expect(response.body.detail).toBe('The request body is not valid JSON.');
    expect(response.text).not.toContain('DEADBEEF');
  });

  it('sends nosniff and no-store on every answer: the secrets in admin create, key rotation and the signing secret are never cached', async () => {
    const created = await t.http.post('/admin/v1/restaurants').set(admin).send({ name: 'Headers' });
    const rotated = await t.http.post(`/admin/v1/restaurants/${created.body.restaurantId}/rotate-keys`).set(admin);
    const secret = await t.http.post('/api/v1/my/webhooks/secret').set(credentials(account));
    expect([created.status, rotated.status, secret.status]).toEqual([201, 200, 200]);
    for (const response of [created, rotated, secret, await t.http.get('/api/v1/my/account'), await t.http.get('/health'), await t.http.get('/docs-json'), await t.http.get('/nowhere')]) {
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it.each(['text/plain', 'text/html', 'application/x-www-form-urlencoded'])('refuses a body typed %s with 415 on every operation taking a body, and changes nothing', async (type) => {
    const before = (await t.http.get('/api/v1/my/webhooks').set(credentials(account))).body;
    const body = JSON.stringify({ statusUrl: 'https://93.184.216.34/hooks/status' });
    const calls = [
      t.http.put('/api/v1/my/webhooks').set(credentials(account)),
      t.http.post('/api/v1/my/integrations').set(credentials(account)),
      t.http.post('/admin/v1/restaurants').set(admin),
    ];
    for (const call of calls) {
      const response = await call.set('Content-Type', type).send(body);
      expect(response.status).toBe(415);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    expect((await t.http.get('/api/v1/my/webhooks').set(credentials(account))).body).toEqual(before);
  });

  it('accepts application/json and application/<name>+json bodies; an empty body of any type is left to validation', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'application/merge-patch+json']) {
      const response = await t.http.put('/api/v1/my/webhooks').set(credentials(account)).set('Content-Type', type).send(JSON.stringify({ cancelUrl: null }));
      expect(response.status).toBe(200);
    }
    expect((await t.http.put('/api/v1/my/webhooks').set(credentials(account)).set('Content-Type', 'text/plain').set('Content-Length', '0')).status).toBe(200);
  });
});
