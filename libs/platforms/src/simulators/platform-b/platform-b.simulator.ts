import { createHmac, randomBytes } from 'node:crypto';
import { platformRequest, PlatformResponse } from '../../adapters/common/platform-http';
import { isRecord } from '../../adapters/common/payload-reader';
import { PLATFORM_B_REJECT_REASONS, WAITING_FOR_ACKNOWLEDGEMENT } from '../../adapters/platform-b/platform-b.assumptions';
import { bodyOf, matchPath, SimulatorRequest, SimulatorResponse, SimulatorServer } from '../common/simulator-server';

export interface PlatformBSimulatorOptions {
  /** POS users of the chains: username, password. */
  users: Array<{ username: string; password: string }>;
  tokenTtlMs?: number;
  /** Our plugin's base URL and the token the middleware sends it. */
  pluginUrl?: string;
  pluginToken?: string;
  /** How long an order stays WAITING_FOR_ACKNOWLEDGEMENT after the plugin answered its dispatch. */
  ackDelayMs?: number;
  /** Dispatch attempts when the plugin does not answer 2xx (the real middleware: up to 10, 30-240 s apart). */
  dispatchAttempts?: number;
  dispatchRetryDelayMs?: number;
}

export type SimulatedBState = 'WAITING_FOR_ACKNOWLEDGEMENT' | 'ACKNOWLEDGED' | 'ACCEPTED' | 'READY' | 'PICKED_UP' | 'REJECTED' | 'CANCELLED';

export interface SimulatedBOrder {
  token: string;
  code: string;
  remoteId: string;
  remoteOrderId?: string;
  delivery: 'platform' | 'vendor' | 'pickup';
  state: SimulatedBState;
  acknowledgedAt?: number;
  acceptanceTime?: string;
  rejectReason?: string;
  payload: Record<string, unknown>;
}

const SIGNING_KEY = randomBytes(32);

function problem(status: number, message: string, extra: Record<string, unknown> = {}): SimulatorResponse {
  return { status, body: { status, message, ...extra } };
}

/**
 * A simulator of PLATFORM_B (the Delivery Hero POS middleware): form login with a JWT, the status
 * calls (order_accepted needs acceptanceTime, order_rejected a valid reason, order_picked_up only for
 * vendor delivery and pickup, preparation-completed only for platform riders), 409 while an order
 * awaits acknowledgement and for cancelled orders, and the plugin calls it makes to us: the order
 * dispatch (retried until the plugin answers 2xx with a remoteOrderId) and cancellations.
 */
export class PlatformBSimulator extends SimulatorServer {
  readonly orders = new Map<string, SimulatedBOrder>();
  logins = 0;
  /** Tokens carry the generation they were issued in; expireTokens() starts a new one (a clock would tie within a millisecond). */
  private tokenGeneration = 0;

  constructor(readonly options: PlatformBSimulatorOptions) {
    super();
  }

  /** Makes every token issued so far invalid (401), as an expiry would. */
  expireTokens(): void {
    this.tokenGeneration += 1;
  }

  createOrder(remoteId: string, overrides: Partial<SimulatedBOrder> = {}): SimulatedBOrder {
    const token = overrides.token ?? `tok-${randomBytes(10).toString('hex')}`;
    const order: SimulatedBOrder = {
      token,
      code: overrides.code ?? `YS-${randomBytes(3).toString('hex').toUpperCase()}`,
      remoteId,
      delivery: overrides.delivery ?? 'vendor',
      state: overrides.state ?? WAITING_FOR_ACKNOWLEDGEMENT,
      payload: overrides.payload ?? {},
    };
    this.orders.set(token, order);
    return order;
  }

