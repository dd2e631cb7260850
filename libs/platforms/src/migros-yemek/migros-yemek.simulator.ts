import { createDecipheriv, createCipheriv, randomInt } from 'node:crypto';
import { platformRequest, PlatformResponse } from '../common/platform-http';
import { matchPath, SimulatorRequest, SimulatorResponse, SimulatorServer } from '../common/simulator-server';
import { PlatformDAvailabilityOptions, PlatformDAvailabilityRoutes } from './migros-yemek.availability-routes';
import { PlatformDCatalogRoutes, PlatformDMenuProductSeed, platformDDemoMenu, SimulatedDItemStatus, SimulatedDMenu, SimulatedDMenuProductView } from './migros-yemek.catalog-routes';

/**
 * A simulator of PLATFORM_D, Migros Yemek's gourmet API, built from platforms.md (PLATFORM_D) and its
 * sources M (the Migros clients named in migros-yemek.assumptions.ts),
 * not from our adapter. What it does and where that comes from:
 * - `XApiKey` header names the store (M-go, M-py); a missing or unknown key gets 401.
 * - POST bodies must be `{ "value": base64 }` holding the request JSON encrypted with AES-256-ECB,
 *   PKCS7, the key string zero-padded to 32 bytes (AJ, M-py citing Migros' API document, M-hp), written
 *   with a space after each `:` and `,` (Python's json.dumps in AJ and M-py; M-go): plain JSON, another
 *   mode (a CBC body reads right for its first 16 bytes only) and compact JSON are refused.
 *   `cipherMode: 'CBC'` (the whole simulator or one store) plays a Migros that reads M-go's CBC, zero IV.
 * - Answers `{ data, success, errorMessage?{ errorCode, errorTitle, errorDetail } }` (M-go types.go).
 *   M shows no errorCode values: the codes here are this simulator's own names.
 * - UpdateOrderStatus: Approved | Rejected (cancelReasonId) from NEW_PENDING, Prepared after Approved,
 *   Delivery after Prepared and Completed after Prepared or Delivery, both only for orders the
 *   restaurant delivers (M-py's order of steps; M-js "Delivery only for RESTAURANT"). The same status
 *   again answers success (assumed). CancelOrder only for approved, not yet prepared orders (M-notes).
 * - CancelOrder names the order's store by `storeId` (M-go, M-hp) or its customer by `userId` (AJ):
 *   either is enough, and one that names another store or customer is refused.
 * - GetCancelReasons `[{ reasonId, description }]`, GetStoreDetail, GetStoreGroups (M-go), GetOrderDetail
 *   (M-go) answering the order as its webhook had it with the read status in AJ's spelling (NEW_PENDING,
 *   APPROVED, PREPARED, DELIVERY, COMPLETED, CANCELLED; REJECTED for a refused one): only the store's own
 *   orders, with the store's own key.
 * - Sends the Order Created webhook (the order as plain JSON, examples/order-created.json), the
 *   cancellation `{ OrderId, StoreId, UserId }` (M-py, AJ) and the delivery status `{ orderId, storeId,
 *   status, deliveryStatus, isCancelled, deliveryProvider, courierName }` (AJ, M-py). No source shows
 *   Migros authenticating its webhooks: `webhookApiKey` says what goes in `XApiKey` (default the store's
 *   key, the header AJ reads as optional; null: none, as the sources' Migros may send).
 * - The store's menu and its prices (migros-yemek.catalog-routes.ts): GetMenuDetailsByStoreAndStoreGroupId
 *   and UpdateBatchPrice, seeded from `menu` (default DEMO_MENU); tests change it as Migros would.
 */

export type PlatformDSimulatedCipher = 'ECB' | 'CBC';

export interface PlatformDStore {
  storeId: string;
  storeGroupId: string;
  apiKey: string;
  /** How this store's bodies are read (default: the simulator's cipherMode). */
  cipherMode?: PlatformDSimulatedCipher;
  warehouseId?: number;
  name?: string;
}

