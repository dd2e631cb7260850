import { readFileSync } from 'node:fs';
import path from 'node:path';
import { IntakeTestApp, startIntakeApp } from '../../test/harness';
import { servedDocument } from '@courier/http';

describe('OpenAPI document (/docs-json, /docs)', () => {
  let t: IntakeTestApp;
  let document: any;

  beforeAll(async () => {
    t = await startIntakeApp();
    document = (await t.http.get('/docs-json')).body;
  });
  afterAll(() => t?.close());

  it('is OpenAPI 3 and served as a page too', async () => {
    expect(document.openapi).toMatch(/^3\./);
    expect((await t.http.get('/docs/')).status).toBe(200);
  });

  it('declares X-API-Key and Basic as alternative credentials of both endpoints', () => {
    expect(document.components.securitySchemes).toEqual({
      'X-API-Key': { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      basic: { type: 'http', scheme: 'basic' },
    });
    for (const operation of [document.paths['/webhook/third-party/order'].post, document.paths['/api/v1/orders/{orderId}'].get]) {
      expect(operation.security).toEqual(expect.arrayContaining([{ 'X-API-Key': [] }, { basic: [] }]));
      expect(operation.security).toHaveLength(2);
    }
  });

  it('documents every answer of the intake endpoint as problem JSON, and the 202 with its header', () => {
    const intake = document.paths['/webhook/third-party/order'].post;
    expect(Object.keys(intake.responses).sort()).toEqual(['202', '400', '401', '403', '404', '409', '413', '422', '429', '500']);
    for (const status of ['400', '401', '403', '404', '409', '413', '422', '429', '500']) {
      expect(intake.responses[status].content['application/problem+json'].schema.$ref).toBe('#/components/schemas/ProblemDto');
    }
    expect(intake.responses['429'].headers['Retry-After']).toBeDefined();
    expect(intake.responses['202'].headers['Idempotent-Replayed']).toBeDefined();
    expect(intake.responses['202'].content['application/json'].schema.$ref).toBe('#/components/schemas/AcceptedOrderDto');
    expect(intake.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/ThirdPartyOrderDto');
  });

  it('describes the order body with its bounds, and the status answer', () => {
    const order = document.components.schemas.ThirdPartyOrderDto;
    expect(order.required.sort()).toEqual(['customerName', 'deliveryAddress', 'orderId', 'restaurantId']);
    expect(order.properties.orderId.maxLength).toBe(64);
    expect(order.properties.deliveryAddress.maxLength).toBe(500);
    expect(order.properties.paymentMethod.enum).toEqual(['CASH', 'CARD_POS', 'ONLINE_PREPAID']);
    expect(order.properties.items.maxItems).toBe(200);
    const status = document.paths['/api/v1/orders/{orderId}'].get;
    expect(Object.keys(status.responses).sort()).toEqual(['200', '401', '404', '429', '500']);
    expect(document.components.schemas.OrderStatusDto.properties.history.items.$ref).toBe('#/components/schemas/OrderStatusChangeDto');
  });

  it('names its version (package.json) and its server ({base_url}, localhost:3000 by default)', () => {
    expect(document.info.version).toBe(JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')).version);
    // The page's own host first (Try it out from localhost or 127.0.0.1), then the published {base_url}.
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }, expect.objectContaining({ url: '{base_url}', variables: { base_url: expect.objectContaining({ default: 'http://localhost:3000' }) } })]);
    expect(document.tags.map((tag: { name: string }) => tag.name)).toEqual(['orders']);
  });

  it('is the published document (docs/openapi/intake-api.json, npm run openapi), which is made without starting the app', async () => {
    const published = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../docs/openapi/intake-api.json'), 'utf8'));
    expect((await t.http.get('/docs-json')).body).toEqual(servedDocument(published)); // fetched again: the tests above sort arrays in place
  });
});
