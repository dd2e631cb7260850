import { randomBytes, randomUUID } from 'node:crypto';
import { platformRequest, PlatformResponse } from '../common/platform-http';
import { bodyOf, matchPath, SimulatorRequest, SimulatorResponse, SimulatorServer } from '../common/simulator-server';
import { PlatformAAvailabilityOptions, PlatformAAvailabilityRoutes } from './getir.availability-routes';
import { PlatformACatalogOptions, PlatformACatalogRoutes } from './getir.catalog-routes';

/*
 * Built from /work/shared/spec/platforms.md (PLATFORM_A) and its source G, the GitHub repository
 * api-evangelist/getir: openapi/_original/getir-food-openapi.json (paths, bodies, answer schemas),
 * errors/getir-error-codes.yml (the envelope and codes), asyncapi/getir-food-webhooks.yml (the two
 * partner webhooks and the fallback polling), rate-limits/getir-rate-limits.yml, authentication/
 * getir-authentication.yml and conventions/getir-conventions.yml (statuses, timing rules). Never from
 * our adapter: nothing here is imported from it. Points G leaves open are marked "assumed".
 */

/**
 * Getir food order statuses (the order's `status` number, not an HTTP code). 325, 350, 400 and 500:
 * G conventions `order_state_machine`; the others are assumed.
 */
export const GETIR_FOOD_ORDER_STATUS = {
  ScheduledAwaitingApproval: 325,
  ScheduledApproved: 350,
  AwaitingApproval: 400,
  Verified: 500,
  Prepared: 550,
  HandedOver: 600,
  OnTheWay: 700,
  Reached: 800,
  Delivered: 900,
  CancelledByPlatform: 1500,
  CancelledByRestaurant: 1600,
} as const;

const STATUS_NAMES = new Map<number, string>(Object.entries(GETIR_FOOD_ORDER_STATUS).map(([name, status]) => [status, name]));

/** The name of a Getir food order status (`400` -> `AwaitingApproval`), for admin answers and logs. */
export function getirStatusName(status: number): string {
  return STATUS_NAMES.get(status) ?? 'Unknown';
}

const S = GETIR_FOOD_ORDER_STATUS;

export interface GetirRateLimit {
  limit: number;
  windowMs: number;
  blockMs: number;
}

export interface PlatformASimulatorOptions {
  appSecretKey: string;
  /** Restaurants that can log in: their Getir id and secret key. */
  restaurants: Array<{ restaurantId: string; secretKey: string }>;
  /** Token lifetime (G: 1 h). */
  tokenTtlMs?: number;
  /** At least this long between verify -> prepare (else code 74) and prepare -> deliver (else 62); G: 1 minute. */
  minStepIntervalMs?: number;
  /** Default budget per token (G: 300 / 60 s, then blocked 20 s). */
  rateLimit?: GetirRateLimit;
  /** cancel-options budget per token (G: 40 / 600 s, then blocked 60 s). */
  cancelOptionsRateLimit?: GetirRateLimit;
  /** `POST /food-orders/active` budget per token, on top of the default one (platforms.md Round 2: 20 / 60 s; the block time assumed: 20 s). */
  activeOrdersRateLimit?: GetirRateLimit;
  /** A status change holds the order's lock this long; another change meanwhile gets code 4 FoodOrderStatusLock. */
  statusLockMs?: number;
  /** How far back /food-orders/periodic/cancelled reaches (assumed; G does not say). */
  cancelledWindowMs?: number;
  /** Our partner URLs and the static key the platform sends with them. */
  newOrderUrl?: string;
  cancelledOrderUrl?: string;
  webhookApiKey?: string;
  /** Send webhooks wrapped as `{ foodOrder: {...} }` (one integrator's reading) instead of the bare order. */
  wrapWebhooks?: boolean;
  /**
   * How long after prepare Getir's courier (deliveryType 1) reaches the restaurant. Assumed: 0 (there
   * when the order is prepared); null: only when a test says so (`setCourier`, `/_simulator/orders/{id}/courier`).
   */
  courierArrivesAfterMs?: number | null;
  /** Restaurant availability: the configuration budget, timed closes, menus (getir.availability-routes.ts). */
  availability?: PlatformAAvailabilityOptions;
  /** Menus and chain menus (getir.catalog-routes.ts; default DEMO_MENU on the demo chain menu). */
  catalog?: PlatformACatalogOptions;
}

