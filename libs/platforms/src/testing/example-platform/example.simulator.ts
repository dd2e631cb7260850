import { platformRequest, PlatformResponse } from '../../common/platform-http';
import { SimulatorRequest, SimulatorResponse, SimulatorServer } from '../../common/simulator-server';
import type { ExampleMenuProduct } from './example.catalog';
import type { ExampleOrderBody } from './example.orders';

export interface ExampleSimulatorOptions {
  /** The store's key; calls with another get 401. */
  apiKey: string;
  /** Where the platform sends its new orders (the suite's /platforms/example/orders). */
  newOrderUrl?: string;
}

/** The example platform: it sends new orders to the suite and takes status calls for them. */
export class ExamplePlatformSimulator extends SimulatorServer {
  /** Actions received per order, in order. */
  readonly statuses = new Map<string, string[]>();
  /** Each store's menu (GET /stores/{storeId}/menu): a test sets it, and changes it as the platform would by itself. */
  readonly menus = new Map<string, ExampleMenuProduct[]>();
  private sequence = 0;

  constructor(private readonly options: ExampleSimulatorOptions) {
    super();
  }

  /** Places an order at the store and delivers it to the suite's webhook. */
  async placeOrder(storeId: string, newOrderUrl = this.options.newOrderUrl): Promise<{ order: ExampleOrderBody; response: PlatformResponse }> {
    this.sequence += 1;
    const order: ExampleOrderBody = {
      id: `ex-${Date.now()}-${this.sequence}`,
      storeId,
      number: `E${this.sequence}`,
      customer: 'Deniz Kaya',
      address: 'Moda Cd. 1, Kadıköy, İstanbul',
      items: [{ name: 'Simit', quantity: 3, price: 15 }],
    };
    if (!newOrderUrl) throw new Error('ExamplePlatformSimulator: no newOrderUrl to deliver the order to');
    const response = await platformRequest({ method: 'POST', url: newOrderUrl, headers: { 'x-api-key': this.options.apiKey }, json: order, timeoutMs: 5_000 });
    return { order, response };
  }

  protected route(request: SimulatorRequest): SimulatorResponse {
    if (request.headers['x-api-key'] !== this.options.apiKey) return { status: 401, body: { error: 'unknown key' } };
    if (request.method === 'GET' && request.path === '/me') return { status: 200, body: { ok: true } };
    const menu = request.method === 'GET' ? /^\/stores\/([^/]+)\/menu$/.exec(request.path) : null;
    if (menu) {
      const products = this.menus.get(decodeURIComponent(menu[1]));
      return products ? { status: 200, body: { products } } : { status: 404, body: { error: 'no such store' } };
    }
    const status = request.method === 'PUT' ? /^\/orders\/([^/]+)\/status$/.exec(request.path) : null;
    if (status) {
      const action = (request.body as { action?: unknown } | null)?.action;
      if (typeof action !== 'string') return { status: 400, body: { error: 'action is required' } };
      const orderId = decodeURIComponent(status[1]);
      this.statuses.set(orderId, [...(this.statuses.get(orderId) ?? []), action]);
      return { status: 200, body: { ok: true } };
    }
    return { status: 404, body: { error: 'no such route' } };
  }
}
