import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { platformRequest, PlatformResponse } from '../../adapters/common/platform-http';
import { isRecord } from '../../adapters/common/payload-reader';
import { bodyOf, matchPath, SimulatorRequest, SimulatorResponse, SimulatorServer } from '../common/simulator-server';
import { PlatformBAvailabilityRoutes } from './platform-b.availability-routes';

/*
 * Built from /work/shared/spec/platforms.md (PLATFORM_B) and its source B (DH's POS Plugin API and
 * POS Middleware API as public plugins implement them: omidmohammadizadeh/orderhub-enterprise
 * apps/api/src/modules/integrations/talabat/ talabat-types.ts, talabat-jwt.ts,
 * talabat-order-sync.service.ts, talabat-sandbox.service.ts, tests/talabat-spec-examples.ts), not
 * from our adapter: its reason list, JWT signing and rules are its own.
 */

/** The middleware's rejection reasons (B: talabat-types.ts, transcribed from the spec's enum). */
const REJECT_REASONS = new Set([
  'ADDRESS_INCOMPLETE_MISSTATED', 'BAD_WEATHER', 'BLACKLISTED', 'CARD_READER_NOT_AVAILABLE', 'CLOSED', 'CONTENT_WRONG_MISLEADING',
  'FOOD_QUALITY_SPILLAGE', 'FRAUD_PRANK', 'ITEM_UNAVAILABLE', 'LATE_DELIVERY', 'MENU_ACCOUNT_SETTINGS', 'MOV_NOT_REACHED',
  'NO_COURIER', 'NO_PICKER', 'NO_RESPONSE', 'OUTSIDE_DELIVERY_AREA', 'TECHNICAL_PROBLEM', 'TEST_ORDER', 'TOO_BUSY',
  'UNABLE_TO_FIND', 'UNABLE_TO_PAY', 'UNPROFESSIONAL_BEHAVIOUR', 'WILL_NOT_WORK_WITH_PLATFORM', 'WRONG_ORDER_ITEMS_DELIVERED',
]);
/** The reasons the spec marks "applicable after acceptance" (B: talabat-types.ts). */
const AFTER_ACCEPTANCE_REASONS = new Set(['BAD_WEATHER', 'CARD_READER_NOT_AVAILABLE', 'CONTENT_WRONG_MISLEADING', 'FOOD_QUALITY_SPILLAGE', 'LATE_DELIVERY', 'UNABLE_TO_FIND', 'UNABLE_TO_PAY', 'UNPROFESSIONAL_BEHAVIOUR', 'WRONG_ORDER_ITEMS_DELIVERED']);
const MIN_ACCEPTANCE_LEAD_MS = 2 * 60_000;
const HASHES = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' } as const;

export type PlatformBJwtAlgorithm = keyof typeof HASHES;

export interface PlatformBSimulatorOptions {
  /** POS users of the chains: username, password. */
  users: Array<{ username: string; password: string }>;
  /** Lifetime of a login's token (answered as `expires_in`). */
  tokenTtlMs?: number;
  /** Our plugin's base URL, and the secret the middleware signs its JWTs to it with. */
  pluginUrl?: string;
  pluginSecret?: string;
  /** Algorithm of the plugin JWTs (default HS256) and their lifetime (`exp`, default 60 s). */
  pluginJwtAlgorithm?: PlatformBJwtAlgorithm;
  pluginJwtTtlMs?: number;
  /** How long an order stays WAITING_FOR_ACKNOWLEDGEMENT after the plugin answered its dispatch. */
  ackDelayMs?: number;
  /** How long a platform-rider order is ASSIGNED_TO_TRANSPORT after that (409 to status calls too). */
  transportDelayMs?: number;
  /** `expiryDate` of a new order: dispatch time + this (default 10 min); unanswered past it, the middleware cancels it. */
  expiryMs?: number;
  /** The DH platforms a vendor is on and the closingMinutes they offer (platform-b.availability-routes.ts). */
  availability?: { platforms?: Array<{ platformKey: string; platformType?: string }>; closingMinutes?: number[] };
  /** How often expired orders are looked for (default 250 ms). */
  expirySweepMs?: number;
  /** Dispatch attempts when the plugin does not answer 2xx (the real middleware: up to 10, 30-240 s apart; 4xx is not retried). */
  dispatchAttempts?: number;
  dispatchRetryDelayMs?: number;
}

