import { bodyOf, matchPath, SimulatorRequest, SimulatorResponse } from '../common/simulator-server';

/*
 * Trendyol Go Yemek's store and product availability calls, built from platforms.md ("Availability")
 * and the clients it names, never from our adapter: `PUT /integrator/store/meal/suppliers/{s}/stores/
 * {st}/status { status: OPEN | CLOSED }` (no timed close, no busy mode), `GET .../suppliers/{s}/stores`
 * answering `{ restaurants: [{ id, name, workingStatus }] }`, and `PUT /integrator/product/meal/
 * suppliers/{s}/stores/{st}/products/{productId}/status { status: ACTIVE | PASSIVE }`, answered 409
 * while another change of the same store is under way (ALKAROS TrendyolGoMenuClient; another
 * integrator's notes). What the sources leave open is marked "assumed".
 */

export type TrendyolWorkingStatus = 'OPEN' | 'CLOSED';
export type TrendyolProductStatus = 'ACTIVE' | 'PASSIVE';

/** The line products of the simulator's packages (PlatformCSimulator.addPackage), on every store's menu by default. */
export const TRENDYOL_MENU_PRODUCT_IDS = ['319239', '317823'];

export interface PlatformCAvailabilityOptions {
  /** How long a product change holds its store (another change meanwhile answers 409). Default 0. */
  productChangeMs?: number;
  /** Each store's menu product ids (default TRENDYOL_MENU_PRODUCT_IDS). */
  products?: Record<string, string[]>;
}

export interface TrendyolStoreState {
  supplierId: string;
  storeId: string;
  workingStatus: TrendyolWorkingStatus;
  /** Who changed it last: the integrator (API) or the platform itself. */
  changedBy: 'INTEGRATOR' | 'PLATFORM' | null;
  products: Map<string, TrendyolProductStatus>;
  /** A product change under way until then (epoch ms). */
  busyUntil: number;
}

/** Trendyol's error body (the shape of the package calls' refusals; assumed the same here). */
export function trendyolRefusal(status: number, message: string, exception = 'ClientApiException'): SimulatorResponse {
  return { status, body: { timestamp: Date.now(), status, exception, errors: [{ message }] } };
}

const STORE_LIST = '/integrator/store/meal/suppliers/:supplierId/stores';
const STORE_STATUS = '/integrator/store/meal/suppliers/:supplierId/stores/:storeId/status';
const PRODUCT_STATUS = '/integrator/product/meal/suppliers/:supplierId/stores/:storeId/products/:productId/status';
const MAX_PAGE_SIZE = 50;

/**
 * The availability endpoints and their state per store and product. PlatformCSimulator authenticates
 * and rate-limits a request (per endpoint, as its package calls), then routes it here.
 */
export class PlatformCAvailabilityRoutes {
  private readonly stores = new Map<string, TrendyolStoreState>();

  constructor(
    private readonly options: PlatformCAvailabilityOptions,
    suppliers: ReadonlyArray<{ supplierId: string; storeIds: string[] }>,
  ) {
    for (const supplier of suppliers) {
      for (const storeId of supplier.storeIds) {
        const products = options.products?.[storeId] ?? TRENDYOL_MENU_PRODUCT_IDS;
        this.stores.set(storeId, {
          supplierId: supplier.supplierId,
          storeId,
          workingStatus: 'OPEN',
          changedBy: null,
          products: new Map(products.map((id) => [id, 'ACTIVE'])),
          busyUntil: 0,
        });
      }
    }
  }

  /** Which availability endpoint a path is (the rate limiter's key) and its supplier, or undefined. */
  match(path: string): { supplierId: string; endpoint: string } | undefined {
    const list = matchPath(STORE_LIST, path);
    if (list) return { supplierId: list.supplierId, endpoint: 'stores' };
    const store = matchPath(STORE_STATUS, path);
    if (store) return { supplierId: store.supplierId, endpoint: 'store-status' };
    const product = matchPath(PRODUCT_STATUS, path);
    if (product) return { supplierId: product.supplierId, endpoint: 'product-status' };
    return undefined;
  }

  store(storeId: string): TrendyolStoreState | undefined {
    return this.stores.get(storeId);
  }

  /** The platform closes a store itself (assumed: e.g. its orders left unanswered, or the platform's operations team). */
  closeByPlatform(storeId: string): TrendyolStoreState | undefined {
    const store = this.stores.get(storeId);
    if (store) Object.assign(store, { workingStatus: 'CLOSED', changedBy: 'PLATFORM' });
    return store;
  }

