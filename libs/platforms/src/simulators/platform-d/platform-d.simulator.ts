import { randomBytes } from 'node:crypto';
import { platformRequest, PlatformResponse } from '../../adapters/common/platform-http';
import { PLATFORM_D_EVENTS, PLATFORM_D_STATUS_PATH } from '../../adapters/platform-d/platform-d.assumptions';
import { bodyOf, matchPath, SimulatorRequest, SimulatorResponse, SimulatorServer } from '../common/simulator-server';

export interface PlatformDSimulatorOptions {
  merchants: Array<{ merchantId: string; restaurantId: string; apiKey: string }>;
  /** Our order webhook. */
  webhookUrl?: string;
}

export interface SimulatedDOrder {
  id: string;
  merchantId: string;
  restaurantId: string;
  orderNumber: string;
  status: 'new' | 'accepted' | 'preparing' | 'on_the_way' | 'delivered' | 'cancelled';
  reason?: string;
  extra: Record<string, unknown>;
}

const ORDER_OF_STATUSES = ['new', 'accepted', 'preparing', 'on_the_way', 'delivered'];

/** A simulator of PLATFORM_D on the assumptions of platform-d.assumptions.ts (status PATCH, merchant check, order webhook). */
export class PlatformDSimulator extends SimulatorServer {
  readonly orders = new Map<string, SimulatedDOrder>();

  constructor(readonly options: PlatformDSimulatorOptions) {
    super();
  }

  createOrder(merchantId: string, overrides: Partial<SimulatedDOrder> = {}): SimulatedDOrder {
    const merchant = this.options.merchants.find((entry) => entry.merchantId === merchantId);
    if (!merchant) throw new Error(`no simulated merchant ${merchantId}`);
    const id = overrides.id ?? `md-${randomBytes(8).toString('hex')}`;
    const order: SimulatedDOrder = { id, merchantId, restaurantId: merchant.restaurantId, orderNumber: overrides.orderNumber ?? id.slice(-6).toUpperCase(), status: 'new', extra: overrides.extra ?? {} };
    this.orders.set(id, order);
    return order;
  }

  async placeOrder(merchantId: string, overrides: Partial<SimulatedDOrder> = {}): Promise<{ order: SimulatedDOrder; response: PlatformResponse }> {
    const order = this.createOrder(merchantId, overrides);
    return { order, response: await this.send(order, PLATFORM_D_EVENTS.created) };
  }

  redeliver(id: string): Promise<PlatformResponse> {
    return this.send(this.orders.get(id)!, PLATFORM_D_EVENTS.created);
  }

  async cancelOrder(id: string, reason = 'Customer cancelled'): Promise<PlatformResponse> {
    const order = this.orders.get(id)!;
    order.status = 'cancelled';
    order.reason = reason;
    return this.send(order, PLATFORM_D_EVENTS.cancelled);
  }

  event(order: SimulatedDOrder, eventType: string): Record<string, unknown> {
    return {
      eventType,
      merchantId: order.merchantId,
      restaurantId: order.restaurantId,
      order: {
        id: order.id,
        orderNumber: order.orderNumber,
        status: order.status,
        customer: { name: 'Can Öztürk', phone: '+905551234567' },
        address: { text: 'Cumhuriyet Mh. 5, Şişli, İstanbul', latitude: 41.06, longitude: 28.987 },
        items: [{ id: 'm-1', name: 'Pide', quantity: 1, unitPrice: 140, totalPrice: 140 }],
        totalPrice: 140,
        currency: 'TRY',
        paymentMethod: 'ONLINE',
        ...order.extra,
      },
      ...(order.reason ? { reason: order.reason } : {}),
    };
  }