/** RECEIVED: acknowledged by the plugin, awaiting accept or reject. */
export type SimulatedBState = 'WAITING_FOR_ACKNOWLEDGEMENT' | 'ASSIGNED_TO_TRANSPORT' | 'RECEIVED' | 'ACCEPTED' | 'PREPARED' | 'PICKED_UP' | 'REJECTED' | 'CANCELLED';

export interface SimulatedBOrder {
  token: string;
  code: string;
  remoteId: string;
  remoteOrderId?: string;
  delivery: 'platform' | 'vendor' | 'pickup';
  test: boolean;
  state: SimulatedBState;
  createdAt: number;
  expiresAt: number;
  acknowledgedAt?: number;
  /** A state forced until a time (tests): status calls see it, and get its 409. */
  held?: { state: 'WAITING_FOR_ACKNOWLEDGEMENT' | 'ASSIGNED_TO_TRANSPORT'; until: number };
  acceptanceTime?: string;
  rejectReason?: string;
  cancelReason?: string;
  /** The callback URLs the status calls came in on (the order's callbackUrls), in order. */
  callbacks: string[];
  payload: Record<string, unknown>;
}

function refusal(status: number, code: string, message: string, extra: Record<string, unknown> = {}): SimulatorResponse {
  return { status, body: { code, message, ...extra } };
}

const ok = (): SimulatorResponse => ({ status: 200, body: { message: 'Order status successfully changed.' } });

/**
 * A simulator of PLATFORM_B (the Delivery Hero POS middleware): form login with a signed JWT and
 * `expires_in`; the status calls on each order's callback URLs (order_accepted needs an RFC 3339
 * acceptanceTime at least 2 minutes ahead and remoteOrderId; order_rejected a reason of the fixed
 * list, after acceptance only an after-acceptance one; order_picked_up only for vendor delivery and
 * pickup; preparation-completed only for platform riders); 409 with `currentState`
 * WAITING_FOR_ACKNOWLEDGEMENT or ASSIGNED_TO_TRANSPORT while the order is not ready and for cancelled
 * orders; and the calls it makes to our plugin, each with a fresh HMAC-signed JWT (`service:
 * middleware`, `exp`): the dispatch (test orders, expiryDate, callbackUrls; retried until a 2xx
 * with remoteOrderId), cancellations (posOrderStatus, also when an order expires unanswered), vendor
 * availability, menu import requests and the health check.
 */
export class PlatformBSimulator extends SimulatorServer {
  readonly orders = new Map<string, SimulatedBOrder>();
  logins = 0;
  /** Tokens carry the generation they were issued in; expireTokens() starts a new one (a clock would tie within a millisecond). */
  private tokenGeneration = 0;
  private readonly signingKey = randomBytes(32);
  private sweeper?: NodeJS.Timeout;
  /** Vendor and item availability, and DH closing a vendor itself (it tells the plugin, signed like every call). */
  readonly availability: PlatformBAvailabilityRoutes;

  constructor(readonly options: PlatformBSimulatorOptions) {
    super();
    this.availability = new PlatformBAvailabilityRoutes({ ...options.availability, tellPlugin: async (remoteId, body) => this.options.pluginUrl ? this.pluginCall('PUT', `/remoteId/${encodeURIComponent(remoteId)}/availability`, body) : undefined });
  }

  override async start(port = 0): Promise<string> {
    const url = await super.start(port);
    this.sweeper = setInterval(() => void this.expireUnanswered(), this.options.expirySweepMs ?? 250);
    this.sweeper.unref();
    return url;
  }

  override async stop(): Promise<void> {
    clearInterval(this.sweeper);
    await super.stop();
  }

  /** Makes every token issued so far invalid (401), as an expiry would. */
  expireTokens(): void {
    this.tokenGeneration += 1;
  }

  /** Keeps an order in a not-ready state for `ms` (its status calls get 409 with that currentState). */
  holdState(token: string, state: 'WAITING_FOR_ACKNOWLEDGEMENT' | 'ASSIGNED_TO_TRANSPORT', ms: number): void {
    this.orders.get(token)!.held = { state, until: Date.now() + ms };
  }

