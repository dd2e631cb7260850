import { budgetScopesOf } from '../common/call-budget';
import { SessionCache } from '../common/session-cache';
import { platformClientConfig } from '../platforms';
import type { IntegrationCredentials } from '../common/platform-adapter';
import type { MenuProduct, PlatformCatalog } from '../common/platform-catalog';
import { PlatformBAdapter } from './yemeksepeti.adapter';
import { parsePlatformBOrder } from './yemeksepeti.orders';
import example from './examples/dispatch-vendor-delivery-item-discounts.json';

/** Delivery Hero's catalog refuses what it cannot do, before anything is sent. */
describe('PLATFORM_B catalog', () => {
  // An unreachable middleware: any call the catalog made would fail loudly, none must be made.
  const adapter = new PlatformBAdapter(platformClientConfig({ PLATFORM_B_BASE_URL: 'http://127.0.0.1:9', PLATFORM_HTTP_TIMEOUT_MS: '500' }), new SessionCache(60_000));
  // Through the shared interface, as the dispatcher calls it.
  const catalog: PlatformCatalog = adapter.catalog;
  const credentials: IntegrationCredentials = { integrationId: 'int-b-cat', providerRestaurantId: 'vendor-cat-1', settings: { chainCode: 'chain-1', username: 'pos-user' }, secrets: { password: 'pos-password-1' } };
  const product: MenuProduct = { platformProductId: 'dh-77', name: 'İskender', price: 185.5, category: 'Kebaplar', status: 'ACTIVE', externalCode: 'iskender-1', options: [], platformData: {} };

  it('has no menu read, and says why in one sentence naming the catalog push', () => {
    expect(catalog.readMenu).toBeUndefined();
    expect(catalog.menuReadUnsupported).toMatch(/^Delivery Hero has no menu read: .*GET \/menuimport\/\{remoteId\}.*PUT \/v2\/chains\/\{chainCode\}\/catalog.*\.$/);
    expect(catalog.menuReadUnsupported!.split('. ')).toHaveLength(1);
  });

  it.each([
    ['a valid price of a product it knows', { platformProductId: 'dh-77', price: 199.9 }, product],
    ['a valid price of a product never imported', { platformProductId: 'dh-78', price: 50 }, null],
    ['a price the other platforms would refuse for its bounds', { platformProductId: 'dh-77', price: -1 }, product],
    ['a price with too many decimals', { platformProductId: 'dh-77', price: 10.005 }, product],
  ])('refuses %s as PRICE_UNSUPPORTED: prices only come with the POS catalog push', (_case, change, known) => {
    expect(catalog.planPrice(change, known)).toEqual({ kind: 'refused', code: 'PRICE_UNSUPPORTED', message: expect.stringContaining('PUT /v2/chains/{chainCode}/catalog') });
  });

  it('answers skipped, without a call, should setPrice be called after all', async () => {
    const outcome = await catalog.setPrice(credentials, { platformProductId: 'dh-77', price: 199.9 }, { kind: 'send', params: {} });
    expect(outcome).toEqual({ kind: 'skipped', reason: expect.stringContaining('no price call') });
  });

  it('books no catalog calls (there are none)', () => {
    for (const call of ['catalog:read', 'catalog:price', 'catalog:check'] as const) expect(budgetScopesOf(adapter.callBudget, call)).toEqual([]);
  });

  it('reads an order product\'s remoteCode, the POS\'s code, as its code; without it the item has Delivery Hero\'s id only', () => {
    // DH's example product carries both: `id` platform-product-id-one, `remoteCode` remote-product-code-one.
    const exampleOrder = example.body;
    const parsed = parsePlatformBOrder('vendor-cat-1', exampleOrder);
    if (!parsed.ok) throw new Error(`the example order did not parse: ${JSON.stringify(parsed.errors)}`);
    expect(parsed.order.details.items?.[0]).toMatchObject({ productCode: 'remote-product-code-one', platformProductId: 'platform-product-id-one' });
    const withoutCode = { ...exampleOrder, products: exampleOrder.products.map(({ remoteCode: _remoteCode, ...rest }) => rest) };
    const fallback = parsePlatformBOrder('vendor-cat-1', withoutCode);
    if (!fallback.ok) throw new Error('the order without remoteCode did not parse');
    expect(fallback.order.details.items?.[0]).toMatchObject({ platformProductId: 'platform-product-id-one' });
    expect(fallback.order.details.items?.[0]?.productCode).toBeUndefined();
  });
});
