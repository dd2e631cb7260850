import { bookCallBudget, budgetScopesOf } from '../common/call-budget';
import { SessionCache } from '../common/session-cache';
import { platformRequest } from '../common/platform-http';
import { platformClientConfig } from '../platforms';
import type { IntegrationCredentials } from '../common/platform-adapter';
import type { MenuProduct, PricePlan } from '../common/platform-catalog';
import type { PlatformAAvailabilityOptions } from './getir.availability-routes';
import { GETIR_DEMO_CHAIN_MENU_ID, GetirMenuSeed, PlatformACatalogOptions } from './getir.catalog-routes';
import { PlatformASimulator } from './getir.simulator';
import { PlatformAAdapter } from './getir.adapter';

const APP_KEY = 'app-secret-key-0001';
const UNLIMITED = { limit: 1_000, windowMs: 60_000, blockMs: 30_000 };
const credentials = (restaurant: 1 | 2): IntegrationCredentials => ({
  integrationId: `int-a-${restaurant}`,
  providerRestaurantId: `getir-r-${restaurant}`,
  settings: {},
  secrets: { secretKey: `restaurant-secret-${restaurant}` },
});
const ADANA = '5f9a1b2c3d4e5f6a7b8c9d21';
const KUNEFE = '5f9a1b2c3d4e5f6a7b8c9d25';
const LAHMACUN = '5f9a1b2c3d4e5f6a7b8c9d11';

type Send = Extract<PricePlan, { kind: 'send' }>;

