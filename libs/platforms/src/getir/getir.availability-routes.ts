import { bodyOf, matchPath, SimulatorRequest, SimulatorResponse } from '../common/simulator-server';

/*
 * Getir Yemek's restaurant availability calls, built from platforms.md ("Availability") and its
 * sources, never from our adapter: G openapi/_original/getir-food-openapi.json (`PUT /restaurants/
 * status/open`, `/status/close` with Model30 `timeOffAmount` 15 | 30 | 45, `/delivery-duration/
 * busyness` with Model35, `GET /restaurants` Model3, `GET|PUT /products/{productId}/status` Model34
 * 100 | 200 | 400), G rate-limits/getir-rate-limits.yml (configuration family: 2 requests / 60 s per
 * token, then blocked 30 s) and G conventions (a restaurant whose order goes unanswered for 5
 * minutes is closed by Getir). Points G leaves open are marked "assumed".
 */

/** Restaurant status numbers of `GET /restaurants` (assumed from a C# client: 100 open, 200 closed). */
export const GETIR_RESTAURANT_STATUS = { OPEN: 100, CLOSED: 200 } as const;
/** `closedSource` (assumed: G names the field only): who closed the restaurant. */
export const GETIR_CLOSED_SOURCE = { NONE: 0, RESTAURANT: 1, GETIR: 2 } as const;
/** Product status (G Swagger Model34: ACTIVE 100, INACTIVE 200, DAILY_INACTIVE 400). */
export const GETIR_PRODUCT_STATUS = { ACTIVE: 100, INACTIVE: 200, DAILY_INACTIVE: 400 } as const;
const DURATIONS = [15, 30, 45];
const PRODUCT_STATUSES: number[] = Object.values(GETIR_PRODUCT_STATUS);
/** Turkey's offset (UTC+3, no daylight saving): a restaurant's day, for DAILY_INACTIVE. */
const DAY_OFFSET_MS = 3 * 3_600_000;
/** The menu product of the simulator's orders (`products[].product`), and two more. */
export const GETIR_MENU_PRODUCT_IDS = ['5f9a1b2c3d4e5f6a7b8c9d11', '5f9a1b2c3d4e5f6a7b8c9d21', '5f9a1b2c3d4e5f6a7b8c9d22'];

export interface GetirConfigurationLimit {
  limit: number;
  windowMs: number;
  blockMs: number;
}

export interface PlatformAAvailabilityOptions {
  /** The configuration family's budget per token (G: 2 / 60 s, then blocked 30 s). */
  configurationRateLimit?: GetirConfigurationLimit;
  /** How long one of Getir's minutes lasts here (timed closes; tests shorten it). Default 60 000. */
  minuteMs?: number;
  /** Each restaurant's menu product ids (default GETIR_MENU_PRODUCT_IDS). */
  products?: Record<string, string[]>;
  /** The clock (tests move a product's day on). */
  now?: () => number;
}

/** One restaurant's availability as Getir holds it. */
export interface GetirStoreState {
  status: number;
  /** A timed close (timeOffAmount) ends then, epoch ms. */
  closedUntil?: number;
  isBusy: boolean;
  busynessDifferenceDuration?: number;
  isStatusChangedByUser: boolean;
  closedSource: number;
}

type Product = { status: number; day?: number };
type Bucket = { windowStart: number; count: number; blockedUntil: number };

function getirError(status: number, code: number, error: string, message: string, source?: string): SimulatorResponse {
  return {
    status,
    body: { code, error, message, ...(source ? { source, details: [{ message, path: [source], type: 'any.only' }] } : {}) },
  };
}

/**
 * Getir's availability endpoints and their state, per restaurant and per product. PlatformASimulator
 * routes a request here after its login and default rate-limit checks (`route`), and its admin
 * requests (`adminRoute`).
 */