export interface PlatformDSimulatorOptions {
  stores: PlatformDStore[];
  /** The integrator-wide secret key that encrypts bodies (PLATFORM_D_SECRET_KEY); unset: each store's apiKey. */
  secretKey?: string;
  /** Our order webhook and our cancellation webhook (unset: the order webhook). */
  orderWebhookUrl?: string;
  cancelWebhookUrl?: string;
  /** The delivery-status webhook (unset: the order webhook). */
  deliveryStatusWebhookUrl?: string;
  /** Answer with `{ value }` encrypted bodies instead of plain JSON (one client expects that possibility). */
  encryptAnswers?: boolean;
  /** The mode Migros reads and writes bodies in (default ECB, the evidence's reading). */
  cipherMode?: PlatformDSimulatedCipher;
  /** `XApiKey` of the webhooks: 'store' (the store's apiKey, the default), null (no header) or a given value. */
  webhookApiKey?: 'store' | null | string;
  /** Off-date lengths and the shift start (migros-yemek.availability-routes.ts). */
  availability?: PlatformDAvailabilityOptions;
  /** Every store's menu when first read (default: DEMO_MENU with Migros ids, platformDDemoMenu). */
  menu?: PlatformDMenuProductSeed[];
}

export type SimulatedDStatus = 'NEW_PENDING' | 'Approved' | 'Rejected' | 'Prepared' | 'Delivery' | 'Completed' | 'Cancelled';

export interface SimulatedDOrder {
  id: number;
  storeId: string;
  status: SimulatedDStatus;
  deliveryProvider: 'RESTAURANT' | 'MIGROS';
  userId: number;
  cancelReasonId?: number;
  notifyUser?: boolean;
  createdAsMs: number;
  history: Array<{ status: SimulatedDStatus; at: number }>;
  /** Fields of the webhook body replaced as given (tests of odd payloads). */
  payload: Record<string, unknown>;
}

export const PLATFORM_D_SIMULATED_CANCEL_REASONS = [
  { reasonId: 1, description: 'Ürün kalmadı' },
  { reasonId: 2, description: 'Restoran çok yoğun' },
  { reasonId: 3, description: 'Kurye bulunamadı' },
  { reasonId: 4, description: 'Müşteri iptal istedi' },
];

/** GetOrderDetail's status: the read spelling of AJ's status map. */
const READ_STATUS: Record<SimulatedDStatus, string> = {
  NEW_PENDING: 'NEW_PENDING',
  Approved: 'APPROVED',
  Rejected: 'REJECTED',
  Prepared: 'PREPARED',
  Delivery: 'DELIVERY',
  Completed: 'COMPLETED',
  Cancelled: 'CANCELLED',
};

const STEPS: Record<string, { from: SimulatedDStatus[]; restaurantDeliveryOnly?: boolean }> = {
  Approved: { from: ['NEW_PENDING'] },
  Rejected: { from: ['NEW_PENDING'] },
  Prepared: { from: ['Approved'] },
  Delivery: { from: ['Prepared'], restaurantDeliveryOnly: true },
  Completed: { from: ['Prepared', 'Delivery'], restaurantDeliveryOnly: true },
};

function answer(data: unknown): SimulatorResponse {
  return { status: 200, body: { data, success: true } };
}

function refusal(status: number, errorCode: string, errorDetail: string): SimulatorResponse {
  return { status, body: { data: null, success: false, errorMessage: { errorCode, errorTitle: errorCode.replace(/_/g, ' ').toLowerCase(), errorDetail } } };
}

function key32(keyString: string): Buffer {
  const key = Buffer.alloc(32, 0);
  Buffer.from(keyString, 'utf8').copy(key, 0, 0, 32);
  return key;
}

/** Whether every `:` and `,` outside strings is followed by a space (the layout the .NET side reads). */
function isSpacedJson(text: string): boolean {
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if ((char === ':' || char === ',') && text[index + 1] !== ' ') return false;
  }
  return true;
}

/** Lower-cased keys: the platform's .NET binder reads `orderId` and `OrderId` alike (M-py sends the latter). */
function lowerKeys(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([name, field]) => [name.toLowerCase(), field]));
}

