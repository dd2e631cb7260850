import { ExamplePlatformCatalog } from './example.catalog';
import { ExamplePlatformSimulator } from './example.simulator';

/** The example platform's menu read against its simulator: the menu in the catalog's shape, and every way a read can fail. */
describe('ExamplePlatformCatalog', () => {
  const simulator = new ExamplePlatformSimulator({ apiKey: 'ex-key-0000000001' });
  const credentials = (apiKey = 'ex-key-0000000001', store = 'store-1') => ({ integrationId: 'i-1', providerRestaurantId: store, settings: {}, secrets: { apiKey } });
  let catalog: ExamplePlatformCatalog;
  beforeAll(async () => {
    await simulator.start();
    catalog = new ExamplePlatformCatalog(simulator.baseUrl, 2_000);
    simulator.menus.set('store-1', [
      { id: 'p-1', name: 'Simit', price: 15, category: 'Fırın', active: true, plu: 'SIMIT-01' },
      { id: 'p-2', name: 'Poğaça', price: 20.5, category: 'Fırın', active: false },
    ]);
  });
  afterAll(() => simulator.stop());
  afterEach(() => simulator.clearFaults());

  it('reads the store\'s menu: ids, names, prices, status, the PLU as the external code', async () => {
    expect(await catalog.readMenu(credentials())).toEqual({
      kind: 'ok',
      answer: { httpStatus: 200, body: expect.any(Object) },
      products: [
        { platformProductId: 'p-1', name: 'Simit', price: 15, category: 'Fırın', status: 'ACTIVE', externalCode: 'SIMIT-01', options: [], platformData: {} },
        { platformProductId: 'p-2', name: 'Poğaça', price: 20.5, category: 'Fırın', status: 'INACTIVE', externalCode: null, options: [], platformData: {} },
      ],
    });
  });

  it('reads again after 503 and 429 (with Retry-After), fails on a refused key or an unknown store', async () => {
    simulator.failNext({ status: 503 });
    expect(await catalog.readMenu(credentials())).toMatchObject({ kind: 'retry', answer: { httpStatus: 503 } });
    simulator.failNext({ status: 429, headers: { 'Retry-After': '7' } });
    expect(await catalog.readMenu(credentials())).toMatchObject({ kind: 'retry', retryAfterMs: 7_000 });
    expect(await catalog.readMenu(credentials('wrong'))).toMatchObject({ kind: 'failed', answer: { httpStatus: 401 } });
    expect(await catalog.readMenu(credentials(undefined, 'store-404'))).toMatchObject({ kind: 'failed', answer: { httpStatus: 404 } });
  });

  it('fails on a menu not in its shape, and reads again when the platform cannot be reached', async () => {
    simulator.failNext({ status: 200, body: { products: [{ id: 1 }] } });
    expect(await catalog.readMenu(credentials())).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/shape/) });
    const closed = new ExamplePlatformCatalog('http://127.0.0.1:9', 1_000);
    expect(await closed.readMenu(credentials())).toMatchObject({ kind: 'retry', answer: { httpStatus: null, error: expect.any(String) } });
  });

  it('takes no price changes', () => {
    expect(catalog.planPrice()).toEqual({ kind: 'refused', code: 'PRICE_UNSUPPORTED', message: expect.any(String) });
  });
});