  createOrder(remoteId: string, overrides: Partial<Pick<SimulatedBOrder, 'token' | 'code' | 'delivery' | 'test' | 'state' | 'expiresAt' | 'payload'>> = {}): SimulatedBOrder {
    const token = overrides.token ?? randomUUID();
    const now = Date.now();
    const order: SimulatedBOrder = {
      token,
      code: overrides.code ?? `ys-${randomBytes(3).toString('hex')}`,
      remoteId,
      delivery: overrides.delivery ?? 'vendor',
      test: overrides.test ?? false,
      state: overrides.state ?? 'WAITING_FOR_ACKNOWLEDGEMENT',
      createdAt: now,
      expiresAt: overrides.expiresAt ?? now + (this.options.expiryMs ?? 10 * 60_000),
      callbacks: [],
      payload: overrides.payload ?? {},
    };
    this.orders.set(token, order);
    return order;
  }

  /** Creates an order and dispatches it to the plugin, retrying as configured; the last answer. */
  async dispatchOrder(remoteId: string, overrides: Parameters<PlatformBSimulator['createOrder']>[1] = {}): Promise<{ order: SimulatedBOrder; response: PlatformResponse; attempts: number }> {
    const order = this.createOrder(remoteId, overrides);
    const result = await this.redispatch(order.token);
    return { order, ...result };
  }

