import { RESPONSE_LOG_DIR_VARIABLE } from '@courier/http';
import { startTestApp, TestApp } from '../../test/harness';

jest.setTimeout(60_000);

describe('OpenAPI document (/docs-json, /docs)', () => {
  let t: TestApp;
  let document: any;

  beforeAll(async () => {
    // Renamed wire codes: this app's answers follow its own /docs-json, not the published document (neutral codes).
    t = await startTestApp({ env: { PLATFORM_A_CODE: 'GETIR', [RESPONSE_LOG_DIR_VARIABLE]: undefined } });
    document = (await t.http.get('/docs-json')).body;
  });
  afterAll(() => t?.close());

  it('is OpenAPI 3 and served as a page too', async () => {
    expect(document.openapi).toMatch(/^3\./);
    const page = await t.http.get('/docs/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger');
  });

  it('describes every endpoint, with its security and error answers', () => {
    const expected: Array<[string, string, string[]]> = [
      ['post', '/api/v1/my/integrations', ['201', '401', '409', '422']],
      ['get', '/api/v1/my/integrations', ['200', '401', '422']],
      ['get', '/api/v1/my/integrations/{id}', ['200', '401', '404']],
      ['put', '/api/v1/my/integrations/{id}', ['200', '401', '404', '409', '422']],
      ['patch', '/api/v1/my/integrations/{id}/activate', ['200', '401', '404']],
      ['patch', '/api/v1/my/integrations/{id}/deactivate', ['200', '401', '404']],
      ['delete', '/api/v1/my/integrations/{id}', ['204', '401', '404']],
      ['get', '/api/v1/my/webhooks', ['200', '401']],
      ['put', '/api/v1/my/webhooks', ['200', '401', '422']],
      ['post', '/api/v1/my/webhooks/secret', ['200', '401']],
      ['delete', '/api/v1/my/webhooks/secret', ['204', '401']],
      ['get', '/api/v1/my/account', ['200', '401']],
      ['post', '/admin/v1/restaurants', ['201', '401', '422']],
      ['get', '/admin/v1/restaurants', ['200', '401', '422']],
      ['get', '/admin/v1/restaurants/{id}', ['200', '401', '404']],
      ['post', '/admin/v1/restaurants/{id}/disable', ['200', '401', '404']],
      ['post', '/admin/v1/restaurants/{id}/enable', ['200', '401', '404']],
      ['post', '/admin/v1/restaurants/{id}/rotate-keys', ['200', '401', '404']],
      ['post', '/admin/v1/secrets/reencrypt', ['200', '401']],
    ];
    for (const [method, path, statuses] of expected) {
      const operation = document.paths[path]?.[method];
      expect({ path, method, found: Boolean(operation) }).toEqual({ path, method, found: true });
      for (const status of statuses) expect({ path, method, status, found: Boolean(operation.responses[status]) }).toEqual({ path, method, status, found: true });
      const security = path.startsWith('/admin') ? [{ 'X-Admin-Token': [] }] : [{ 'X-API-Key': [], 'X-API-Secret': [] }];
      expect(operation.security).toEqual(security);
      expect(operation.responses['401'].content['application/problem+json']).toBeDefined();
    }
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['X-API-Key', 'X-API-Secret', 'X-Admin-Token'].sort());
    expect(document.components.securitySchemes['X-API-Secret']).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Secret' });
  });

  it('derives the integration bodies from the platform registry, with wire codes', () => {
    const named = (ref: string) => document.components.schemas[ref.replace('#/components/schemas/', '')];
    const create = named(document.paths['/api/v1/my/integrations'].post.requestBody.content['application/json'].schema.$ref);
    // Named schemas, so that the discriminator can select them (Redocly no-illogical-composition-keywords).
    const alternatives = create.oneOf.map((entry: { $ref: string }) => named(entry.$ref));
    const byPlatform = Object.fromEntries(alternatives.map((schema: any) => [schema.properties.platform.enum[0], schema.required]));
    for (const [wireCode, ref] of Object.entries(create.discriminator.mapping)) expect(named(ref as string).properties.platform.enum).toEqual([wireCode]);
    expect(byPlatform).toEqual({
      GETIR: ['platform', 'providerRestaurantId', 'secretKey'],
      PLATFORM_B: ['platform', 'providerRestaurantId', 'chainCode', 'username', 'password'],
      PLATFORM_C: ['platform', 'providerRestaurantId', 'supplierId', 'apiKey', 'secretKey', 'storeId'],
      PLATFORM_D: ['platform', 'providerRestaurantId', 'providerMerchantId', 'apiKey'],
      THIRD_PARTY: ['platform', 'providerRestaurantId'],
    });
    const record = named(document.paths['/api/v1/my/integrations/{id}'].get.responses['200'].content['application/json'].schema.$ref);
    expect(Object.keys(record.properties)).toEqual(expect.arrayContaining(['id', 'platform', 'providerRestaurantId', 'isActive', 'password', 'createdAt', 'updatedAt']));
    const list = document.paths['/api/v1/my/integrations'].get;
    expect(list.parameters.map((parameter: any) => parameter.name).sort()).toEqual(['cursor', 'isActive', 'limit', 'platform']);
  });

  it('documents the launcher\'s options of account creation', () => {
    const schemaRef = document.paths['/admin/v1/restaurants'].post.requestBody.content['application/json'].schema.$ref.split('/').pop();
    expect(Object.keys(document.components.schemas[schemaRef].properties).sort()).toEqual(['cancelUrl', 'generateSigningSecret', 'name', 'providerRestaurantId', 'statusUrl']);
    const createdRef = document.paths['/admin/v1/restaurants'].post.responses['201'].content['application/json'].schema.$ref.split('/').pop();
    expect(document.components.schemas[createdRef].properties).toHaveProperty('signingSecret');
  });

  it('accepts the renamed wire code and refuses the neutral one', async () => {
    const account = await t.createRestaurant({ name: 'Renamed' });
    const headers = { 'X-API-Key': account.apiKey, 'X-API-Secret': account.apiSecret };
    const created = await t.http.post('/api/v1/my/integrations').set(headers).send({ platform: 'GETIR', providerRestaurantId: 'g-1', secretKey: 'getir-secret-1234' });
    expect(created.status).toBe(201);
    expect(created.body.platform).toBe('GETIR');
    const [row] = await t.sql('SELECT platform FROM integrations WHERE id = $1', [created.body.id]);
    expect(row.platform).toBe('PLATFORM_A');
    expect((await t.http.post('/api/v1/my/integrations').set(headers).send({ platform: 'PLATFORM_A', providerRestaurantId: 'g-2', secretKey: 'x-secret-1234' })).status).toBe(422);
    expect((await t.http.get('/api/v1/my/integrations').query({ platform: 'GETIR' }).set(headers)).body.data).toHaveLength(1);
  });

  it('answers the health checks', async () => {
    expect((await t.http.get('/health')).body).toEqual({ status: 'ok' });
    expect((await t.http.get('/health/ready')).status).toBe(200);
  });
});