/**
 * Where Getir's courier of an order is (deliveryType 1), as a handover sees it (G errors: 71
 * FoodOrderHasNoCourierError, 15 CourierNotReachedToRestaurant, 14 CourierStatusInvalid). Assumed:
 * Getir assigns the courier when the order is approved; the courier's numeric `status` of the food
 * order is not documented and stays 0.
 */
export type SimulatedCourierState = 'none' | 'assigned' | 'at-restaurant' | 'unavailable';
export const COURIER_STATES: readonly SimulatedCourierState[] = ['none', 'assigned', 'at-restaurant', 'unavailable'];

export interface SimulatedAOrder {
  id: string;
  restaurantId: string;
  status: number;
  deliveryType: number;
  isScheduled: boolean;
  scheduledDate?: string;
  confirmationId: string;
  checkoutDate: string;
  /** Step dates as Getir's food order carries them: verifyDate, scheduleVerifiedDate, prepareDate, handoverDate, deliverDate, cancelDate. */
  dates: Record<string, string>;
  /** When the platform accepted each step (verify, verify-scheduled, prepare, handover, deliver, cancel). */
  steps: Array<{ step: string; at: number }>;
  cancelNote?: string;
  cancelReason?: { id: string; messages: { tr: string; en: string }; cancelSource: string };
  /** The client closed their account: the status calls answer code 5 ClientAccountClosed. */
  clientAccountClosed?: boolean;
  /** Getir's courier (deliveryType 1), and when an assigned one reaches the restaurant (epoch ms). */
  courier: SimulatedCourierState;
  courierDueAt?: number;
  /** Extra fields of the food order (tests). */
  payload: Record<string, unknown>;
}

export type PlaceOrderOptions = Partial<Pick<SimulatedAOrder, 'id' | 'status' | 'deliveryType' | 'isScheduled' | 'scheduledDate' | 'confirmationId' | 'payload'>>;

/** The cancel reasons cancel-options offers (G Swagger "Food Order Cancel Option Response Schema": `[{ id, message }]`; ids and texts assumed). */
export const GETIR_CANCEL_OPTIONS = [
  { id: '5d8b8f8e1c9d440000a1b2c1', message: 'Restaurant is too busy' },
  { id: '5d8b8f8e1c9d440000a1b2c2', message: 'Out of stock' },
  { id: '5d8b8f8e1c9d440000a1b2c3', message: 'Restaurant closed' },
];

/** Getir's service error envelope (G errors: `{ code, error, message, details?, source? }`) with the registry's HTTP status. */
function getirError(status: number, code: number, error: string, message: string, source?: string): SimulatorResponse {
  return { status, body: { code, error, message, ...(source ? { source, details: [{ message, path: [source], type: 'any.required' }] } : {}) } };
}

const ERRORS = {
  notFound: () => getirError(404, 1, 'FoodOrderNotFound', 'food order not found'),
  alreadyVerified: () => getirError(400, 2, 'FoodOrderAlreadyVerified', 'This food order already verified'),
  statusInvalid: () => getirError(400, 3, 'FoodOrderStatusInvalidError', 'food order status is invalid for given action'),
  statusLock: () => getirError(400, 4, 'FoodOrderStatusLock', 'food order status warlock failed'),
  clientAccountClosed: () => getirError(400, 5, 'ClientAccountClosed', 'client account closed'),
  cannotBeCancelled: () => getirError(400, 11, 'FoodOrderCanNotBeCancelled', 'order can not be cancelled'),
  alreadyCancelled: () => getirError(400, 13, 'FoodOrderAlreadyCancelled', 'food order already cancelled'),
  courierStatusInvalid: () => getirError(400, 14, 'CourierStatusInvalid', 'courier status is not valid for this action'),
  courierNotAtRestaurant: () => getirError(400, 15, 'CourierNotReachedToRestaurant', 'courier status is not reached to restaurant'),
  noCourier: () => getirError(400, 71, 'FoodOrderHasNoCourierError', 'food order has no courier error'),
  productNotOfRestaurant: () => getirError(400, 40, 'ProductNotBelongsToRestaurantError', 'product not belongs to restaurant error'),
  noCancelReason: () => getirError(400, 59, 'FoodOrderNotHaveCancelReasonError', 'food order not have cancel reason error'),
  deliveredTimeLimit: () => getirError(400, 62, 'FoodOrderDeliveredToClientTimeLimitError', 'food order delivered to client time limit error'),
  preparedTimeLimit: () => getirError(400, 74, 'FoodOrderPreparedTimeLimitError', 'food order prepared time limit error'),
  beforeActivation: () => getirError(400, 79, 'CannotVerifyBeforeActivationError', 'tried to verify before scheduled food order activation'),
  routeNotFound: () => getirError(404, 22, 'RouteNotFoundError', 'RouteNotFundError'),
  // G observed: `{ code: -2, error: 'ValidationError', message: '"token" is required', source: 'headers' }`.
  validation: (message: string, source: string) => getirError(400, -2, 'ValidationError', message, source),
  // Assumed: G does not document the answers to a wrong login, an expired token, or a blocked token.
  unauthorized: (message: string) => getirError(401, 401, 'Unauthorized', message),
  blocked: (ms: number) => getirError(429, 429, 'TooManyRequests', `token is blocked for ${Math.ceil(ms / 1000)} s`),
};