export class PlatformDSimulator extends SimulatorServer {
  readonly orders = new Map<string, SimulatedDOrder>();
  /** The decrypted bodies of the POST calls it could read, oldest first (what Migros understood). */
  readonly received: Array<{ path: string; body: Record<string, unknown>; at: number }> = [];
  readonly cancelReasons = PLATFORM_D_SIMULATED_CANCEL_REASONS.map((reason) => ({ ...reason }));
  private nextId = 400_000 + randomInt(100_000);
  /** Store open / closed / off dates and product statuses. */
  readonly availability: PlatformDAvailabilityRoutes;

  /** The stores' menus and price changes. */
  readonly catalog: PlatformDCatalogRoutes;

  constructor(readonly options: PlatformDSimulatorOptions) {
    super();
    this.catalog = new PlatformDCatalogRoutes(() => (options.menu ?? platformDDemoMenu()).map((product) => ({ ...product })));
    this.availability = new PlatformDAvailabilityRoutes(options.availability, (storeId, productId, status) => {
      const store = this.store(storeId);
      if (store) this.catalog.setStatus(this.catalog.menu(store), productId, status);
    });
  }

  /** A product of a store's menu as Migros shows it (default: the first store), or undefined. */
  menuProduct(productId: number | string, storeId = this.options.stores[0]?.storeId): SimulatedDMenuProductView | undefined {
    return this.catalog.view(this.menuOf(storeId), productId);
  }

  /** Migros (or the restaurant in Migros' panel) changes a product by itself: every menu item of it. */
  changeMenuProduct(productId: number | string, changes: { price?: number; discountedPrice?: number; name?: string; status?: SimulatedDItemStatus }, storeId = this.options.stores[0]?.storeId): void {
    const items = this.catalog.items(this.menuOf(storeId), productId);
    if (items.length === 0) throw new Error(`no product ${productId} on the simulated menu`);
    for (const { item } of items) {
      if (changes.price !== undefined) Object.assign(item, { defaultPrimaryPrice: changes.price, defaultPrimaryDiscountedPrice: changes.discountedPrice ?? changes.price });
      else if (changes.discountedPrice !== undefined) item.defaultPrimaryDiscountedPrice = changes.discountedPrice;
      if (changes.name !== undefined) item.productName = changes.name;
      if (changes.status !== undefined) item.status = changes.status;
    }
  }

  /** A product added to the menu on Migros' side; answers its menu item id. */
  addMenuProduct(product: PlatformDMenuProductSeed, storeId = this.options.stores[0]?.storeId): number {
    return this.catalog.add(this.menuOf(storeId), product).id;
  }

  /** A product taken off the menu on Migros' side (every header it was under). */
  removeMenuProduct(productId: number | string, storeId = this.options.stores[0]?.storeId): void {
    const menu = this.menuOf(storeId);
    if (this.catalog.items(menu, productId).length === 0) throw new Error(`no product ${productId} on the simulated menu`);
    for (const header of menu.headers) header.items = header.items.filter((item) => String(item.productId) !== String(productId));
  }

  /** The store's whole menu (its id, headers, price changes). */
  menuOf(storeId: string | undefined): SimulatedDMenu {
    const store = storeId === undefined ? undefined : this.store(storeId);
    if (!store) throw new Error(`no simulated store ${storeId}`);
    return this.catalog.menu(store);
  }

  createOrder(storeId: string, overrides: Partial<Omit<SimulatedDOrder, 'history'>> = {}): SimulatedDOrder {
    if (!this.store(storeId)) throw new Error(`no simulated store ${storeId}`);
    const order: SimulatedDOrder = {
      id: overrides.id ?? (this.nextId += 1),
      storeId,
      status: overrides.status ?? 'NEW_PENDING',
      deliveryProvider: overrides.deliveryProvider ?? 'RESTAURANT',
      userId: overrides.userId ?? 700_000 + randomInt(100_000),
      createdAsMs: Date.now(),
      history: [],
      payload: overrides.payload ?? {},
    };
    order.history.push({ status: order.status, at: order.createdAsMs });
    this.orders.set(String(order.id), order);
    return order;
  }

  /** Creates a NEW_PENDING order and sends it to the order webhook. */
  async placeOrder(storeId: string, overrides: Partial<Omit<SimulatedDOrder, 'history'>> = {}): Promise<{ order: SimulatedDOrder; response: PlatformResponse }> {
    const order = this.createOrder(storeId, overrides);
    return { order, response: await this.sendWebhook(this.options.orderWebhookUrl, order.storeId, this.orderPayload(order)) };
  }

