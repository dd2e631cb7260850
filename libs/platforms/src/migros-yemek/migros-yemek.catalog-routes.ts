import { DEMO_MENU, demoNameOn } from '../common/demo-menu';
import { matchPath, SimulatorRequest, SimulatorResponse } from '../common/simulator-server';

/*
 * Migros Yemek's menu calls, built from its evidence (platforms.md "Catalog"; M-go client.go / types.go,
 * M-rs: migros-yemek.assumptions.ts, Catalog section), not from our adapter:
 * - `POST /Menu/GetMenuDetailsByStoreAndStoreGroupId { storeId, storeGroupId }` -> `{ data: { id,
 *   storeGroupId, name, status, menuHeaderInfos: [{ id, menuId, name, status, foodMenuItemDetailsDTOs:
 *   [{ id, menuId, productId, productName, productDescription, defaultPrimaryPrice,
 *   defaultPrimaryDiscountedPrice, status }] }] }, success }`: the store's one menu, prices in lira.
 * - `POST /Menu/UpdateBatchPrice { storeId, storeGroupId, menuId, prices: [{ menuItemId, productId,
 *   defaultPrimaryPrice, defaultPrimaryDiscountedPrice }] }`: synchronous, all or nothing (M-go reads
 *   only the status); answered `{ data: null, success: true }`. A menu item of another menu, a productId
 *   that is not the item's, a price that is not a number above 0, or a discounted price above the
 *   price refuses the whole batch (the errorCodes are this simulator's own names).
 * - UpdateProductStatusByStoreId (migros-yemek.availability-routes.ts) switches the menu's items too.
 * Bodies are encrypted like every Migros POST (the simulator's decrypt); the store is the XApiKey's.
 */

export type SimulatedDItemStatus = 'ACTIVE' | 'PASSIVE';

export interface SimulatedDMenuItem {
  id: number;
  productId: number;
  productName: string;
  productDescription: string;
  defaultPrimaryPrice: number;
  defaultPrimaryDiscountedPrice: number;
  status: SimulatedDItemStatus;
}

export interface SimulatedDMenuHeader {
  id: number;
  name: string;
  status: SimulatedDItemStatus;
  items: SimulatedDMenuItem[];
}

export interface SimulatedDMenu {
  id: number;
  storeGroupId: string;
  name: string;
  status: SimulatedDItemStatus;
  headers: SimulatedDMenuHeader[];
  /** Every accepted UpdateBatchPrice body, in order. */
  priceChanges: Array<{ body: Record<string, unknown>; at: number }>;
}

/** A product of a simulated menu as a test seeds it (prices in lira). */
export interface PlatformDMenuProductSeed {
  productId: number;
  name: string;
  category: string;
  price: number;
  discountedPrice?: number;
  status?: SimulatedDItemStatus;
  description?: string;
}

/** A product as the simulated menu shows it (the first of its menu items). */
export interface SimulatedDMenuProductView {
  productId: number;
  menuItemIds: number[];
  name: string;
  category: string;
  price: number;
  discountedPrice: number;
  status: SimulatedDItemStatus;
}

/** Migros product ids of the demo menu (the simulator's order webhook sells 55001 Lahmacun and 55002 Ayran). */
const DEMO_PRODUCT_IDS: Record<string, number> = {
  'LAHMACUN-01': 55001,
  'AYRAN-01': 55002,
  'ADANA-01': 55003,
  'URFA-01': 55004,
  'PIDE-KAS-01': 55005,
  'KUNEFE-01': 55006,
};

/** DEMO_MENU as Migros would list it: numeric ids, names as given, no restaurant code (Migros has no such field). */
export function platformDDemoMenu(): PlatformDMenuProductSeed[] {
  return DEMO_MENU.map((product, index) => ({
    productId: DEMO_PRODUCT_IDS[product.productCode] ?? 55_100 + index,
    name: demoNameOn(product, 'as_given'),
    category: product.category,
    price: product.price,
  }));
}

