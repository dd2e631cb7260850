import { DEMO_MENU, demoNameOn } from '../common/demo-menu';
import { bodyOf, matchPath, SimulatorRequest, SimulatorResponse } from '../common/simulator-server';
import { GETIR_MENU_PRODUCT_IDS, GETIR_PRODUCT_STATUS, PlatformAAvailabilityRoutes } from './getir.availability-routes';

/*
 * Getir Yemek's menu and chain menu prices, built from platforms.md ("Catalog") and its sources, never
 * from our adapter: G openapi/_original/getir-food-openapi.json (`GET /restaurants/menu` Model13 >
 * Model12 > Model10 > Model8 > Model6; `GET /chain-menus`, `GET /chain-menus/{chainMenuOID}`; `POST
 * /chain-menus/{chainMenuOID}/update-prices` Model26: `chainProducts[{ chainProductOID, price }]`,
 * `chainOptions[{ chainOptionOID, price }]`, price `minimum: 0`, precision 2), G rate-limits (the menu
 * read is a configuration call: 2 / 60 s per token; `/chain-menus` is not listed: the default budget),
 * G data-model (a chain menu is brand-level, shared by the chain's restaurants) and the Go Getir client
 * (`GET /chain-menus` read as `[{ id, name, products }]`, `/chain-menus/chain-option-categories` as
 * `[{ id, name, options }]`). The Go client's price items `{ id, price }` lack Model24's required
 * `chainProductOID`: refused, as G's validation would.
 * G has no per-product price call: a restaurant's own product (no chainProduct) keeps its price.
 * Points G leaves open are marked "assumed".
 */

type Localized = { tr: string; en: string };

/** An option of a product's option category (G Swagger Model6, the fields the simulator keeps). */
export interface GetirMenuOption {
  id: string;
  name: Localized;
  price: number;
  chainOption?: string;
}

/** An option category (Model8). */
export interface GetirMenuOptionCategory {
  id: string;
  /** The brand's chain option category (`chainOptionCategory`); absent on a restaurant's own. */
  chainOptionCategory?: string;
  name: Localized;
  minCount: number;
  maxCount: number;
  options: GetirMenuOption[];
}

/** A product of a restaurant's menu as the simulator holds it (Model10; its status lives in the availability routes). */
export interface GetirMenuProduct {
  id: string;
  categoryId: string;
  name: Localized;
  description?: Localized;
  /** Lira, kuruş as decimals. */
  price: number;
  struckPrice?: number;
  /** The chain product id (`chainProduct`); absent on a restaurant's own product. */
  chainProduct?: string;
  optionCategories?: GetirMenuOptionCategory[];
}

export interface GetirMenuCategory {
  id: string;
  name: Localized;
}

/** One restaurant's menu. */
export interface GetirMenuSeed {
  categories: GetirMenuCategory[];
  products: Array<GetirMenuProduct & { status?: number }>;
}

/** A brand-level chain menu (G data-model ChainMenu): the restaurants it serves and the chain products it prices. */
export interface GetirChainMenu {
  id: string;
  name: Localized;
  restaurantIds: string[];
  chainProducts: string[];
}

export interface PlatformACatalogOptions {
  /** Each restaurant's menu (default: DEMO_MENU in Getir's shapes, `platformADemoMenu`). */
  menus?: Record<string, GetirMenuSeed>;
  /** The chain menus (default: one, the demo chain's, for every restaurant, holding every demo chain product). */
  chainMenus?: GetirChainMenu[];
  /** `GET /chain-menus` lists each chain menu's products (the Go client's reading; default true). */
  listChainMenuProducts?: boolean;
}

