import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PLATFORM_B_PLUGIN_STATUSES } from '@courier/platforms';
import { startTestApp, TestApp } from '../../test/harness';
import { servedDocument } from '@courier/http';

jest.setTimeout(60_000);

describe('OpenAPI document (/docs-json, /docs) and health', () => {
  let t: TestApp;
  let document: any;

  beforeAll(async () => {
    t = await startTestApp();
    document = (await t.http.get('/docs-json')).body;
  });
  afterAll(() => t?.close());

  it('is OpenAPI 3 and served as a page too', async () => {
    expect(document.openapi).toMatch(/^3\./);
    const page = await t.http.get('/docs/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger');
  });

  it('describes every internal endpoint, with the internal key and its error answers', () => {
    const expected: Array<[string, string, string[]]> = [
      ['post', '/internal/orders/{yemekKuryeOrderId}/transitions', ['200', '400', '401', '404', '409', '413', '422', '500']],
      ['get', '/internal/orders/{yemekKuryeOrderId}', ['200', '401', '404', '500']],
      ['post', '/internal/orders/status', ['202', '400', '401', '404', '409', '413', '422', '500']],
      ['get', '/internal/status-updates/{statusUpdateId}', ['200', '401', '404', '500']],
      ['put', '/internal/restaurants/{restaurantId}/availability', ['202', '400', '401', '404', '409', '413', '422', '500']],
    ];
    for (const [method, path, statuses] of expected) {
      const operation = document.paths[path]?.[method];
      expect({ path, method, found: Boolean(operation) }).toEqual({ path, method, found: true });
      for (const status of statuses) expect({ path, method, status, found: Boolean(operation.responses[status]) }).toEqual({ path, method, status, found: true });
      expect(operation.security).toEqual([{ 'X-Internal-Api-Key': [] }]);
      expect(operation.responses['401'].content['application/problem+json']).toBeDefined();
    }
    const withheld = document.paths['/admin/v1/withheld-orders'].get;
    expect(withheld.security).toEqual([{ 'X-Admin-Token': [] }]);
    expect(Object.keys(withheld.responses)).toEqual(expect.arrayContaining(['200', '401', '422', '500']));
    expect(document.components.securitySchemes).toEqual({
      'X-Internal-Api-Key': { type: 'apiKey', in: 'header', name: 'X-Internal-Api-Key' },
      'X-Admin-Token': { type: 'apiKey', in: 'header', name: 'X-Admin-Token' },
      'x-api-key': { type: 'apiKey', in: 'header', name: 'x-api-key' },
      XApiKey: { type: 'apiKey', in: 'header', name: 'XApiKey' },
      'X-API-Key': { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      'X-API-Secret': { type: 'apiKey', in: 'header', name: 'X-API-Secret' },
      bearerJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: expect.stringContaining('PLATFORM_B_PLUGIN_SECRET') },
    });
  });

  it('describes the restaurant\'s availability endpoints with the account key pair and their error answers', () => {
    const expected: Array<[string, string, string[]]> = [
      ['put', '/api/v1/my/availability', ['202', '400', '401', '404', '409', '413', '422', '500']],
      ['get', '/api/v1/my/availability', ['200', '401', '500']],
      ['put', '/api/v1/my/integrations/{integrationId}/products/{platformProductId}/availability', ['202', '400', '401', '404', '409', '413', '422', '500']],
      ['get', '/api/v1/my/integrations/{integrationId}/products/availability', ['200', '401', '404', '500']],
    ];
    for (const [method, path, statuses] of expected) {
      const operation = document.paths[path]?.[method];
      expect({ path, method, found: Boolean(operation) }).toEqual({ path, method, found: true });
      for (const status of statuses) expect({ path, method, status, found: Boolean(operation.responses[status]) }).toEqual({ path, method, status, found: true });
      expect(operation.security).toEqual([{ 'X-API-Key': [], 'X-API-Secret': [] }]);
    }
    expect(document.components.schemas.StoreAvailabilityRequestDto.properties.state.enum).toEqual(['OPEN', 'CLOSED', 'BUSY']);
    expect(document.components.schemas.IntegrationChangeDto.properties.state.enum).toEqual(['queued', 'unsupported']);
  });

  it('documents the transition body and the order it answers with', () => {
    const body = document.components.schemas.TransitionRequestDto;
    expect(body.required).toEqual(['trigger']);
    expect(body.properties.trigger.enum).toEqual(['APPROVE', 'ROUTE', 'ASSIGN', 'ACCEPT', 'PREPARE', 'PICK_UP', 'DELIVER', 'CANCEL']);
    expect(Object.keys(body.properties).sort()).toEqual(['cancelReasonId', 'canceledBy', 'occurredAt', 'reason', 'trigger']);
    const order = document.components.schemas.OrderDto;
    expect(order.properties).toEqual(expect.objectContaining({ id: expect.anything(), orderId: expect.anything(), orderNumber: expect.anything(), status: expect.anything(), history: expect.anything() }));
    expect(document.paths['/internal/orders/{yemekKuryeOrderId}/transitions'].post.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/OrderDto');
  });

  it('documents the status push body, its 202 and the status update', () => {
    const body = document.components.schemas.StatusUpdateRequestDto;
    expect(body.required.sort()).toEqual(['action', 'platform', 'providerOrderId']);
    expect(body.properties.action.enum).toEqual(['VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER', 'CANCEL', 'REJECT']);
    expect(Object.keys(body.properties).sort()).toEqual(['action', 'platform', 'previousStatus', 'providerOrderId', 'reason', 'restaurantId']);
    expect(document.paths['/internal/orders/status'].post.responses['202'].content['application/json'].schema.$ref).toBe('#/components/schemas/StatusUpdateAcceptedDto');
    expect(document.components.schemas.StatusUpdateDto.properties.state.enum).toEqual(['queued', 'held', 'sent', 'retrying', 'failed', 'skipped']);
    expect(document.components.schemas.StatusUpdateDto.properties).toEqual(expect.objectContaining({ releaseAt: expect.anything(), attempts: expect.anything(), platformAnswer: expect.anything() }));
  });

  it('documents the platform callbacks with their own authentication (not the internal key)', () => {
    const callbacks: Array<[string, string, string[]]> = [
      ['post', '/platforms/platform-a/orders', ['200', '401', '403', '404', '409', '422']],
      ['post', '/platforms/platform-a/orders/cancelled', ['200', '401', '422']],
      ['post', '/platforms/platform-b/order/{remoteId}', ['200', '400', '401', '429', '500']],
      ['put', '/platforms/platform-b/remoteId/{remoteId}/remoteOrder/{remoteOrderId}/posOrderStatus', ['200', '400', '401']],
      ['put', '/platforms/platform-b/remoteId/{remoteId}/availability', ['200', '400', '401', '500']],
      ['get', '/platforms/platform-b/menuimport/{remoteId}', ['202', '400', '401', '500']],
      ['get', '/platforms/platform-b', ['200', '401']],
      ['post', '/platforms/platform-d/orders', ['200', '400', '422', '503']],
      ['post', '/platforms/platform-d/orders/cancelled', ['200', '400', '422', '503']],
      ['post', '/platforms/platform-d/orders/delivery-status', ['200', '400', '422', '503']],
    ];
    for (const [method, path, statuses] of callbacks) {
      const operation = document.paths[path]?.[method];
      expect({ path, found: Boolean(operation) }).toEqual({ path, found: true });
      for (const status of statuses) expect({ path, status, found: Boolean(operation.responses[status]) }).toEqual({ path, status, found: true });
      expect(JSON.stringify(operation.security ?? [])).not.toContain('X-Internal-Api-Key');
    }
    // PLATFORM_D's key is optional (a webhook without it is read back from Migros).
    expect(document.paths['/platforms/platform-d/orders/cancelled'].post.security).toEqual(expect.arrayContaining([{ XApiKey: [] }, {}]));
    // PLATFORM_B's JWT is a bearer security scheme, not a header parameter.
    for (const [method, path] of callbacks.filter(([, path]) => path.startsWith('/platforms/platform-b'))) {
      expect({ path, security: document.paths[path][method].security }).toEqual({ path, security: [{ bearerJwt: [] }] });
      expect((document.paths[path][method].parameters ?? []).map((parameter: { name: string }) => parameter.name)).not.toContain('Authorization');
      // Only the answers the DH middleware expects are documented (and answered).
      expect({ path, outside: Object.keys(document.paths[path][method].responses).filter((status) => !(PLATFORM_B_PLUGIN_STATUSES as readonly number[]).includes(Number(status))) }).toEqual({ path, outside: [] });
      expect(document.paths[path][method].responses['400']?.content['application/problem+json'].schema.$ref ?? '#/components/schemas/PluginProblemDto').toBe('#/components/schemas/PluginProblemDto');
    }
  });

  it('is the published document (docs/openapi/status-dispatcher.json, npm run openapi), which is made without starting the app', async () => {
    const published = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../docs/openapi/status-dispatcher.json'), 'utf8'));
    expect((await t.http.get('/docs-json')).body).toEqual(servedDocument(published)); // fetched again: the tests above sort arrays in place
  });

  it('answers /health and /health/ready without a key', async () => {
    expect((await t.http.get('/health')).status).toBe(200);
    expect((await t.http.get('/health/ready')).status).toBe(200);
  });
});