  redeliver(id: number | string): Promise<PlatformResponse> {
    const order = this.order(id);
    return this.sendWebhook(this.options.orderWebhookUrl, order.storeId, this.orderPayload(order));
  }

  /**
   * The customer or Migros cancels: the order is Cancelled and the cancellation webhook sent, or
   * (`via: 'delivery_status'`) the delivery-status webhook with `isCancelled: true`.
   */
  cancelOrder(id: number | string, via: 'cancellation' | 'delivery_status' = 'cancellation'): Promise<PlatformResponse> {
    const order = this.order(id);
    this.move(order, 'Cancelled');
    if (via === 'delivery_status') return this.sendDeliveryStatus(order.id, undefined);
    return this.sendWebhook(this.options.cancelWebhookUrl ?? this.options.orderWebhookUrl, order.storeId, this.cancellationPayload(order));
  }

  /** Sends the delivery-status webhook of an order (its state unchanged: Migros' courier reports on it). */
  sendDeliveryStatus(id: number | string, deliveryStatus: string | undefined, courierName = 'Ahmet Yılmaz'): Promise<PlatformResponse> {
    const order = this.order(id);
    return this.sendWebhook(this.options.deliveryStatusWebhookUrl ?? this.options.orderWebhookUrl, order.storeId, this.deliveryStatusPayload(order, deliveryStatus, courierName));
  }

  /** The delivery-status body (AJ's `/migros/status` docstring, M-py's detection by `deliveryStatus`). */
  deliveryStatusPayload(order: SimulatedDOrder, deliveryStatus: string | undefined, courierName = 'Ahmet Yılmaz'): Record<string, unknown> {
    return {
      orderId: order.id,
      storeId: Number(order.storeId) || order.storeId,
      status: READ_STATUS[order.status],
      deliveryStatus: deliveryStatus ?? null,
      isCancelled: order.status === 'Cancelled' || order.status === 'Rejected',
      deliveryProvider: order.deliveryProvider,
      courierName: deliveryStatus ? courierName : null,
    };
  }

  /** The Order Created body (M-go IncomingOrder; examples/order-created.json has the same shape). */
  orderPayload(order: SimulatedDOrder): Record<string, unknown> {
    const store = this.store(order.storeId)!;
    return {
      id: order.id,
      description: 'Lahmacun x2, Ayran x1',
      status: 'NEW_PENDING',
      deliveryProvider: order.deliveryProvider,
      store: { id: Number(store.storeId) || store.storeId, name: store.name ?? 'Simulated Migros store', group: { id: Number(store.storeGroupId) || store.storeGroupId, name: 'Simulated store group' } },
      customer: {
        id: order.userId,
        firstName: 'Ayşe',
        lastName: 'Yılmaz',
        fullName: 'Ayşe Yılmaz',
        phoneNumber: '+905321112233',
        deliveryAddress: {
          id: 91001,
          direction: 'Eczanenin üstü',
          detail: 'Bağdat Cd. No: 12 D: 4',
          city: { id: 34, name: 'İstanbul' },
          town: { id: 3410, name: 'Kadıköy' },
          district: { id: 341001, name: 'Caddebostan' },
          geoLocation: { latitude: 40.9651, longitude: 29.0651 },
        },
      },
      prices: {
        total: { amountAsPenny: 23500, text: '235,00 TL' },
        discounted: { amountAsPenny: 21000, text: '210,00 TL' },
        restaurantDiscounted: { amountAsPenny: 0, text: '0,00 TL' },
        migrosDiscounted: { amountAsPenny: 2500, text: '25,00 TL' },
      },
      items: [
        {
          id: 1,
          productId: 55001,
          name: 'Lahmacun',
          price: 18000,
          priceText: '180,00 TL',
          amount: 2,
          note: 'Acısız',
          options: [
            {
              optionHeaderId: 11,
              objectOptionItemId: 110,
              optionItemId: 110,
              productId: 55001,
              parentObjectOptionItemId: 0,
              headerName: 'Yanında',
              itemNames: 'Limon, Maydanoz',
              primaryDiscountedPrice: 0,
              primaryPrice: 0,
              primaryDiscountedPriceText: '0,00 TL',
              primaryPriceText: '0,00 TL',
              quantity: 1,
              excluded: false,
              subOptions: [],
              objectOptionHeaderPriority: 1,
              objectOptionItemPriority: 1,
              optionType: 'NONE',
            },
          ],
        },
        { id: 2, productId: 55002, name: 'Ayran', price: 5500, priceText: '55,00 TL', amount: 1, note: '', options: [] },
      ],
      payment: { type: { hashedNameId: 3, name: 'CREDIT_CARD', description: 'Online Kredi Kartı', isOnlinePayment: true, simplifiedName: 'CREDIT_CARD', simplifiedHashedNameId: 3 } },
      extendedProperties: { orderNote: 'Zili çalmayın', saveGreen: true, contactlessDelivery: false, ringDoorBell: false },
      log: { createdAsMs: order.createdAsMs },
      ...order.payload,
    };
  }