/** The demo chain menu's id and the chain product ids of DEMO_MENU (Getir's ObjectId style). */
export const GETIR_DEMO_CHAIN_MENU_ID = '6a0c1d2e3f4a5b6c7d8e9f00';
const DEMO_PRODUCT_IDS = [...GETIR_MENU_PRODUCT_IDS, '5f9a1b2c3d4e5f6a7b8c9d23', '5f9a1b2c3d4e5f6a7b8c9d24', '5f9a1b2c3d4e5f6a7b8c9d25'];
/** Which demo product gets which id: the simulator's order product (…d11, Lahmacun) keeps its id. */
const DEMO_ID_ORDER = ['LAHMACUN-01', 'ADANA-01', 'URFA-01', 'PIDE-KAS-01', 'AYRAN-01', 'KUNEFE-01'];
/** The demo restaurant's own product, on no chain menu: its price has no Getir call. */
export const GETIR_DEMO_OWN_PRODUCT_CODE = 'KUNEFE-01';

/**
 * DEMO_MENU as a Getir restaurant menu: a chain branch whose products are on the demo chain menu,
 * but one (Künefe) of its own. Getir's menu carries no restaurant code field, so `codeOn` has no effect.
 */
export function platformADemoMenu(): GetirMenuSeed {
  const categories = [...new Set(DEMO_MENU.map((product) => product.category))].map((name, index) => ({
    id: `5f9a1b2c3d4e5f6a7b8c9c${(index + 1).toString().padStart(2, '0')}`,
    name: { tr: name, en: name },
  }));
  const products = DEMO_MENU.map((product, position) => {
    const known = DEMO_ID_ORDER.indexOf(product.productCode);
    const index = known >= 0 ? known : DEMO_ID_ORDER.length + position;
    const id = DEMO_PRODUCT_IDS[index] ?? `5f9a1b2c3d4e5f6a7b8c9e${index.toString().padStart(2, '0')}`;
    const name = demoNameOn(product, 'as_given');
    return {
      id,
      categoryId: categories.find((category) => category.name.tr === product.category)!.id,
      name: { tr: name, en: name },
      description: { tr: '', en: '' },
      price: product.price,
      ...(product.productCode === GETIR_DEMO_OWN_PRODUCT_CODE ? {} : { chainProduct: `6a0c1d2e3f4a5b6c7d8e9f${(index + 1).toString().padStart(2, '0')}` }),
      optionCategories:
        product.productCode === 'ADANA-01'
          ? [
              {
                id: '5f9a1b2c3d4e5f6a7b8c9f01',
                chainOptionCategory: '6a0c1d2e3f4a5b6c7d8e9a01',
                name: { tr: 'Porsiyon', en: 'Portion' },
                minCount: 1,
                maxCount: 1,
                options: [
                  { id: '5f9a1b2c3d4e5f6a7b8c9f02', name: { tr: '1 Porsiyon', en: '1 Portion' }, price: 0, chainOption: '6a0c1d2e3f4a5b6c7d8e9b02' },
                  { id: '5f9a1b2c3d4e5f6a7b8c9f03', name: { tr: '1,5 Porsiyon', en: '1.5 Portion' }, price: 120, chainOption: '6a0c1d2e3f4a5b6c7d8e9b03' },
                ],
              },
            ]
          : [],
    };
  });
  return { categories, products };
}

function getirError(status: number, code: number, error: string, message: string, source?: string): SimulatorResponse {
  return { status, body: { code, error, message, ...(source ? { source, details: [{ message, path: [source], type: 'any.invalid' }] } : {}) } };
}

/**
 * Getir's menu endpoints and chain menu prices, per restaurant. PlatformASimulator routes a request
 * here after its login and default rate-limit checks (`route`), and its admin requests (`adminRoute`).
 * Product status is the availability routes' (PUT /products/{id}/status changes the served menu).
 */
export class PlatformACatalogRoutes {
  private readonly menus = new Map<string, { categories: GetirMenuCategory[]; products: Map<string, GetirMenuProduct> }>();
  private readonly chainMenus: GetirChainMenu[];

