import { randomBytes, randomUUID } from 'node:crypto';
import { platformRequest, PlatformResponse } from '../../adapters/common/platform-http';
import { GETIR_COURIER, PLATFORM_A_STATUS, PLATFORM_A_TOO_EARLY_CODE, RESTAURANT_COURIER } from '../../adapters/platform-a/platform-a.assumptions';
import { bodyOf, matchPath, SimulatorRequest, SimulatorResponse, SimulatorServer } from '../common/simulator-server';

export interface PlatformASimulatorOptions {
  appSecretKey: string;
  /** Restaurants that can log in: their Getir id and secret key. */
  restaurants: Array<{ restaurantId: string; secretKey: string }>;
  tokenTtlMs?: number;
  /** The platform's rule: this long at least between verify, prepare and handover/deliver (default 60 s). */
  minStepIntervalMs?: number;
  /** Our partner URLs and the static key the platform sends with them. */
  newOrderUrl?: string;
  cancelledOrderUrl?: string;
  webhookApiKey?: string;
  /**
   * The rate limit per token (platforms.md, G `rate-limits/`: 300 requests / 60 s, then the token is
   * blocked 20 s), counted over a sliding window (the strictest reading); unset: not enforced.
   */
  rateLimit?: { limit: number; windowMs: number; blockMs: number };
}

export interface SimulatedAOrder {
  id: string;
  restaurantId: string;
  status: number;
  deliveryType: number;
  isScheduled: boolean;
  scheduledDate?: string;
  confirmationId: string;
  /** When the platform received each accepted step (verify, prepare, handover, deliver, cancel). */
  steps: Array<{ step: string; at: number }>;
  payload: Record<string, unknown>;
}

const CANCEL_OPTIONS = [
  { id: '5d8b8f8e1c9d440000a1b2c1', message: { tr: 'Restoran çok yoğun', en: 'Restaurant is too busy' } },
  { id: '5d8b8f8e1c9d440000a1b2c2', message: { tr: 'Ürün kalmadı', en: 'Out of stock' } },
  { id: '5d8b8f8e1c9d440000a1b2c3', message: { tr: 'Restoran kapalı', en: 'Restaurant closed' } },
];

const STEP_RULES: Record<string, { from: number[]; to: number; alreadyCode: number; alreadyFrom: number; deliveryType?: number }> = {
  verify: { from: [PLATFORM_A_STATUS.AWAITING_VERIFICATION], to: PLATFORM_A_STATUS.VERIFIED, alreadyCode: 2, alreadyFrom: PLATFORM_A_STATUS.VERIFIED },
  'verify-scheduled': { from: [PLATFORM_A_STATUS.SCHEDULED_AWAITING_VERIFICATION], to: PLATFORM_A_STATUS.VERIFIED, alreadyCode: 2, alreadyFrom: PLATFORM_A_STATUS.VERIFIED },
  prepare: { from: [PLATFORM_A_STATUS.VERIFIED], to: PLATFORM_A_STATUS.PREPARED, alreadyCode: 3, alreadyFrom: PLATFORM_A_STATUS.PREPARED },
  handover: { from: [PLATFORM_A_STATUS.PREPARED], to: PLATFORM_A_STATUS.HANDED_OVER, alreadyCode: 4, alreadyFrom: PLATFORM_A_STATUS.HANDED_OVER, deliveryType: GETIR_COURIER },
  deliver: { from: [PLATFORM_A_STATUS.PREPARED, PLATFORM_A_STATUS.HANDED_OVER, PLATFORM_A_STATUS.ON_THE_WAY], to: PLATFORM_A_STATUS.DELIVERED, alreadyCode: 5, alreadyFrom: PLATFORM_A_STATUS.DELIVERED, deliveryType: RESTAURANT_COURIER },
};

function domainError(status: number, code: number, error: string, message: string): SimulatorResponse {
  return { status, body: { code, error, message, details: null, source: 'food-external-api-gateway' } };
}

/**
 * A simulator of PLATFORM_A (Getir Yemek's food external API): login with app key and restaurant
 * key (token in a `token` header, expiring), the status calls with the platform's rules (order of
 * steps, at least `minStepIntervalMs` between steps, delivery type, cancel options) and its domain
 * errors (2 FoodOrderAlreadyVerified, 13 FoodOrderAlreadyCancelled, ...), and the partner webhooks
 * it sends for new and cancelled orders.
 */
export class PlatformASimulator extends SimulatorServer {
  readonly orders = new Map<string, SimulatedAOrder>();
  private readonly tokens = new Map<string, { restaurantId: string; expiresAt: number; calls: number[]; blockedUntil: number }>();
  logins = 0;

  constructor(readonly options: PlatformASimulatorOptions) {
    super();
  }

  /** Makes every token issued so far expire now (the adapter must log in again after a 401). */
  expireTokens(): void {
    for (const entry of this.tokens.values()) entry.expiresAt = 0;
  }

