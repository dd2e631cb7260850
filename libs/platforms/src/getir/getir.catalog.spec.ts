import type { MenuProduct } from '../common/platform-catalog';
import { budgetScopesOf } from '../common/call-budget';
import { chainMenuOfProducts, PlatformACatalog, parsePlatformAMenu } from './getir.catalog';
import { PLATFORM_A } from './getir.platform';

/** A `GET /restaurants/menu` answer in G Swagger's shape (Model13 > Model12 > Model10 > Model8 > Model6). */
const MENU = {
  productCategories: [
    {
      id: 'cat-kebap',
      name: { tr: 'Kebaplar', en: 'Kebabs' },
      restaurant: 'getir-r-1',
      isApproved: true,
      weight: 0,
      status: 100,
      chainProductCategory: 'chain-cat-1',
      products: [
        {
          id: 'p-adana',
          restaurant: 'getir-r-1',
          productCategory: 'cat-kebap',
          name: { tr: 'Adana Kebap', en: 'Adana Kebab' },
          description: { tr: 'Acılı', en: 'Spicy' },
          price: 320.5,
          struckPrice: 350,
          weight: 0,
          status: 100,
          isApproved: true,
          imageURL: '',
          wideImageURL: '',
          chainProduct: 'chain-adana',
          optionCategories: [
            {
              id: 'oc-portion',
              name: { tr: 'Porsiyon', en: 'Portion' },
              minCount: 1,
              maxCount: 1,
              removeToppings: false,
              weight: 0,
              status: 100,
              chainOptionCategory: 'coc-1',
              options: [
                { id: 'o-1', product: 'p-adana', name: { tr: '1 Porsiyon', en: '1 Portion' }, type: 1, price: 0, weight: 0, status: 100 },
                { id: 'o-15', product: 'p-adana', name: { en: '1.5 Portion' }, type: 1, price: 120, weight: 1, status: 100 },
                { product: 'p-adana', name: { tr: 'no id' }, price: 5 },
              ],
            },
          ],
        },
        { id: 'p-urfa', name: { tr: 'Urfa Kebap' }, price: 310, status: 200 },
      ],
    },
    {
      id: 'cat-tatli',
      name: { en: 'Desserts' },
      products: [
        { id: 'p-kunefe', name: { tr: 'Künefe', en: 'Kunefe' }, price: 150, status: 400 },
        { name: { tr: 'No id' }, price: 1, status: 100 },
        { id: 'p-odd', name: { tr: 'Odd' }, status: 'ACTIVE' },
      ],
    },
    { id: 'cat-empty', name: { tr: 'Boş' } },
  ],
};

const product = (platformData: Record<string, unknown>): MenuProduct => ({
  platformProductId: 'p-adana',
  name: 'Adana Kebap',
  price: 320,
  category: 'Kebaplar',
  status: 'ACTIVE',
  externalCode: null,
  options: [],
  platformData,
});

