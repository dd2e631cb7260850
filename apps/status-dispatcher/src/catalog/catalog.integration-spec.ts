import { randomUUID } from 'node:crypto';
import { RoutingKey } from '@courier/contracts';
import { IntegrationCredentials, MenuProduct, MenuReadOutcome, PlatformAdapters, PlatformCatalog } from '@courier/platforms';
import { waitFor } from '@courier/testing';
import { createAccount, TestAccount } from '../../test/availability';
import { startTestApp, TestApp } from '../../test/harness';
import { upsertIntegration } from '../../test/platforms';

jest.setTimeout(120_000);

/**
 * A platform's menu at the port: each store's menu as the test sets it (by providerRestaurantId).
 * The platforms' own catalogs and simulators are tested in their folders; this is the catalog's
 * machinery over HTTP, the task runner and a real database.
 */
class StoreMenus implements PlatformCatalog {
  readonly menus = new Map<string, MenuProduct[]>();

  async readMenu(credentials: IntegrationCredentials): Promise<MenuReadOutcome> {
    return { kind: 'ok', products: structuredClone(this.menus.get(credentials.providerRestaurantId) ?? []), answer: { httpStatus: 200, body: null } };
  }

  planPrice(): never {
    throw new Error('not used here');
  }

  setPrice(): never {
    throw new Error('not used here');
  }
}

const withoutRead: PlatformCatalog = {
  menuReadUnsupported: 'This platform\'s API has no menu read.',
  planPrice: () => ({ kind: 'refused', code: 'PRICE_UNSUPPORTED', message: 'no price calls' }),
  setPrice: async () => ({ kind: 'skipped', reason: 'no price calls' }),
};

const product = (platformProductId: string, name: string, price: number, externalCode: string | null = null): MenuProduct => ({
  platformProductId,
  name,
  price,
  category: 'Kebaplar',
  status: 'ACTIVE',
  externalCode,
  options: [],
  platformData: {},
});

function installCatalog(t: TestApp, platform: string, catalog: PlatformCatalog): void {
  Object.defineProperty(t.app.get(PlatformAdapters).get(platform)!, 'catalog', { value: catalog, configurable: true, writable: true });
}