/** POS status values (G Swagger Model32 enum; 100 open, 200 closed as the Go and Python Getir clients read them). */
const POS_OPEN = 100;
const POS_CLOSED = 200;

type Bucket = { windowStart: number; count: number; blockedUntil: number };
type Token = { restaurantId: string; expiresAt: number; buckets: Map<string, Bucket> };

/** G rate-limits: these order calls are exempt (rate_limited: false); cancel-options has its own budget; the rest counts. */
const EXEMPT = [/^POST \/food-orders\/periodic\//, /^POST \/food-orders\/[^/]+\/(verify|prepare|handover|deliver|cancel)$/];

/**
 * A simulator of PLATFORM_A, Getir Yemek's food external API: login (token in the `token` header,
 * expiring), the rate limiter, the food order status machine with its rules and service error codes,
 * the three fallback polling endpoints, and the two partner webhooks it sends (new order, cancelled
 * order; bare or wrapped in `{ foodOrder }`). Admin routes under `/_simulator` drive it over HTTP.
 */
export class PlatformASimulator extends SimulatorServer {
  readonly orders = new Map<string, SimulatedAOrder>();
  private readonly tokens = new Map<string, Token>();
  private readonly locks = new Map<string, number>();
  /** Each restaurant's POS status (G Swagger Model32: 100 open, 200 closed); Getir opens an integrator's restaurant closed. */
  private readonly posStatuses = new Map<string, number>();
  logins = 0;
  readonly availability: PlatformAAvailabilityRoutes;
  readonly catalog: PlatformACatalogRoutes;

  constructor(readonly options: PlatformASimulatorOptions) {
    super();
    const restaurantIds = options.restaurants.map((restaurant) => restaurant.restaurantId);
    // The menu's products are the ones the status calls know (unless a test names them itself).
    this.availability = new PlatformAAvailabilityRoutes(options.availability ?? {}, restaurantIds, []);
    this.catalog = new PlatformACatalogRoutes(options.catalog ?? {}, restaurantIds, this.availability);
  }

  /** A restaurant's POS status: 200 (closed) until the integrator opens it with PUT /restaurants/pos-status. */
  posStatusOf(restaurantId: string): number {
    return this.posStatuses.get(restaurantId) ?? POS_CLOSED;
  }

  /** Makes every token issued so far expire now (the next call with one answers 401). */
  expireTokens(): void {
    for (const entry of this.tokens.values()) entry.expiresAt = 0;
  }

  /** Creates an order awaiting approval (400, or 325 when scheduled) and sends the new-order webhook. */
  async placeOrder(restaurantId: string, overrides: PlaceOrderOptions = {}, delivery: { wrapped?: boolean } = {}): Promise<{ order: SimulatedAOrder; response: PlatformResponse }> {
    const order = this.createOrder(restaurantId, overrides);
    return { order, response: await this.sendWebhook(this.options.newOrderUrl, this.foodOrder(order), delivery.wrapped) };
  }

  /** Creates an order without sending anything (a webhook that never arrived: the polling finds it). */
  createOrder(restaurantId: string, overrides: PlaceOrderOptions = {}): SimulatedAOrder {
    const isScheduled = overrides.isScheduled ?? false;
    const id = overrides.id ?? randomBytes(12).toString('hex');
    const order: SimulatedAOrder = {
      id,
      restaurantId,
      status: overrides.status ?? (isScheduled ? S.ScheduledAwaitingApproval : S.AwaitingApproval),
      deliveryType: overrides.deliveryType ?? 2,
      isScheduled,
      scheduledDate: overrides.scheduledDate ?? (isScheduled ? new Date(Date.now() + 3 * 3_600_000).toISOString() : undefined),
      confirmationId: overrides.confirmationId ?? String(1000 + this.orders.size),
      checkoutDate: new Date().toISOString(),
      dates: {},
      steps: [],
      courier: 'none',
      payload: overrides.payload ?? {},
    };
    // An order created past approval already has its courier (at the restaurant once prepared).
    if (order.deliveryType === 1 && order.status >= S.Verified && order.status < S.CancelledByPlatform) order.courier = order.status >= S.Prepared ? 'at-restaurant' : 'assigned';
    this.orders.set(id, order);
    return order;
  }

  /** The client or Getir cancels the order and sends the cancelled-order webhook. */
  async cancelOrder(id: string, cancelNote = 'Customer cancelled the order', delivery: { wrapped?: boolean } = {}): Promise<PlatformResponse> {
    const order = this.cancelOnPlatform(id, cancelNote);
    return this.sendWebhook(this.options.cancelledOrderUrl, this.foodOrder(order), delivery.wrapped);
  }

  /** The client or Getir cancels the order and the webhook never arrives (the polling finds it). */
  cancelOnPlatform(id: string, cancelNote = 'Customer cancelled the order'): SimulatedAOrder {
    const order = this.orders.get(id);
    if (!order) throw new Error(`no simulated order ${id}`);
    order.status = S.CancelledByPlatform;
    order.dates.cancelDate = new Date().toISOString();
    order.cancelNote = cancelNote;
    // cancelSource's values are not documented (assumed text).
    order.cancelReason = { id: '5d8b8f8e1c9d440000a1b2d1', messages: { tr: 'Müşteri siparişi iptal etti', en: 'The customer cancelled the order' }, cancelSource: 'CLIENT' };
    return order;
  }

  /** Sends the new-order webhook again (the platform repeating itself, or a late webhook). */
  redeliver(id: string, delivery: { wrapped?: boolean } = {}): Promise<PlatformResponse> {
    return this.sendWebhook(this.options.newOrderUrl, this.foodOrder(this.orders.get(id)!), delivery.wrapped);
  }

  /**
   * Getir's own move of a scheduled order approved with verify-scheduled (350): one hour before its
   * delivery time it becomes 500 and goes on like an immediate order, with no second approval (G
   * conventions `order_state_machine`, skills/getir-fulfil-food-order.md; platforms.md Round 2).
   */
  activateScheduled(id: string): void {
    const order = this.orders.get(id);
    if (order?.status === S.ScheduledApproved) order.status = S.Verified;
  }

  /** Moves Getir's courier of an order (a test's control): `at-restaurant` lets the handover through. */
  setCourier(id: string, state: SimulatedCourierState): SimulatedAOrder {
    const order = this.orders.get(id);
    if (!order) throw new Error(`no simulated order ${id}`);
    order.courier = state;
    order.courierDueAt = undefined;
    return order;
  }

  closeClientAccount(id: string): void {
    const order = this.orders.get(id);
    if (order) order.clientAccountClosed = true;
  }

  /**
   * The order as Getir's webhooks and order endpoints carry it (G Swagger "Get Food Order Response
   * Schema", G asyncapi payload_fields); a cancelled order adds cancelDate, cancelNote, cancelReason.
   */
  foodOrder(order: SimulatedAOrder): Record<string, unknown> {
    return {
      id: order.id,
      status: order.status,
      isScheduled: order.isScheduled,
      ...(order.scheduledDate ? { scheduledDate: order.scheduledDate } : {}),
      confirmationId: order.confirmationId,
      client: {
        id: '5f9a1b2c3d4e5f6a7b8c9d0e',
        name: 'Ayşe Yılmaz',
        contactPhoneNumber: '+908501234567',
        clientPhoneNumber: '+90555*****33',
        deliveryAddress: { id: '5f9a1b2c3d4e5f6a7b8c9d0f', address: 'Bağdat Cd. 250', aptNo: '12', floor: '3', doorNo: '5', city: 'İstanbul', district: 'Kadıköy', description: 'Yeşil bina' },
        location: { lat: 40.9719, lon: 29.0641 },
      },
      courier: order.courier === 'none' ? { id: '', status: 0, name: '', location: { lat: 0, lon: 0 } } : { id: '5f9a1b2c3d4e5f6a7b8c9d13', status: 0, name: 'Mehmet K.', location: { lat: 40.9731, lon: 29.0625 } },
      products: [
        {
          id: '5f9a1b2c3d4e5f6a7b8c9d10',
          imageURL: '',
          wideImageURL: '',
          count: 2,
          product: '5f9a1b2c3d4e5f6a7b8c9d11',
          name: { tr: 'Lahmacun', en: 'Lahmacun' },
          price: 60,
          optionPrice: 0,
          priceWithOption: 60,
          totalPrice: 120,
          totalOptionPrice: 0,
          totalPriceWithOption: 120,
          optionCategories: [],
          displayInfo: { title: { tr: 'Lahmacun', en: 'Lahmacun' }, options: { tr: [], en: [] } },
          note: 'acılı',
        },
      ],
      clientNote: 'Zile basmayın',
      doNotKnock: true,
      dropOffAtDoor: false,
      totalPrice: 120,
      totalDiscountedPrice: 110,
      checkoutDate: order.checkoutDate,
      ...order.dates,
      deliveryType: order.deliveryType,
      isEcoFriendly: false,
      paymentMethod: 1,
      paymentMethodText: { tr: 'Online Ödeme', en: 'Online Payment' },
      restaurant: { id: order.restaurantId, name: 'Demo Restoran', brand: { id: '5f9a1b2c3d4e5f6a7b8c9d12', name: 'Demo' } },
      isQueued: false,
      ...(order.cancelNote !== undefined ? { cancelNote: order.cancelNote } : {}),
      ...(order.cancelReason ? { cancelReason: order.cancelReason } : {}),
      ...order.payload,
    };
  }

  /** The order with its status named, for the admin routes. */
  adminView(order: SimulatedAOrder): Record<string, unknown> {
    const { payload: _payload, ...rest } = order;
    return { ...rest, statusName: getirStatusName(order.status) };
  }

  private async sendWebhook(url: string | undefined, foodOrder: Record<string, unknown>, wrapped = this.options.wrapWebhooks ?? false): Promise<PlatformResponse> {
    if (!url) throw new Error('the simulator has no partner URL for this webhook');
    return platformRequest({ method: 'POST', url, headers: { 'x-api-key': this.options.webhookApiKey ?? '' }, json: wrapped ? { foodOrder } : foodOrder, timeoutMs: 10_000 });
  }

  protected route(request: SimulatorRequest): Promise<SimulatorResponse> | SimulatorResponse {
    if (request.method === 'POST' && request.path === '/auth/login') return this.login(request);
    // G Swagger: both pos-status calls take the two keys in the body, not a token.
    if ((request.method === 'PUT' || request.method === 'POST') && request.path === '/restaurants/pos-status') return this.posStatus(request);
    const presented = request.headers.token;
    if (typeof presented !== 'string' || presented.trim() === '') return ERRORS.validation('"token" is required', 'headers');
    const token = this.tokens.get(presented.trim());
    if (!token || token.expiresAt <= Date.now()) return ERRORS.unauthorized('token is invalid or expired');
    const blocked = this.rateLimited(token, request);
    if (blocked) return blocked;
    const availability = this.availability.route(request, presented.trim(), token.restaurantId);
    if (availability) return availability;
    const catalog = this.catalog.route(request, presented.trim(), token.restaurantId);
    if (catalog) return catalog;

    if (request.method === 'POST' && request.path === '/food-orders/periodic/unapproved') return this.list(token, (order) => order.status === S.ScheduledAwaitingApproval || order.status === S.AwaitingApproval);
    if (request.method === 'POST' && request.path === '/food-orders/periodic/cancelled') {
      const since = Date.now() - (this.options.cancelledWindowMs ?? 3_600_000);
      return this.list(token, (order) => order.status >= S.CancelledByPlatform && Date.parse(order.dates.cancelDate ?? '') >= since);
    }
    if (request.method === 'POST' && request.path === '/food-orders/active') return this.list(token, (order) => order.status < S.Delivered);

    const options = matchPath('/food-orders/:id/cancel-options', request.path);
    if (request.method === 'GET' && options) {
      const order = this.ownOrder(options.id, token.restaurantId);
      return order ? { status: 200, body: GETIR_CANCEL_OPTIONS } : ERRORS.notFound();
    }
    const read = matchPath('/food-orders/:id', request.path);
    if (request.method === 'GET' && read) {
      const order = this.ownOrder(read.id, token.restaurantId);
      return order ? { status: 200, body: this.foodOrder(order) } : ERRORS.notFound();
    }
    const step = matchPath('/food-orders/:id/:step', request.path);
    if (request.method === 'POST' && step && ['verify', 'verify-scheduled', 'prepare', 'handover', 'deliver', 'cancel'].includes(step.step)) {
      const order = this.ownOrder(step.id, token.restaurantId);
      if (!order) return ERRORS.notFound();
      return this.change(order, step.step, bodyOf(request));
    }
    return ERRORS.routeNotFound();
  }

  protected override adminRoute(request: SimulatorRequest): Promise<SimulatorResponse> | SimulatorResponse | undefined {
    const availability = this.availability.adminRoute(request);
    if (availability) return availability;
    const catalog = this.catalog.adminRoute(request);
    if (catalog) return catalog;
    if (request.method === 'GET' && request.path === '/_simulator/pos-status') {
      return { status: 200, body: Object.fromEntries(this.options.restaurants.map((restaurant) => [restaurant.restaurantId, this.posStatusOf(restaurant.restaurantId)])) };
    }
    if (request.method === 'GET' && request.path === '/_simulator/orders') return { status: 200, body: [...this.orders.values()].map((order) => this.adminView(order)) };
    if (request.method === 'POST' && request.path === '/_simulator/orders') {
      const body = bodyOf(request);
      const restaurantId = typeof body.restaurantId === 'string' ? body.restaurantId : this.options.restaurants[0]?.restaurantId;
      if (!restaurantId) return { status: 422, body: { message: 'restaurantId is required' } };
      const overrides: PlaceOrderOptions = { deliveryType: body.deliveryType === 1 ? 1 : 2, isScheduled: body.isScheduled === true };
      if (body.webhook === false) return { status: 201, body: { order: this.adminView(this.createOrder(restaurantId, overrides)), partnerAnswer: null } };
      return this.placeOrder(restaurantId, overrides, { wrapped: body.wrapped === true }).then(({ order, response }) => ({
        status: 201,
        body: { order: this.adminView(order), partnerAnswer: { status: response.status, body: response.body } },
      }));
    }
    const courier = matchPath('/_simulator/orders/:id/courier', request.path);
    if (request.method === 'POST' && courier) {
      if (!this.orders.has(courier.id)) return { status: 404, body: { message: 'no such order' } };
      const state = bodyOf(request).state ?? 'at-restaurant';
      if (!COURIER_STATES.includes(state as SimulatedCourierState)) return { status: 422, body: { message: `state must be one of ${COURIER_STATES.join(', ')}` } };
      return { status: 200, body: { order: this.adminView(this.setCourier(courier.id, state as SimulatedCourierState)) } };
    }
    const cancel = matchPath('/_simulator/orders/:id/cancel', request.path);
    if (request.method === 'POST' && cancel) {
      if (!this.orders.has(cancel.id)) return { status: 404, body: { message: 'no such order' } };
      const body = bodyOf(request);
      const note = typeof body.cancelNote === 'string' ? body.cancelNote : undefined;
      if (body.webhook === false) return { status: 200, body: { order: this.adminView(this.cancelOnPlatform(cancel.id, note)), partnerAnswer: null } };
      return this.cancelOrder(cancel.id, note, { wrapped: body.wrapped === true }).then((response) => ({
        status: 200,
        body: { order: this.adminView(this.orders.get(cancel.id)!), partnerAnswer: { status: response.status, body: response.body } },
      }));
    }
    return undefined;
  }

  /**
   * `PUT /restaurants/pos-status { appSecretKey, restaurantSecretKey, posStatus: 100 | 200 }` sets the
   * POS status; `POST` with the two keys reads it (G Swagger; the answer's shape is assumed:
   * `{ posStatus }`, as the clients read it).
   */
  private posStatus(request: SimulatorRequest): SimulatorResponse {
    const body = bodyOf(request);
    for (const field of ['appSecretKey', 'restaurantSecretKey']) {
      if (typeof body[field] !== 'string' || body[field] === '') return ERRORS.validation(`"${field}" is required`, 'body');
    }
    const restaurant = this.options.restaurants.find((entry) => entry.secretKey === String(body.restaurantSecretKey).trim());
    if (String(body.appSecretKey).trim() !== this.options.appSecretKey || !restaurant) return ERRORS.unauthorized('appSecretKey or restaurantSecretKey is wrong');
    if (request.method === 'POST') return { status: 200, body: { posStatus: this.posStatusOf(restaurant.restaurantId) } };
    if (body.posStatus !== POS_OPEN && body.posStatus !== POS_CLOSED) return ERRORS.validation('"posStatus" must be one of [100, 200]', 'body');
    this.posStatuses.set(restaurant.restaurantId, body.posStatus);
    return { status: 200, body: { posStatus: body.posStatus } };
  }

  private login(request: SimulatorRequest): SimulatorResponse {
    const body = bodyOf(request);
    for (const field of ['appSecretKey', 'restaurantSecretKey']) {
      if (typeof body[field] !== 'string' || body[field] === '') return ERRORS.validation(`"${field}" is required`, 'body');
    }
    const restaurant = this.options.restaurants.find((entry) => entry.secretKey === String(body.restaurantSecretKey).trim());
    if (String(body.appSecretKey).trim() !== this.options.appSecretKey || !restaurant) return ERRORS.unauthorized('appSecretKey or restaurantSecretKey is wrong');
    this.logins += 1;
    const token = randomUUID();
    this.tokens.set(token, { restaurantId: restaurant.restaurantId, expiresAt: Date.now() + (this.options.tokenTtlMs ?? 3_600_000), buckets: new Map() });
    return { status: 200, body: { token, restaurantId: restaurant.restaurantId } };
  }

  /** G rate-limits: a budget per token and window; past it the token (that budget) is blocked for the block time. */
  private rateLimited(token: Token, request: SimulatorRequest): SimulatorResponse | undefined {
    const call = `${request.method} ${request.path}`;
    if (EXEMPT.some((pattern) => pattern.test(call))) return undefined;
    const cancelOptions = request.method === 'GET' && /^\/food-orders\/[^/]+\/cancel-options$/.test(request.path);
    if (cancelOptions) return this.counted(token, 'cancel-options', this.options.cancelOptionsRateLimit ?? { limit: 40, windowMs: 600_000, blockMs: 60_000 });
    if (call === 'POST /food-orders/active') {
      const refused = this.counted(token, 'active-orders', this.options.activeOrdersRateLimit ?? { limit: 20, windowMs: 60_000, blockMs: 20_000 });
      if (refused) return refused;
    }
    return this.counted(token, 'default', this.options.rateLimit ?? { limit: 300, windowMs: 60_000, blockMs: 20_000 });
  }

  /** Counts a request in one budget of the token; its refusal when the budget is blocked or goes over. */
  private counted(token: Token, name: string, rule: GetirRateLimit): SimulatorResponse | undefined {
    const now = Date.now();
    const bucket = token.buckets.get(name) ?? { windowStart: now, count: 0, blockedUntil: 0 };
    token.buckets.set(name, bucket);
    if (bucket.blockedUntil > now) return ERRORS.blocked(bucket.blockedUntil - now);
    if (now - bucket.windowStart >= rule.windowMs) {
      bucket.windowStart = now;
      bucket.count = 0;
    }
    bucket.count += 1;
    if (bucket.count > rule.limit) {
      bucket.blockedUntil = now + rule.blockMs;
      bucket.windowStart = bucket.blockedUntil;
      bucket.count = 0;
      return ERRORS.blocked(rule.blockMs);
    }
    return undefined;
  }

  private list(token: Token, include: (order: SimulatedAOrder) => boolean): SimulatorResponse {
    return { status: 200, body: [...this.orders.values()].filter((order) => order.restaurantId === token.restaurantId && include(order)).map((order) => this.foodOrder(order)) };
  }

  private ownOrder(id: string, restaurantId: string): SimulatedAOrder | undefined {
    const order = this.orders.get(id);
    return order?.restaurantId === restaurantId ? order : undefined;
  }

  /** One status change under the order's lock (code 4 while another change holds it). */
  private async change(order: SimulatedAOrder, step: string, body: Record<string, unknown>): Promise<SimulatorResponse> {
    const lockMs = this.options.statusLockMs ?? 0;
    if ((this.locks.get(order.id) ?? 0) > Date.now()) return ERRORS.statusLock();
    const refusal = step === 'cancel' ? this.cancelRefusal(order, body) : this.stepRefusal(order, step);
    if (refusal) return refusal;
    if (lockMs > 0) {
      this.locks.set(order.id, Date.now() + lockMs);
      await new Promise((resolve) => setTimeout(resolve, lockMs));
      this.locks.delete(order.id);
    }
    this.apply(order, step, body);
    return { status: 200, body: step === 'cancel' ? {} : { result: true } };
  }

  /** Why a step is refused now, with Getir's code (G errors and conventions), or undefined. */
  private stepRefusal(order: SimulatedAOrder, step: string): SimulatorResponse | undefined {
    const status = order.status;
    if (status >= S.CancelledByPlatform) return ERRORS.statusInvalid();
    if (order.clientAccountClosed) return ERRORS.clientAccountClosed();
    const sinceLast = (name: string) => Date.now() - (order.steps.filter((entry) => entry.step === name).at(-1)?.at ?? 0);
    const interval = this.options.minStepIntervalMs ?? 60_000;
    switch (step) {
      case 'verify':
        // 400 only (G: immediate or pre-approved scheduled order); 350 is approved but not yet active.
        if (status === S.AwaitingApproval) return undefined;
        if (status === S.ScheduledApproved) return ERRORS.beforeActivation();
        return status >= S.Verified ? ERRORS.alreadyVerified() : ERRORS.statusInvalid();
      case 'verify-scheduled':
        // 325 only (G: scheduled order awaiting approval).
        if (status === S.ScheduledAwaitingApproval) return undefined;
        return status === S.ScheduledApproved || status >= S.Verified || order.dates.scheduleVerifiedDate ? ERRORS.alreadyVerified() : ERRORS.statusInvalid();
      case 'prepare':
        if (status !== S.Verified) return ERRORS.statusInvalid();
        return sinceLast('verify') < interval ? ERRORS.preparedTimeLimit() : undefined;
      case 'handover':
        if (order.deliveryType !== 1 || status !== S.Prepared) return ERRORS.statusInvalid();
        return this.courierRefusal(order);
      case 'deliver':
        if (order.deliveryType !== 2 || status !== S.Prepared) return ERRORS.statusInvalid();
        return sinceLast('prepare') < interval ? ERRORS.deliveredTimeLimit() : undefined;
      default:
        return ERRORS.statusInvalid();
    }
  }

  /** Why Getir's courier cannot take the order now (G errors 71, 15, 14), or undefined. */
  private courierRefusal(order: SimulatedAOrder): SimulatorResponse | undefined {
    if (order.courier === 'assigned' && order.courierDueAt !== undefined && order.courierDueAt <= Date.now()) order.courier = 'at-restaurant';
    switch (order.courier) {
      case 'none':
        return ERRORS.noCourier();
      case 'assigned':
        return ERRORS.courierNotAtRestaurant();
      case 'unavailable':
        return ERRORS.courierStatusInvalid();
      default:
        return undefined;
    }
  }

  private cancelRefusal(order: SimulatedAOrder, body: Record<string, unknown>): SimulatorResponse | undefined {
    if (order.status >= S.CancelledByPlatform) return ERRORS.alreadyCancelled();
    // Assumed: once Getir's courier has the order (or it was delivered) the restaurant cannot cancel it.
    if (order.status >= S.HandedOver) return ERRORS.cannotBeCancelled();
    if (body.cancelReasonId === undefined || body.cancelReasonId === '') return ERRORS.validation('"cancelReasonId" is required', 'body');
    if (typeof body.cancelReasonId !== 'string' || (body.cancelNote !== undefined && typeof body.cancelNote !== 'string') || (body.productId !== undefined && typeof body.productId !== 'string')) {
      return ERRORS.validation('"cancelReasonId", "cancelNote" and "productId" must be strings', 'body');
    }
    if (!GETIR_CANCEL_OPTIONS.some((option) => option.id === body.cancelReasonId)) return ERRORS.noCancelReason();
    if (body.productId !== undefined && !(this.foodOrder(order).products as Array<{ id: string }>).some((product) => product.id === body.productId)) return ERRORS.productNotOfRestaurant();
    return undefined;
  }

  private apply(order: SimulatedAOrder, step: string, body: Record<string, unknown>): void {
    const now = new Date();
    const moves: Record<string, [number, string]> = {
      verify: [S.Verified, 'verifyDate'],
      'verify-scheduled': [S.ScheduledApproved, 'scheduleVerifiedDate'],
      prepare: [S.Prepared, 'prepareDate'],
      handover: [S.HandedOver, 'handoverDate'],
      deliver: [S.Delivered, 'deliverDate'],
      cancel: [S.CancelledByRestaurant, 'cancelDate'],
    };
    const [status, date] = moves[step];
    order.status = status;
    order.dates[date] = now.toISOString();
    // Assumed: Getir assigns its courier once the order is approved; it reaches the restaurant after prepare.
    if ((step === 'verify' || step === 'verify-scheduled') && order.deliveryType === 1 && order.courier === 'none') order.courier = 'assigned';
    const arrivesAfter = this.options.courierArrivesAfterMs === undefined ? 0 : this.options.courierArrivesAfterMs;
    if (step === 'prepare' && order.courier === 'assigned' && arrivesAfter !== null) order.courierDueAt = now.getTime() + arrivesAfter;
    if (step === 'cancel') order.cancelNote = typeof body.cancelNote === 'string' ? body.cancelNote : undefined;
    order.steps.push({ step, at: now.getTime() });
  }
}