  /** The cancellation webhook body (M-py: `{OrderId, StoreId, UserId}`, capitalised). */
  cancellationPayload(order: SimulatedDOrder): Record<string, unknown> {
    return { OrderId: order.id, StoreId: Number(order.storeId) || order.storeId, UserId: order.userId };
  }

  /** Encrypts like Migros' clients do (for tests that need a body Migros would read). */
  encrypt(body: string, keyString: string, mode: PlatformDSimulatedCipher = this.options.cipherMode ?? 'ECB'): string {
    const cipher = mode === 'CBC' ? createCipheriv('aes-256-cbc', key32(keyString), Buffer.alloc(16, 0)) : createCipheriv('aes-256-ecb', key32(keyString), null);
    return Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]).toString('base64');
  }

  private cipherModeOf(store: PlatformDStore): PlatformDSimulatedCipher {
    return store.cipherMode ?? this.options.cipherMode ?? 'ECB';
  }

  private encryptionKey(store: PlatformDStore): string {
    return this.options.secretKey ?? store.apiKey;
  }

  private store(storeId: string): PlatformDStore | undefined {
    return this.options.stores.find((entry) => entry.storeId === storeId);
  }

  private order(id: number | string): SimulatedDOrder {
    const order = this.orders.get(String(id));
    if (!order) throw new Error(`no simulated order ${id}`);
    return order;
  }

  private move(order: SimulatedDOrder, status: SimulatedDStatus): void {
    order.status = status;
    order.history.push({ status, at: Date.now() });
  }

  private sendWebhook(url: string | undefined, storeId: string, body: Record<string, unknown>): Promise<PlatformResponse> {
    if (!url) throw new Error('the simulator has no webhook URL');
    const setting = this.options.webhookApiKey === undefined ? 'store' : this.options.webhookApiKey;
    const key = setting === 'store' ? this.store(storeId)!.apiKey : setting;
    return platformRequest({ method: 'POST', url, headers: key === null ? {} : { XApiKey: key }, json: body, timeoutMs: 10_000 });
  }

  protected route(request: SimulatorRequest): SimulatorResponse {
    const key = request.headers.xapikey;
    const store = typeof key === 'string' ? this.options.stores.find((entry) => entry.apiKey === key) : undefined;
    if (!store) return refusal(401, 'UNAUTHORIZED', 'XApiKey is missing or not a store\'s API key');
    const response = this.routeFor(store, request);
    if (!this.options.encryptAnswers || response.body === undefined) return response;
    return { ...response, body: { value: this.encrypt(JSON.stringify(response.body), this.encryptionKey(store), this.cipherModeOf(store)) } };
  }

  private routeFor(store: PlatformDStore, request: SimulatorRequest): SimulatorResponse {
    const route = `${request.method} ${request.path}`;
    const availability = this.availability.route(store, request, () => this.decrypt(store, request));
    if (availability) return availability;
    const catalog = this.catalog.route(store, request, () => this.decrypt(store, request));
    if (catalog) return catalog;
    switch (route) {
      case 'GET /Store/GetStoreDetail':
        return answer({
          id: Number(store.storeId) || store.storeId,
          storeGroupId: Number(store.storeGroupId) || store.storeGroupId,
          warehouseId: store.warehouseId ?? 9001,
          storeName: store.name ?? 'Simulated Migros store',
          prepareDuration: 20,
          inWorkingHours: true,
          active: this.availability.isActive(store.storeId),
          integrationIsActive: true,
        });
      case 'GET /Store/GetStoreGroups':
        return answer([{ id: Number(store.storeGroupId) || store.storeGroupId, name: 'Simulated store group' }]);
      case 'GET /Mapping/v2/GetCancelReasons':
        return answer(this.cancelReasons);
      case 'GET /Order/v2/GetOrderDetail': {
        const order = this.orders.get(request.query.get('orderId') ?? '');
        if (!order || order.storeId !== store.storeId || request.query.get('storeId') !== store.storeId) return refusal(400, 'ORDER_NOT_FOUND', 'no such order for this store');
        return answer({ ...this.orderPayload(order), status: READ_STATUS[order.status] });
      }
      case 'POST /Order/v2/UpdateOrderStatus':
      case 'POST /Order/v2/CancelOrder': {
        const body = this.decrypt(store, request);
        if ('refused' in body) return body.refused;
        this.received.push({ path: request.path, body: body.plain, at: Date.now() });
        return request.path === '/Order/v2/CancelOrder' ? this.cancel(store, lowerKeys(body.plain)) : this.updateStatus(store, lowerKeys(body.plain));
      }
      default:
        return matchPath('/Order/v2/:operation', request.path) || matchPath('/Store/:operation', request.path)
          ? refusal(405, 'METHOD_NOT_ALLOWED', `${route} is not an operation of this API`)
          : refusal(404, 'NOT_FOUND', `no route ${route}`);
    }
  }

  /** The request JSON out of `{ value }`, or the refusal Migros' decryptor gives anything else. */
  private decrypt(store: PlatformDStore, request: SimulatorRequest): { plain: Record<string, unknown> } | { refused: SimulatorResponse } {
    const body = request.body;
    const value = typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 1 ? (body as Record<string, unknown>).value : undefined;
    if (typeof value !== 'string') return { refused: refusal(400, 'INVALID_REQUEST', 'the body must be {"value": "<base64 of the encrypted JSON>"}') };
    let text: string;
    try {
      const key = key32(this.encryptionKey(store));
      const decipher = this.cipherModeOf(store) === 'CBC' ? createDecipheriv('aes-256-cbc', key, Buffer.alloc(16, 0)) : createDecipheriv('aes-256-ecb', key, null);
      text = Buffer.concat([decipher.update(Buffer.from(value, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      return { refused: refusal(400, 'DECRYPTION_FAILED', 'value does not decrypt with the integration\'s secret key') };
    }
    let plain: unknown;
    try {
      plain = JSON.parse(text);
    } catch {
      return { refused: refusal(400, 'DECRYPTION_FAILED', 'value decrypts to something that is not JSON (another key or cipher mode)') };
    }
    if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) return { refused: refusal(400, 'INVALID_REQUEST', 'the decrypted body must be a JSON object') };
    if (!isSpacedJson(text)) return { refused: refusal(400, 'DECRYPTION_FAILED', 'the decrypted JSON must have a space after each ":" and ","') };
    return { plain: plain as Record<string, unknown> };
  }

  private orderOf(store: PlatformDStore, body: Record<string, unknown>, by: 'store' | 'store_or_user' = 'store'): SimulatedDOrder | SimulatorResponse {
    const named = (value: unknown) => value !== undefined && value !== null && value !== 0 && value !== '0' && value !== '';
    if (named(body.storeid) && String(body.storeid) !== store.storeId) return refusal(400, 'STORE_MISMATCH', 'storeId is not the store of this API key');
    if (!named(body.storeid) && (by === 'store' || !named(body.userid))) return refusal(400, 'STORE_MISMATCH', by === 'store' ? 'storeId is required' : 'storeId or userId is required');
    const order = this.orders.get(String(body.orderid));
    if (!order || order.storeId !== store.storeId) return refusal(400, 'ORDER_NOT_FOUND', 'no such order for this store');
    if (by === 'store_or_user' && named(body.userid) && String(body.userid) !== String(order.userId)) return refusal(400, 'USER_MISMATCH', 'userId is not the customer of this order');
    return order;
  }

  private cancelReason(body: Record<string, unknown>): number | SimulatorResponse {
    const id = body.cancelreasonid;
    if (id === undefined || id === null) return refusal(400, 'CANCEL_REASON_REQUIRED', 'cancelReasonId is required');
    const reason = this.cancelReasons.find((entry) => String(entry.reasonId) === String(id));
    return reason ? reason.reasonId : refusal(400, 'INVALID_CANCEL_REASON', 'cancelReasonId is not one of GetCancelReasons');
  }

  private updateStatus(store: PlatformDStore, body: Record<string, unknown>): SimulatorResponse {
    const order = this.orderOf(store, body);
    if (!('id' in order)) return order;
    const status = String(body.orderstatus);
    const step = STEPS[status];
    if (!step) return refusal(400, 'INVALID_ORDER_STATUS', 'orderStatus must be Approved, Rejected, Prepared, Delivery or Completed');
    if (order.status === status) return answer(null);
    if (!step.from.includes(order.status)) return refusal(400, 'ORDER_STATUS_NOT_ALLOWED', `the order is ${order.status}: it cannot become ${status}`);
    if (step.restaurantDeliveryOnly && order.deliveryProvider !== 'RESTAURANT') return refusal(400, 'DELIVERY_PROVIDER_MISMATCH', `${status} is for orders the restaurant delivers; Migros' courier delivers this one`);
    if (status === 'Rejected') {
      const reason = this.cancelReason(body);
      if (typeof reason !== 'number') return reason;
      order.cancelReasonId = reason;
    }
    this.move(order, status as SimulatedDStatus);
    return answer(null);
  }

  private cancel(store: PlatformDStore, body: Record<string, unknown>): SimulatorResponse {
    const order = this.orderOf(store, body, 'store_or_user');
    if (!('id' in order)) return order;
    if (typeof body.notifyuser !== 'boolean') return refusal(400, 'INVALID_REQUEST', 'notifyUser must be a boolean');
    const reason = this.cancelReason(body);
    if (typeof reason !== 'number') return reason;
    if (order.status === 'Cancelled' || order.status === 'Rejected') return answer(null);
    if (order.status === 'NEW_PENDING') return refusal(400, 'ORDER_NOT_APPROVED', 'only approved orders can be cancelled; reject a new order with UpdateOrderStatus Rejected');
    if (order.status !== 'Approved') return refusal(400, 'ORDER_CANNOT_BE_CANCELLED', `the order is ${order.status}: only approved, not yet prepared orders can be cancelled`);
    order.cancelReasonId = reason;
    order.notifyUser = body.notifyuser;
    this.move(order, 'Cancelled');
    return answer(null);
  }

  protected override adminRoute(request: SimulatorRequest): Promise<SimulatorResponse> | SimulatorResponse | undefined {
    if (request.method === 'GET' && request.path === '/_simulator/orders') return { status: 200, body: [...this.orders.values()] };
    if (request.method === 'POST' && request.path === '/_simulator/orders') {
      const body = typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {};
      const storeId = typeof body.storeId === 'string' || typeof body.storeId === 'number' ? String(body.storeId) : this.options.stores[0]?.storeId;
      if (!storeId || !this.store(storeId)) return { status: 422, body: { message: 'storeId of a simulated store is required' } };
      const deliveryProvider = body.deliveryProvider === 'MIGROS' ? 'MIGROS' : 'RESTAURANT';
      return this.placeOrder(storeId, { deliveryProvider }).then(({ order, response }) => ({ status: 201, body: { order, webhookAnswer: { status: response.status, body: response.body } } }));
    }
    const cancel = matchPath('/_simulator/orders/:id/cancel', request.path);
    if (request.method === 'POST' && cancel) {
      if (!this.orders.has(cancel.id)) return { status: 404, body: { message: 'no such order' } };
      return this.cancelOrder(cancel.id).then((response) => ({ status: 200, body: { webhookAnswer: { status: response.status, body: response.body } } }));
    }
    return this.availability.adminRoute(request, (storeId) => this.store(storeId) !== undefined) ?? this.catalog.adminRoute(request, (storeId) => this.store(storeId));
  }
}
