import { platformRequest } from '../common/platform-http';
import { platformClientConfig } from '../platforms';
import type { IntegrationCredentials } from '../common/platform-adapter';
import type { MenuProduct, MenuReadOutcome, PricePlan } from '../common/platform-catalog';
import { PlatformDAdapter } from './migros-yemek.adapter';
import { PlatformDSimulator } from './migros-yemek.simulator';

const STORE = { storeId: '23000000101833', storeGroupId: '511', apiKey: 'migros-store-key-0001', warehouseId: 7001 };
const OTHER = { storeId: '23000000101834', storeGroupId: '512', apiKey: 'migros-store-key-0002' };
const credentials: IntegrationCredentials = { integrationId: 'int-d-cat', providerRestaurantId: STORE.storeId, settings: { providerMerchantId: STORE.storeGroupId }, secrets: { apiKey: STORE.apiKey } };

const menuOf = (outcome: MenuReadOutcome): MenuProduct[] => {
  if (outcome.kind !== 'ok') throw new Error(`expected a menu, got ${outcome.kind}: ${'reason' in outcome ? outcome.reason : JSON.stringify(outcome.answer)}`);
  return outcome.products;
};
const send = (plan: PricePlan): Extract<PricePlan, { kind: 'send' }> => {
  if (plan.kind !== 'send') throw new Error(`expected a plan to send, got ${plan.code}`);
  return plan;
};