  /** Creates an order awaiting verification and sends it to the new-order URL. */
  async placeOrder(restaurantId: string, overrides: Partial<SimulatedAOrder> & { payload?: Record<string, unknown> } = {}): Promise<{ order: SimulatedAOrder; response: PlatformResponse }> {
    const order = this.createOrder(restaurantId, overrides);
    return { order, response: await this.sendWebhook(this.options.newOrderUrl, order) };
  }

  createOrder(restaurantId: string, overrides: Partial<SimulatedAOrder> & { payload?: Record<string, unknown> } = {}): SimulatedAOrder {
    const isScheduled = overrides.isScheduled ?? false;
    const id = overrides.id ?? randomBytes(12).toString('hex');
    const order: SimulatedAOrder = {
      id,
      restaurantId,
      status: overrides.status ?? (isScheduled ? PLATFORM_A_STATUS.SCHEDULED_AWAITING_VERIFICATION : PLATFORM_A_STATUS.AWAITING_VERIFICATION),
      deliveryType: overrides.deliveryType ?? RESTAURANT_COURIER,
      isScheduled,
      scheduledDate: overrides.scheduledDate ?? (isScheduled ? new Date(Date.now() + 3 * 3_600_000).toISOString() : undefined),
      confirmationId: overrides.confirmationId ?? String(1000 + this.orders.size),
      steps: [],
      payload: overrides.payload ?? {},
    };
    this.orders.set(id, order);
    return order;
  }

  /** Cancels the order on the platform and sends it to the cancelled-order URL. */
  async cancelOrder(id: string, cancelNote = 'Customer cancelled the order'): Promise<PlatformResponse> {
    const order = this.orders.get(id);
    if (!order) throw new Error(`no simulated order ${id}`);
    order.status = PLATFORM_A_STATUS.CANCELED_BY_PLATFORM;
    return this.sendWebhook(this.options.cancelledOrderUrl, order, { cancelNote });
  }

  /** Sends the order again (the platform repeating a webhook). */
  redeliver(id: string): Promise<PlatformResponse> {
    return this.sendWebhook(this.options.newOrderUrl, this.orders.get(id)!);
  }