  private send(order: SimulatedDOrder, eventType: string): Promise<PlatformResponse> {
    if (!this.options.webhookUrl) throw new Error('the simulator has no webhook URL');
    const merchant = this.options.merchants.find((entry) => entry.merchantId === order.merchantId)!;
    return platformRequest({ method: 'POST', url: this.options.webhookUrl, headers: { 'X-API-Key': merchant.apiKey }, json: this.event(order, eventType), timeoutMs: 10_000 });
  }

  protected route(request: SimulatorRequest): SimulatorResponse {
    const key = request.headers['x-api-key'];
    const merchant = this.options.merchants.find((entry) => entry.apiKey === key);
    if (!merchant) return { status: 401, body: { error: 'UNAUTHORIZED', message: 'X-API-Key is missing or wrong' } };
    const check = matchPath('/merchants/:merchantId', request.path);
    if (request.method === 'GET' && check) {
      return check.merchantId === merchant.merchantId ? { status: 200, body: { merchantId: merchant.merchantId, active: true } } : { status: 403, body: { error: 'FORBIDDEN', message: 'not your merchant' } };
    }
    if (request.method === 'PATCH' && request.path === PLATFORM_D_STATUS_PATH) return this.changeStatus(merchant.merchantId, bodyOf(request));
    return { status: 404, body: { error: 'NOT_FOUND', message: `no route ${request.method} ${request.path}` } };
  }

  private changeStatus(merchantId: string, body: Record<string, unknown>): SimulatorResponse {
    if (body.merchantId !== merchantId) return { status: 403, body: { error: 'FORBIDDEN', message: 'merchantId does not match the key' } };
    const order = typeof body.orderId === 'string' ? this.orders.get(body.orderId) : undefined;
    if (!order || order.merchantId !== merchantId) return { status: 404, body: { error: 'ORDER_NOT_FOUND', message: 'no such order' } };
    const status = String(body.status);
    if (order.status === status) return { status: 200, body: { orderId: order.id, status } };
    if (order.status === 'cancelled' || order.status === 'delivered') return { status: 409, body: { error: 'ORDER_CLOSED', message: `order is ${order.status}` } };
    if (status === 'cancelled') {
      order.status = 'cancelled';
      order.reason = typeof body.reason === 'string' ? body.reason : undefined;
      return { status: 200, body: { orderId: order.id, status } };
    }
    const from = ORDER_OF_STATUSES.indexOf(order.status);
    const to = ORDER_OF_STATUSES.indexOf(status);
    if (to <= 0) return { status: 400, body: { error: 'INVALID_STATUS', message: 'status must be accepted, preparing, on_the_way, delivered or cancelled' } };
    if (to < from) return { status: 409, body: { error: 'INVALID_TRANSITION', message: `order is ${order.status}` } };
    order.status = status as SimulatedDOrder['status'];
    return { status: 200, body: { orderId: order.id, status } };
  }

  protected override adminRoute(request: SimulatorRequest): Promise<SimulatorResponse> | SimulatorResponse | undefined {
    if (request.method === 'GET' && request.path === '/_simulator/orders') return { status: 200, body: [...this.orders.values()] };
    if (request.method === 'POST' && request.path === '/_simulator/orders') {
      const body = bodyOf(request);
      const merchantId = typeof body.merchantId === 'string' ? body.merchantId : this.options.merchants[0]?.merchantId;
      if (!merchantId || !this.options.merchants.some((entry) => entry.merchantId === merchantId)) return { status: 422, body: { message: 'merchantId of a simulated merchant is required' } };
      return this.placeOrder(merchantId).then(({ order, response }) => ({ status: 201, body: { order, webhookAnswer: { status: response.status, body: response.body } } }));
    }
    const cancel = matchPath('/_simulator/orders/:id/cancel', request.path);
    if (request.method === 'POST' && cancel) {
      if (!this.orders.has(cancel.id)) return { status: 404, body: { message: 'no such order' } };
      return this.cancelOrder(cancel.id).then((response) => ({ status: 200, body: { webhookAnswer: { status: response.status, body: response.body } } }));
    }
    return undefined;
  }
}