describe('restaurant catalog over HTTP (status-dispatcher)', () => {
  let t: TestApp;
  const menus = new StoreMenus();

  beforeAll(async () => {
    // The menu reads of PLATFORM_A's catalog are not what is tested here: its budget must not hold them back.
    t = await startTestApp({ env: { CATALOG_IMPORT_INTERVAL_MS: '0' } });
    installCatalog(t, 'PLATFORM_A', menus);
    installCatalog(t, 'PLATFORM_C', menus);
    installCatalog(t, 'PLATFORM_B', withoutRead);
  });
  afterAll(() => t?.close());

  async function integration(account: TestAccount, platform: 'PLATFORM_A' | 'PLATFORM_B' | 'PLATFORM_C', menu: MenuProduct[] = [], verification: 'verified' | 'unverified' = 'verified') {
    const providerRestaurantId = `store-${randomUUID()}`;
    menus.menus.set(providerRestaurantId, menu);
    const { integrationId } = await upsertIntegration(t, platform, { restaurantId: account.restaurantId, providerRestaurantId, verification });
    return { integrationId, providerRestaurantId };
  }

  async function importDone(account: TestAccount, integrationId: string): Promise<any> {
    const accepted = await t.http.post(`/api/v1/my/integrations/${integrationId}/catalog/import`).set(account.headers);
    expect(accepted.status).toBe(202);
    return waitFor('the import to end', async () => {
      const view = await t.http.get(`/api/v1/my/catalog/imports/${accepted.body.importId}`).set(account.headers);
      return view.body.state === 'done' || view.body.state === 'failed' ? view.body : undefined;
    }, 20_000);
  }

  it('imports two menus, maps them by code and by a confirmed proposal, and reports drift with one webhook event', async () => {
    const account = await createAccount(t);
    const a = await integration(account, 'PLATFORM_A', [product('a-1', 'Adana Kebap', 320, 'ADANA-01'), product('a-2', 'Künefe', 150)]);
    const c = await integration(account, 'PLATFORM_C', [product('c-1', 'ADANA KEBAP', 330), product('c-2', 'KÜNEFE', 155)]);

    expect(await importDone(account, a.integrationId)).toMatchObject({ state: 'done', requestedBy: 'restaurant', counts: { products: 2, autoLinked: 1, drift: 0 } });
    expect(await importDone(account, c.integrationId)).toMatchObject({ state: 'done', counts: { products: 2, autoLinked: 0 } });

    const unmapped = await t.http.get('/api/v1/my/catalog/unmapped').set(account.headers);
    expect(unmapped.status).toBe(200);
    const proposal = (id: string) => unmapped.body.products.find((p: any) => p.platformProductId === id)?.proposedProductCode;
    expect([proposal('c-1'), proposal('c-2'), proposal('a-2')]).toEqual(['ADANA-01', null, null]);

    const confirm = await t.http.put('/api/v1/my/catalog/products/ADANA-01/links').set(account.headers).send({ links: [{ integrationId: c.integrationId, platformProductId: 'c-1' }] });
    expect(confirm.status).toBe(200);
    const byHand = await t.http
      .put(`/api/v1/my/catalog/products/${encodeURIComponent('KÜNEFE 01')}/links`)
      .set(account.headers)
      .send({ links: [{ integrationId: a.integrationId, platformProductId: 'a-2' }, { integrationId: c.integrationId, platformProductId: 'c-2' }], name: 'Künefe' });
    expect(byHand.status).toBe(200);
    expect(byHand.body).toMatchObject({ productCode: 'KÜNEFE 01', name: 'Künefe', source: 'manual' });

    const catalog = await t.http.get('/api/v1/my/catalog').set(account.headers);
    expect(catalog.status).toBe(200);
    const linkOf = (code: string, integrationId: string) => catalog.body.products.find((p: any) => p.productCode === code).integrations.find((i: any) => i.integrationId === integrationId).linked;
    expect(linkOf('ADANA-01', a.integrationId)).toEqual({ platformProductId: 'a-1', name: 'Adana Kebap', price: 320, status: 'ACTIVE', linkedBy: 'external_code', removedAt: null });
    expect(linkOf('ADANA-01', c.integrationId)).toMatchObject({ platformProductId: 'c-1', linkedBy: 'confirmed', price: 330 });
    expect(linkOf('KÜNEFE 01', c.integrationId)).toMatchObject({ platformProductId: 'c-2', linkedBy: 'manual' });
    expect((await t.http.get('/api/v1/my/catalog/unmapped').set(account.headers)).body.products).toEqual([]);

    // The platform changes its menu by itself: the price of a linked product, and one removed.
    menus.menus.set(c.providerRestaurantId, [product('c-1', 'ADANA KEBAP', 345)]);
    expect(await importDone(account, c.integrationId)).toMatchObject({ state: 'done', counts: { products: 1, removed: 1, drift: 2 } });
    const drift = await t.http.get('/api/v1/my/catalog/drift').query({ limit: 10 }).set(account.headers);
    expect(drift.status).toBe(200);
    expect(drift.body.drift.map((d: any) => [d.platformProductId, d.kind, d.productCode, d.before, d.after])).toEqual([
      ['c-1', 'price', 'ADANA-01', 330, 345],
      ['c-2', 'linked_removed', 'KÜNEFE 01', null, null],
    ]);
    const events = (await t.outbox(RoutingKey.CatalogDriftDetected)).filter((row) => row.payload.integrationId === c.integrationId);
    expect(events).toHaveLength(1);
    expect(events[0].payload).toMatchObject({ restaurantId: account.restaurantId, provider: 'PLATFORM_C', providerRestaurantId: c.providerRestaurantId, changes: expect.any(Array) });
    const metrics = await t.http.get('/metrics');
    expect(metrics.text).toContain('catalog_drift_total{platform="PLATFORM_C",kind="linked_removed",service="status-dispatcher"} 1');
  });

  it('two requests swapping products between two codes at once are set one after the other (no deadlock, no 500)', async () => {
    const account = await createAccount(t);
    const a = await integration(account, 'PLATFORM_A', [product('s-1', 'Ayran', 35), product('s-2', 'Şalgam', 40)]);
    const c = await integration(account, 'PLATFORM_C', [product('s-1', 'Ayran', 36), product('s-2', 'Şalgam', 41)]);
    await importDone(account, a.integrationId);
    await importDone(account, c.integrationId);
    const put = (code: string, links: Array<[string, string]>) =>
      t.http.put(`/api/v1/my/catalog/products/${code}/links`).set(account.headers).send({ links: links.map(([integrationId, platformProductId]) => ({ integrationId, platformProductId })) });
    const linkedOn = async (code: string) => {
      const catalog = await t.http.get('/api/v1/my/catalog').set(account.headers);
      return catalog.body.products.find((entry: any) => entry.productCode === code).integrations.map((entry: any) => entry.linked?.platformProductId ?? null);
    };
    for (const [x, y] of [['s-1', 's-2'], ['s-2', 's-1'], ['s-1', 's-2'], ['s-2', 's-1'], ['s-1', 's-2'], ['s-2', 's-1'], ['s-1', 's-2'], ['s-2', 's-1']]) {
      // Each takes its product from the other code, on the two integrations in opposite orders: row locks taken crosswise.
      const responses = await Promise.all([put('X', [[a.integrationId, y], [c.integrationId, y]]), put('Y', [[c.integrationId, x], [a.integrationId, x]])]);
      expect(responses.map((response) => [response.status, response.body.code])).toEqual([[200, undefined], [200, undefined]]);
      expect([await linkedOn('X'), await linkedOn('Y')]).toEqual([[y, y], [x, x]]);
    }
  });

  it('refuses bad input with problem JSON and a code, never a 500', async () => {
    const account = await createAccount(t);
    const other = await createAccount(t);
    const a = await integration(account, 'PLATFORM_A', [product('v-1', 'Ayran', 35)]);
    const noRead = await integration(account, 'PLATFORM_B');
    const unverified = await integration(account, 'PLATFORM_A', [], 'unverified');
    const foreign = await integration(other, 'PLATFORM_A');
    await importDone(account, a.integrationId);

    const links = (code: string, body: unknown) => t.http.put(`/api/v1/my/catalog/products/${code}/links`).set(account.headers).send(body as object);
    const cases: Array<[string, () => Promise<any>, number, string, string?]> = [
      ['no key pair', () => t.http.get('/api/v1/my/catalog'), 401, 'AUTHENTICATION_FAILED'],
      ['import of another account\'s integration', () => t.http.post(`/api/v1/my/integrations/${foreign.integrationId}/catalog/import`).set(account.headers), 404, 'INTEGRATION_NOT_FOUND'],
      ['import of an unverified integration', () => t.http.post(`/api/v1/my/integrations/${unverified.integrationId}/catalog/import`).set(account.headers), 409, 'INTEGRATION_NOT_VERIFIED'],
      ['import where the platform has no menu read', () => t.http.post(`/api/v1/my/integrations/${noRead.integrationId}/catalog/import`).set(account.headers), 422, 'MENU_READ_UNSUPPORTED'],
      ['an import id that is no uuid', () => t.http.get('/api/v1/my/catalog/imports/nope').set(account.headers), 404, 'IMPORT_NOT_FOUND'],
      ['an unknown import', () => t.http.get(`/api/v1/my/catalog/imports/${randomUUID()}`).set(account.headers), 404, 'IMPORT_NOT_FOUND'],
      ['links missing', () => links('AYRAN-01', {}), 422, 'VALIDATION_ERROR', 'links'],
      ['links not an array', () => links('AYRAN-01', { links: 'v-1' }), 422, 'VALIDATION_ERROR', 'links'],
      ['over 50 links', () => links('AYRAN-01', { links: Array.from({ length: 51 }, (_, i) => ({ integrationId: `i-${i}`, platformProductId: 'v-1' })) }), 422, 'VALIDATION_ERROR', 'links'],
      ['a platformProductId that is a number', () => links('AYRAN-01', { links: [{ integrationId: a.integrationId, platformProductId: 7 }] }), 422, 'VALIDATION_ERROR', 'links[0].platformProductId'],
      ['an unknown field', () => links('AYRAN-01', { links: [], colour: 'red' }), 422, 'VALIDATION_ERROR'],
      ['an integration listed twice', () => links('AYRAN-01', { links: [{ integrationId: a.integrationId, platformProductId: 'v-1' }, { integrationId: a.integrationId, platformProductId: null }] }), 422, 'VALIDATION_ERROR', 'links[1].integrationId'],
      ['a productCode over 64 characters', () => links('x'.repeat(65), { links: [] }), 422, 'VALIDATION_ERROR', 'productCode'],
      ['a productCode with a control character', () => links('AY%01RAN', { links: [] }), 422, 'VALIDATION_ERROR', 'productCode'],
      ['another account\'s integration', () => links('AYRAN-01', { links: [{ integrationId: foreign.integrationId, platformProductId: 'v-1' }] }), 404, 'INTEGRATION_NOT_FOUND'],
      ['a product not on the menu nor in orders', () => links('AYRAN-01', { links: [{ integrationId: a.integrationId, platformProductId: 'v-404' }] }), 404, 'PRODUCT_NOT_FOUND', 'links[0].platformProductId'],
      ['drift limit 0', () => t.http.get('/api/v1/my/catalog/drift?limit=0').set(account.headers), 422, 'VALIDATION_ERROR'],
      ['drift limit not a number', () => t.http.get('/api/v1/my/catalog/drift?limit=ten').set(account.headers), 422, 'VALIDATION_ERROR'],
      ['drift since not a date', () => t.http.get('/api/v1/my/catalog/drift?since=yesterday').set(account.headers), 422, 'VALIDATION_ERROR'],
      ['drift since an ISO week date (no JavaScript Date)', () => t.http.get('/api/v1/my/catalog/drift?since=2026-W48').set(account.headers), 422, 'VALIDATION_ERROR', 'since'],
      ['drift since an ISO ordinal date', () => t.http.get('/api/v1/my/catalog/drift?since=2026-330').set(account.headers), 422, 'VALIDATION_ERROR', 'since'],
      ['drift since an hour without minutes', () => t.http.get('/api/v1/my/catalog/drift?since=2026-11-26T12Z').set(account.headers), 422, 'VALIDATION_ERROR', 'since'],
    ];
    for (const [name, call, status, code, field] of cases) {
      const response = await call();
      expect({ name, status: response.status, code: response.body.code }).toEqual({ name, status, code });
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      if (field) expect({ name, fields: (response.body.errors ?? []).map((error: any) => error.field) }).toEqual({ name, fields: expect.arrayContaining([field]) });
    }
    // Nothing was stored by the refusals.
    const [{ count }] = await t.sql<{ count: number }>(`SELECT count(*)::int AS count FROM catalog_codes WHERE restaurant_id = $1`, [account.restaurantId]);
    expect(count).toBe(0);
  });
});