  /** The order as Getir's webhooks and order endpoints carry it. */
  foodOrder(order: SimulatedAOrder, extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      id: order.id,
      status: order.status,
      isScheduled: order.isScheduled,
      scheduledDate: order.scheduledDate,
      confirmationId: order.confirmationId,
      deliveryType: order.deliveryType,
      checkoutDate: new Date().toISOString(),
      restaurant: { id: order.restaurantId },
      client: {
        name: 'Ayşe Yılmaz',
        contactPhoneNumber: '+905551112233',
        deliveryAddress: { address: 'Bağdat Cd. 250', doorNo: '5', district: 'Kadıköy', city: 'İstanbul' },
        location: { lat: 40.9719, lon: 29.0641 },
      },
      products: [{ id: 'p-1', name: { tr: 'Lahmacun', en: 'Lahmacun' }, count: 2, price: 60, totalPrice: 120, note: 'acılı' }],
      clientNote: 'Zile basmayın',
      totalPrice: 120,
      totalDiscountedPrice: 110,
      paymentMethodText: { tr: 'Online Ödeme', en: 'Online Payment' },
      ...order.payload,
      ...extra,
    };
  }

  private async sendWebhook(url: string | undefined, order: SimulatedAOrder, extra: Record<string, unknown> = {}): Promise<PlatformResponse> {
    if (!url) throw new Error('the simulator has no partner URL for this webhook');
    return platformRequest({ method: 'POST', url, headers: { 'x-api-key': this.options.webhookApiKey ?? '' }, json: this.foodOrder(order, extra), timeoutMs: 10_000 });
  }

  protected route(request: SimulatorRequest): SimulatorResponse {
    if (request.method === 'POST' && request.path === '/auth/login') return this.login(request);
    const session = this.session(request);
    if (!session) return domainError(401, 1, 'Unauthorized', 'token is missing, unknown or expired');
    if (this.overRateLimit(session)) return { status: 429, body: { message: 'rate limit exceeded: the token is blocked for a while' } };

    const options = matchPath('/food-orders/:id/cancel-options', request.path);
    if (request.method === 'GET' && options) {
      const order = this.ownOrder(options.id, session.restaurantId);
      return order ? { status: 200, body: CANCEL_OPTIONS } : domainError(404, 9, 'FoodOrderNotFound', 'no such food order');
    }
    const step = matchPath('/food-orders/:id/:step', request.path);
    if (request.method === 'POST' && step) {
      const order = this.ownOrder(step.id, session.restaurantId);
      if (!order) return domainError(404, 9, 'FoodOrderNotFound', 'no such food order');
      if (step.step === 'cancel') return this.cancel(order, request);
      if (STEP_RULES[step.step]) return this.transition(order, step.step);
    }
    return domainError(404, 0, 'NotFound', `no route ${request.method} ${request.path}`);
  }

  protected override adminRoute(request: SimulatorRequest): Promise<SimulatorResponse> | SimulatorResponse | undefined {
    if (request.method === 'GET' && request.path === '/_simulator/orders') return { status: 200, body: [...this.orders.values()] };
    if (request.method === 'POST' && request.path === '/_simulator/orders') {
      const body = bodyOf(request);
      const restaurantId = typeof body.restaurantId === 'string' ? body.restaurantId : this.options.restaurants[0]?.restaurantId;
      if (!restaurantId) return { status: 422, body: { message: 'restaurantId is required' } };
      return this.placeOrder(restaurantId, { deliveryType: body.deliveryType === GETIR_COURIER ? GETIR_COURIER : RESTAURANT_COURIER }).then(({ order, response }) => ({
        status: 201,
        body: { order, partnerAnswer: { status: response.status, body: response.body } },
      }));
    }
    const cancel = matchPath('/_simulator/orders/:id/cancel', request.path);
    if (request.method === 'POST' && cancel) {
      if (!this.orders.has(cancel.id)) return { status: 404, body: { message: 'no such order' } };
      return this.cancelOrder(cancel.id).then((response) => ({ status: 200, body: { partnerAnswer: { status: response.status, body: response.body } } }));
    }
    return undefined;
  }

  private login(request: SimulatorRequest): SimulatorResponse {
    const body = bodyOf(request);
    const restaurant = this.options.restaurants.find((entry) => entry.secretKey === body.restaurantSecretKey);
    if (body.appSecretKey !== this.options.appSecretKey || !restaurant) return domainError(401, 1, 'Unauthorized', 'appSecretKey or restaurantSecretKey is wrong');
    this.logins += 1;
    const token = randomUUID();
    this.tokens.set(token, { restaurantId: restaurant.restaurantId, expiresAt: Date.now() + (this.options.tokenTtlMs ?? 3_600_000), calls: [], blockedUntil: 0 });
    return { status: 200, body: { token, restaurantId: restaurant.restaurantId } };
  }

  /** Counts the call against its token; true when the token is (or now becomes) blocked. */
  private overRateLimit(session: { calls: number[]; blockedUntil: number }): boolean {
    const rule = this.options.rateLimit;
    if (!rule) return false;
    const now = Date.now();
    if (now < session.blockedUntil) return true;
    session.calls = session.calls.filter((at) => at > now - rule.windowMs);
    if (session.calls.length >= rule.limit) {
      session.blockedUntil = now + rule.blockMs;
      return true;
    }
    session.calls.push(now);
    return false;
  }

  private session(request: SimulatorRequest): { restaurantId: string; calls: number[]; blockedUntil: number } | undefined {
    const token = request.headers.token;
    const entry = typeof token === 'string' ? this.tokens.get(token) : undefined;
    return entry && entry.expiresAt > Date.now() ? entry : undefined;
  }

  private ownOrder(id: string, restaurantId: string): SimulatedAOrder | undefined {
    const order = this.orders.get(id);
    return order?.restaurantId === restaurantId ? order : undefined;
  }

  private transition(order: SimulatedAOrder, step: string): SimulatorResponse {
    const rule = STEP_RULES[step];
    if (order.status >= PLATFORM_A_STATUS.CANCELED_BY_PLATFORM) return domainError(400, 12, 'FoodOrderCancelled', 'the food order is cancelled');
    if (order.status >= rule.alreadyFrom) return domainError(400, rule.alreadyCode, `FoodOrderAlready${step}`, `the food order is already past ${step}`);
    if (rule.deliveryType !== undefined && order.deliveryType !== rule.deliveryType) return domainError(400, 21, 'WrongDeliveryType', `${step} is not possible for deliveryType ${order.deliveryType}`);
    if (!rule.from.includes(order.status)) return domainError(400, 20, 'FoodOrderStatusInvalid', `${step} is not possible in status ${order.status}`);
    const last = order.steps[order.steps.length - 1];
    const minimum = this.options.minStepIntervalMs ?? 60_000;
    if (last && Date.now() - last.at < minimum) return domainError(400, PLATFORM_A_TOO_EARLY_CODE, 'FoodOrderStatusChangeTooEarly', `at least ${minimum} ms between status changes`);
    order.status = rule.to;
    order.steps.push({ step, at: Date.now() });
    return { status: 200, body: { id: order.id, status: order.status } };
  }

  private cancel(order: SimulatedAOrder, request: SimulatorRequest): SimulatorResponse {
    if (order.status >= PLATFORM_A_STATUS.CANCELED_BY_PLATFORM) return domainError(400, 13, 'FoodOrderAlreadyCancelled', 'the food order is already cancelled');
    if (order.status >= PLATFORM_A_STATUS.DELIVERED) return domainError(400, 15, 'FoodOrderDelivered', 'a delivered food order cannot be cancelled');
    const body = bodyOf(request);
    if (!CANCEL_OPTIONS.some((option) => option.id === body.cancelReasonId)) return domainError(400, 14, 'InvalidCancelReason', 'cancelReasonId is not one of the cancel options');
    if (typeof body.cancelNote !== 'string' || body.cancelNote === '') return domainError(400, 16, 'CancelNoteRequired', 'cancelNote is required');
    order.status = PLATFORM_A_STATUS.CANCELED_BY_RESTAURANT;
    order.steps.push({ step: 'cancel', at: Date.now() });
    return { status: 200, body: { id: order.id, status: order.status } };
  }
}