  constructor(
    private readonly options: PlatformACatalogOptions,
    restaurantIds: readonly string[],
    private readonly availability: PlatformAAvailabilityRoutes,
  ) {
    for (const restaurantId of restaurantIds) {
      const seed = options.menus?.[restaurantId] ?? platformADemoMenu();
      this.menus.set(restaurantId, { categories: seed.categories.map((category) => ({ ...category })), products: new Map() });
      for (const product of seed.products) this.addMenuProduct(restaurantId, product);
    }
    this.chainMenus = (
      options.chainMenus ?? [
        {
          id: GETIR_DEMO_CHAIN_MENU_ID,
          name: { tr: 'Demo Zincir Menü', en: 'Demo Chain Menu' },
          restaurantIds: [...restaurantIds],
          chainProducts: [...new Set(restaurantIds.flatMap((id) => this.chainProductsOf(id)))],
        },
      ]
    ).map((menu) => ({ ...menu, restaurantIds: [...menu.restaurantIds], chainProducts: [...menu.chainProducts] }));
  }

  /** The answer to a catalog call of a logged-in restaurant, or undefined when the path is not one. */
  route(request: SimulatorRequest, token: string, restaurantId: string): SimulatorResponse | undefined {
    if (request.method === 'GET' && request.path === '/restaurants/menu') {
      // G rate-limits: the menu read is one of the restaurant/menu configuration calls.
      const blocked = this.availability.configurationCall(token);
      if (blocked) return blocked;
      return { status: 200, body: this.menu(restaurantId) };
    }
    if (request.method === 'GET' && request.path === '/chain-menus')
      return { status: 200, body: this.chainMenus.filter((menu) => menu.restaurantIds.includes(restaurantId)).map((menu) => this.chainMenuView(menu)) };
    const prices = matchPath('/chain-menus/:chainMenuOID/update-prices', request.path);
    if (request.method === 'POST' && prices) return this.updatePrices(request, restaurantId, prices.chainMenuOID);
    // G Swagger lists this read beside `/chain-menus/{chainMenuOID}`; the literal path wins.
    if (request.method === 'GET' && request.path === '/chain-menus/chain-option-categories') return { status: 200, body: this.chainOptionCategories(restaurantId) };
    const read = matchPath('/chain-menus/:chainMenuOID', request.path);
    if (request.method === 'GET' && read) {
      const menu = this.chainMenuOf(restaurantId, read.chainMenuOID);
      return menu ? { status: 200, body: this.chainMenuView(menu, true) } : chainMenuNotFound();
    }
    return undefined;
  }

  /** `GET /restaurants/menu` as Getir answers it (Model13), with each product's current status. */
  menu(restaurantId: string): Record<string, unknown> {
    const menu = this.menus.get(restaurantId);
    if (!menu) return { productCategories: [] };
    return {
      productCategories: menu.categories.map((category, weight) => ({
        id: category.id,
        name: category.name,
        restaurant: restaurantId,
        products: [...menu.products.values()].filter((product) => product.categoryId === category.id).map((product) => this.productView(restaurantId, product)),
        isApproved: true,
        weight,
        status: GETIR_PRODUCT_STATUS.ACTIVE,
        chainProductCategory: '',
      })),
    };
  }

  /** A product as the menu serves it (Model10), or undefined when it is not on the restaurant's menu. */
  menuProduct(restaurantId: string, productId: string): Record<string, unknown> | undefined {
    const product = this.menus.get(restaurantId)?.products.get(productId);
    return product ? this.productView(restaurantId, product) : undefined;
  }

  /** Getir's side changes a product by itself (the restaurant panel, Getir's staff): drift for the next import. */
  changeMenuProduct(restaurantId: string, productId: string, change: { price?: number; name?: string; status?: number }): Record<string, unknown> {
    const product = this.menus.get(restaurantId)?.products.get(productId);
    if (!product) throw new Error(`no product ${productId} on restaurant ${restaurantId}'s menu`);
    if (change.price !== undefined) product.price = change.price;
    if (change.name !== undefined) product.name = { tr: change.name, en: change.name };
    if (change.status !== undefined) this.availability.addProduct(restaurantId, productId, change.status);
    return this.productView(restaurantId, product);
  }

