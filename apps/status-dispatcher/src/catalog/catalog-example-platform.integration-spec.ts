import { randomBytes, randomUUID } from 'node:crypto';
import { IntegrationUpsertedEvent, RoutingKey } from '@courier/contracts';
import { SecretBox, secretBinding } from '@courier/crypto';
import { PLATFORMS } from '@courier/platforms';
import { examplePlatform, ExamplePlatformSimulator } from '@courier/platforms/simulators';
import { waitFor } from '@courier/testing';
import { createAccount, TestAccount } from '../../test/availability';
import { SECRETS_KEYS, startTestApp, TestApp } from '../../test/harness';

jest.setTimeout(120_000);

const API_KEY = `ex-key-${randomBytes(12).toString('hex')}`;

/**
 * A whole import through a platform's API: the example platform (libs/platforms/src/testing/
 * example-platform) serves each store's menu from its simulator; the import reads it over HTTP,
 * retries a 503, links by the PLU, and finds the drift of a change made on the simulator's side.
 */
describe('catalog import through the example platform\'s simulator', () => {
  let simulator: ExamplePlatformSimulator;
  let t: TestApp;

  beforeAll(async () => {
    simulator = new ExamplePlatformSimulator({ apiKey: API_KEY });
    await simulator.start();
    t = await startTestApp({
      platforms: [...PLATFORMS, examplePlatform(simulator.baseUrl)],
      env: { STATUS_PUSH_RETRY_BASE_MS: '50', STATUS_PUSH_RETRY_MAX_DELAY_MS: '200', CATALOG_IMPORT_INTERVAL_MS: '0' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await simulator?.stop();
  });

  async function exampleIntegration(account: TestAccount, apiKey = API_KEY): Promise<{ integrationId: string; store: string }> {
    const integrationId = randomUUID();
    const store = `example-store-${randomBytes(4).toString('hex')}`;
    const now = new Date().toISOString();
    const box = SecretBox.fromKeyList(SECRETS_KEYS);
    const event: IntegrationUpsertedEvent = {
      integrationId,
      restaurantId: account.restaurantId,
      platform: 'PLATFORM_EXAMPLE',
      providerRestaurantId: store,
      isActive: true,
      verification: 'verified',
      verifiedAt: now,
      settings: {},
      secrets: { apiKey: box.encrypt(apiKey, secretBinding.integrationSecret(integrationId, 'apiKey')) },
      version: 1,
      createdAt: now,
      updatedAt: now,
      occurredAt: now,
    };
    await t.deliver(RoutingKey.IntegrationUpserted, event);
    return { integrationId, store };
  }

  async function importEnded(account: TestAccount, integrationId: string) {
    const accepted = await t.http.post(`/api/v1/my/integrations/${integrationId}/catalog/import`).set(account.headers);
    expect(accepted.status).toBe(202);
    return waitFor('the import to end', async () => {
      const view = await t.http.get(`/api/v1/my/catalog/imports/${accepted.body.importId}`).set(account.headers);
      return view.body.state === 'done' || view.body.state === 'failed' ? view.body : undefined;
    }, 20_000);
  }

  it('imports the menu after a 503, links by the PLU, and reports the simulator\'s own change as drift once', async () => {
    const account = await createAccount(t);
    const { integrationId, store } = await exampleIntegration(account);
    simulator.menus.set(store, [
      { id: 'ex-p1', name: 'Simit', price: 15, category: 'Fırın', active: true, plu: 'SIMIT-01' },
      { id: 'ex-p2', name: 'Poğaça', price: 20, category: 'Fırın', active: true },
    ]);
    simulator.failNext({ status: 503, match: (request) => request.path === `/stores/${store}/menu` });

    expect(await importEnded(account, integrationId)).toMatchObject({ state: 'done', attempts: 2, counts: { products: 2, autoLinked: 1, drift: 0 }, lastAnswer: { outcome: 'done', httpStatus: 200 } });
    expect(simulator.callsTo('GET', `/stores/${store}/menu`).map((call) => call.status)).toEqual([503, 200]);
    const catalog = await t.http.get('/api/v1/my/catalog').set(account.headers);
    expect(catalog.body.products).toEqual([
      { productCode: 'SIMIT-01', name: 'Simit', source: 'external_code', integrations: [{ integrationId, platform: 'PLATFORM_EXAMPLE', linked: expect.objectContaining({ platformProductId: 'ex-p1', price: 15, linkedBy: 'external_code' }) }] },
    ]);

    // The platform's side changes by itself.
    simulator.menus.set(store, [{ id: 'ex-p1', name: 'Simit', price: 17.5, category: 'Fırın', active: false, plu: 'SIMIT-01' }]);
    expect(await importEnded(account, integrationId)).toMatchObject({ state: 'done', counts: { products: 1, removed: 1, drift: 3 } });
    const drift = await t.http.get('/api/v1/my/catalog/drift').set(account.headers);
    expect(drift.body.drift.map((d: { platformProductId: string; kind: string }) => `${d.platformProductId}:${d.kind}`)).toEqual(['ex-p1:price', 'ex-p1:status', 'ex-p2:removed']);
    const events = await t.outbox(RoutingKey.CatalogDriftDetected);
    expect(events.filter((event) => event.payload.integrationId === integrationId)).toEqual([
      expect.objectContaining({ payload: expect.objectContaining({ provider: 'PLATFORM_EXAMPLE', providerRestaurantId: store, changes: expect.arrayContaining([expect.objectContaining({ kind: 'price', before: 15, after: 17.5, productCode: 'SIMIT-01' })]) }) }),
    ]);
  });

  it('ends an import the platform refuses failed, storing nothing', async () => {
    const account = await createAccount(t);
    const { integrationId, store } = await exampleIntegration(account, 'ex-key-not-the-stores');
    simulator.menus.set(store, [{ id: 'ex-p9', name: 'Ayran', price: 10, category: 'İçecek', active: true, plu: 'AYRAN-01' }]);

    expect(await importEnded(account, integrationId)).toMatchObject({ state: 'failed', attempts: 1, counts: null, lastAnswer: { outcome: 'failed', httpStatus: 401 }, lastError: expect.stringMatching(/HTTP 401/) });
    expect((await t.http.get('/api/v1/my/catalog').set(account.headers)).body.products).toEqual([]);
    expect((await t.http.get('/api/v1/my/catalog/unmapped').set(account.headers)).body.products).toEqual([]);
  });
});
