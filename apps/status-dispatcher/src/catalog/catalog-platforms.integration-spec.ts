import { RoutingKey } from '@courier/contracts';
import { GETIR_DEMO_CHAIN_MENU_ID } from '@courier/platforms/simulators';
import { waitFor } from '@courier/testing';
import { createAccount, TestAccount } from '../../test/availability';
import { TestApp } from '../../test/harness';
import { CREDENTIALS, PlatformCode, Platforms, startPlatformApp, startPlatforms, upsertIntegration } from '../../test/platforms';

jest.setTimeout(180_000);

const GETIR_RESTAURANT = CREDENTIALS.PLATFORM_A.providerRestaurantId;
const TRENDYOL_STORE = CREDENTIALS.PLATFORM_C.settings.storeId;
const MIGROS_STORE = CREDENTIALS.PLATFORM_D.providerRestaurantId;
const DH_VENDOR = CREDENTIALS.PLATFORM_B.providerRestaurantId;
/** The demo menu's ids on Trendyol (trendyolDemoMenu: DEMO_MENU's order from 320001) and Migros (platformDDemoMenu). */
const TRENDYOL = { ADANA: 320_001, URFA: 320_002, LAHMACUN: 320_003, PIDE: 320_004, AYRAN: 320_005, KUNEFE: 320_006 };
const MIGROS = { LAHMACUN: 55_001, AYRAN: 55_002, ADANA: 55_003, URFA: 55_004, PIDE: 55_005, KUNEFE: 55_006 };

/**
 * The catalog end to end: the dispatcher against the four platform simulators, each applying the
 * calls with its own rules. Every assertion on a platform reads what its SIMULATOR holds (its served
 * menu, its chain menu, its queue), not what our adapter reports. The tests run in order and share
 * one restaurant: imported, linked, priced, sold out, drifted.
 */