  /** Adds a product (and its category when new) to a restaurant's menu. */
  addMenuProduct(restaurantId: string, product: GetirMenuProduct & { status?: number; categoryName?: string }): void {
    const menu = this.menus.get(restaurantId);
    if (!menu) throw new Error(`no restaurant ${restaurantId}`);
    const { status, categoryName, ...stored } = product;
    if (!menu.categories.some((category) => category.id === stored.categoryId))
      menu.categories.push({ id: stored.categoryId, name: { tr: categoryName ?? stored.categoryId, en: categoryName ?? stored.categoryId } });
    menu.products.set(stored.id, { ...stored });
    this.availability.addProduct(restaurantId, stored.id, status ?? GETIR_PRODUCT_STATUS.ACTIVE);
  }

  removeMenuProduct(restaurantId: string, productId: string): void {
    this.menus.get(restaurantId)?.products.delete(productId);
    this.availability.removeProduct(restaurantId, productId);
  }

  /**
   * `GET /_simulator/restaurants/{id}/menu`: the served menu; `POST /_simulator/restaurants/{id}/menu/
   * products/{productId}` `{ price?, name?, status? }`: Getir's side changes a product (the one-machine mode).
   */
  adminRoute(request: SimulatorRequest): SimulatorResponse | undefined {
    const read = matchPath('/_simulator/restaurants/:restaurantId/menu', request.path);
    if (read && request.method === 'GET')
      return this.menus.has(read.restaurantId) ? { status: 200, body: this.menu(read.restaurantId) } : { status: 404, body: { message: 'no such restaurant' } };
    const change = matchPath('/_simulator/restaurants/:restaurantId/menu/products/:productId', request.path);
    if (!change || request.method !== 'POST') return undefined;
    if (!this.menus.get(change.restaurantId)?.products.has(change.productId)) return { status: 404, body: { message: 'no such product' } };
    const { price, name, status } = bodyOf(request);
    if ((price !== undefined && typeof price !== 'number') || (name !== undefined && typeof name !== 'string') || (status !== undefined && typeof status !== 'number'))
      return { status: 400, body: { message: 'price and status are numbers, name a string' } };
    return { status: 200, body: this.changeMenuProduct(change.restaurantId, change.productId, { price, name, status } as { price?: number; name?: string; status?: number }) };
  }

  private productView(restaurantId: string, product: GetirMenuProduct): Record<string, unknown> {
    return {
      id: product.id,
      restaurant: restaurantId,
      productCategory: product.categoryId,
      optionCategories: (product.optionCategories ?? []).map((category, weight) => ({
        id: category.id,
        name: category.name,
        minCount: category.minCount,
        maxCount: category.maxCount,
        removeToppings: false,
        weight,
        status: GETIR_PRODUCT_STATUS.ACTIVE,
        chainOptionCategory: category.chainOptionCategory ?? '',
        options: category.options.map((option, at) => ({
          id: option.id,
          product: product.id,
          ...(product.chainProduct ? { chainProduct: product.chainProduct } : {}),
          name: option.name,
          clientDisplayName: option.name,
          optionCategories: [],
          type: 1,
          price: option.price,
          weight: at,
          status: GETIR_PRODUCT_STATUS.ACTIVE,
          ...(option.chainOption ? { chainOption: option.chainOption } : {}),
        })),
      })),
      name: product.name,
      description: product.description ?? { tr: '', en: '' },
      price: product.price,
      ...(product.struckPrice !== undefined ? { struckPrice: product.struckPrice } : {}),
      weight: 0,
      status: this.availability.productStatus(restaurantId, product.id) ?? GETIR_PRODUCT_STATUS.ACTIVE,
      isApproved: true,
      imageURL: '',
      wideImageURL: '',
      // Assumed: a restaurant's own product carries no chainProduct at all (G does not mark it required).
      ...(product.chainProduct ? { chainProduct: product.chainProduct } : {}),
    };
  }

