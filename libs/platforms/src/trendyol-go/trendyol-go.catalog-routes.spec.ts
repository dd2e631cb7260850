import { bookCallBudget, budgetScopesOf } from '../common/call-budget';
import type { IntegrationCredentials } from '../common/platform-adapter';
import type { PricePlan } from '../common/platform-catalog';
import { platformRequest } from '../common/platform-http';
import { platformClientConfig } from '../platforms';
import { PlatformCAdapter } from './trendyol-go.adapter';
import { PlatformCSimulator } from './trendyol-go.simulator';

const credentials: IntegrationCredentials = {
  integrationId: 'int-c-1',
  providerRestaurantId: 'ty-r-1',
  settings: { supplierId: '104523', storeId: '88211' },
  secrets: { apiKey: 'ty-api-key', secretKey: 'ty-secret' },
};
const otherStore: IntegrationCredentials = { ...credentials, integrationId: 'int-c-2', settings: { supplierId: '104523', storeId: '88212' } };
type Send = Extract<PricePlan, { kind: 'send' }>;

/** Polls a condition (never a fixed sleep): resolves once it holds, fails after a generous timeout. */
async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('PLATFORM_C catalog against its simulator', () => {
  let sim: PlatformCSimulator;
  let adapter: PlatformCAdapter;

  beforeAll(async () => {
    sim = new PlatformCSimulator({
      suppliers: [
        { supplierId: '104523', apiKey: 'ty-api-key', secretKey: 'ty-secret', storeIds: ['88211', '88212'] },
        { supplierId: '200', apiKey: 'k2', secretKey: 's2', storeIds: ['9'] },
      ],
      catalog: {
        modifierGroups: [{ id: 71, name: 'İçecek Seçimi', min: 0, max: 1, options: [{ id: 318001, name: 'KOLA', price: 25 }] }],
      },
    });
    await sim.start();
    // A product with an option group, on the first store only.
    sim.catalog.addMenuProduct('88211', { id: 321000, name: 'ADANA MENÜ', category: 'Menüler', price: 420, modifierGroupIds: [71] });
    adapter = new PlatformCAdapter(
      platformClientConfig({
        PLATFORM_C_BASE_URL: sim.baseUrl,
        PLATFORM_C_INTEGRATOR_NAME: 'CourierSuite',
        PLATFORM_C_EXECUTOR_USER: 'ops@restaurant.example',
        PLATFORM_HTTP_TIMEOUT_MS: '2000',
      }),
    );
  });
  afterAll(() => sim.stop());
  beforeEach(() => {
    sim.clearFaults();
    sim.setDown(false);
  });

  const catalog = () => adapter.catalog;
  const price = async (who: IntegrationCredentials, platformProductId: string, value: number) => {
    const plan = catalog().planPrice({ platformProductId, price: value }, null);
    expect(plan.kind).toBe('send');
    return catalog().setPrice(who, { platformProductId, price: value }, plan as Send);
  };

  it('reads the demo menu in the platform shape: upper-cased names, sections as categories, the code where PLATFORM_C carries one, options', async () => {
    const read = await catalog().readMenu(credentials);
    if (read.kind !== 'ok') throw new Error(JSON.stringify(read));
    expect(read.products.map((product) => [product.platformProductId, product.name, product.category, product.price, product.status, product.externalCode])).toEqual([
      ['320001', 'ADANA KEBAP', 'Kebaplar', 320, 'ACTIVE', null],
      ['320002', 'URFA KEBAP', 'Kebaplar', 310, 'ACTIVE', null],
      ['320003', 'LAHMACUN', 'Pide ve Lahmacun', 90, 'ACTIVE', 'LAHMACUN-01'],
      ['320004', 'KAŞARLI PİDE', 'Pide ve Lahmacun', 180, 'ACTIVE', null],
      ['320005', 'AYRAN', 'İçecekler', 35, 'ACTIVE', 'AYRAN-01'],
      ['320006', 'KÜNEFE', 'Tatlılar', 150, 'ACTIVE', null],
      ['321000', 'ADANA MENÜ', 'Menüler', 420, 'ACTIVE', null],
    ]);
    expect(read.products.at(-1)).toMatchObject({
      options: [{ id: '71', name: 'İçecek Seçimi', options: [{ id: '318001', name: 'KOLA', price: 25 }] }],
      platformData: { productId: 321000, sectionId: expect.any(Number) },
    });
    const get = sim.callsTo('GET', '/integrator/product/meal/suppliers/104523/stores/88211/products').at(-1)!;
    expect(get.headers).toMatchObject({ 'user-agent': '104523 - CourierSuite', 'x-agentname': 'CourierSuite', 'x-executor-user': 'ops@restaurant.example' });
    // The other store serves its own menu: the same product ids, without the product added to the first one.
    const other = await catalog().readMenu(otherStore);
    expect(other.kind === 'ok' && other.products.map((product) => product.platformProductId)).toEqual(['320001', '320002', '320003', '320004', '320005', '320006']);
  });

  it('changes a price asynchronously: pending with the batch id, pending while the queue has not run, done after, seen in the next read, in this store only', async () => {
    const sent = await price(credentials, '320003', 95.5);
    if (sent.kind !== 'pending') throw new Error(JSON.stringify(sent));
    expect(sent).toMatchObject({ followUp: { batchRequestId: expect.stringMatching(/^[0-9a-f-]+-\d{10}$/), productId: '320003' }, checkAfterMs: 5_000 });
    expect(sim.callsTo('POST', '/integrator/product/meal/suppliers/104523/products/price').at(-1)!.body).toEqual({
      items: [{ restaurantId: 88211, productId: 320003, sellingPrice: 95.5 }],
    });
    expect(await catalog().checkPrice!(credentials, sent.followUp)).toMatchObject({ kind: 'pending', answer: { body: { status: 'IN_PROGRESS' } } });
    expect(sim.catalog.menuProduct('88211', 320003)).toMatchObject({ sellingPrice: 90 });

    sim.catalog.processBatches();
    expect(await catalog().checkPrice!(credentials, sent.followUp)).toMatchObject({ kind: 'done', answer: { body: { status: 'COMPLETED', item: { status: 'SUCCESS' } } } });
    const after = await catalog().readMenu(credentials);
    expect(after.kind === 'ok' && after.products.find((product) => product.platformProductId === '320003')).toMatchObject({ price: 95.5 });
    const elsewhere = await catalog().readMenu(otherStore);
    expect(elsewhere.kind === 'ok' && elsewhere.products.find((product) => product.platformProductId === '320003')).toMatchObject({ price: 90 });

    // The same body again: refused as a repeat; the menu shows the price already is that.
    expect(await price(credentials, '320003', 95.5)).toMatchObject({ kind: 'done', alreadyDone: true, answer: { httpStatus: 400 } });
    // 95.5, then 97, then 95.5 within 15 minutes: the third body is the first one again, refused while the price is 97.
    const other = await price(credentials, '320003', 97);
    sim.catalog.processBatches();
    expect(other.kind === 'pending' && (await catalog().checkPrice!(credentials, other.followUp))).toMatchObject({ kind: 'done' });
    expect(await price(credentials, '320003', 95.5)).toMatchObject({ kind: 'retry', retryAfterMs: 900_000, answer: { httpStatus: 400 } });
    expect(sim.catalog.menuProduct('88211', 320003)).toMatchObject({ sellingPrice: 97 });
    // The current price in a body not sent before is taken.
    const same = await price(otherStore, '320003', 90);
    sim.catalog.processBatches();
    expect(same.kind === 'pending' && (await catalog().checkPrice!(otherStore, same.followUp))).toMatchObject({ kind: 'done', answer: { body: { item: { status: 'SUCCESS' } } } });
  });

  it("fails an item with the platform's reason: a product not on the menu, a price the platform refuses", async () => {
    const unknown = await price(credentials, '999999', 50);
    sim.catalog.refusePriceOf(320006, 'Fiyat değişikliği onay bekliyor');
    const refused = await price(credentials, '320006', 160);
    sim.catalog.processBatches();
    expect(unknown.kind === 'pending' && (await catalog().checkPrice!(credentials, unknown.followUp))).toMatchObject({
      kind: 'failed',
      reason: 'PLATFORM_C refused the price: Ürün bulunamadı: 999999',
    });
    expect(refused.kind === 'pending' && (await catalog().checkPrice!(credentials, refused.followUp))).toMatchObject({
      kind: 'failed',
      reason: 'PLATFORM_C refused the price: Fiyat değişikliği onay bekliyor',
    });
    expect(sim.catalog.menuProduct('88211', 320006)).toMatchObject({ sellingPrice: 150 });
    // An unknown id reads as processing (as Trendyol's marketplace batch call does): failed once its 4 hours are over.
    expect(await catalog().checkPrice!(credentials, { batchRequestId: 'no-such-batch', productId: '320006', requestedAt: Date.now() })).toMatchObject({
      kind: 'pending',
      answer: { httpStatus: 200, body: { status: 'PROCESSING', item: null } },
    });
    expect(await catalog().checkPrice!(credentials, { batchRequestId: 'no-such-batch', productId: '320006', requestedAt: Date.now() - 4 * 60 * 60_000 - 1 })).toMatchObject({
      kind: 'failed',
      reason: expect.stringMatching(/within the 4 hours/),
    });
  });

  it('the status calls and the restaurant’s own changes are what the next read shows (drift)', async () => {
    const off = await adapter.availability.setProduct(credentials, { platformProductId: '320001', available: false }, { kind: 'send', params: { status: 'PASSIVE' } });
    expect(off).toMatchObject({ kind: 'done' });
    sim.catalog.changeMenuProduct('88211', 320002, { name: 'URFA KEBAP (ACILI)', price: 330 });
    // The restaurant takes a whole section off sale: its products are off sale, their own status unchanged.
    sim.catalog.changeSectionStatus('88211', 'İçecekler', 'PASSIVE');
    sim.catalog.removeMenuProduct('88211', 320004);
    const added = sim.catalog.addMenuProduct('88211', { name: 'TAVUK ŞİŞ', category: 'Kebaplar', price: 280, stockCode: 'TAVUK-01' });
    const read = await catalog().readMenu(credentials);
    if (read.kind !== 'ok') throw new Error(JSON.stringify(read));
    const byId = new Map(read.products.map((product) => [product.platformProductId, product]));
    expect(byId.get('320001')).toMatchObject({ status: 'INACTIVE' });
    expect(byId.get('320005')).toMatchObject({ category: 'İçecekler', status: 'INACTIVE' });
    expect(sim.catalog.menuProduct('88211', 320005)).toMatchObject({ status: 'ACTIVE' });
    sim.catalog.changeSectionStatus('88211', 'İçecekler', 'ACTIVE');
    expect(byId.get('320002')).toMatchObject({ name: 'URFA KEBAP (ACILI)', price: 330 });
    expect(byId.has('320004')).toBe(false);
    expect(byId.get(String(added.id))).toMatchObject({ name: 'TAVUK ŞİŞ', externalCode: 'TAVUK-01', status: 'ACTIVE' });
    // The same change over HTTP, as the one-machine suite makes it.
    const admin = (json: unknown) => platformRequest({ method: 'PATCH', url: `${sim.baseUrl}/_simulator/menus/88211/products/320006`, json, timeoutMs: 2000 });
    expect(await admin({ price: 155, status: 'PASSIVE' })).toMatchObject({ status: 200, body: { id: 320006, sellingPrice: 155, status: 'PASSIVE' } });
    expect(await admin({ price: -1 })).toMatchObject({ status: 422 });
    const again = await catalog().readMenu(credentials);
    expect(again.kind === 'ok' && again.products.find((product) => product.platformProductId === '320006')).toMatchObject({ price: 155, status: 'INACTIVE' });
    // A removed product has no status call either.
    expect(
      await adapter.availability.setProduct(credentials, { platformProductId: '320004', available: false }, { kind: 'send', params: { status: 'PASSIVE' } }),
    ).toMatchObject({ kind: 'failed', answer: { httpStatus: 404 } });
  });

  it('retries 429, 5xx and a network error; fails a refusal and a body of another shape', async () => {
    sim.failNext({ status: 429, body: { status: 429, message: 'too.many.requests' }, match: (request) => request.path.endsWith('/products') });
    expect(await catalog().readMenu(credentials)).toMatchObject({ kind: 'retry', answer: { httpStatus: 429 }, retryAfterMs: 10_000 });
    sim.failNext({ status: 503, match: (request) => request.path.endsWith('/products/price') });
    expect(await price(credentials, '320005', 40)).toMatchObject({ kind: 'retry', answer: { httpStatus: 503 } });
    sim.failNext({ status: 500, match: (request) => request.path.includes('/batch-requests/') });
    expect(await catalog().checkPrice!(credentials, { batchRequestId: 'b', productId: '1' })).toMatchObject({ kind: 'retry', answer: { httpStatus: 500 } });
    sim.failNext({ status: 200, body: { content: [] }, match: (request) => request.path.endsWith('/products') });
    expect(await catalog().readMenu(credentials)).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/no `products` array/) });
    expect(await catalog().readMenu({ ...credentials, secrets: { apiKey: 'ty-api-key', secretKey: 'wrong' } })).toMatchObject({
      kind: 'failed',
      answer: { httpStatus: 401 },
    });
    // Another supplier's store: the authentication refusal.
    expect(await catalog().readMenu({ ...credentials, settings: { supplierId: '104523', storeId: '9' } })).toMatchObject({ kind: 'failed', answer: { httpStatus: 401 } });
    sim.setDown(true);
    expect(await catalog().readMenu(credentials)).toMatchObject({ kind: 'retry', answer: { httpStatus: null } });
    expect(await price(credentials, '320005', 40)).toMatchObject({ kind: 'retry', answer: { httpStatus: null } });
    sim.setDown(false);
  });

  it('refuses what the platform documents refusing, by plain HTTP: no items, more than 1,000, another seller’s restaurant, the same body twice; another supplier’s batch is unknown', async () => {
    const headers = {
      Authorization: `Basic ${Buffer.from('ty-api-key:ty-secret').toString('base64')}`,
      'User-Agent': '104523 - CourierSuite',
    };
    const post = (json: unknown) => platformRequest({ method: 'POST', url: `${sim.baseUrl}/integrator/product/meal/suppliers/104523/products/price`, headers, json, timeoutMs: 2000 });
    expect(await post({ items: [] })).toMatchObject({ status: 400, body: { errors: [{ message: expect.stringMatching(/minimum 1, maximum 1000/) }] } });
    expect(await post({ items: Array.from({ length: 1_001 }, () => ({ productId: 320001, sellingPrice: 1 })) })).toMatchObject({ status: 400 });
    expect(await post({ items: [{ restaurantId: 9, productId: 320001, sellingPrice: 1 }] })).toMatchObject({ status: 401 });
    // Without restaurantId the price changes in every store of the supplier (when the queue runs).
    const all = await post({ items: [{ productId: 320005, sellingPrice: 37.5 }] });
    expect(await post({ items: [{ productId: 320005, sellingPrice: 37.5 }] })).toMatchObject({
      status: 400,
      body: { errors: [{ message: '15 dakika boyunca aynı isteği tekrarlı olarak atamazsınız!' }] },
    });
    const theirs = sim.catalog.batches.get((all.body as { batchRequestId: string }).batchRequestId)!;
    sim.catalog.processBatches();
    expect([sim.catalog.menuProduct('88211', 320005)?.sellingPrice, sim.catalog.menuProduct('88212', 320005)?.sellingPrice]).toEqual([37.5, 37.5]);
    // Two decimals in binary floating point (37.1 * 100 is not 3710) are a valid price; three are not.
    const decimals = await post({ items: [{ restaurantId: 88212, productId: 320005, sellingPrice: 37.1 }, { restaurantId: 88212, productId: 320002, sellingPrice: 1.005 }] });
    const checked = sim.catalog.batches.get((decimals.body as { batchRequestId: string }).batchRequestId)!;
    sim.catalog.processBatches();
    expect(checked.items.map((item) => item.status)).toEqual(['SUCCESS', 'FAILED']);
    const foreign = await platformRequest({
      method: 'GET',
      url: `${sim.baseUrl}/integrator/product/meal/suppliers/200/batch-requests/${theirs.batchRequestId}`,
      headers: { Authorization: `Basic ${Buffer.from('k2:s2').toString('base64')}`, 'User-Agent': '200 - CourierSuite' },
      timeoutMs: 2000,
    });
    expect(foreign).toMatchObject({ status: 200, body: { batchRequestId: theirs.batchRequestId, status: 'PROCESSING', items: [] } });
  });

  it('takes a section off sale in one store by its id (the section status call): its products read off sale there', async () => {
    const headers = {
      Authorization: `Basic ${Buffer.from('ty-api-key:ty-secret').toString('base64')}`,
      'User-Agent': '104523 - CourierSuite',
    };
    const sections = sim.catalog.menuView('88212').sections as Array<{ id: number; name: string }>;
    const sweets = sections.find((section) => section.name === 'Tatlılar')!;
    const put = (storeId: string, sectionId: number | string, json: unknown) =>
      platformRequest({ method: 'PUT', url: `${sim.baseUrl}/integrator/product/meal/suppliers/104523/stores/${storeId}/sections/${sectionId}/status`, headers, json, timeoutMs: 2000 });
    expect(await put('88212', sweets.id, { status: 'CLOSED' })).toMatchObject({ status: 400 });
    expect(await put('88212', 1, { status: 'PASSIVE' })).toMatchObject({ status: 404 });
    expect(await put('9', sweets.id, { status: 'PASSIVE' })).toMatchObject({ status: 401 });
    expect(await put('88212', sweets.id, { status: 'PASSIVE' })).toMatchObject({ status: 200 });
    const read = await catalog().readMenu(otherStore);
    expect(read.kind === 'ok' && read.products.find((product) => product.platformProductId === '320006')).toMatchObject({ category: 'Tatlılar', status: 'INACTIVE' });
    // The same section of the other store stays on sale.
    expect((sim.catalog.menuView('88211').sections as Array<{ id: number; status: string }>).find((section) => section.id === sweets.id)).toMatchObject({ status: 'ACTIVE' });
    expect(await put('88212', sweets.id, { status: 'ACTIVE' })).toMatchObject({ status: 200 });
    const back = await catalog().readMenu(otherStore);
    expect(back.kind === 'ok' && back.products.find((product) => product.platformProductId === '320006')).toMatchObject({ status: 'ACTIVE' });
  });

  it('processes a batch by itself after the configured delay (the one-machine mode)', async () => {
    const auto = new PlatformCSimulator({
      suppliers: [{ supplierId: '104523', apiKey: 'ty-api-key', secretKey: 'ty-secret', storeIds: ['88211'] }],
      catalog: { batchProcessingMs: 50 },
    });
    const url = await auto.start();
    try {
      const own = new PlatformCAdapter(platformClientConfig({ PLATFORM_C_BASE_URL: url, PLATFORM_C_INTEGRATOR_NAME: 'CourierSuite', PLATFORM_HTTP_TIMEOUT_MS: '2000' }));
      const sent = await own.catalog.setPrice(credentials, { platformProductId: '320001', price: 333 }, { kind: 'send', params: { productId: 320001, sellingPrice: 333 } });
      if (sent.kind !== 'pending') throw new Error(JSON.stringify(sent));
      await until(() => [...auto.catalog.batches.values()].every((batch) => batch.status === 'COMPLETED'));
      expect(await own.catalog.checkPrice(credentials, sent.followUp)).toMatchObject({ kind: 'done' });
      expect((await platformRequest({ method: 'GET', url: `${url}/_simulator/menus/88211`, timeoutMs: 2000 })).body).toMatchObject({
        products: expect.arrayContaining([expect.objectContaining({ id: 320001, sellingPrice: 333 })]),
      });
    } finally {
      await auto.stop();
    }
  });

  it("rate-limits the catalog endpoints per endpoint and books each call in its endpoint's scope", async () => {
    const limited = new PlatformCSimulator({
      suppliers: [{ supplierId: '104523', apiKey: 'ty-api-key', secretKey: 'ty-secret', storeIds: ['88211'] }],
      rateLimit: { limit: 1, windowMs: 60_000 },
    });
    const url = await limited.start();
    try {
      const own = new PlatformCAdapter(platformClientConfig({ PLATFORM_C_BASE_URL: url, PLATFORM_C_INTEGRATOR_NAME: 'CourierSuite', PLATFORM_HTTP_TIMEOUT_MS: '2000' }));
      expect(await own.catalog.readMenu(credentials)).toMatchObject({ kind: 'ok' });
      expect(await own.catalog.readMenu(credentials)).toMatchObject({ kind: 'retry', answer: { httpStatus: 429, body: { status: 429, message: 'too.many.requests' } } });
      expect(await own.catalog.setPrice(credentials, { platformProductId: '320001', price: 1 }, { kind: 'send', params: { productId: 320001, sellingPrice: 1 } })).toMatchObject({ kind: 'pending' });
    } finally {
      await limited.stop();
    }
    for (const [call, name] of [
      ['catalog:read', 'menu'],
      ['catalog:price', 'price'],
      ['catalog:check', 'batch-requests'],
    ] as const)
      expect(budgetScopesOf(adapter.callBudget, call)).toEqual([{ scope: expect.objectContaining({ name, limit: 40, windowMs: 11_000 }), count: 1 }]);
    const log = { limit: 40, windowMs: 11_000, calls: Array.from({ length: 40 }, () => 1_000), count: 1 };
    expect(bookCallBudget([log], 1_000).at).toBe(12_000);
  });
});