/** The adapter's catalog against Getir's simulator over HTTP (the simulator's own rules by plain HTTP at the end). */
describe('PLATFORM_A catalog against its simulator', () => {
  let sim: PlatformASimulator;
  let adapter: PlatformAAdapter;
  let clock = Date.now();
  const availabilityOptions: PlatformAAvailabilityOptions = { configurationRateLimit: UNLIMITED, now: () => clock };
  const catalogOptions: PlatformACatalogOptions = {};

  beforeEach(async () => {
    sim = new PlatformASimulator({
      appSecretKey: APP_KEY,
      restaurants: [
        { restaurantId: 'getir-r-1', secretKey: 'restaurant-secret-1' },
        { restaurantId: 'getir-r-2', secretKey: 'restaurant-secret-2' },
      ],
      availability: availabilityOptions,
      catalog: catalogOptions,
    });
    await sim.start();
    availabilityOptions.configurationRateLimit = UNLIMITED;
    adapter = new PlatformAAdapter(
      platformClientConfig({ PLATFORM_A_BASE_URL: sim.baseUrl, PLATFORM_A_APP_SECRET_KEY: APP_KEY, PLATFORM_HTTP_TIMEOUT_MS: '2000' }),
      new SessionCache(60_000),
    );
  });
  afterEach(async () => {
    await sim.stop();
    delete catalogOptions.menus;
    delete catalogOptions.chainMenus;
    delete catalogOptions.listChainMenuProducts;
  });

  const catalog = () => adapter.catalog;
  async function read(restaurant: 1 | 2 = 1): Promise<MenuProduct[]> {
    const outcome = await catalog().readMenu(credentials(restaurant));
    if (outcome.kind !== 'ok') throw new Error(`read ${outcome.kind}: ${JSON.stringify(outcome)}`);
    return outcome.products;
  }
  const byId = (products: MenuProduct[], id: string) => products.find((product) => product.platformProductId === id);

  it('reads the demo menu with the token header: lira prices, categories, options, statuses, each chain product with its chain menu; no restaurant code', async () => {
    const products = await read();
    expect(products).toHaveLength(6);
    expect(byId(products, ADANA)).toMatchObject({
      name: 'Adana Kebap',
      price: 320,
      category: 'Kebaplar',
      status: 'ACTIVE',
      externalCode: null,
      options: [{ name: 'Porsiyon', options: [{ name: '1 Porsiyon', price: 0 }, { name: '1,5 Porsiyon', price: 120 }] }],
      platformData: { chainProductId: expect.any(String), chainMenuId: GETIR_DEMO_CHAIN_MENU_ID },
    });
    // Künefe is the restaurant's own product: no chain product, so no chain menu.
    expect(byId(products, KUNEFE)).toMatchObject({ name: 'Künefe', price: 150, category: 'Tatlılar', platformData: { chainProductId: null, chainMenuId: null } });
    expect(products.every((product) => product.externalCode === null)).toBe(true);
    const reads = sim.callsTo('GET', '/restaurants/menu');
    expect(reads).toHaveLength(1);
    expect(reads[0].headers.token).toEqual(expect.any(String));
    expect(sim.callsTo('GET', '/chain-menus')).toHaveLength(1);
  });

  it('changes a chain product price through its chain menu: applied, visible in the next read and on every branch of the chain menu', async () => {
    const adana = byId(await read(), ADANA)!;
    const plan = catalog().planPrice({ platformProductId: ADANA, price: 345.5 }, adana);
    expect(plan).toEqual({
      kind: 'send',
      params: { chainMenuOID: GETIR_DEMO_CHAIN_MENU_ID, chainProductOID: (adana.platformData as { chainProductId: string }).chainProductId, price: 345.5 },
    });
    expect(await catalog().setPrice(credentials(1), { platformProductId: ADANA, price: 345.5 }, plan as Send)).toMatchObject({
      kind: 'done',
      answer: { httpStatus: 200 },
    });
    const [sent] = sim.callsTo('POST', `/chain-menus/${GETIR_DEMO_CHAIN_MENU_ID}/update-prices`);
    expect(sent.body).toEqual({ chainProducts: [{ chainProductOID: (adana.platformData as { chainProductId: string }).chainProductId, price: 345.5 }], chainOptions: [] });
    expect(byId(await read(), ADANA)).toMatchObject({ price: 345.5 });
    // A chain menu is brand-level: the other branch on it shows the new price too.
    expect(byId(await read(2), ADANA)).toMatchObject({ price: 345.5 });
    expect(sim.catalog.menuProduct('getir-r-2', ADANA)).toMatchObject({ price: 345.5 });
  });

  it("refuses before sending: the restaurant's own product (no price call), a product not imported, a bad price", async () => {
    const products = await read();
    expect(catalog().planPrice({ platformProductId: KUNEFE, price: 160 }, byId(products, KUNEFE)!)).toMatchObject({ kind: 'refused', code: 'PRICE_UNSUPPORTED' });
    expect(catalog().planPrice({ platformProductId: 'unknown', price: 160 }, null)).toMatchObject({ kind: 'refused', code: 'PRODUCT_NOT_ON_MENU' });
    expect(catalog().planPrice({ platformProductId: ADANA, price: 10.005 }, byId(products, ADANA)!)).toMatchObject({ kind: 'refused', code: 'PRICE_PRECISION' });
    expect(sim.callsTo('POST', /update-prices$/)).toHaveLength(0);
  });

  it('a plain restaurant (no chain menu for it): the read works, every price is refused PRICE_UNSUPPORTED', async () => {
    catalogOptions.chainMenus = [];
    await sim.stop();
    sim = new PlatformASimulator({ ...sim.options, catalog: catalogOptions });
    await sim.start();
    adapter = new PlatformAAdapter(
      platformClientConfig({ PLATFORM_A_BASE_URL: sim.baseUrl, PLATFORM_A_APP_SECRET_KEY: APP_KEY, PLATFORM_HTTP_TIMEOUT_MS: '2000' }),
      new SessionCache(60_000),
    );
    const products = await read();
    expect(products).toHaveLength(6);
    for (const product of products)
      expect(catalog().planPrice({ platformProductId: product.platformProductId, price: 99 }, product)).toMatchObject({ kind: 'refused', code: 'PRICE_UNSUPPORTED' });
  });

  it('reads a chain menu list without products (one chain menu holds every chain product) and a restaurant menu with no chain product (no chain menu read)', async () => {
    catalogOptions.listChainMenuProducts = false;
    const own: GetirMenuSeed = {
      categories: [{ id: 'c-1', name: { tr: 'Çorbalar', en: 'Soups' } }],
      products: [{ id: 'p-soup', categoryId: 'c-1', name: { tr: 'Mercimek Çorbası', en: 'Lentil Soup' }, price: 75.25, status: 200 }],
    };
    catalogOptions.menus = { 'getir-r-2': own };
    await sim.stop();
    sim = new PlatformASimulator({ ...sim.options, catalog: catalogOptions });
    await sim.start();
    adapter = new PlatformAAdapter(
      platformClientConfig({ PLATFORM_A_BASE_URL: sim.baseUrl, PLATFORM_A_APP_SECRET_KEY: APP_KEY, PLATFORM_HTTP_TIMEOUT_MS: '2000' }),
      new SessionCache(60_000),
    );
    expect(byId(await read(1), ADANA)).toMatchObject({ platformData: { chainMenuId: GETIR_DEMO_CHAIN_MENU_ID } });
    expect(await read(2)).toEqual([
      expect.objectContaining({ platformProductId: 'p-soup', name: 'Mercimek Çorbası', price: 75.25, status: 'INACTIVE', category: 'Çorbalar' }),
    ]);
    // Restaurant 2 has no chain product: its read asked for no chain menu.
    expect(sim.callsTo('GET', '/chain-menus')).toHaveLength(1);
  });

  it('status calls change the served menu; Getir-side changes (price, name, status, added, removed) show in the next read', async () => {
    const sold = catalog();
    expect(
      await adapter.availability.setProduct(credentials(1), { platformProductId: LAHMACUN, available: false }, { kind: 'send', params: { status: 200 } }),
    ).toMatchObject({ kind: 'done' });
    expect(byId(await read(), LAHMACUN)).toMatchObject({ status: 'INACTIVE', platformData: { statusCode: 200 } });

    sim.catalog.changeMenuProduct('getir-r-1', ADANA, { price: 333, name: 'Adana Dürüm', status: 400 });
    sim.catalog.addMenuProduct('getir-r-1', { id: 'p-new', categoryId: 'c-new', categoryName: 'Yeni', name: { tr: 'Çiğ Köfte', en: 'Cig Kofte' }, price: 55 });
    sim.catalog.removeMenuProduct('getir-r-1', KUNEFE);
    const products = await sold.readMenu(credentials(1));
    expect(products.kind).toBe('ok');
    const after = products.kind === 'ok' ? products.products : [];
    expect(byId(after, ADANA)).toMatchObject({ price: 333, name: 'Adana Dürüm', status: 'INACTIVE' });
    expect(byId(after, 'p-new')).toMatchObject({ name: 'Çiğ Köfte', category: 'Yeni', status: 'ACTIVE', platformData: { chainProductId: null } });
    expect(byId(after, KUNEFE)).toBeUndefined();
    // A removed product is gone for the status calls too (code 40).
    expect(
      await adapter.availability.setProduct(credentials(1), { platformProductId: KUNEFE, available: true }, { kind: 'send', params: { status: 100 } }),
    ).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/code 40/) });
  });

  it('429 (the configuration block), 5xx and a network error are retried; a 4xx and a body of the wrong shape fail', async () => {
    sim.failNext({ status: 429, body: { code: 429 }, match: (request) => request.path === '/restaurants/menu' });
    expect(await catalog().readMenu(credentials(1))).toEqual({ kind: 'retry', answer: { httpStatus: 429, body: { code: 429 } }, retryAfterMs: 30_000 });
    sim.failNext({ status: 503, match: (request) => request.path === '/restaurants/menu' });
    expect(await catalog().readMenu(credentials(1))).toMatchObject({ kind: 'retry', answer: { httpStatus: 503 } });
    sim.failNext({ status: 502, match: (request) => request.path === '/chain-menus' });
    expect(await catalog().readMenu(credentials(1))).toMatchObject({ kind: 'retry', answer: { httpStatus: 502 } });
    sim.failNext({ status: 400, body: { code: -2, error: 'ValidationError', message: 'bad' }, match: (request) => request.path === '/restaurants/menu' });
    expect(await catalog().readMenu(credentials(1))).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/HTTP 400, code -2 ValidationError/) });
    sim.failNext({ status: 200, body: { categories: [] }, match: (request) => request.path === '/restaurants/menu' });
    expect(await catalog().readMenu(credentials(1))).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/without a productCategories array/) });
    // A chain menu list Getir refuses (a restaurant of no chain) leaves the menu importable, without chain menus.
    sim.failNext({ status: 400, body: { code: 46, error: 'InvalidInput' }, match: (request) => request.path === '/chain-menus' });
    const noChain = await read();
    expect(noChain.every((product) => (product.platformData as { chainMenuId: unknown }).chainMenuId === null)).toBe(true);

    const adana = byId(await read(), ADANA)!;
    const plan = catalog().planPrice({ platformProductId: ADANA, price: 300 }, adana) as Send;
    sim.failNext({ status: 500, match: (request) => request.path.endsWith('/update-prices') });
    expect(await catalog().setPrice(credentials(1), { platformProductId: ADANA, price: 300 }, plan)).toMatchObject({ kind: 'retry', answer: { httpStatus: 500 } });
    sim.failNext({ status: 429, headers: { 'retry-after': '7' }, match: (request) => request.path.endsWith('/update-prices') });
    expect(await catalog().setPrice(credentials(1), { platformProductId: ADANA, price: 300 }, plan)).toMatchObject({ kind: 'retry', retryAfterMs: 7_000 });
    // A chain menu that is no longer the restaurant's: Getir's refusal is final.
    const gone = { ...plan, params: { ...plan.params, chainMenuOID: 'cm-gone' } };
    expect(await catalog().setPrice(credentials(1), { platformProductId: ADANA, price: 300 }, gone)).toMatchObject({ kind: 'failed', answer: { httpStatus: 400, body: { code: 46 } } });
    sim.setDown(true);
    expect(await catalog().readMenu(credentials(1))).toMatchObject({ kind: 'retry', answer: { httpStatus: null } });
    expect(await catalog().setPrice(credentials(1), { platformProductId: ADANA, price: 300 }, plan)).toMatchObject({ kind: 'retry', answer: { httpStatus: null } });
    sim.setDown(false);
    expect(byId(await read(), ADANA)).toMatchObject({ price: 320 });
  });

  it("keeps within Getir's 2 configuration calls a minute: reads booked with availability reads never meet the 429", async () => {
    availabilityOptions.configurationRateLimit = { limit: 2, windowMs: 60_000, blockMs: 30_000 };
    // Unbooked, a third configuration call within the minute is blocked.
    expect(await catalog().readMenu(credentials(1))).toMatchObject({ kind: 'ok' });
    expect(await adapter.availability.readStore!(credentials(1))).toMatchObject({ kind: 'ok' });
    expect(await catalog().readMenu(credentials(1))).toMatchObject({ kind: 'retry', answer: { httpStatus: 429 }, retryAfterMs: 30_000 });
    clock += 31_000;

    const logs = new Map<string, number[]>();
    const refusedBefore = sim.calls.filter((call) => call.status === 429).length;
    const start = clock;
    const book = (call: 'catalog:read' | 'availability:read') => {
      const scopes = budgetScopesOf(adapter.callBudget, call);
      const booking = bookCallBudget(
        scopes.map(({ scope, count }) => ({ limit: scope.limit, windowMs: scope.windowMs, calls: logs.get(scope.name) ?? [], count })),
        clock,
      );
      scopes.forEach(({ scope }, at) => logs.set(scope.name, booking.calls[at]));
      clock = booking.at;
    };
    for (let index = 0; index < 3; index += 1) {
      book('catalog:read');
      expect(await catalog().readMenu(credentials(1))).toMatchObject({ kind: 'ok' });
      book('availability:read');
      expect(await adapter.availability.readStore!(credentials(1))).toMatchObject({ kind: 'ok' });
    }
    expect(sim.calls.filter((call) => call.status === 429).length).toBe(refusedBefore);
    // Six configuration calls in a budget of 2 per 65 s: the last pair starts two windows in.
    expect(clock - start).toBeGreaterThanOrEqual(2 * 65_000);
  });

  describe('the simulator by plain HTTP (G rules, not the adapter)', () => {
    async function login(): Promise<string> {
      const response = await platformRequest({
        method: 'POST',
        url: `${sim.baseUrl}/auth/login`,
        json: { appSecretKey: APP_KEY, restaurantSecretKey: 'restaurant-secret-1' },
        timeoutMs: 2000,
      });
      return (response.body as { token: string }).token;
    }
    const call = (token: string | undefined, method: 'GET' | 'POST', path: string, json?: unknown) =>
      platformRequest({ method, url: `${sim.baseUrl}${path}`, headers: token ? { token } : {}, json, timeoutMs: 2000 });
    const chainOf = (productId: string) => sim.catalog.menuProduct('getir-r-1', productId)!.chainProduct as string;
    const prices = `/chain-menus/${GETIR_DEMO_CHAIN_MENU_ID}/update-prices`;

    it('answers the menu in Model13 only with a token; lists the chain menus; reads one chain menu', async () => {
      expect(await call(undefined, 'GET', '/restaurants/menu')).toMatchObject({ status: 400, body: { code: -2, source: 'headers' } });
      const token = await login();
      const menu = await call(token, 'GET', '/restaurants/menu');
      expect(menu).toMatchObject({
        status: 200,
        body: { productCategories: expect.arrayContaining([expect.objectContaining({ name: { tr: 'Kebaplar', en: 'Kebaplar' }, restaurant: 'getir-r-1' })]) },
      });
      expect(await call(token, 'GET', '/chain-menus')).toMatchObject({
        status: 200,
        body: [{ id: GETIR_DEMO_CHAIN_MENU_ID, products: expect.arrayContaining([{ id: chainOf(ADANA), name: { tr: 'Adana Kebap', en: 'Adana Kebap' }, price: 320 }]) }],
      });
      expect(await call(token, 'GET', `/chain-menus/${GETIR_DEMO_CHAIN_MENU_ID}`)).toMatchObject({ status: 200, body: { id: GETIR_DEMO_CHAIN_MENU_ID } });
      expect(await call(token, 'GET', '/chain-menus/unknown')).toMatchObject({ status: 400, body: { code: 46, error: 'InvalidInput' } });
      expect(await call(token, 'GET', '/chain-menus/chain-option-categories')).toMatchObject({
        status: 200,
        body: [{ id: '6a0c1d2e3f4a5b6c7d8e9a01', options: [expect.objectContaining({ id: '6a0c1d2e3f4a5b6c7d8e9b02', price: 0 }), expect.objectContaining({ id: '6a0c1d2e3f4a5b6c7d8e9b03', price: 120 })] }],
      });
    });

    it('validates update-prices as Model26 (nothing applies when one item is wrong); refuses the Go client\'s { id, price } and a null list', async () => {
      const token = await login();
      const adana = chainOf(ADANA);
      const urfa = chainOf('5f9a1b2c3d4e5f6a7b8c9d22');
      const portion = '6a0c1d2e3f4a5b6c7d8e9b03';
      for (const [body, message] of [
        [{ chainProducts: [{ chainProductOID: urfa, price: 1 }, { chainProductOID: adana, price: -1 }] }, /chainProducts\[1\].price" must be greater than or equal to 0/],
        [{ chainProducts: [{ chainProductOID: urfa, price: 1 }, { chainProductOID: adana, price: 10.123 }] }, /2 decimal places/],
        [{ chainProducts: [{ chainProductOID: urfa, price: 1 }, { chainProductOID: adana, price: '10' }] }, /must be a number/],
        [{ chainProducts: [{ chainProductOID: urfa, price: 1 }, { price: 10 }] }, /chainProducts\[1\].chainProductOID" is required/],
        [{ chainProducts: [{ chainProductOID: urfa, price: 1 }, { chainProductOID: adana }] }, /chainProducts\[1\].price" is required/],
        [{ chainProducts: [{ id: urfa, price: 315.75 }] }, /chainProducts\[0\].chainProductOID" is required/],
        [{ chainProducts: [{ chainProductOID: urfa, price: 1 }], chainOptions: null }, /"chainOptions" must be an array/],
        [{ chainProducts: {} }, /"chainProducts" must be an array/],
        [{ chainProducts: [{ chainProductOID: urfa, price: 1 }], chainOptions: [{ id: portion, price: 100 }] }, /chainOptions\[0\].chainOptionOID" is required/],
        [{ chainOptions: [{ chainOptionOID: portion, price: 1.005 }] }, /2 decimal places/],
      ] as const) {
        expect(await call(token, 'POST', prices, body)).toMatchObject({
          status: 400,
          body: { code: -2, error: 'ValidationError', source: 'body', message: expect.stringMatching(message) },
        });
      }
      for (const body of [{ chainProducts: [{ chainProductOID: 'not-on-menu', price: 10 }] }, { chainOptions: [{ chainOptionOID: 'not-on-menu', price: 10 }] }])
        expect(await call(token, 'POST', prices, body)).toMatchObject({ status: 400, body: { code: 46, error: 'InvalidInput', message: expect.stringMatching(/not on the chain menu/) } });
      expect(sim.catalog.menuProduct('getir-r-1', '5f9a1b2c3d4e5f6a7b8c9d22')).toMatchObject({ price: 310 });
      expect(await call(token, 'POST', prices, { chainProducts: [{ chainProductOID: urfa, price: 315.75 }], chainOptions: [{ chainOptionOID: portion, price: 135.5 }] })).toMatchObject({ status: 200 });
      expect(sim.catalog.menuProduct('getir-r-1', '5f9a1b2c3d4e5f6a7b8c9d22')).toMatchObject({ price: 315.75 });
      const options = (sim.catalog.menuProduct('getir-r-1', ADANA)!.optionCategories as Array<{ options: Array<{ chainOption?: string; price: number }> }>)[0].options;
      expect(options.find((option) => option.chainOption === portion)).toMatchObject({ price: 135.5 });
      // Model26 requires neither list.
      expect(await call(token, 'POST', prices, {})).toMatchObject({ status: 200 });
    });

    it('counts the menu read in the configuration family and not the chain menu calls', async () => {
      availabilityOptions.configurationRateLimit = { limit: 2, windowMs: 60_000, blockMs: 30_000 };
      const token = await login();
      expect(await call(token, 'GET', '/restaurants/menu')).toMatchObject({ status: 200 });
      expect(await call(token, 'GET', '/restaurants/menu')).toMatchObject({ status: 200 });
      expect(await call(token, 'GET', '/restaurants/menu')).toMatchObject({ status: 429 });
      expect(await call(token, 'GET', '/chain-menus')).toMatchObject({ status: 200 });
      expect(await call(token, 'POST', prices, { chainProducts: [{ chainProductOID: chainOf(ADANA), price: 321 }] })).toMatchObject({ status: 200 });
    });

    it('admin routes: the served menu, and a Getir-side change', async () => {
      const admin = (method: 'GET' | 'POST', path: string, json?: unknown) =>
        platformRequest({ method, url: `${sim.baseUrl}/_simulator${path}`, json, timeoutMs: 2000 });
      expect(await admin('POST', `/restaurants/getir-r-1/menu/products/${ADANA}`, { price: 299.9, status: 200 })).toMatchObject({
        status: 200,
        body: { id: ADANA, price: 299.9, status: 200 },
      });
      const menu = (await admin('GET', '/restaurants/getir-r-1/menu')).body as { productCategories: Array<{ products: Array<{ id: string; price: number }> }> };
      expect(menu.productCategories.flatMap((category) => category.products).find((product) => product.id === ADANA)).toMatchObject({ price: 299.9 });
      expect(await admin('POST', '/restaurants/getir-r-1/menu/products/nope', { price: 1 })).toMatchObject({ status: 404 });
      expect(await admin('POST', `/restaurants/getir-r-1/menu/products/${ADANA}`, { price: '1' })).toMatchObject({ status: 400 });
      expect(await admin('GET', '/restaurants/nobody/menu')).toMatchObject({ status: 404 });
    });
  });
});