  /** A chain menu as the Go client reads it: `{ id, name, products?: [{ id, name, price }] }` (G types the answer as a string). */
  private chainMenuView(menu: GetirChainMenu, withProducts = this.options.listChainMenuProducts ?? true): Record<string, unknown> {
    if (!withProducts) return { id: menu.id, name: menu.name };
    return {
      id: menu.id,
      name: menu.name,
      products: menu.chainProducts.map((chainProduct) => {
        const product = this.productOfChain(menu, chainProduct);
        return { id: chainProduct, name: product?.name ?? { tr: '', en: '' }, price: product?.price ?? 0 };
      }),
    };
  }

  /**
   * `GET /chain-menus/chain-option-categories` as the Go client reads it: `[{ id, name, options: [{ id,
   * name, price }] }]` (G types the answer as a string), over the restaurant's chain menus.
   */
  private chainOptionCategories(restaurantId: string): Array<Record<string, unknown>> {
    const found = new Map<string, { id: string; name: Localized; options: Map<string, { id: string; name: Localized; price: number }> }>();
    for (const menu of this.chainMenus.filter((candidate) => candidate.restaurantIds.includes(restaurantId)))
      for (const id of menu.restaurantIds)
        for (const product of this.menus.get(id)?.products.values() ?? []) {
          if (!product.chainProduct || !menu.chainProducts.includes(product.chainProduct)) continue;
          for (const category of product.optionCategories ?? []) {
            if (!category.chainOptionCategory) continue;
            const entry = found.get(category.chainOptionCategory) ?? { id: category.chainOptionCategory, name: category.name, options: new Map() };
            found.set(entry.id, entry);
            for (const option of category.options)
              if (option.chainOption && !entry.options.has(option.chainOption)) entry.options.set(option.chainOption, { id: option.chainOption, name: option.name, price: option.price });
          }
        }
    return [...found.values()].map((category) => ({ id: category.id, name: category.name, options: [...category.options.values()] }));
  }

  private chainMenuOf(restaurantId: string, chainMenuOID: string): GetirChainMenu | undefined {
    return this.chainMenus.find((menu) => menu.id === chainMenuOID && menu.restaurantIds.includes(restaurantId));
  }

  private chainProductsOf(restaurantId: string): string[] {
    return [...(this.menus.get(restaurantId)?.products.values() ?? [])].flatMap((product) => (product.chainProduct ? [product.chainProduct] : []));
  }

  private productOfChain(menu: GetirChainMenu, chainProduct: string): GetirMenuProduct | undefined {
    for (const restaurantId of menu.restaurantIds)
      for (const product of this.menus.get(restaurantId)?.products.values() ?? []) if (product.chainProduct === chainProduct) return product;
    return undefined;
  }