describe('PLATFORM_D catalog against its simulator', () => {
  let sim: PlatformDSimulator;
  let adapter: PlatformDAdapter;
  const read = async (as = credentials) => menuOf(await adapter.catalog.readMenu(as));
  const product = async (id: string) => (await read()).find((entry) => entry.platformProductId === id)!;
  const isMenuCall = (path: string) => (request: { path: string }) => request.path === path;

  beforeAll(async () => {
    sim = new PlatformDSimulator({ stores: [STORE, OTHER] });
    await sim.start();
  });
  afterAll(() => sim.stop());
  beforeEach(() => {
    sim.clearFaults();
    sim.calls.length = 0;
    sim.catalog.menus.clear();
    sim.availability.stores.clear();
    adapter = new PlatformDAdapter(platformClientConfig({ PLATFORM_D_BASE_URL: sim.baseUrl, PLATFORM_HTTP_TIMEOUT_MS: '2000' }));
  });

  it('reads the demo menu Migros serves: numeric product ids, lira prices, headers as categories, no restaurant codes', async () => {
    const menu = await read();
    expect(menu.map((entry) => [entry.platformProductId, entry.name, entry.price, entry.category, entry.status, entry.externalCode])).toEqual([
      ['55003', 'Adana Kebap', 320, 'Kebaplar', 'ACTIVE', null],
      ['55004', 'Urfa Kebap', 310, 'Kebaplar', 'ACTIVE', null],
      ['55001', 'Lahmacun', 90, 'Pide ve Lahmacun', 'ACTIVE', null],
      ['55005', 'Kaşarlı Pide', 180, 'Pide ve Lahmacun', 'ACTIVE', null],
      ['55002', 'Ayran', 35, 'İçecekler', 'ACTIVE', null],
      ['55006', 'Künefe', 150, 'Tatlılar', 'ACTIVE', null],
    ]);
    expect(menu[0].platformData).toMatchObject({ menuId: sim.menuOf(STORE.storeId).id, menuItemIds: [expect.any(Number)] });
    // Sent encrypted like every Migros POST, and Migros understood { storeId, storeGroupId }.
    const [call] = sim.callsTo('POST', '/Menu/GetMenuDetailsByStoreAndStoreGroupId');
    expect(Object.keys(call.body as object)).toEqual(['value']);
    expect(sim.callsTo('GET', '/Store/GetStoreDetail')).toHaveLength(0);
  });

  it('changes a price with UpdateBatchPrice (price and discounted price alike), seen by the next read', async () => {
    const lahmacun = await product('55001');
    const change = { platformProductId: '55001', price: 97.5 };
    expect(await adapter.catalog.setPrice(credentials, change, send(adapter.catalog.planPrice(change, lahmacun)))).toMatchObject({ kind: 'done', answer: { httpStatus: 200 } });
    expect(sim.menuProduct(55001)).toMatchObject({ price: 97.5, discountedPrice: 97.5 });
    expect(await product('55001')).toMatchObject({ price: 97.5, platformData: { discountedPrice: 97.5 } });
    const menu = sim.menuOf(STORE.storeId);
    expect(menu.priceChanges.map((entry) => entry.body)).toEqual([
      { storeId: 23000000101833, storeGroupId: 511, menuId: menu.id, prices: [{ menuItemId: (lahmacun.platformData.menuItemIds as number[])[0], productId: 55001, defaultPrimaryPrice: 97.5, defaultPrimaryDiscountedPrice: 97.5 }] },
    ]);
    // Another product is untouched.
    expect(sim.menuProduct(55002)).toMatchObject({ price: 35 });
  });

  it('prices every menu item of a product listed under two headers', async () => {
    sim.addMenuProduct({ productId: 55001, name: 'Lahmacun', category: 'Kampanyalar', price: 90 });
    const lahmacun = await product('55001');
    expect(lahmacun.platformData.menuItemIds).toHaveLength(2);
    const change = { platformProductId: '55001', price: 99 };
    expect(await adapter.catalog.setPrice(credentials, change, send(adapter.catalog.planPrice(change, lahmacun)))).toMatchObject({ kind: 'done' });
    const items = sim.catalog.items(sim.menuOf(STORE.storeId), 55001);
    expect(items.map(({ header, item }) => [header.name, item.defaultPrimaryPrice])).toEqual([['Pide ve Lahmacun', 99], ['Kampanyalar', 99]]);
  });

  it('shows a product switched PASSIVE by the status call as INACTIVE in the next read, and ACTIVE again', async () => {
    const availability = adapter.availability;
    const off = { platformProductId: '55002', available: false };
    const plan = availability.planProduct(off);
    if (plan.kind !== 'send') throw new Error('expected a status plan');
    expect(await availability.setProduct(credentials, off, plan)).toMatchObject({ kind: 'done' });
    expect(await product('55002')).toMatchObject({ status: 'INACTIVE' });
    const on = { platformProductId: '55002', available: true };
    const onPlan = availability.planProduct(on);
    if (onPlan.kind !== 'send') throw new Error('expected a status plan');
    expect(await availability.setProduct(credentials, on, onPlan)).toMatchObject({ kind: 'done' });
    expect(await product('55002')).toMatchObject({ status: 'ACTIVE' });
  });

  it('reads what Migros changed by itself: price, name, status, a product added, one removed', async () => {
    sim.changeMenuProduct(55003, { price: 340, name: 'Adana Kebap (Acılı)', status: 'PASSIVE' });
    sim.addMenuProduct({ productId: 55050, name: 'Mercimek Çorbası', category: 'Çorbalar', price: 75 });
    sim.removeMenuProduct(55006);
    const menu = await read();
    expect(menu.find((entry) => entry.platformProductId === '55003')).toMatchObject({ price: 340, name: 'Adana Kebap (Acılı)', status: 'INACTIVE' });
    expect(menu.find((entry) => entry.platformProductId === '55050')).toMatchObject({ name: 'Mercimek Çorbası', category: 'Çorbalar', price: 75 });
    expect(menu.map((entry) => entry.platformProductId)).not.toContain('55006');
    expect(sim.menuProduct(55006)).toBeUndefined();
    expect(() => sim.changeMenuProduct(55006, { price: 1 })).toThrow('no product 55006');
  });

  it('fails for good when Migros refuses the price: a stale menu, a product gone from the menu, a refused key', async () => {
    const lahmacun = await product('55001');
    const change = { platformProductId: '55001', price: 95 };
    const plan = send(adapter.catalog.planPrice(change, lahmacun));
    const stale = { kind: 'send' as const, params: { ...plan.params, menuId: 1 } };
    expect(await adapter.catalog.setPrice(credentials, change, stale)).toMatchObject({ kind: 'failed', reason: expect.stringContaining('MENU_NOT_FOUND') });
    sim.removeMenuProduct(55001);
    expect(await adapter.catalog.setPrice(credentials, change, plan)).toMatchObject({ kind: 'failed', reason: expect.stringContaining('MENU_ITEM_NOT_FOUND') });
    expect(await adapter.catalog.setPrice({ ...credentials, secrets: { apiKey: 'not-a-key' } }, change, plan)).toMatchObject({ kind: 'failed', reason: expect.stringContaining('API key') });
    expect(sim.menuOf(STORE.storeId).priceChanges).toEqual([]);
  });

  it('fails a price when a list answer refuses an item, though the envelope says success', async () => {
    const lahmacun = await product('55001');
    const change = { platformProductId: '55001', price: 95 };
    const itemId = (lahmacun.platformData.menuItemIds as number[])[0];
    sim.failNext({ status: 200, body: { data: [{ menuItemId: itemId, success: false, message: 'price below the store group minimum' }], success: true }, match: isMenuCall('/Menu/UpdateBatchPrice') });
    expect(await adapter.catalog.setPrice(credentials, change, send(adapter.catalog.planPrice(change, lahmacun)))).toMatchObject({
      kind: 'failed',
      reason: `PLATFORM_D refused the price of a menu item (menu item ${String(itemId)}: price below the store group minimum)`,
    });
  });

  it('retries a read or a price on 429 (Retry-After), 5xx and a network error', async () => {
    const lahmacun = await product('55001');
    const change = { platformProductId: '55001', price: 95 };
    const plan = send(adapter.catalog.planPrice(change, lahmacun));
    sim.failNext({ status: 429, headers: { 'Retry-After': '9' }, match: isMenuCall('/Menu/GetMenuDetailsByStoreAndStoreGroupId') });
    expect(await adapter.catalog.readMenu(credentials)).toMatchObject({ kind: 'retry', retryAfterMs: 9_000, answer: { httpStatus: 429 } });
    sim.failNext({ status: 503, match: isMenuCall('/Menu/GetMenuDetailsByStoreAndStoreGroupId') });
    expect(await adapter.catalog.readMenu(credentials)).toMatchObject({ kind: 'retry', answer: { httpStatus: 503 } });
    sim.failNext({ status: 502, match: isMenuCall('/Menu/UpdateBatchPrice') });
    expect(await adapter.catalog.setPrice(credentials, change, plan)).toMatchObject({ kind: 'retry', answer: { httpStatus: 502 } });
    expect(sim.menuProduct(55001)).toMatchObject({ price: 90 });
    const down = new PlatformDAdapter(platformClientConfig({ PLATFORM_D_BASE_URL: 'http://127.0.0.1:9', PLATFORM_HTTP_TIMEOUT_MS: '500' }));
    expect(await down.catalog.readMenu(credentials)).toMatchObject({ kind: 'retry' });
    expect(await down.catalog.setPrice(credentials, change, plan)).toMatchObject({ kind: 'retry' });
    expect(await adapter.catalog.setPrice(credentials, change, plan)).toMatchObject({ kind: 'done' });
  });

  it('fails a read whose body is not the documented menu, or that Migros refuses', async () => {
    sim.failNext({ status: 200, body: { data: { id: 1, products: [] }, success: true }, match: isMenuCall('/Menu/GetMenuDetailsByStoreAndStoreGroupId') });
    expect(await adapter.catalog.readMenu(credentials)).toMatchObject({ kind: 'failed', reason: expect.stringContaining('a menu without menuHeaderInfos') });
    sim.failNext({ status: 200, body: '<html>maintenance</html>', match: isMenuCall('/Menu/GetMenuDetailsByStoreAndStoreGroupId') });
    expect(await adapter.catalog.readMenu(credentials)).toMatchObject({ kind: 'failed', reason: expect.stringContaining('no menu in data') });
    sim.failNext({ status: 200, body: { data: null, success: false, errorMessage: { errorCode: 'MENU_NOT_FOUND', errorDetail: 'no menu' } }, match: isMenuCall('/Menu/GetMenuDetailsByStoreAndStoreGroupId') });
    expect(await adapter.catalog.readMenu(credentials)).toMatchObject({ kind: 'failed', reason: expect.stringContaining('MENU_NOT_FOUND') });
    // A storeGroupId that is not the store's: Migros refuses it.
    expect(await adapter.catalog.readMenu({ ...credentials, settings: { providerMerchantId: '999' } })).toMatchObject({ kind: 'failed', reason: expect.stringContaining('STORE_GROUP_MISMATCH') });
  });

  it('reads the storeGroupId from GetStoreDetail when the integration has none', async () => {
    const withoutGroup = { ...credentials, settings: {} };
    expect(await read(withoutGroup)).toHaveLength(6);
    expect(sim.calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET /Store/GetStoreDetail', 'POST /Menu/GetMenuDetailsByStoreAndStoreGroupId']);
    sim.failNext({ status: 503, match: isMenuCall('/Store/GetStoreDetail') });
    expect(await adapter.catalog.readMenu(withoutGroup)).toMatchObject({ kind: 'retry', answer: { httpStatus: 503 } });
    sim.failNext({ status: 200, body: { data: { id: 23000000101833 }, success: true }, match: isMenuCall('/Store/GetStoreDetail') });
    expect(await adapter.catalog.readMenu(withoutGroup)).toMatchObject({ kind: 'failed', reason: expect.stringContaining('no storeGroupId') });
  });

  it('reads each store its own menu, and opens answers Migros encrypts', async () => {
    const other: IntegrationCredentials = { integrationId: 'int-d-cat-2', providerRestaurantId: OTHER.storeId, settings: { providerMerchantId: OTHER.storeGroupId }, secrets: { apiKey: OTHER.apiKey } };
    sim.changeMenuProduct(55001, { price: 91 }, OTHER.storeId);
    expect((await read(other)).find((entry) => entry.platformProductId === '55001')).toMatchObject({ price: 91 });
    expect(await product('55001')).toMatchObject({ price: 90 });
    // The other store's key cannot read this store's menu.
    expect(await adapter.catalog.readMenu({ ...credentials, secrets: { apiKey: OTHER.apiKey } })).toMatchObject({ kind: 'failed' });
    const encrypting = new PlatformDSimulator({ stores: [STORE], encryptAnswers: true });
    await encrypting.start();
    try {
      const reading = new PlatformDAdapter(platformClientConfig({ PLATFORM_D_BASE_URL: encrypting.baseUrl, PLATFORM_HTTP_TIMEOUT_MS: '2000' }));
      expect(menuOf(await reading.catalog.readMenu(credentials))).toHaveLength(6);
    } finally {
      await encrypting.stop();
    }
  });
});

/** Migros' menu rules by plain HTTP (no adapter): encrypted bodies, the store's own menu, all-or-nothing prices. */
describe('PlatformDSimulator menu', () => {
  let sim: PlatformDSimulator;
  beforeAll(async () => {
    sim = new PlatformDSimulator({ stores: [STORE], menu: [{ productId: 10, name: 'Tost', category: 'Kahvaltı', price: 60 }, { productId: 11, name: 'Çay', category: 'İçecekler', price: 15, status: 'PASSIVE' }] });
    await sim.start();
  });
  afterAll(() => sim.stop());
  beforeEach(() => sim.catalog.menus.clear());

  const spaced = (body: unknown) => JSON.stringify(body).replace(/":/g, '": ').replace(/,"/g, ', "').replace(/,\{/g, ', {');
  const post = (path: string, body: unknown) => platformRequest({ method: 'POST', url: `${sim.baseUrl}${path}`, headers: { XApiKey: STORE.apiKey }, json: { value: sim.encrypt(spaced(body), STORE.apiKey) }, timeoutMs: 2000 });
  const ids = { storeId: Number(STORE.storeId), storeGroupId: Number(STORE.storeGroupId) };
  const menu = async () => ((await post('/Menu/GetMenuDetailsByStoreAndStoreGroupId', ids)).body as { data: { id: number; menuHeaderInfos: Array<{ name: string; foodMenuItemDetailsDTOs: Array<{ id: number; productId: number; defaultPrimaryPrice: number; defaultPrimaryDiscountedPrice: number; status: string }> }> } }).data;

  it('serves the seeded menu in the documented nesting', async () => {
    const data = await menu();
    expect(data).toMatchObject({ id: expect.any(Number), storeGroupId: 511, status: 'ACTIVE' });
    expect(data.menuHeaderInfos.map((header) => [header.name, header.foodMenuItemDetailsDTOs.map((item) => [item.productId, item.defaultPrimaryPrice, item.status])])).toEqual([
      ['Kahvaltı', [[10, 60, 'ACTIVE']]],
      ['İçecekler', [[11, 15, 'PASSIVE']]],
    ]);
    const admin = await platformRequest({ method: 'GET', url: `${sim.baseUrl}/_simulator/menus/${STORE.storeId}`, timeoutMs: 2000 });
    expect(admin).toMatchObject({ status: 200, body: { id: data.id } });
    expect(await platformRequest({ method: 'GET', url: `${sim.baseUrl}/_simulator/menus/1`, timeoutMs: 2000 })).toMatchObject({ status: 404 });
  });

  it('applies a batch all or nothing, and refuses what Migros would', async () => {
    const data = await menu();
    const [tost, cay] = data.menuHeaderInfos.map((header) => header.foodMenuItemDetailsDTOs[0]);
    const batch = (prices: unknown[], menuId = data.id) => post('/Menu/UpdateBatchPrice', { ...ids, menuId, prices });
    const price = (item: { id: number; productId: number }, primary: unknown, discounted?: unknown) => ({ menuItemId: item.id, productId: item.productId, defaultPrimaryPrice: primary, ...(discounted === undefined ? {} : { defaultPrimaryDiscountedPrice: discounted }) });
    const refused = (errorCode: string) => ({ status: 400, body: { success: false, errorMessage: { errorCode } } });
    expect(await batch([price(tost, 65, 65), price(cay, 0)])).toMatchObject(refused('INVALID_PRICE'));
    expect(await batch([price(tost, 65, 70)])).toMatchObject(refused('INVALID_PRICE'));
    expect(await batch([price(tost, '65')])).toMatchObject(refused('INVALID_PRICE'));
    expect(await batch([{ ...price(tost, 65), productId: 11 }])).toMatchObject(refused('PRODUCT_MISMATCH'));
    expect(await batch([{ ...price(tost, 65), menuItemId: 1 }])).toMatchObject(refused('MENU_ITEM_NOT_FOUND'));
    expect(await batch([price(tost, 65)], 1)).toMatchObject(refused('MENU_NOT_FOUND'));
    expect(await batch([])).toMatchObject(refused('INVALID_REQUEST'));
    expect(await post('/Menu/UpdateBatchPrice', { ...ids, storeGroupId: 9, menuId: data.id, prices: [price(tost, 65)] })).toMatchObject(refused('STORE_GROUP_MISMATCH'));
    expect((await menu()).menuHeaderInfos.map((header) => header.foodMenuItemDetailsDTOs[0].defaultPrimaryPrice)).toEqual([60, 15]);
    // A discounted price below the price is taken; without one, it follows the price.
    expect(await batch([price(tost, 65, 59.9), price(cay, 17.5)])).toMatchObject({ status: 200, body: { data: null, success: true } });
    expect((await menu()).menuHeaderInfos.map((header) => [header.foodMenuItemDetailsDTOs[0].defaultPrimaryPrice, header.foodMenuItemDetailsDTOs[0].defaultPrimaryDiscountedPrice])).toEqual([[65, 59.9], [17.5, 17.5]]);
  });

  it('takes only encrypted POSTs from the store\'s own key', async () => {
    const plain = await platformRequest({ method: 'POST', url: `${sim.baseUrl}/Menu/GetMenuDetailsByStoreAndStoreGroupId`, headers: { XApiKey: STORE.apiKey }, json: ids, timeoutMs: 2000 });
    expect(plain).toMatchObject({ status: 400, body: { success: false } });
    expect(await platformRequest({ method: 'GET', url: `${sim.baseUrl}/Menu/GetMenuDetailsByStoreAndStoreGroupId`, headers: { XApiKey: STORE.apiKey }, timeoutMs: 2000 })).toMatchObject({ status: 405 });
    expect(await platformRequest({ method: 'POST', url: `${sim.baseUrl}/Menu/UpdateBatchPrice`, json: { value: 'x' }, timeoutMs: 2000 })).toMatchObject({ status: 401 });
    expect(await post('/Menu/GetMenuDetailsByStoreAndStoreGroupId', { ...ids, storeId: 1 })).toMatchObject({ status: 400, body: { errorMessage: { errorCode: 'STORE_MISMATCH' } } });
  });
});
