import { budgetScopesOf } from '../common/call-budget';
import type { MenuProduct, PlatformCatalog } from '../common/platform-catalog';
import { platformClientConfig } from '../platforms';
import { PlatformDAdapter } from './migros-yemek.adapter';
import { parsePlatformDMenu } from './migros-yemek.catalog';
import menuDetails from './examples/menu-details.json';

const adapter = new PlatformDAdapter(platformClientConfig({ PLATFORM_D_BASE_URL: 'http://127.0.0.1:9', PLATFORM_HTTP_TIMEOUT_MS: '500' }));
const products = (data: unknown): MenuProduct[] => {
  const parsed = parsePlatformDMenu(data);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.products;
};

describe('PLATFORM_D menu parsing (GetMenuDetailsByStoreAndStoreGroupId)', () => {
  it('reads the documented shape: products by productId, prices in lira, the header as category, no restaurant code', () => {
    expect(products(menuDetails.data)).toEqual([
      {
        platformProductId: '55001',
        name: 'Lahmacun',
        price: 90,
        category: 'Pide ve Lahmacun',
        status: 'ACTIVE',
        externalCode: null,
        options: [],
        // Listed under two headers: one product, both menu items for its price call.
        platformData: { menuId: 3101, menuItemIds: [880101, 880103], headerIds: [7101], discountedPrice: 90, headerStatus: 'ACTIVE' },
      },
      {
        platformProductId: '55005',
        name: 'Kaşarlı Pide',
        price: 180.5,
        category: 'Pide ve Lahmacun',
        status: 'INACTIVE',
        externalCode: null,
        options: [],
        platformData: { menuId: 3101, menuItemIds: [880102], headerIds: [7101], discountedPrice: 160, headerStatus: 'ACTIVE' },
      },
      expect.objectContaining({ platformProductId: '55002', name: 'Ayran', price: 35, category: 'İçecekler', status: 'ACTIVE' }),
    ]);
  });

  it('tolerates missing optional fields, string numbers and ids, a lower-case status, a header without items', () => {
    const data = {
      id: '3200',
      menuHeaderInfos: [
        { id: 1, foodMenuItemDetailsDTOs: [{ id: '42', productId: '77', defaultPrimaryPrice: '12,50', status: 'active' }, { productId: 78 }] },
        { id: 2, name: 'Boş' },
      ],
    };
    expect(products(data)).toEqual([
      { platformProductId: '77', name: '', price: 12.5, category: null, status: 'ACTIVE', externalCode: null, options: [], platformData: { menuId: 3200, menuItemIds: [42], headerIds: [1], discountedPrice: null, headerStatus: null } },
      { platformProductId: '78', name: '', price: null, category: null, status: 'ACTIVE', externalCode: null, options: [], platformData: { menuId: 3200, menuItemIds: [], headerIds: [1], discountedPrice: null, headerStatus: null } },
    ]);
    // The menu's id missing: the item's menuId, else the header's.
    expect(products({ menuHeaderInfos: [{ menuId: 9, foodMenuItemDetailsDTOs: [{ id: 5, productId: 6 }, { id: 7, productId: 8, menuId: 10 }] }] }).map((product) => product.platformData.menuId)).toEqual([9, 10]);
    expect(products({ id: 1, menuHeaderInfos: [] })).toEqual([]);
  });

  it.each([
    ['no data', null, 'no menu in data'],
    ['a list', [], 'no menu in data'],
    ['no menuHeaderInfos', { id: 1 }, 'a menu without menuHeaderInfos'],
    ['a header that is not an object', { menuHeaderInfos: ['x'] }, 'menuHeaderInfos[0] that is not an object'],
    ['items that are not a list', { menuHeaderInfos: [{ foodMenuItemDetailsDTOs: {} }] }, 'menuHeaderInfos[0].foodMenuItemDetailsDTOs that is not a list'],
    ['an item without productId', { menuHeaderInfos: [{ foodMenuItemDetailsDTOs: [{ id: 1, productName: 'x' }] }] }, 'menuHeaderInfos[0].foodMenuItemDetailsDTOs[0] without a productId'],
    ['a productId that is a name', { menuHeaderInfos: [{ foodMenuItemDetailsDTOs: [{ id: 1, productId: 'lahmacun' }] }] }, 'without a productId'],
  ])('answers an error for %s', (_case, data, error) => {
    expect(parsePlatformDMenu(data)).toEqual({ error: expect.stringContaining(error) });
  });
});

describe('PLATFORM_D planPrice', () => {
  const [lahmacun] = products(menuDetails.data);

  it.each([
    ['a whole price', 95, { kind: 'send', params: { menuId: 3101, menuItemIds: '880101,880103', productId: 55001, price: 95 } }],
    ['kuruş', 92.75, { kind: 'send', params: { menuId: 3101, menuItemIds: '880101,880103', productId: 55001, price: 92.75 } }],
    ['a float that is two decimals, sent kuruş-exact', 0.1 + 0.2, { kind: 'send', params: expect.objectContaining({ price: 0.3 }) }],
    ['zero', 0, { kind: 'refused', code: 'PRICE_OUT_OF_RANGE', message: expect.any(String) }],
    ['a negative price', -5, { kind: 'refused', code: 'PRICE_OUT_OF_RANGE', message: expect.any(String) }],
    ['not a number', Number.NaN, { kind: 'refused', code: 'PRICE_OUT_OF_RANGE', message: expect.any(String) }],
    ['infinity', Number.POSITIVE_INFINITY, { kind: 'refused', code: 'PRICE_OUT_OF_RANGE', message: expect.any(String) }],
    ['three decimals', 92.755, { kind: 'refused', code: 'PRICE_PRECISION', message: expect.stringContaining('2 decimals') }],
  ])('%s', (_case, price, plan) => {
    expect(adapter.catalog.planPrice({ platformProductId: '55001', price }, lahmacun)).toEqual(plan);
  });

  it('refuses a product not on the imported menu, or imported without the menu ids the call needs', () => {
    expect(adapter.catalog.planPrice({ platformProductId: '55001', price: 90 }, null)).toMatchObject({ kind: 'refused', code: 'PRODUCT_NOT_ON_MENU' });
    expect(adapter.catalog.planPrice({ platformProductId: '55001', price: 90 }, { ...lahmacun, platformData: {} })).toMatchObject({ kind: 'refused', code: 'PRODUCT_NOT_ON_MENU' });
    expect(adapter.catalog.planPrice({ platformProductId: '55001', price: 90 }, { ...lahmacun, platformData: { menuId: 3101, menuItemIds: [] } })).toMatchObject({ kind: 'refused', code: 'PRODUCT_NOT_ON_MENU' });
    // The price is checked before the menu: a bad price is answered as such even for an unknown product.
    expect(adapter.catalog.planPrice({ platformProductId: '55001', price: 0 }, null)).toMatchObject({ kind: 'refused', code: 'PRICE_OUT_OF_RANGE' });
  });

  it('has a menu read and no asynchronous check, and books two calls for each (GetStoreDetail first when no storeGroupId is stored)', () => {
    const catalog: PlatformCatalog = adapter.catalog;
    expect(catalog.readMenu).toBeInstanceOf(Function);
    expect(catalog.menuReadUnsupported).toBeUndefined();
    expect(catalog.checkPrice).toBeUndefined();
    expect(budgetScopesOf(adapter.callBudget, 'catalog:read')).toMatchObject([{ scope: { name: 'credentials' }, count: 2 }]);
    expect(budgetScopesOf(adapter.callBudget, 'catalog:price')).toMatchObject([{ scope: { name: 'credentials' }, count: 2 }]);
  });
});