  /** Sends an order's dispatch again (the middleware's retries). */
  async redispatch(token: string): Promise<{ response: PlatformResponse; attempts: number }> {
    const order = this.orders.get(token)!;
    const attempts = Math.max(1, this.options.dispatchAttempts ?? 1);
    let response: PlatformResponse | undefined;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      try {
        response = await this.pluginCall('POST', `/order/${encodeURIComponent(order.remoteId)}`, this.orderPayload(order));
      } catch (error) {
        response = { status: 0, headers: {}, body: String(error) };
      }
      const remoteOrderId = isRecord(response.body) && isRecord(response.body.remoteResponse) ? response.body.remoteResponse.remoteOrderId : undefined;
      if (response.status >= 200 && response.status < 300 && typeof remoteOrderId === 'string') {
        order.remoteOrderId = remoteOrderId;
        order.acknowledgedAt ??= Date.now();
        if (order.state === 'WAITING_FOR_ACKNOWLEDGEMENT') order.state = 'RECEIVED';
        return { response, attempts: attempt };
      }
      // 400 (the plugin cannot process it) and 401 are not retried; 429 and 5xx are.
      if (response.status >= 400 && response.status < 500 && response.status !== 429) return { response, attempts: attempt };
      if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, this.options.dispatchRetryDelayMs ?? 100));
    }
    return { response: response!, attempts };
  }

  /** Cancels on the platform and tells the plugin (posOrderStatus ORDER_CANCELLED). */
  async cancelOrder(token: string, message = 'Customer cancelled the order'): Promise<PlatformResponse> {
    const order = this.orders.get(token)!;
    order.state = 'CANCELLED';
    order.cancelReason = message;
    return this.tellCancelled(order, message);
  }

  private tellCancelled(order: SimulatedBOrder, message: string): Promise<PlatformResponse> {
    return this.pluginCall('PUT', `/remoteId/${encodeURIComponent(order.remoteId)}/remoteOrder/${encodeURIComponent(order.remoteOrderId ?? '')}/posOrderStatus`, { status: 'ORDER_CANCELLED', message });
  }

  /** The platform's rider (or the customer) collected the order: posOrderStatus ORDER_PICKED_UP. */
  async reportPickedUp(token: string): Promise<PlatformResponse> {
    const order = this.orders.get(token)!;
    order.state = 'PICKED_UP';
    return this.pluginCall('PUT', `/remoteId/${encodeURIComponent(order.remoteId)}/remoteOrder/${encodeURIComponent(order.remoteOrderId ?? '')}/posOrderStatus`, { status: 'ORDER_PICKED_UP', message: 'Picked up' });
  }

  /** The platform opened or closed the vendor (B: `{ timestamp, closures[] }`; no closures = open). */
  setVendorAvailability(remoteId: string, closures: Array<{ reason: string; start: string; end?: string | null; changeable: boolean }>): Promise<PlatformResponse> {
    return this.pluginCall('PUT', `/remoteId/${encodeURIComponent(remoteId)}/availability`, { timestamp: new Date().toISOString(), closures });
  }

  /** The middleware asks the plugin for the vendor's menu (the answer is a 202; the menu comes back through the middleware API). */
  requestMenuImport(remoteId: string, vendorCode = 'v-demo'): Promise<PlatformResponse> {
    return this.pluginCall('GET', `/menuimport/${encodeURIComponent(remoteId)}?vendorCode=${encodeURIComponent(vendorCode)}&menuImportId=${randomUUID()}`);
  }

  healthCheck(): Promise<PlatformResponse> {
    return this.pluginCall('GET', '/');
  }

  /** A call to the plugin as the middleware makes it, with a fresh signed JWT (or the given Authorization header). */
  pluginCall(method: 'GET' | 'POST' | 'PUT', path: string, json?: unknown, authorization = `Bearer ${this.pluginJwt()}`): Promise<PlatformResponse> {
    if (!this.options.pluginUrl) throw new Error('the simulator has no plugin URL');
    return platformRequest({ method, url: `${this.options.pluginUrl.replace(/\/+$/, '')}${path}`, headers: { Authorization: authorization }, json, timeoutMs: 10_000 });
  }

  /** The middleware's JWT to the plugin: HMAC with the plugin secret, `service: middleware`, `exp`. */
  pluginJwt(claims: Record<string, unknown> = {}, algorithm: PlatformBJwtAlgorithm = this.options.pluginJwtAlgorithm ?? 'HS256', secret = this.options.pluginSecret ?? ''): string {
    const now = Math.floor(Date.now() / 1000);
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${encode({ alg: algorithm, typ: 'JWT' })}.${encode({ service: 'middleware', iat: now, exp: now + Math.ceil((this.options.pluginJwtTtlMs ?? 60_000) / 1000), ...claims })}`;
    return `${unsigned}.${createHmac(HASHES[algorithm], secret).update(unsigned).digest('base64url')}`;
  }

  /** The dispatch body in the middleware's shape (pluginOrder.yaml): amounts as strings, no currency code. */
  orderPayload(order: SimulatedBOrder): Record<string, unknown> {
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const callback = (path: string | null) => (path && this.baseUrl ? `${this.baseUrl}${path}` : null);
    const statusPath = `/v2/order/status/${order.token}`;
    return {
      token: order.token,
      code: order.code,
      shortCode: order.code.slice(-3),
      createdAt: iso(order.createdAt),
      expiryDate: iso(order.expiresAt),
      expeditionType: order.delivery === 'pickup' ? 'pickup' : 'delivery',
      preOrder: false,
      test: order.test,
      platformRestaurant: { id: `pr-${order.remoteId}` },
      customer: { firstName: 'Mehmet', lastName: 'Demir', mobilePhone: '+905321234567' },
      delivery:
        order.delivery === 'pickup'
          ? null
          : {
              address: { street: 'İstiklal Cd.', number: '12', city: 'İstanbul', postcode: '34430', latitude: 41.0335, longitude: 28.9779, deliveryInstructions: 'Zili çalın' },
              expectedDeliveryTime: iso(now + 45 * 60_000),
              expressDelivery: false,
              riderPickupTime: order.delivery === 'platform' ? iso(now + 25 * 60_000) : null,
            },
      pickup: order.delivery === 'pickup' ? { pickupCode: '4321', pickupTime: iso(now + 20 * 60_000) } : null,
      comments: { customerComment: 'Kapıda ödeme' },
      payment: { type: 'online', status: 'paid' },
      price: { grandTotal: '185.50', totalNet: '170.00', vatTotal: '15.50', deliveryFees: [] },
      products: [{ id: 'dh-77', remoteCode: 'iskender-1', name: 'İskender', quantity: '1', unitPrice: '185.50', paidPrice: '185.50', comment: '', selectedToppings: [] }],
      localInfo: { countryCode: 'tr', currencySymbol: '₺', platform: 'Yemeksepeti', platformKey: 'YS_TR' },
      callbackUrls: {
        orderAcceptedUrl: callback(statusPath),
        orderRejectedUrl: callback(statusPath),
        orderPickedUpUrl: callback(order.delivery === 'platform' ? null : statusPath),
        orderPreparedUrl: callback(order.delivery === 'platform' ? `/v2/orders/${order.token}/preparation-completed` : null),
      },
      ...order.payload,
    };
  }

  /** The login is an OAuth client-credentials request, form-encoded; every other call is JSON. */
  protected override acceptsForm(request: SimulatorRequest): boolean {
    return request.method === 'POST' && request.path === '/v2/login';
  }

  protected override unsupportedMediaType(request: SimulatorRequest): SimulatorResponse {
    return refusal(415, 'UNSUPPORTED_MEDIA_TYPE', this.acceptsForm(request) ? 'login is form-encoded' : 'the body must be JSON');
  }

  protected route(request: SimulatorRequest): SimulatorResponse {
    if (request.method === 'POST' && request.path === '/v2/login') return this.login(request);
    if (!this.authorised(request)) return refusal(401, 'UNAUTHORIZED', 'invalid or expired token');

    const status = matchPath('/v2/order/status/:token', request.path);
    if (request.method === 'POST' && status) return this.changeStatus(status.token, bodyOf(request), request.path);
    const ready = matchPath('/v2/orders/:token/preparation-completed', request.path);
    if (request.method === 'POST' && ready) return this.prepared(ready.token, request.path);
    const availability = this.availability.route(request);
    if (availability) return availability;
    return refusal(404, 'NOT_FOUND', `no route ${request.method} ${request.path}`);
  }

  protected override adminRoute(request: SimulatorRequest): Promise<SimulatorResponse> | SimulatorResponse | undefined {
    if (request.method === 'GET' && request.path === '/_simulator/orders') return { status: 200, body: [...this.orders.values()].map((order) => ({ ...order, state: this.currentState(order) })) };
    if (request.method === 'POST' && request.path === '/_simulator/orders') {
      const body = bodyOf(request);
      if (typeof body.remoteId !== 'string') return { status: 422, body: { message: 'remoteId (the vendor) is required' } };
      const delivery = body.delivery === 'platform' || body.delivery === 'pickup' ? body.delivery : 'vendor';
      return this.dispatchOrder(body.remoteId, { delivery, test: body.test === true }).then(({ order, response }) => ({
        status: 201,
        body: { order: { ...order, state: this.currentState(order) }, pluginAnswer: { status: response.status, body: response.body } },
      }));
    }
    const cancel = matchPath('/_simulator/orders/:token/cancel', request.path);
    if (request.method === 'POST' && cancel) {
      if (!this.orders.has(cancel.token)) return { status: 404, body: { message: 'no such order' } };
      return this.cancelOrder(cancel.token).then((response) => ({ status: 200, body: { pluginAnswer: { status: response.status, body: response.body } } }));
    }
    return this.availability.adminRoute(request);
  }

  /** What a status call sees: a held or not-yet-acknowledged order answers with its not-ready state. */
  private currentState(order: SimulatedBOrder): SimulatedBState {
    const now = Date.now();
    if (order.held && order.held.until > now && !['CANCELLED', 'REJECTED'].includes(order.state)) return order.held.state;
    if (order.state !== 'RECEIVED') return order.state;
    const acknowledged = order.acknowledgedAt ?? Number.POSITIVE_INFINITY;
    const ackDelay = this.options.ackDelayMs ?? 0;
    if (now - acknowledged < ackDelay) return 'WAITING_FOR_ACKNOWLEDGEMENT';
    if (order.delivery === 'platform' && now - acknowledged < ackDelay + (this.options.transportDelayMs ?? 0)) return 'ASSIGNED_TO_TRANSPORT';
    return 'RECEIVED';
  }

  /** 409 with `currentState` while the order is not ready for a status call, or cancelled. */
  private notReady(order: SimulatedBOrder): SimulatorResponse | undefined {
    const state = this.currentState(order);
    if (state === 'WAITING_FOR_ACKNOWLEDGEMENT' || state === 'ASSIGNED_TO_TRANSPORT' || state === 'CANCELLED') {
      return refusal(409, 'CONFLICT', `the order is ${state}`, { currentState: state });
    }
    return undefined;
  }

  private changeStatus(token: string, body: Record<string, unknown>, path: string): SimulatorResponse {
    const order = this.orders.get(token);
    if (!order) return refusal(404, 'ORDER_NOT_FOUND', `no order ${token}`);
    const blocked = this.notReady(order);
    if (blocked) return blocked;
    switch (body.status) {
      case 'order_accepted': {
        if (order.state !== 'RECEIVED') return refusal(400, 'INVALID_ORDER_STATUS', `the order is ${order.state}`);
        const acceptanceTime = typeof body.acceptanceTime === 'string' ? body.acceptanceTime : '';
        const at = Date.parse(acceptanceTime);
        if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(acceptanceTime) || !Number.isFinite(at)) return refusal(400, 'INVALID_REQUEST', 'acceptanceTime must be an RFC 3339 date-time');
        if (at < Date.now() + MIN_ACCEPTANCE_LEAD_MS) return refusal(400, 'INVALID_REQUEST', 'acceptanceTime must be at least 2 minutes after the request');
        if (typeof body.remoteOrderId !== 'string' || !body.remoteOrderId) return refusal(400, 'INVALID_REQUEST', 'remoteOrderId is required');
        order.state = 'ACCEPTED';
        order.acceptanceTime = acceptanceTime;
        order.remoteOrderId = body.remoteOrderId;
        break;
      }
      case 'order_rejected': {
        const reason = String(body.reason ?? '');
        if (!REJECT_REASONS.has(reason)) return refusal(400, 'INVALID_REQUEST', `"${reason}" is not a valid reject reason`);
        if (order.state === 'REJECTED') return refusal(400, 'INVALID_ORDER_STATUS', 'the order is already rejected');
        if (order.state !== 'RECEIVED' && !AFTER_ACCEPTANCE_REASONS.has(reason)) return refusal(400, 'INVALID_REQUEST', `${reason} is only applicable before acceptance`);
        order.state = 'REJECTED';
        order.rejectReason = reason;
        break;
      }
      case 'order_picked_up':
        if (order.delivery === 'platform') return refusal(400, 'INVALID_REQUEST', 'order_picked_up is only for vendor delivery and pickup orders');
        if (order.state !== 'ACCEPTED' && order.state !== 'PREPARED') return refusal(409, 'INVALID_ORDER_STATUS', `the order is ${order.state}`, { currentState: order.state });
        order.state = 'PICKED_UP';
        break;
      default:
        return refusal(400, 'INVALID_REQUEST', 'status must be order_accepted, order_rejected or order_picked_up');
    }
    order.callbacks.push(path);
    return ok();
  }

  private prepared(token: string, path: string): SimulatorResponse {
    const order = this.orders.get(token);
    if (!order) return refusal(404, 'ORDER_NOT_FOUND', `no order ${token}`);
    const blocked = this.notReady(order);
    if (blocked) return blocked;
    if (order.delivery !== 'platform') return refusal(409, 'INVALID_ORDER_STATUS', 'preparation-completed is only for orders delivered by platform riders');
    if (order.state !== 'ACCEPTED') return refusal(409, 'INVALID_ORDER_STATUS', `the order is ${order.state}`, { currentState: order.state });
    order.state = 'PREPARED';
    order.callbacks.push(path);
    return { status: 200, body: { code: 'OK' } };
  }

  /** The middleware cancels an order nobody accepted or rejected by its expiryDate, and tells the plugin. */
  private async expireUnanswered(): Promise<void> {
    const now = Date.now();
    for (const order of this.orders.values()) {
      if ((order.state === 'WAITING_FOR_ACKNOWLEDGEMENT' || order.state === 'RECEIVED') && order.expiresAt <= now) {
        order.state = 'CANCELLED';
        order.cancelReason = 'NO_RESPONSE';
        if (order.remoteOrderId && this.options.pluginUrl) await this.tellCancelled(order, 'The order expired before the restaurant answered').catch(() => undefined);
      }
    }
  }

  private login(request: SimulatorRequest): SimulatorResponse {
    const body = bodyOf(request);
    if (!String(request.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')) return refusal(415, 'UNSUPPORTED_MEDIA_TYPE', 'login is form-encoded');
    if (body.grant_type !== 'client_credentials') return refusal(400, 'INVALID_REQUEST', 'grant_type must be client_credentials');
    if (!this.options.users.some((user) => user.username === body.username && user.password === body.password)) return refusal(401, 'UNAUTHORIZED', 'bad credentials');
    this.logins += 1;
    const ttlMs = this.options.tokenTtlMs ?? 3_600_000;
    const issuedAt = Date.now();
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: body.username, iat: Math.floor(issuedAt / 1000), gen: this.tokenGeneration, exp: Math.floor((issuedAt + ttlMs) / 1000), expMs: issuedAt + ttlMs, jti: randomBytes(8).toString('hex') })).toString('base64url');
    const signature = createHmac('sha256', this.signingKey).update(`${header}.${payload}`).digest('base64url');
    return { status: 200, body: { access_token: `${header}.${payload}.${signature}`, token_type: 'bearer', expires_in: Math.round(ttlMs / 1000) } };
  }

  private authorised(request: SimulatorRequest): boolean {
    const match = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''));
    const [header, payload, signature] = match?.[1].split('.') ?? [];
    if (!header || !payload || signature !== createHmac('sha256', this.signingKey).update(`${header}.${payload}`).digest('base64url')) return false;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { gen: number; expMs: number };
    return claims.expMs > Date.now() && claims.gen === this.tokenGeneration;
  }
}