describe('PLATFORM_A catalog (unit)', () => {
  describe('parsePlatformAMenu', () => {
    it('reads categories, products, prices in lira, Getir status numbers and option groups; Turkish names first', () => {
      const parsed = parsePlatformAMenu(MENU);
      expect(parsed.ok).toBe(true);
      const products = parsed.ok ? parsed.products : [];
      expect(products.map((item) => item.platformProductId)).toEqual(['p-adana', 'p-urfa', 'p-kunefe', 'p-odd']);
      expect(products[0]).toEqual({
        platformProductId: 'p-adana',
        name: 'Adana Kebap',
        price: 320.5,
        category: 'Kebaplar',
        status: 'ACTIVE',
        externalCode: null,
        options: [
          {
            id: 'oc-portion',
            name: 'Porsiyon',
            options: [
              { id: 'o-1', name: '1 Porsiyon', price: 0 },
              { id: 'o-15', name: '1.5 Portion', price: 120 },
            ],
          },
        ],
        platformData: {
          chainProductId: 'chain-adana',
          chainMenuId: null,
          productCategoryId: 'cat-kebap',
          statusCode: 100,
          struckPrice: 350,
          isApproved: true,
        },
      });
      // 200 INACTIVE and 400 DAILY_INACTIVE are both off; a status that is not a number is not ACTIVE.
      expect(products.map((item) => item.status)).toEqual(['ACTIVE', 'INACTIVE', 'INACTIVE', 'INACTIVE']);
      expect(products[1]).toMatchObject({ category: 'Kebaplar', options: [], platformData: { chainProductId: null, productCategoryId: 'cat-kebap' } });
      expect(products[2]).toMatchObject({ name: 'Künefe', category: 'Desserts', platformData: { statusCode: 400, productCategoryId: 'cat-tatli' } });
      expect(products[3]).toMatchObject({ price: null, platformData: { statusCode: null } });
    });

    it('fails a body that is not the documented shape, never throws', () => {
      for (const body of [null, 'OK', [], { products: [] }, { productCategories: {} }]) {
        expect(parsePlatformAMenu(body)).toEqual({ ok: false, reason: 'PLATFORM_A answered a menu without a productCategories array' });
      }
      expect(parsePlatformAMenu({ productCategories: ['x'] })).toEqual({ ok: false, reason: expect.stringMatching(/productCategories\[0\] is not an object/) });
      expect(parsePlatformAMenu({ productCategories: [{ products: {} }] })).toEqual({ ok: false, reason: expect.stringMatching(/products is not an array/) });
      expect(parsePlatformAMenu({ productCategories: [{ products: [7] }] })).toEqual({ ok: false, reason: expect.stringMatching(/products\[0\] is not an object/) });
      expect(parsePlatformAMenu({ productCategories: [] })).toEqual({ ok: true, products: [] });
    });
  });

  describe('chainMenuOfProducts (GET /chain-menus, the Go client reading)', () => {
    it('maps each listed chain product to its chain menu; one menu without a list holds them all; anything else none', () => {
      expect(
        chainMenuOfProducts([
          { id: 'cm-1', name: { tr: 'A' }, products: [{ id: 'chain-adana', price: 320 }, { chainProductOID: 'chain-urfa' }] },
          { id: 'cm-2', products: ['chain-ayran'] },
        ]),
      ).toEqual(
        new Map([
          ['chain-adana', 'cm-1'],
          ['chain-urfa', 'cm-1'],
          ['chain-ayran', 'cm-2'],
        ]),
      );
      expect(chainMenuOfProducts({ chainMenus: [{ id: 'cm-1' }] })).toEqual(new Map([['*', 'cm-1']]));
      expect(chainMenuOfProducts([{ id: 'cm-1' }, { id: 'cm-2' }])).toEqual(new Map());
      expect(chainMenuOfProducts('a string')).toBeUndefined();
      expect(chainMenuOfProducts([{ name: 'no id', products: [{ id: 'x' }] }])).toEqual(new Map());
    });
  });

  describe('planPrice', () => {
    const catalog = new PlatformACatalog(() => Promise.reject(new Error('planPrice never calls the platform')));
    const onChain = product({ chainProductId: 'chain-adana', chainMenuId: 'cm-1' });

    it.each([
      [349.9, { kind: 'send', params: { chainMenuOID: 'cm-1', chainProductOID: 'chain-adana', price: 349.9 } }],
      [0.01, { kind: 'send', params: { chainMenuOID: 'cm-1', chainProductOID: 'chain-adana', price: 0.01 } }],
      [100_000, { kind: 'send', params: { chainMenuOID: 'cm-1', chainProductOID: 'chain-adana', price: 100_000 } }],
      [19.99, { kind: 'send', params: { chainMenuOID: 'cm-1', chainProductOID: 'chain-adana', price: 19.99 } }],
      [0, { kind: 'refused', code: 'PRICE_OUT_OF_RANGE' }],
      [-5, { kind: 'refused', code: 'PRICE_OUT_OF_RANGE' }],
      [100_000.01, { kind: 'refused', code: 'PRICE_OUT_OF_RANGE' }],
      [Number.NaN, { kind: 'refused', code: 'PRICE_OUT_OF_RANGE' }],
      [Number.POSITIVE_INFINITY, { kind: 'refused', code: 'PRICE_OUT_OF_RANGE' }],
      [12.345, { kind: 'refused', code: 'PRICE_PRECISION' }],
    ])('price %p on a chain product -> %j', (price, expected) => {
      expect(catalog.planPrice({ platformProductId: 'p-adana', price }, onChain)).toMatchObject(expected);
    });

    it('needs the imported product: not on the menu, on no chain, or on a chain menu not found are refused with a sentence', () => {
      expect(catalog.planPrice({ platformProductId: 'p-x', price: 10 }, null)).toMatchObject({ kind: 'refused', code: 'PRODUCT_NOT_ON_MENU' });
      const own = catalog.planPrice({ platformProductId: 'p-kunefe', price: 10 }, product({ chainProductId: null, chainMenuId: null }));
      expect(own).toMatchObject({ kind: 'refused', code: 'PRICE_UNSUPPORTED', message: expect.stringMatching(/no price call for a restaurant's own product/) });
      expect(catalog.planPrice({ platformProductId: 'p-adana', price: 10 }, product({}))).toMatchObject({ code: 'PRICE_UNSUPPORTED' });
      expect(catalog.planPrice({ platformProductId: 'p-adana', price: 10 }, product({ chainProductId: 'chain-adana', chainMenuId: null }))).toMatchObject({
        kind: 'refused',
        code: 'PRICE_UNSUPPORTED',
        message: expect.stringMatching(/no chain menu .* holds chain product chain-adana/),
      });
      // The price is checked first: a bad price on an unknown product says what is wrong with the price.
      expect(catalog.planPrice({ platformProductId: 'p-x', price: 0 }, null)).toMatchObject({ code: 'PRICE_OUT_OF_RANGE' });
    });
  });

  it("books a read in Getir's configuration family (2 / 65 s) and the token scope; a price in the token scope only", () => {
    const scopes = (call: 'catalog:read' | 'catalog:price') =>
      Object.fromEntries(budgetScopesOf(PLATFORM_A.callBudget, call).map(({ scope, count }) => [scope.name, count]));
    expect(scopes('catalog:read')).toEqual({ token: 2, configuration: 1 });
    expect(scopes('catalog:price')).toEqual({ token: 1 });
    expect(budgetScopesOf(PLATFORM_A.callBudget, 'catalog:check')).toEqual([]);
  });
});
