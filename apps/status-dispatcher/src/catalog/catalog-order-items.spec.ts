import { orderItemsInCodes, platformProductIdsOf, presentThirdPartyItems, resolvePlatformOrderItems, unmappedProductsOf } from './catalog-order-items';

describe('a platform order\'s items in the restaurant\'s codes', () => {
  const links = new Map([
    ['55001', 'LAHMACUN-01'],
    ['dh-7', 'AYRAN-01'],
  ]);

  it('takes the linked code of the item\'s platform product, and keeps the platform\'s id beside it', () => {
    expect(resolvePlatformOrderItems([{ platformProductId: '55001', productName: 'Lahmacun', quantity: 2, unitPrice: 90, totalAmount: 180 }], links)).toEqual([
      { productCode: 'LAHMACUN-01', platformProductId: '55001', mapped: true, productName: 'Lahmacun', quantity: 2, unitPrice: 90, totalAmount: 180 },
    ]);
  });

  it('prefers the link to the code the platform carried, and takes the carried code when there is no link', () => {
    expect(resolvePlatformOrderItems([{ platformProductId: 'dh-7', productCode: 'OLD-CODE' }, { platformProductId: 'dh-8', productCode: 'PIDE-KAS-01' }], links)).toEqual([
      { productCode: 'AYRAN-01', platformProductId: 'dh-7', mapped: true },
      { productCode: 'PIDE-KAS-01', platformProductId: 'dh-8', mapped: true },
    ]);
  });

  it('keeps an item with neither a link nor a carried code, unmapped, in its place', () => {
    const items = resolvePlatformOrderItems([{ platformProductId: '55001', productName: 'Lahmacun' }, { platformProductId: '55002', productName: 'Ayran', quantity: 1 }, { productName: 'Çay', productCode: '  ' }], links);
    expect(items).toEqual([
      { productCode: 'LAHMACUN-01', platformProductId: '55001', mapped: true, productName: 'Lahmacun' },
      { productCode: null, platformProductId: '55002', mapped: false, productName: 'Ayran', quantity: 1 },
      { productCode: null, platformProductId: null, mapped: false, productName: 'Çay' },
    ]);
  });

  it('shows a product\'s code once it is linked (the same stored items, read with the new links)', () => {
    const stored = [{ platformProductId: '55002', productName: 'Ayran' }];
    expect(resolvePlatformOrderItems(stored, links)[0]).toMatchObject({ productCode: null, mapped: false });
    expect(resolvePlatformOrderItems(stored, new Map([...links, ['55002', 'AYRAN-01']]))[0]).toMatchObject({ productCode: 'AYRAN-01', mapped: true });
  });

  it('reads the links of each platform product once', () => {
    expect(platformProductIdsOf([{ platformProductId: 'a' }, { productName: 'no id' }, { platformProductId: 'b' }, { platformProductId: 'a' }])).toEqual(['a', 'b']);
  });

  it('records each unmapped platform product once per order, and counts every unmapped item', () => {
    const items = resolvePlatformOrderItems(
      [{ platformProductId: '55002', productName: 'Ayran' }, { platformProductId: '55001' }, { platformProductId: '55002', productName: 'Ayran (büyük)' }, { productName: 'Çay' }, { platformProductId: '9' }],
      links,
    );
    expect(unmappedProductsOf(items)).toEqual({
      products: [
        { platformProductId: '55002', name: 'Ayran' },
        { platformProductId: '9', name: null },
      ],
      unmappedItems: 4,
    });
    expect(unmappedProductsOf(resolvePlatformOrderItems([{ platformProductId: '55001' }], links))).toEqual({ products: [], unmappedItems: 0 });
  });
});

describe('a THIRD_PARTY order\'s items', () => {
  it('are shown as the sender gave them, mapped where it named a code', () => {
    expect(presentThirdPartyItems([{ productCode: 'P1', productName: 'Lahmacun', quantity: 2 }, { productName: 'Ayran' }])).toEqual([
      { productCode: 'P1', platformProductId: null, mapped: true, productName: 'Lahmacun', quantity: 2 },
      { productCode: null, platformProductId: null, mapped: false, productName: 'Ayran' },
    ]);
  });

  it('never take a catalog link, even one for a platform id that equals their code', () => {
    expect(orderItemsInCodes('THIRD_PARTY', [{ productCode: '55001' }], new Map([['55001', 'LAHMACUN-01']]))).toEqual([{ productCode: '55001', platformProductId: null, mapped: true }]);
    expect(orderItemsInCodes('PLATFORM_D', [{ platformProductId: '55001' }], new Map([['55001', 'LAHMACUN-01']]))).toEqual([{ productCode: 'LAHMACUN-01', platformProductId: '55001', mapped: true }]);
  });
});