function answer(data: unknown): SimulatorResponse {
  return { status: 200, body: { data, success: true } };
}

function refusal(status: number, errorCode: string, errorDetail: string): SimulatorResponse {
  return { status, body: { data: null, success: false, errorMessage: { errorCode, errorTitle: errorCode.replace(/_/g, ' ').toLowerCase(), errorDetail } } };
}

function lowerKeys(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([name, field]) => [name.toLowerCase(), field]));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type Decrypted = { plain: Record<string, unknown> } | { refused: SimulatorResponse };

export interface PlatformDCatalogStore {
  storeId: string;
  storeGroupId: string;
}

const PATHS = ['/Menu/GetMenuDetailsByStoreAndStoreGroupId', '/Menu/UpdateBatchPrice'];

export class PlatformDCatalogRoutes {
  readonly menus = new Map<string, SimulatedDMenu>();
  private nextMenuId = 3100;
  private nextHeaderId = 7100;
  private nextItemId = 880_100;

  constructor(
    private readonly seed: () => PlatformDMenuProductSeed[] = platformDDemoMenu,
    private readonly now: () => number = Date.now,
  ) {}

  /** The store's menu, built from the seed the first time it is asked for. */
  menu(store: PlatformDCatalogStore): SimulatedDMenu {
    let menu = this.menus.get(store.storeId);
    if (!menu) {
      menu = { id: (this.nextMenuId += 1), storeGroupId: store.storeGroupId, name: 'Simulated menu', status: 'ACTIVE', headers: [], priceChanges: [] };
      this.menus.set(store.storeId, menu);
      for (const product of this.seed()) this.add(menu, product);
    }
    return menu;
  }

  /** Adds a product under its category's header (a new header when there is none). */
  add(menu: SimulatedDMenu, product: PlatformDMenuProductSeed): SimulatedDMenuItem {
    let header = menu.headers.find((entry) => entry.name === product.category);
    if (!header) {
      header = { id: (this.nextHeaderId += 1), name: product.category, status: 'ACTIVE', items: [] };
      menu.headers.push(header);
    }
    const item: SimulatedDMenuItem = {
      id: (this.nextItemId += 1),
      productId: product.productId,
      productName: product.name,
      productDescription: product.description ?? '',
      defaultPrimaryPrice: product.price,
      defaultPrimaryDiscountedPrice: product.discountedPrice ?? product.price,
      status: product.status ?? 'ACTIVE',
    };
    header.items.push(item);
    return item;
  }

  items(menu: SimulatedDMenu, productId: number | string): Array<{ header: SimulatedDMenuHeader; item: SimulatedDMenuItem }> {
    return menu.headers.flatMap((header) => header.items.filter((item) => String(item.productId) === String(productId)).map((item) => ({ header, item })));
  }

  view(menu: SimulatedDMenu, productId: number | string): SimulatedDMenuProductView | undefined {
    const found = this.items(menu, productId);
    if (found.length === 0) return undefined;
    const [{ header, item }] = found;
    return {
      productId: item.productId,
      menuItemIds: found.map((entry) => entry.item.id),
      name: item.productName,
      category: header.name,
      price: item.defaultPrimaryPrice,
      discountedPrice: item.defaultPrimaryDiscountedPrice,
      status: item.status,
    };
  }

  /** UpdateProductStatusByStoreId applied to the menu (its every item of the product). */
  setStatus(menu: SimulatedDMenu, productId: number | string, status: SimulatedDItemStatus): void {
    for (const { item } of this.items(menu, productId)) item.status = status;
  }