  /** An authenticated supplier's availability call. */
  async route(request: SimulatorRequest, supplierId: string): Promise<SimulatorResponse> {
    if (request.method === 'GET' && matchPath(STORE_LIST, request.path)) return this.list(request, supplierId);
    const storeCall = matchPath(STORE_STATUS, request.path);
    if (request.method === 'PUT' && storeCall) {
      const store = this.ownStore(supplierId, storeCall.storeId);
      if (!store) return trendyolRefusal(404, `store ${storeCall.storeId} not found`);
      const { status } = bodyOf(request);
      // No timed close and no busy mode: OPEN and CLOSED are the only values.
      if (status !== 'OPEN' && status !== 'CLOSED') return trendyolRefusal(400, 'status must be one of OPEN, CLOSED');
      Object.assign(store, { workingStatus: status, changedBy: 'INTEGRATOR' });
      return { status: 200 };
    }
    const productCall = matchPath(PRODUCT_STATUS, request.path);
    if (request.method === 'PUT' && productCall) return this.changeProduct(request, supplierId, productCall.storeId, productCall.productId);
    return trendyolRefusal(405, `no route ${request.method} ${request.path}`);
  }

  /** `GET /_simulator/stores/{storeId}`: the store's state and products; `POST /_simulator/stores/{storeId}/close`: the platform closes it. */
  adminRoute(request: SimulatorRequest): SimulatorResponse | undefined {
    const read = matchPath('/_simulator/stores/:storeId', request.path);
    const close = matchPath('/_simulator/stores/:storeId/close', request.path);
    const storeId = (read ?? close)?.storeId;
    if (!storeId || !((request.method === 'GET' && read) || (request.method === 'POST' && close))) return undefined;
    const store = close ? this.closeByPlatform(storeId) : this.stores.get(storeId);
    if (!store) return { status: 404, body: { message: 'no such store' } };
    return { status: 200, body: this.adminView(store) };
  }

  adminView(store: TrendyolStoreState): Record<string, unknown> {
    return {
      supplierId: store.supplierId,
      storeId: store.storeId,
      workingStatus: store.workingStatus,
      changedBy: store.changedBy,
      products: Object.fromEntries(store.products),
    };
  }

  /** The supplier's stores, `{ restaurants: [...] }` (assumed: page counters beside them, pages of at most 50). */
  private list(request: SimulatorRequest, supplierId: string): SimulatorResponse {
    const page = Number(request.query.get('page') ?? 0);
    const size = Number(request.query.get('size') ?? 10);
    if (!Number.isInteger(page) || page < 0 || !Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE)
      return trendyolRefusal(400, `page >= 0 and size between 1 and ${MAX_PAGE_SIZE}`);
    const own = [...this.stores.values()].filter((store) => store.supplierId === supplierId);
    const restaurants = own.slice(page * size, (page + 1) * size).map((store) => ({
      id: Number(store.storeId) || store.storeId,
      supplierId: Number(supplierId) || supplierId,
      name: `Demo Restoran ${store.storeId}`,
      workingStatus: store.workingStatus,
    }));
    return { status: 200, body: { page, size, totalPages: Math.ceil(own.length / size), totalCount: own.length, restaurants } };
  }

  private async changeProduct(
    request: SimulatorRequest,
    supplierId: string,
    storeId: string,
    productId: string,
  ): Promise<SimulatorResponse> {
    const store = this.ownStore(supplierId, storeId);
    if (!store) return trendyolRefusal(404, `store ${storeId} not found`);
    if (!store.products.has(productId)) return trendyolRefusal(404, `product ${productId} not found in store ${storeId}`);
    const { status } = bodyOf(request);
    if (status !== 'ACTIVE' && status !== 'PASSIVE') return trendyolRefusal(400, 'status must be one of ACTIVE, PASSIVE');
    // A change of the same store still under way: the platform answers 409 (assumed body: its usual refusal).
    if (store.busyUntil > Date.now()) return trendyolRefusal(409, 'another change of this store is in progress');
    const holdMs = this.options.productChangeMs ?? 0;
    if (holdMs > 0) {
      store.busyUntil = Date.now() + holdMs;
      await new Promise((resolve) => setTimeout(resolve, holdMs));
      store.busyUntil = 0;
    }
    store.products.set(productId, status);
    return { status: 200 };
  }

  private ownStore(supplierId: string, storeId: string): TrendyolStoreState | undefined {
    const store = this.stores.get(storeId);
    return store?.supplierId === supplierId ? store : undefined;
  }
}