  /** Creates an order and dispatches it to the plugin, retrying as configured; the last answer. */
  async dispatchOrder(remoteId: string, overrides: Partial<SimulatedBOrder> = {}): Promise<{ order: SimulatedBOrder; response: PlatformResponse; attempts: number }> {
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
        response = await this.plugin('POST', `/order/${encodeURIComponent(order.remoteId)}`, this.orderPayload(order));
      } catch (error) {
        response = { status: 0, headers: {}, body: String(error) };
      }
      const remoteOrderId = isRecord(response.body) && isRecord(response.body.remoteResponse) ? response.body.remoteResponse.remoteOrderId : undefined;
      if (response.status >= 200 && response.status < 300 && typeof remoteOrderId === 'string') {
        order.remoteOrderId = remoteOrderId;
        order.acknowledgedAt = Date.now();
        if (order.state === WAITING_FOR_ACKNOWLEDGEMENT && !(this.options.ackDelayMs ?? 0)) order.state = 'ACKNOWLEDGED';
        return { response, attempts: attempt };
      }
      if (response.status >= 400 && response.status < 500) return { response, attempts: attempt };
      if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, this.options.dispatchRetryDelayMs ?? 100));
    }
    return { response: response!, attempts };
  }

  /** Cancels on the platform and tells the plugin (posOrderStatus). */
  async cancelOrder(token: string, message = 'Customer cancelled the order'): Promise<PlatformResponse> {
    const order = this.orders.get(token)!;
    order.state = 'CANCELLED';
    return this.plugin('PUT', `/remoteId/${encodeURIComponent(order.remoteId)}/remoteOrder/${encodeURIComponent(order.remoteOrderId ?? '')}/posOrderStatus`, {
      status: 'ORDER_CANCELLED',
      message,
      reason: 'CUSTOMER_CANCELLED',
    });
  }

  orderPayload(order: SimulatedBOrder): Record<string, unknown> {
    const now = Date.now();
    return {
      token: order.token,
      code: order.code,
      shortCode: order.code.slice(-3),
      createdAt: new Date(now).toISOString(),
      expiryDate: new Date(now + 10 * 60_000).toISOString(),
      expeditionType: order.delivery === 'pickup' ? 'pickup' : 'delivery',
      preOrder: false,
      test: true,
      platformRestaurant: { id: `pr-${order.remoteId}` },
      customer: { firstName: 'Mehmet', lastName: 'Demir', mobilePhone: '+905321234567' },
      delivery: {
        address: { street: 'İstiklal Cd.', number: '12', city: 'İstanbul', postcode: '34430', latitude: 41.0335, longitude: 28.9779 },
        expectedDeliveryTime: new Date(now + 45 * 60_000).toISOString(),
        ...(order.delivery === 'platform' ? { riderPickupTime: new Date(now + 25 * 60_000).toISOString() } : {}),
      },
      comments: { customerComment: 'Kapıda ödeme' },
      payment: { type: 'Online', status: 'paid' },
      price: { grandTotal: 185.5, totalNet: 170 },
      products: [{ id: 'dh-77', name: 'İskender', quantity: 1, unitPrice: 185.5, paidPrice: 185.5, comment: '' }],
      localInfo: { currencyCode: 'TRY', countryCode: 'tr' },
      ...order.payload,
    };
  }

  private plugin(method: 'POST' | 'PUT', path: string, json: unknown): Promise<PlatformResponse> {
    if (!this.options.pluginUrl) throw new Error('the simulator has no plugin URL');
    return platformRequest({ method, url: `${this.options.pluginUrl.replace(/\/+$/, '')}${path}`, headers: { Authorization: `Bearer ${this.options.pluginToken ?? ''}` }, json, timeoutMs: 10_000 });
  }

  protected route(request: SimulatorRequest): SimulatorResponse {
    if (request.method === 'POST' && request.path === '/v2/login') return this.login(request);
    if (!this.authorised(request)) return problem(401, 'invalid or expired token');

    const status = matchPath('/v2/order/status/:token', request.path);
    if (request.method === 'POST' && status) return this.changeStatus(status.token, bodyOf(request));
    const ready = matchPath('/v2/orders/:token/preparation-completed', request.path);
    if (request.method === 'POST' && ready) {
      const order = this.orders.get(ready.token);
      if (!order) return problem(404, 'order not found');
      const blocked = this.blocked(order);
      if (blocked) return blocked;
      if (order.delivery !== 'platform') return problem(400, 'preparation-completed is only for orders delivered by platform riders');
      order.state = 'READY';
      return { status: 200, body: { status: 'ok' } };
    }
    return problem(404, `no route ${request.method} ${request.path}`);
  }

  protected override adminRoute(request: SimulatorRequest): Promise<SimulatorResponse> | SimulatorResponse | undefined {
    if (request.method === 'GET' && request.path === '/_simulator/orders') return { status: 200, body: [...this.orders.values()] };
    if (request.method === 'POST' && request.path === '/_simulator/orders') {
      const body = bodyOf(request);
      if (typeof body.remoteId !== 'string') return { status: 422, body: { message: 'remoteId (the vendor) is required' } };
      const delivery = body.delivery === 'platform' || body.delivery === 'pickup' ? body.delivery : 'vendor';
      return this.dispatchOrder(body.remoteId, { delivery }).then(({ order, response }) => ({ status: 201, body: { order, pluginAnswer: { status: response.status, body: response.body } } }));
    }
    const cancel = matchPath('/_simulator/orders/:token/cancel', request.path);
    if (request.method === 'POST' && cancel) {
      if (!this.orders.has(cancel.token)) return { status: 404, body: { message: 'no such order' } };
      return this.cancelOrder(cancel.token).then((response) => ({ status: 200, body: { pluginAnswer: { status: response.status, body: response.body } } }));
    }
    return undefined;
  }

  private login(request: SimulatorRequest): SimulatorResponse {
    const body = bodyOf(request);
    if (!String(request.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')) return problem(415, 'login is form-encoded');
    if (body.grant_type !== 'client_credentials') return problem(400, 'grant_type must be client_credentials');
    if (!this.options.users.some((user) => user.username === body.username && user.password === body.password)) return problem(401, 'bad credentials');
    this.logins += 1;
    const ttlMs = this.options.tokenTtlMs ?? 3_600_000;
    const iat = Date.now();
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: body.username, iat: Math.floor(iat / 1000), iatMs: iat, gen: this.tokenGeneration, exp: Math.floor((iat + ttlMs) / 1000), expMs: iat + ttlMs, jti: randomBytes(8).toString('hex') })).toString('base64url');
    const signature = createHmac('sha256', SIGNING_KEY).update(`${header}.${payload}`).digest('base64url');
    return { status: 200, body: { access_token: `${header}.${payload}.${signature}`, token_type: 'Bearer' } };
  }

  private authorised(request: SimulatorRequest): boolean {
    const match = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''));
    const [header, payload, signature] = match?.[1].split('.') ?? [];
    if (!header || !payload || signature !== createHmac('sha256', SIGNING_KEY).update(`${header}.${payload}`).digest('base64url')) return false;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { gen: number; expMs: number };
    return claims.expMs > Date.now() && claims.gen === this.tokenGeneration;
  }

  /** 409 while the order awaits acknowledgement or is cancelled; undefined when a change may go on. */
  private blocked(order: SimulatedBOrder): SimulatorResponse | undefined {
    if (order.state === 'CANCELLED' || order.state === 'REJECTED') return problem(409, `order is ${order.state}`, { state: order.state });
    if (order.state === WAITING_FOR_ACKNOWLEDGEMENT) {
      const acknowledged = order.acknowledgedAt !== undefined && Date.now() - order.acknowledgedAt >= (this.options.ackDelayMs ?? 0);
      if (!acknowledged) return problem(409, `order is in state ${WAITING_FOR_ACKNOWLEDGEMENT}`, { state: WAITING_FOR_ACKNOWLEDGEMENT });
      order.state = 'ACKNOWLEDGED';
    }
    return undefined;
  }

  private changeStatus(token: string, body: Record<string, unknown>): SimulatorResponse {
    const order = this.orders.get(token);
    if (!order) return problem(404, 'order not found');
    const blocked = this.blocked(order);
    if (blocked) return blocked;
    switch (body.status) {
      case 'order_accepted':
        if (typeof body.acceptanceTime !== 'string' || Number.isNaN(Date.parse(body.acceptanceTime))) return problem(400, 'acceptanceTime is required for order_accepted');
        order.state = 'ACCEPTED';
        order.acceptanceTime = body.acceptanceTime;
        if (typeof body.remoteOrderId === 'string') order.remoteOrderId = body.remoteOrderId;
        return { status: 200, body: { status: 'ok' } };
      case 'order_rejected':
        if (!(PLATFORM_B_REJECT_REASONS as readonly string[]).includes(String(body.reason))) return problem(400, 'reason is not a valid rejection reason');
        order.state = 'REJECTED';
        order.rejectReason = String(body.reason);
        return { status: 200, body: { status: 'ok' } };
      case 'order_picked_up':
        if (order.delivery === 'platform') return problem(400, 'order_picked_up is only for vendor delivery and pickup orders');
        order.state = 'PICKED_UP';
        return { status: 200, body: { status: 'ok' } };
      default:
        return problem(400, 'status must be order_accepted, order_rejected or order_picked_up');
    }
  }
}