describe('the restaurant catalog on the simulated platforms', () => {
  let platforms: Platforms;
  let t: TestApp;
  let account: TestAccount;
  const ids = {} as Record<PlatformCode, string>;

  beforeAll(async () => {
    platforms = await startPlatforms();
    // Imports on demand only: the schedule must not read a menu between a test's steps.
    t = await startPlatformApp(platforms, { env: { CATALOG_IMPORT_INTERVAL_MS: '0', AVAILABILITY_READ_INTERVAL_MS: '600000', PLATFORM_C_POLL_INTERVAL_MS: '600000' } });
    account = await createAccount(t);
    for (const platform of Object.keys(CREDENTIALS) as PlatformCode[]) ids[platform] = (await upsertIntegration(t, platform, { restaurantId: account.restaurantId })).integrationId;
  });
  afterAll(async () => {
    await t?.close();
    await platforms?.stop();
  });

  const api = {
    get: (path: string) => t.http.get(`/api/v1/my${path}`).set(account.headers),
    post: (path: string) => t.http.post(`/api/v1/my${path}`).set(account.headers),
    put: (path: string, body: unknown) => t.http.put(`/api/v1/my${path}`).set(account.headers).send(body as object),
  };

  /** Getir's served menu (GET /restaurants/menu as the simulator answers it), flattened. */
  const getirMenu = () => (platforms.a.catalog.menu(GETIR_RESTAURANT).productCategories as any[]).flatMap((category) => category.products as any[]);
  const getirId = (name: string) => getirMenu().find((product) => product.name.tr === name)!.id as string;
  const getirProduct = (name: string) => platforms.a.catalog.menuProduct(GETIR_RESTAURANT, getirId(name)) as any;
  const trendyolProduct = (id: number) => platforms.c.catalog.menuProduct(TRENDYOL_STORE, id)!;
  const migrosProduct = (id: number) => platforms.d.menuProduct(id, MIGROS_STORE)!;
  const dhUnavailable = () => [...platforms.b.availability.vendor(DH_VENDOR, CREDENTIALS.PLATFORM_B.settings.chainCode).unavailable.values()].map((item: any) => String(item.id));

  async function importDone(platform: PlatformCode): Promise<any> {
    const accepted = await api.post(`/integrations/${ids[platform]}/catalog/import`);
    expect(accepted.status).toBe(202);
    return waitFor(
      `the ${platform} import to end`,
      async () => {
        const view = await api.get(`/catalog/imports/${accepted.body.importId}`);
        return view.body.state === 'done' || view.body.state === 'failed' ? view.body : undefined;
      },
      30_000,
    );
  }

  const stored = (platform: PlatformCode) =>
    t.sql<{ id: string; name: string; price: number; status: string; removed: boolean }>(
      'SELECT platform_product_id AS id, name, price::float8 AS price, status, removed_at IS NOT NULL AS removed FROM catalog_products WHERE integration_id = $1 ORDER BY 1',
      [ids[platform]],
    );

  /** Waits until the change's entry for `platform` is in one of `states`; answers it. */
  async function changeOf(changeId: string, platform: PlatformCode, states: string[]): Promise<any> {
    let last: any;
    try {
      return await waitFor(
        `change ${changeId} on ${platform} in ${states.join('|')}`,
        async () => {
          last = (await api.get(`/catalog/changes/${changeId}`)).body;
          const entry = last?.integrations?.find((candidate: any) => candidate.integrationId === ids[platform]);
          return states.includes(entry?.state) ? entry : undefined;
        },
        30_000,
        50,
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}; last seen: ${JSON.stringify(last)}`);
    }
  }

  const answered = (body: any) => Object.fromEntries((body.results as any[]).map((result) => [result.platform, [result.state, result.code ?? null]]));

  const linkOf = async (productCode: string, platform: PlatformCode) => {
    const catalog = await api.get('/catalog');
    return catalog.body.products.find((product: any) => product.productCode === productCode)?.integrations.find((entry: any) => entry.integrationId === ids[platform])?.linked ?? null;
  };

  it('imports Getir, Trendyol and Migros menus as each simulator serves them; Delivery Hero answers MENU_READ_UNSUPPORTED', async () => {
    // One product switched off on each platform's side, to see statuses read as served.
    platforms.a.catalog.changeMenuProduct(GETIR_RESTAURANT, getirId('Urfa Kebap'), { status: 200 });
    platforms.c.catalog.changeMenuProduct(TRENDYOL_STORE, TRENDYOL.URFA, { status: 'PASSIVE' });
    platforms.d.changeMenuProduct(MIGROS.URFA, { status: 'PASSIVE' });

    for (const platform of ['PLATFORM_A', 'PLATFORM_C', 'PLATFORM_D'] as const) expect(await importDone(platform)).toMatchObject({ state: 'done', counts: { products: 6, removed: 0, drift: 0 } });

    expect(await stored('PLATFORM_A')).toEqual(
      getirMenu()
        .map((product) => ({ id: product.id, name: product.name.tr, price: product.price, status: product.status === 100 ? 'ACTIVE' : 'INACTIVE', removed: false }))
        .sort((x, y) => x.id.localeCompare(y.id)),
    );
    expect(await stored('PLATFORM_C')).toEqual(
      Object.values(TRENDYOL).map((id) => {
        const served = trendyolProduct(id);
        return { id: String(id), name: served.name, price: served.sellingPrice, status: served.status === 'ACTIVE' ? 'ACTIVE' : 'INACTIVE', removed: false };
      }),
    );
    expect(await stored('PLATFORM_D')).toEqual(
      Object.values(MIGROS)
        .sort()
        .map((id) => {
          const served = migrosProduct(id);
          return { id: String(id), name: served.name, price: served.price, status: served.status === 'ACTIVE' ? 'ACTIVE' : 'INACTIVE', removed: false };
        }),
    );
    // What the simulators serve is what the demo restaurant would see: Turkish upper case on Trendyol, as given elsewhere.
    expect([getirProduct('Kaşarlı Pide').name.tr, trendyolProduct(TRENDYOL.PIDE).name, migrosProduct(MIGROS.PIDE).name]).toEqual(['Kaşarlı Pide', 'KAŞARLI PİDE', 'Kaşarlı Pide']);
    expect([trendyolProduct(TRENDYOL.URFA).status, migrosProduct(MIGROS.URFA).status, getirProduct('Urfa Kebap').status]).toEqual(['PASSIVE', 'PASSIVE', 200]);

    const dh = await api.post(`/integrations/${ids.PLATFORM_B}/catalog/import`);
    expect(dh.status).toBe(422);
    expect(dh.body.code).toBe('MENU_READ_UNSUPPORTED');
    expect(dh.headers['content-type']).toMatch(/^application\/problem\+json/);

    // Switched back on on each side (the later drift test compares with these).
    platforms.a.catalog.changeMenuProduct(GETIR_RESTAURANT, getirId('Urfa Kebap'), { status: 100 });
    platforms.c.catalog.changeMenuProduct(TRENDYOL_STORE, TRENDYOL.URFA, { status: 'ACTIVE' });
    platforms.d.changeMenuProduct(MIGROS.URFA, { status: 'ACTIVE' });
  });

  it('links Trendyol products carrying a code, proposes Getir and Migros products by normalised name, and takes confirmed and manual links', async () => {
    // Trendyol's stockCode: linked by itself, the code named as Trendyol spells the product.
    expect(await linkOf('LAHMACUN-01', 'PLATFORM_C')).toMatchObject({ platformProductId: String(TRENDYOL.LAHMACUN), name: 'LAHMACUN', linkedBy: 'external_code' });
    expect(await linkOf('AYRAN-01', 'PLATFORM_C')).toMatchObject({ platformProductId: String(TRENDYOL.AYRAN), name: 'AYRAN', linkedBy: 'external_code' });
    expect(await linkOf('LAHMACUN-01', 'PLATFORM_A')).toBeNull();

    // A manual link on Trendyol, by a code of the restaurant's own: nothing proposed it.
    const pide = await api.put('/catalog/products/PIDE-KAS-01/links', { links: [{ integrationId: ids.PLATFORM_C, platformProductId: String(TRENDYOL.PIDE) }], name: 'Kaşarlı Pide' });
    expect(pide.status).toBe(200);
    expect(pide.body).toMatchObject({ productCode: 'PIDE-KAS-01', name: 'Kaşarlı Pide', source: 'manual' });
    expect(await linkOf('PIDE-KAS-01', 'PLATFORM_C')).toMatchObject({ linkedBy: 'manual', name: 'KAŞARLI PİDE' });

    // Getir's and Migros' names as given match Trendyol's Turkish upper case once normalised (İ, Ş).
    const unmapped = (await api.get('/catalog/unmapped')).body.products as any[];
    const proposal = (platform: PlatformCode, id: string) => unmapped.find((product) => product.integrationId === ids[platform] && product.platformProductId === id)?.proposedProductCode;
    expect([proposal('PLATFORM_A', getirId('Lahmacun')), proposal('PLATFORM_A', getirId('Ayran')), proposal('PLATFORM_A', getirId('Kaşarlı Pide')), proposal('PLATFORM_A', getirId('Adana Kebap'))]).toEqual([
      'LAHMACUN-01',
      'AYRAN-01',
      'PIDE-KAS-01',
      null,
    ]);
    expect([proposal('PLATFORM_D', String(MIGROS.LAHMACUN)), proposal('PLATFORM_D', String(MIGROS.AYRAN)), proposal('PLATFORM_D', String(MIGROS.PIDE)), proposal('PLATFORM_D', String(MIGROS.KUNEFE))]).toEqual([
      'LAHMACUN-01',
      'AYRAN-01',
      'PIDE-KAS-01',
      null,
    ]);

    // Proposals confirmed with PUT .../links (AYRAN-01 left on Trendyol only).
    for (const code of ['LAHMACUN-01', 'PIDE-KAS-01']) {
      const name = code === 'LAHMACUN-01' ? 'Lahmacun' : 'Kaşarlı Pide';
      const confirmed = await api.put(`/catalog/products/${code}/links`, {
        links: [
          { integrationId: ids.PLATFORM_A, platformProductId: getirId(name) },
          { integrationId: ids.PLATFORM_D, platformProductId: String(code === 'LAHMACUN-01' ? MIGROS.LAHMACUN : MIGROS.PIDE) },
        ],
      });
      expect(confirmed.status).toBe(200);
    }
    expect(await linkOf('LAHMACUN-01', 'PLATFORM_A')).toMatchObject({ platformProductId: getirId('Lahmacun'), linkedBy: 'confirmed', name: 'Lahmacun', price: getirProduct('Lahmacun').price });
    expect(await linkOf('PIDE-KAS-01', 'PLATFORM_D')).toMatchObject({ platformProductId: String(MIGROS.PIDE), linkedBy: 'confirmed', price: migrosProduct(MIGROS.PIDE).price });

    // Künefe: no code carries it anywhere; linked by hand on the three menus.
    const kunefe = await api.put('/catalog/products/KUNEFE-01/links', {
      name: 'Künefe',
      links: [
        { integrationId: ids.PLATFORM_A, platformProductId: getirId('Künefe') },
        { integrationId: ids.PLATFORM_C, platformProductId: String(TRENDYOL.KUNEFE) },
        { integrationId: ids.PLATFORM_D, platformProductId: String(MIGROS.KUNEFE) },
      ],
    });
    expect(kunefe.status).toBe(200);
    expect(kunefe.body.integrations.filter((entry: any) => entry.linked).map((entry: any) => [entry.platform, entry.linked.linkedBy]).sort()).toEqual([
      ['PLATFORM_A', 'manual'],
      ['PLATFORM_C', 'manual'],
      ['PLATFORM_D', 'manual'],
    ]);

    // Delivery Hero has no menu read: its product is known from an order the simulator dispatched (a line without the POS's remoteCode).
    const order = await platforms.b.dispatchOrder(DH_VENDOR, {
      payload: {
        products: [{ id: 'dh-lahmacun-9', remoteCode: '', name: 'Lahmacun', quantity: '2', unitPrice: '90.00', paidPrice: '180.00', comment: '', selectedToppings: [] }],
        price: { grandTotal: '180.00', totalNet: '166.67', vatTotal: '13.33', deliveryFees: [] },
      },
    });
    expect(order.response.status).toBe(200);
    const dhProduct = await waitFor('the DH order\'s product among the unmapped', async () => ((await api.get('/catalog/unmapped')).body.products as any[]).find((product) => product.integrationId === ids.PLATFORM_B), 15_000);
    expect(dhProduct).toMatchObject({ platformProductId: 'dh-lahmacun-9', name: 'Lahmacun', onMenu: false, seenInOrders: 1, proposedProductCode: 'LAHMACUN-01' });
    const dhLink = await api.put('/catalog/products/LAHMACUN-01/links', { links: [{ integrationId: ids.PLATFORM_B, platformProductId: dhProduct.platformProductId }] });
    expect(dhLink.status).toBe(200);
    expect(await linkOf('LAHMACUN-01', 'PLATFORM_B')).toMatchObject({ platformProductId: 'dh-lahmacun-9', linkedBy: 'confirmed', price: null });
  });

  it('sends a price by code to every linked platform: each simulator\'s menu shows it (Getir through its chain menu, Trendyol\'s batch followed checking -> sent); DH refused, unlinked ones told apart', async () => {
    const lahmacun = getirId('Lahmacun');
    const chainCallsBefore = platforms.a.calls.filter((call) => call.method === 'POST' && /^\/chain-menus\/[^/]+\/update-prices$/.test(call.path)).length;

    const price = await api.put('/catalog/products/LAHMACUN-01/price', { price: 97.5 });

    expect(price.status).toBe(202);
    expect(answered(price.body)).toEqual({ PLATFORM_A: ['queued', null], PLATFORM_B: ['refused', 'PRICE_UNSUPPORTED'], PLATFORM_C: ['queued', null], PLATFORM_D: ['queued', null] });
    const checking = await changeOf(price.body.changeId, 'PLATFORM_C', ['checking']);
    expect(checking.lastAnswer).toMatchObject({ outcome: 'pending', body: { batchRequestId: expect.any(String) } });
    expect(trendyolProduct(TRENDYOL.LAHMACUN).sellingPrice).toBe(90);
    expect(platforms.c.catalog.processBatches().map((batch) => batch.status)).toEqual(['COMPLETED']);

    for (const platform of ['PLATFORM_A', 'PLATFORM_C', 'PLATFORM_D'] as const) expect(await changeOf(price.body.changeId, platform, ['sent', 'failed'])).toMatchObject({ state: 'sent' });
    expect(await changeOf(price.body.changeId, 'PLATFORM_B', ['refused'])).toMatchObject({ code: 'PRICE_UNSUPPORTED' });
    expect([getirProduct('Lahmacun').price, trendyolProduct(TRENDYOL.LAHMACUN).sellingPrice, migrosProduct(MIGROS.LAHMACUN).price]).toEqual([97.5, 97.5, 97.5]);
    const chainCalls = platforms.a.calls.filter((call) => call.method === 'POST' && /^\/chain-menus\/[^/]+\/update-prices$/.test(call.path));
    expect(chainCalls).toHaveLength(chainCallsBefore + 1);
    // Getir's price went through the chain menu that holds the product's chain product, which the menu served.
    const chainProduct = getirProduct('Lahmacun').chainProduct as string;
    expect(chainCalls.at(-1)!.path).toBe(`/chain-menus/${GETIR_DEMO_CHAIN_MENU_ID}/update-prices`);
    expect(JSON.stringify(chainCalls.at(-1)!.body)).toContain(chainProduct);
    expect(platforms.a.catalog.menuProduct(GETIR_RESTAURANT, lahmacun)).toMatchObject({ price: 97.5, chainProduct });

    // AYRAN-01 is linked on Trendyol only: the others are answered not_linked, nothing sent to them.
    const ayran = await api.put('/catalog/products/AYRAN-01/price', { price: 37 });
    expect(ayran.status).toBe(202);
    expect(answered(ayran.body)).toEqual({ PLATFORM_A: ['not_linked', 'PRODUCT_NOT_LINKED'], PLATFORM_B: ['not_linked', 'PRODUCT_NOT_LINKED'], PLATFORM_C: ['queued', null], PLATFORM_D: ['not_linked', 'PRODUCT_NOT_LINKED'] });
    await changeOf(ayran.body.changeId, 'PLATFORM_C', ['checking']);
    platforms.c.catalog.processBatches();
    expect(await changeOf(ayran.body.changeId, 'PLATFORM_C', ['sent', 'failed'])).toMatchObject({ state: 'sent' });
    expect([trendyolProduct(TRENDYOL.AYRAN).sellingPrice, getirProduct('Ayran').price, migrosProduct(MIGROS.AYRAN).price]).toEqual([37, 35, 35]);
  });

  it('follows a Trendyol price batch to a per-item failure: failed with Trendyol\'s reason, the other platforms changed', async () => {
    const reason = 'Ürün fiyatı kampanya nedeniyle güncellenemez';
    platforms.c.catalog.refusePriceOf(TRENDYOL.PIDE, reason);

    const price = await api.put('/catalog/products/PIDE-KAS-01/price', { price: 185 });

    expect(price.status).toBe(202);
    await changeOf(price.body.changeId, 'PLATFORM_C', ['checking']);
    platforms.c.catalog.processBatches();
    expect(await changeOf(price.body.changeId, 'PLATFORM_C', ['sent', 'failed'])).toMatchObject({ state: 'failed', lastError: expect.stringContaining(reason), lastAnswer: { body: { item: { status: 'FAILED' } } } });
    for (const platform of ['PLATFORM_A', 'PLATFORM_D'] as const) expect(await changeOf(price.body.changeId, platform, ['sent', 'failed'])).toMatchObject({ state: 'sent' });
    expect([trendyolProduct(TRENDYOL.PIDE).sellingPrice, getirProduct('Kaşarlı Pide').price, migrosProduct(MIGROS.PIDE).price]).toEqual([180, 185, 185]);
    expect((await stored('PLATFORM_C')).find((product) => product.id === String(TRENDYOL.PIDE))!.price).toBe(180);
  });

  it('sends a newer price at once while Trendyol still works on an older one: both batches followed, the newer price on Trendyol and in our menu', async () => {
    const older = await api.put('/catalog/products/AYRAN-01/price', { price: 38 });
    expect(older.status).toBe(202);
    await changeOf(older.body.changeId, 'PLATFORM_C', ['checking']);
    const newer = await api.put('/catalog/products/AYRAN-01/price', { price: 39.5 });
    expect(newer.status).toBe(202);
    // Sent already, the older request is not superseded: the newer one is a second batch.
    await changeOf(newer.body.changeId, 'PLATFORM_C', ['checking']);
    expect((await changeOf(older.body.changeId, 'PLATFORM_C', ['checking'])).state).toBe('checking');

    // Trendyol works through its queue in order: the newer price is applied last.
    expect(platforms.c.catalog.processBatches().map((batch) => batch.items.map((item) => [item.requestItem.sellingPrice, item.status]))).toEqual([[[38, 'SUCCESS']], [[39.5, 'SUCCESS']]]);

    for (const change of [older, newer]) expect(await changeOf(change.body.changeId, 'PLATFORM_C', ['sent', 'failed'])).toMatchObject({ state: 'sent' });
    expect(trendyolProduct(TRENDYOL.AYRAN).sellingPrice).toBe(39.5);
    expect((await stored('PLATFORM_C')).find((product) => product.id === String(TRENDYOL.AYRAN))!.price).toBe(39.5);
  });

  it('answers what a platform refuses before sending: Getir has no price call for a restaurant\'s own product (no chain product), the others take it', async () => {
    const chainCalls = () => platforms.a.calls.filter((call) => call.method === 'POST' && call.path.endsWith('/update-prices')).length;
    const before = chainCalls();
    expect(getirProduct('Künefe').chainProduct).toBeUndefined();

    const price = await api.put('/catalog/products/KUNEFE-01/price', { price: 160 });

    expect(price.status).toBe(202);
    expect(answered(price.body)).toEqual({ PLATFORM_A: ['refused', 'PRICE_UNSUPPORTED'], PLATFORM_B: ['not_linked', 'PRODUCT_NOT_LINKED'], PLATFORM_C: ['queued', null], PLATFORM_D: ['queued', null] });
    expect(await changeOf(price.body.changeId, 'PLATFORM_D', ['sent', 'failed'])).toMatchObject({ state: 'sent' });
    await changeOf(price.body.changeId, 'PLATFORM_C', ['checking']);
    platforms.c.catalog.processBatches();
    expect(await changeOf(price.body.changeId, 'PLATFORM_C', ['sent', 'failed'])).toMatchObject({ state: 'sent' });
    expect([getirProduct('Künefe').price, trendyolProduct(TRENDYOL.KUNEFE).sellingPrice, migrosProduct(MIGROS.KUNEFE).price, chainCalls()]).toEqual([150, 160, 160, before]);
  });

  it('sells out a product by code on every linked platform (each simulator shows it inactive) and puts it back', async () => {
    const dhId = (await linkOf('LAHMACUN-01', 'PLATFORM_B')).platformProductId as string;

    const soldOut = await api.put('/catalog/products/LAHMACUN-01/availability', { available: false });

    expect(soldOut.status).toBe(202);
    expect(answered(soldOut.body)).toEqual({ PLATFORM_A: ['queued', null], PLATFORM_B: ['queued', null], PLATFORM_C: ['queued', null], PLATFORM_D: ['queued', null] });
    for (const platform of Object.keys(ids) as PlatformCode[]) expect(await changeOf(soldOut.body.changeId, platform, ['sent', 'failed'])).toMatchObject({ state: 'sent' });
    expect([getirProduct('Lahmacun').status, trendyolProduct(TRENDYOL.LAHMACUN).status, migrosProduct(MIGROS.LAHMACUN).status, dhUnavailable().includes(dhId)]).toEqual([200, 'PASSIVE', 'PASSIVE', true]);

    const back = await api.put('/catalog/products/LAHMACUN-01/availability', { available: true });

    expect(back.status).toBe(202);
    for (const platform of Object.keys(ids) as PlatformCode[]) expect(await changeOf(back.body.changeId, platform, ['sent', 'failed'])).toMatchObject({ state: 'sent' });
    expect([getirProduct('Lahmacun').status, trendyolProduct(TRENDYOL.LAHMACUN).status, migrosProduct(MIGROS.LAHMACUN).status, dhUnavailable().includes(dhId)]).toEqual([100, 'ACTIVE', 'ACTIVE', false]);
  });

  it('records drift the platforms made on their own side at the next import, with one catalog.drift_detected per import; our own changes are not drift', async () => {
    const since = new Date().toISOString();
    platforms.a.catalog.changeMenuProduct(GETIR_RESTAURANT, getirId('Adana Kebap'), { price: 335 });
    platforms.c.catalog.changeMenuProduct(TRENDYOL_STORE, TRENDYOL.URFA, { name: 'URFA KEBAP (ACILI)' });
    platforms.d.removeMenuProduct(MIGROS.KUNEFE);

    const imports = {} as Record<'PLATFORM_A' | 'PLATFORM_C' | 'PLATFORM_D', any>;
    for (const platform of ['PLATFORM_A', 'PLATFORM_C', 'PLATFORM_D'] as const) imports[platform] = await importDone(platform);
    // Urfa was switched back on on each platform's side after the first import: status drift too.
    expect(imports.PLATFORM_A).toMatchObject({ state: 'done', counts: { products: 6, removed: 0, drift: 2 } });
    expect(imports.PLATFORM_C).toMatchObject({ state: 'done', counts: { products: 6, removed: 0, drift: 2 } });
    expect(imports.PLATFORM_D).toMatchObject({ state: 'done', counts: { products: 5, removed: 1, drift: 2 } });

    const drift = await api.get('/catalog/drift').query({ since });
    expect(drift.status).toBe(200);
    const found = (drift.body.drift as any[]).map((entry) => [entry.platform, entry.platformProductId, entry.kind, entry.productCode, entry.before, entry.after]).sort((x, y) => `${x[0]} ${x[2]}`.localeCompare(`${y[0]} ${y[2]}`));
    expect(found).toEqual([
      ['PLATFORM_A', getirId('Adana Kebap'), 'price', null, 320, 335],
      ['PLATFORM_A', getirId('Urfa Kebap'), 'status', null, 'INACTIVE', 'ACTIVE'],
      ['PLATFORM_C', String(TRENDYOL.URFA), 'name', null, 'URFA KEBAP', 'URFA KEBAP (ACILI)'],
      ['PLATFORM_C', String(TRENDYOL.URFA), 'status', null, 'INACTIVE', 'ACTIVE'],
      ['PLATFORM_D', String(MIGROS.KUNEFE), 'linked_removed', 'KUNEFE-01', null, null],
      ['PLATFORM_D', String(MIGROS.URFA), 'status', null, 'INACTIVE', 'ACTIVE'],
    ]);
    // Lahmacun's 97.50, PIDE's 185 and AYRAN's 37 were ours: no price drift for them, and the sold-out and back left no status drift.
    for (const platform of ['PLATFORM_A', 'PLATFORM_C', 'PLATFORM_D'] as const) {
      const events = (await t.outbox(RoutingKey.CatalogDriftDetected)).filter((row) => row.payload.importId === imports[platform].importId);
      expect(events).toHaveLength(1);
      expect(events[0].payload).toMatchObject({ integrationId: ids[platform], provider: platform, restaurantId: account.restaurantId, changes: expect.any(Array) });
      expect(events[0].payload.changes).toHaveLength(2);
    }
    // The first imports found no drift and sent no event: the restaurant has these three only.
    expect((await t.outbox(RoutingKey.CatalogDriftDetected)).filter((row) => row.payload.restaurantId === account.restaurantId)).toHaveLength(3);
    expect(await linkOf('KUNEFE-01', 'PLATFORM_D')).toMatchObject({ platformProductId: String(MIGROS.KUNEFE), removedAt: expect.any(String) });

    // The link outlives the removal; a price is planned without the product, and Migros' call needs its menu items.
    const migrosPriceCalls = platforms.d.menuOf(MIGROS_STORE).priceChanges.length;
    const price = await api.put('/catalog/products/KUNEFE-01/price', { price: 165 });
    expect(price.status).toBe(202);
    expect(answered(price.body)).toMatchObject({ PLATFORM_A: ['refused', 'PRICE_UNSUPPORTED'], PLATFORM_D: ['refused', 'PRODUCT_NOT_ON_MENU'], PLATFORM_C: ['queued', null] });
    await changeOf(price.body.changeId, 'PLATFORM_C', ['checking']);
    platforms.c.catalog.processBatches();
    expect(await changeOf(price.body.changeId, 'PLATFORM_C', ['sent', 'failed'])).toMatchObject({ state: 'sent' });
    expect([trendyolProduct(TRENDYOL.KUNEFE).sellingPrice, platforms.d.menuOf(MIGROS_STORE).priceChanges.length]).toEqual([165, migrosPriceCalls]);
  });

  it('refuses bad prices, unknown codes and bad links bodies with problem JSON and a code', async () => {
    const cases: Array<[string, () => Promise<any>, number, string]> = [
      ['price 0', () => api.put('/catalog/products/LAHMACUN-01/price', { price: 0 }), 422, 'VALIDATION_ERROR'],
      ['price with 3 decimals', () => api.put('/catalog/products/LAHMACUN-01/price', { price: 10.555 }), 422, 'VALIDATION_ERROR'],
      ['price over 1,000,000', () => api.put('/catalog/products/LAHMACUN-01/price', { price: 1_000_001 }), 422, 'VALIDATION_ERROR'],
      ['price a string', () => api.put('/catalog/products/LAHMACUN-01/price', { price: '97.50' }), 422, 'VALIDATION_ERROR'],
      ['price negative', () => api.put('/catalog/products/LAHMACUN-01/price', { price: -5 }), 422, 'VALIDATION_ERROR'],
      ['price null', () => api.put('/catalog/products/LAHMACUN-01/price', { price: null }), 422, 'VALIDATION_ERROR'],
      ['price 1e400 (Infinity once parsed)', () => t.http.put('/api/v1/my/catalog/products/LAHMACUN-01/price').set(account.headers).set('content-type', 'application/json').send('{"price":1e400}'), 422, 'VALIDATION_ERROR'],
      ['price with an unknown field', () => api.put('/catalog/products/LAHMACUN-01/price', { price: 10, currency: 'TRY' }), 422, 'VALIDATION_ERROR'],
      ['price of a code with a control character', () => api.put('/catalog/products/LAH%00MACUN/price', { price: 10 }), 422, 'VALIDATION_ERROR'],
      ['price of a code over 128 characters', () => api.put(`/catalog/products/${'X'.repeat(129)}/price`, { price: 10 }), 422, 'VALIDATION_ERROR'],
      ['a change id that is no uuid', () => api.get('/catalog/changes/nope'), 404, 'CATALOG_CHANGE_NOT_FOUND'],
      ['price of an unknown code', () => api.put('/catalog/products/NO-SUCH-CODE/price', { price: 10 }), 404, 'PRODUCT_CODE_NOT_FOUND'],
      ['sold out of an unknown code', () => api.put('/catalog/products/NO-SUCH-CODE/availability', { available: false }), 404, 'PRODUCT_CODE_NOT_FOUND'],
      ['availability not a boolean', () => api.put('/catalog/products/LAHMACUN-01/availability', { available: 'no' }), 422, 'VALIDATION_ERROR'],
      ['links missing', () => api.put('/catalog/products/LAHMACUN-01/links', {}), 422, 'VALIDATION_ERROR'],
      ['links of an unknown integration', () => api.put('/catalog/products/LAHMACUN-01/links', { links: [{ integrationId: 'no-such-integration', platformProductId: 'x' }] }), 404, 'INTEGRATION_NOT_FOUND'],
      ['a product not on the menu', () => api.put('/catalog/products/LAHMACUN-01/links', { links: [{ integrationId: ids.PLATFORM_C, platformProductId: '999999' }] }), 404, 'PRODUCT_NOT_FOUND'],
      ['a product removed from the menu', () => api.put('/catalog/products/KUNEFE-02/links', { links: [{ integrationId: ids.PLATFORM_D, platformProductId: String(MIGROS.KUNEFE) }] }), 404, 'PRODUCT_NOT_FOUND'],
    ];
    for (const [name, call, status, code] of cases) {
      const response = await call();
      expect({ name, status: response.status, code: response.body.code }).toEqual({ name, status, code });
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    // Nothing reached a platform: the prices stand as the previous tests left them.
    expect([getirProduct('Lahmacun').price, trendyolProduct(TRENDYOL.LAHMACUN).sellingPrice, migrosProduct(MIGROS.LAHMACUN).price]).toEqual([97.5, 97.5, 97.5]);
  });
});