  /**
   * `POST /chain-menus/{oid}/update-prices` (Model26): every item is checked first (nothing applies
   * when one is wrong), then each chain product's and chain option's price changes on every
   * restaurant of the chain menu.
   */
  private updatePrices(request: SimulatorRequest, restaurantId: string, chainMenuOID: string): SimulatorResponse {
    const menu = this.chainMenuOf(restaurantId, chainMenuOID);
    if (!menu) return chainMenuNotFound();
    const body = bodyOf(request);
    // Model26 types both lists as arrays and requires neither: absent is fine, null is not an array.
    for (const list of ['chainProducts', 'chainOptions'] as const)
      if (body[list] !== undefined && !Array.isArray(body[list])) return validation(`"${list}" must be an array`);
    const products = this.priceItems((body.chainProducts ?? []) as unknown[], 'chainProducts', 'chainProductOID');
    if ('refusal' in products) return products.refusal;
    const options = this.priceItems((body.chainOptions ?? []) as unknown[], 'chainOptions', 'chainOptionOID');
    if ('refusal' in options) return options.refusal;
    const chainOptions = new Set(this.chainOptionsOf(menu));
    for (const [index, { id }] of products.items.entries())
      if (!menu.chainProducts.includes(id)) return notOnChainMenu(`"chainProducts[${index}].chainProductOID" ${id} is not on the chain menu`);
    for (const [index, { id }] of options.items.entries())
      if (!chainOptions.has(id)) return notOnChainMenu(`"chainOptions[${index}].chainOptionOID" ${id} is not on the chain menu`);
    for (const id of menu.restaurantIds)
      for (const product of this.menus.get(id)?.products.values() ?? []) {
        const productPrice = products.items.find((item) => item.id === product.chainProduct);
        if (productPrice) product.price = productPrice.price;
        for (const category of product.optionCategories ?? [])
          for (const option of category.options) {
            const optionPrice = options.items.find((item) => item.id === option.chainOption);
            if (optionPrice) option.price = optionPrice.price;
          }
      }
    return { status: 200, body: 'OK' };
  }

  /** Model24 / Model25 items: the OID and the price are both required (G names no other id field). */
  private priceItems(
    items: unknown[],
    list: 'chainProducts' | 'chainOptions',
    key: 'chainProductOID' | 'chainOptionOID',
  ): { items: Array<{ id: string; price: number }> } | { refusal: SimulatorResponse } {
    const checked: Array<{ id: string; price: number }> = [];
    for (const [index, item] of items.entries()) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) return { refusal: validation(`"${list}[${index}]" must be of type object`) };
      const record = item as Record<string, unknown>;
      const id = record[key];
      if (id === undefined) return { refusal: validation(`"${list}[${index}].${key}" is required`) };
      if (typeof id !== 'string' || id === '') return { refusal: validation(`"${list}[${index}].${key}" must be a non-empty string`) };
      const { price } = record;
      if (price === undefined) return { refusal: validation(`"${list}[${index}].price" is required`) };
      if (typeof price !== 'number' || !Number.isFinite(price)) return { refusal: validation(`"${list}[${index}].price" must be a number`) };
      // Assumed strict: G's validator might convert a numeric string or round past 2 places; refusing hides no client mistake.
      if (price < 0) return { refusal: validation(`"${list}[${index}].price" must be greater than or equal to 0`) };
      if (Math.abs(Math.round(price * 100) - price * 100) > 1e-6) return { refusal: validation(`"${list}[${index}].price" must have no more than 2 decimal places`) };
      checked.push({ id, price });
    }
    return { items: checked };
  }

  /** The chain options of the chain menu's products (Model6 `chainOption`), as its restaurants' menus carry them. */
  private chainOptionsOf(menu: GetirChainMenu): string[] {
    return menu.restaurantIds.flatMap((id) =>
      [...(this.menus.get(id)?.products.values() ?? [])]
        .filter((product) => product.chainProduct && menu.chainProducts.includes(product.chainProduct))
        .flatMap((product) => (product.optionCategories ?? []).flatMap((category) => category.options.flatMap((option) => (option.chainOption ? [option.chainOption] : [])))),
    );
  }
}

function validation(message: string): SimulatorResponse {
  return getirError(400, -2, 'ValidationError', message, 'body');
}

/*
 * Assumed: G's registry has no chain menu error, and -1 is its UnknownError (HTTP 500): an unknown
 * chain menu, or an id it does not hold, is answered with the registry's generic 46 InvalidInput.
 */
function chainMenuNotFound(): SimulatorResponse {
  return getirError(400, 46, 'InvalidInput', 'chain menu not found');
}

function notOnChainMenu(message: string): SimulatorResponse {
  return getirError(400, 46, 'InvalidInput', message);
}