  /** The menu routes of the store the XApiKey names, or undefined for another path. */
  route(store: PlatformDCatalogStore, request: SimulatorRequest, decrypt: () => Decrypted): SimulatorResponse | undefined {
    if (!PATHS.includes(request.path)) return undefined;
    if (request.method !== 'POST') return refusal(405, 'METHOD_NOT_ALLOWED', `${request.method} ${request.path} is not an operation of this API`);
    const decrypted = decrypt();
    if ('refused' in decrypted) return decrypted.refused;
    const body = lowerKeys(decrypted.plain);
    if (String(body.storeid ?? '') !== store.storeId) return refusal(400, 'STORE_MISMATCH', 'storeId is not the store of this API key');
    if (String(body.storegroupid ?? '') !== store.storeGroupId) return refusal(400, 'STORE_GROUP_MISMATCH', 'storeGroupId is not the group of this store');
    const menu = this.menu(store);
    if (request.path === '/Menu/GetMenuDetailsByStoreAndStoreGroupId') return answer(this.menuData(menu));
    return this.batchPrice(menu, body, decrypted.plain);
  }

  menuData(menu: SimulatedDMenu): Record<string, unknown> {
    return {
      id: menu.id,
      storeGroupId: Number(menu.storeGroupId) || menu.storeGroupId,
      name: menu.name,
      status: menu.status,
      menuHeaderInfos: menu.headers.map((header) => ({
        id: header.id,
        menuId: menu.id,
        name: header.name,
        status: header.status,
        foodMenuItemDetailsDTOs: header.items.map((item) => ({ ...item, menuId: menu.id })),
      })),
    };
  }

  private batchPrice(menu: SimulatedDMenu, body: Record<string, unknown>, plain: Record<string, unknown>): SimulatorResponse {
    if (String(body.menuid ?? '') !== String(menu.id)) return refusal(400, 'MENU_NOT_FOUND', 'menuId is not the menu of this store');
    if (!Array.isArray(body.prices) || body.prices.length === 0) return refusal(400, 'INVALID_REQUEST', 'prices must be a non-empty list');
    const changes: Array<{ item: SimulatedDMenuItem; price: number; discounted: number }> = [];
    for (const [index, entry] of body.prices.entries()) {
      if (!isRecord(entry)) return refusal(400, 'INVALID_REQUEST', `prices[${index}] must be an object`);
      const price = lowerKeys(entry);
      const item = menu.headers.flatMap((header) => header.items).find((candidate) => String(candidate.id) === String(price.menuitemid ?? ''));
      if (!item) return refusal(400, 'MENU_ITEM_NOT_FOUND', `prices[${index}].menuItemId is not an item of this menu`);
      if (String(price.productid ?? '') !== String(item.productId)) return refusal(400, 'PRODUCT_MISMATCH', `prices[${index}].productId is not the product of menu item ${item.id}`);
      const primary = price.defaultprimaryprice;
      if (typeof primary !== 'number' || !Number.isFinite(primary) || primary <= 0) return refusal(400, 'INVALID_PRICE', `prices[${index}].defaultPrimaryPrice must be a number above 0`);
      const discounted = price.defaultprimarydiscountedprice ?? primary;
      if (typeof discounted !== 'number' || !Number.isFinite(discounted) || discounted <= 0 || discounted > primary) {
        return refusal(400, 'INVALID_PRICE', `prices[${index}].defaultPrimaryDiscountedPrice must be a number above 0 and not above defaultPrimaryPrice`);
      }
      changes.push({ item, price: primary, discounted });
    }
    for (const change of changes) Object.assign(change.item, { defaultPrimaryPrice: change.price, defaultPrimaryDiscountedPrice: change.discounted });
    menu.priceChanges.push({ body: plain, at: this.now() });
    return answer(null);
  }

  /** `GET /_simulator/menus/:storeId`: the store's menu as the read serves it. */
  adminRoute(request: SimulatorRequest, store: (storeId: string) => PlatformDCatalogStore | undefined): SimulatorResponse | undefined {
    const path = matchPath('/_simulator/menus/:storeId', request.path);
    if (request.method !== 'GET' || !path) return undefined;
    const known = store(path.storeId);
    if (!known) return { status: 404, body: { message: 'no such simulated store' } };
    return { status: 200, body: this.menuData(this.menu(known)) };
  }
}