export class PlatformAAvailabilityRoutes {
  private readonly stores = new Map<string, GetirStoreState>();
  private readonly products = new Map<string, Map<string, Product>>();
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly options: PlatformAAvailabilityOptions,
    restaurantIds: readonly string[],
    /** A restaurant's products when `options.products` names none (the simulator's catalog adds its menu's). */
    defaultProducts: readonly string[] = GETIR_MENU_PRODUCT_IDS,
  ) {
    for (const restaurantId of restaurantIds) {
      const ids = options.products?.[restaurantId] ?? defaultProducts;
      this.products.set(restaurantId, new Map(ids.map((id) => [id, { status: GETIR_PRODUCT_STATUS.ACTIVE }])));
    }
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** The restaurant's state now (a timed close that has run out is open again). */
  store(restaurantId: string): GetirStoreState {
    let state = this.stores.get(restaurantId);
    if (!state) {
      state = { status: GETIR_RESTAURANT_STATUS.OPEN, isBusy: false, isStatusChangedByUser: false, closedSource: GETIR_CLOSED_SOURCE.NONE };
      this.stores.set(restaurantId, state);
    }
    if (state.closedUntil !== undefined && state.closedUntil <= this.now())
      Object.assign(state, { status: GETIR_RESTAURANT_STATUS.OPEN, closedUntil: undefined, closedSource: GETIR_CLOSED_SOURCE.NONE });
    return state;
  }

  /** A product's status now (DAILY_INACTIVE is active again on the restaurant's next day). */
  productStatus(restaurantId: string, productId: string): number | undefined {
    const product = this.products.get(restaurantId)?.get(productId);
    if (!product) return undefined;
    if (product.status === GETIR_PRODUCT_STATUS.DAILY_INACTIVE && product.day !== dayOf(this.now()))
      Object.assign(product, { status: GETIR_PRODUCT_STATUS.ACTIVE, day: undefined });
    return product.status;
  }

  /** Getir closes the restaurant itself (G conventions: an order unanswered for 5 minutes). */
  closeByPlatform(restaurantId: string): GetirStoreState {
    const state = this.store(restaurantId);
    Object.assign(state, {
      status: GETIR_RESTAURANT_STATUS.CLOSED,
      closedUntil: undefined,
      isStatusChangedByUser: false,
      closedSource: GETIR_CLOSED_SOURCE.GETIR,
    });
    return state;
  }

  /** The platform's answer to an availability call of a logged-in restaurant, or undefined when the path is not one. */
  route(request: SimulatorRequest, token: string, restaurantId: string): SimulatorResponse | undefined {
    const call = `${request.method} ${request.path}`;
    const configuration = [
      'PUT /restaurants/status/open',
      'PUT /restaurants/status/close',
      'PUT /restaurants/delivery-duration/busyness',
      'GET /restaurants',
    ].includes(call);
    // Assumed: the limiter counts a call before its body is read (a refused call counts too).
    if (configuration) {
      const blocked = this.configurationCall(token);
      if (blocked) return blocked;
    }
    switch (call) {
      case 'PUT /restaurants/status/open':
        Object.assign(this.store(restaurantId), {
          status: GETIR_RESTAURANT_STATUS.OPEN,
          closedUntil: undefined,
          isStatusChangedByUser: true,
          closedSource: GETIR_CLOSED_SOURCE.NONE,
        });
        return { status: 200, body: {} };
      case 'PUT /restaurants/status/close':
        return this.close(request, restaurantId);
      case 'PUT /restaurants/delivery-duration/busyness':
        return this.busyness(request, restaurantId);
      case 'GET /restaurants':
        return { status: 200, body: this.restaurantView(restaurantId) };
    }
    const product = matchPath('/products/:productId/status', request.path);
    if (product && (request.method === 'GET' || request.method === 'PUT')) return this.product(request, restaurantId, product.productId);
    return undefined;
  }

  /** `GET /restaurants` as Getir answers it (G Swagger Model3). */
  restaurantView(restaurantId: string): Record<string, unknown> {
    const state = this.store(restaurantId);
    return {
      id: restaurantId,
      averagePreparationTime: 20,
      status: state.status,
      isCourierAvailable: true,
      name: 'Demo Restoran',
      isStatusChangedByUser: state.isStatusChangedByUser,
      closedSource: state.closedSource,
      rating: 4.6,
    };
  }

  /**
   * `GET /_simulator/restaurants/{id}/availability`: the restaurant's state and its products' (tests and
   * the one-machine mode); `POST /_simulator/restaurants/{id}/close`: Getir closes it itself.
   */
  adminRoute(request: SimulatorRequest): SimulatorResponse | undefined {
    const read = matchPath('/_simulator/restaurants/:restaurantId/availability', request.path);
    const close = matchPath('/_simulator/restaurants/:restaurantId/close', request.path);
    const restaurantId = (read ?? close)?.restaurantId;
    if (!restaurantId) return undefined;
    if (!this.products.has(restaurantId)) return { status: 404, body: { message: 'no such restaurant' } };
    if (request.method === 'POST' && close) this.closeByPlatform(restaurantId);
    else if (!(request.method === 'GET' && read)) return undefined;
    return { status: 200, body: this.adminView(restaurantId) };
  }

  adminView(restaurantId: string): Record<string, unknown> {
    const state = this.store(restaurantId);
    const products = Object.fromEntries(
      [...(this.products.get(restaurantId)?.keys() ?? [])].map((id) => [id, this.productStatus(restaurantId, id)]),
    );
    return {
      restaurantId,
      ...state,
      closedUntil: state.closedUntil !== undefined ? new Date(state.closedUntil).toISOString() : null,
      products,
    };
  }

  private close(request: SimulatorRequest, restaurantId: string): SimulatorResponse {
    const { timeOffAmount } = bodyOf(request);
    // Model30: optional, but when present a number of the enum (null is not one of them).
    if (timeOffAmount !== undefined && !DURATIONS.includes(timeOffAmount as number))
      return getirError(400, -2, 'ValidationError', '"timeOffAmount" must be one of [15, 30, 45]', 'body');
    const minutes = typeof timeOffAmount === 'number' ? timeOffAmount : undefined;
    Object.assign(this.store(restaurantId), {
      status: GETIR_RESTAURANT_STATUS.CLOSED,
      closedUntil: minutes !== undefined ? this.now() + minutes * (this.options.minuteMs ?? 60_000) : undefined,
      isStatusChangedByUser: true,
      closedSource: GETIR_CLOSED_SOURCE.RESTAURANT,
    });
    return { status: 200, body: 'OK' };
  }

  private busyness(request: SimulatorRequest, restaurantId: string): SimulatorResponse {
    const { isBusy, busynessDifferenceDuration } = bodyOf(request);
    // Model35 requires no field (G lists required ones, as for Model32); assumed: without isBusy it is not "set True".
    if (isBusy !== undefined && typeof isBusy !== 'boolean')
      return getirError(400, -2, 'ValidationError', '"isBusy" must be a boolean', 'body');
    if (busynessDifferenceDuration !== undefined && !DURATIONS.includes(busynessDifferenceDuration as number))
      return getirError(400, -2, 'ValidationError', '"busynessDifferenceDuration" must be one of [15, 30, 45]', 'body');
    // G summary: "plus 15 min if set True" when no duration is given.
    Object.assign(this.store(restaurantId), {
      isBusy: isBusy === true,
      busynessDifferenceDuration: isBusy === true ? ((busynessDifferenceDuration as number | undefined) ?? 15) : undefined,
    });
    return { status: 200, body: 'OK' };
  }

  private product(request: SimulatorRequest, restaurantId: string, productId: string): SimulatorResponse {
    if (this.productStatus(restaurantId, productId) === undefined)
      return getirError(400, 40, 'ProductNotBelongsToRestaurantError', 'product not belongs to restaurant error');
    if (request.method === 'GET') return { status: 200, body: { id: productId, status: this.productStatus(restaurantId, productId) } };
    const { status } = bodyOf(request);
    if (!PRODUCT_STATUSES.includes(status as number))
      return getirError(400, -2, 'ValidationError', '"status" must be one of [100, 200, 400]', 'body');
    this.products
      .get(restaurantId)!
      .set(productId, { status: status as number, day: status === GETIR_PRODUCT_STATUS.DAILY_INACTIVE ? dayOf(this.now()) : undefined });
    return { status: 200, body: 'OK' };
  }

  /** A product on the restaurant's menu (the catalog's menu adds and removes them), with its status. */
  addProduct(restaurantId: string, productId: string, status: number = GETIR_PRODUCT_STATUS.ACTIVE): void {
    const products = this.products.get(restaurantId) ?? new Map<string, Product>();
    this.products.set(restaurantId, products);
    products.set(productId, { status, day: status === GETIR_PRODUCT_STATUS.DAILY_INACTIVE ? dayOf(this.now()) : undefined });
  }

  removeProduct(restaurantId: string, productId: string): void {
    this.products.get(restaurantId)?.delete(productId);
  }

  /**
   * Counts a configuration call of the token (the catalog's menu read is one too); Getir's refusal while
   * the family is blocked or past its budget.
   */
  configurationCall(token: string): SimulatorResponse | undefined {
    const rule = this.options.configurationRateLimit ?? { limit: 2, windowMs: 60_000, blockMs: 30_000 };
    const now = this.now();
    const bucket = this.buckets.get(token) ?? { windowStart: now, count: 0, blockedUntil: 0 };
    this.buckets.set(token, bucket);
    // Assumed, as for the default limiter: a blocked token is answered 429 in Getir's error envelope.
    const blocked = (ms: number) => getirError(429, 429, 'TooManyRequests', `token is blocked for ${Math.ceil(ms / 1000)} s`);
    if (bucket.blockedUntil > now) return blocked(bucket.blockedUntil - now);
    if (now - bucket.windowStart >= rule.windowMs) Object.assign(bucket, { windowStart: now, count: 0 });
    bucket.count += 1;
    if (bucket.count > rule.limit) {
      Object.assign(bucket, { blockedUntil: now + rule.blockMs, windowStart: now + rule.blockMs, count: 0 });
      return blocked(rule.blockMs);
    }
    return undefined;
  }
}

/** The restaurant's calendar day (Turkey) of an instant. */
function dayOf(at: number): number {
  return Math.floor((at + DAY_OFFSET_MS) / 86_400_000);
}
