import { randomBytes } from 'node:crypto';
import { bodyOf, matchPath, SimulatorRequest, SimulatorResponse, SimulatorServer } from '../common/simulator-server';
import { PlatformCAvailabilityOptions, PlatformCAvailabilityRoutes } from './trendyol-go.availability-routes';
import { PlatformCCatalogOptions, PlatformCCatalogRoutes } from './trendyol-go.catalog-routes';

/*
 * Built from /work/shared/spec/platforms.md (PLATFORM_C) and its sources, not from our adapter:
 * - developers.trendyol.com/docs/2-authorization: Basic auth (401 `ClientApiAuthenticationException`
 *   on wrong credentials), User-Agent `{supplierId} - {integratorName}` on every request (403 without),
 *   integrator name alphanumeric, at most 30 characters;
 * - developers.tgoapps.com, Trendyol Go Yemek "Sipariş Paketlerini Çekme" / "Siparişi Kabul Etme" /
 *   "Sipariş Hazırlığının Bitmesi" / "Siparişin Yola Çıkması" / "Siparişin Teslim Edilmesi" /
 *   "Sipariş İptali": the package list and its filters, `id` a 64-character alphanumeric value, the
 *   statuses, `packageItemId`s as itemIdList (all of them for a full cancel), the error texts;
 * - package and page shapes: the document's sample as quoted by semh59/ALKAROS
 *   (TrendyolGoOrderIntakeTests) and api2.hesapkurye.com/Help/Api/POST-Trendyol-TestSaveOrder.
 * What the sources leave open is listed in libs/platforms/README.md (PLATFORM_C, simulator).
 */

export interface PlatformCSimulatorOptions {
  suppliers: Array<{ supplierId: string; apiKey: string; secretKey: string; storeIds: string[] }>;
  /**
   * The rate limit (KB Authorization.md: 50 requests / 10 s per endpoint, the 51st answered 429
   * `{"status":429,"message":"too.many.requests"}`), enforced when set (TRENDYOL_GO_RATE_LIMIT is the
   * documented one; tests scale it). Unset: no limit. Assumed: a sliding window per supplier and
   * endpoint (the route, not the package), refused requests not counted.
   */
  rateLimit?: { limit: number; windowMs: number };
  /** Store and product availability (trendyol-go.availability-routes.ts). */
  availability?: PlatformCAvailabilityOptions;
  /** Menus, prices and the price queue (trendyol-go.catalog-routes.ts); by default every store serves DEMO_MENU. */
  catalog?: PlatformCCatalogOptions;
}

/** Trendyol Go's documented limit (KB Authorization.md): 50 requests per endpoint in 10 s. */
export const TRENDYOL_GO_RATE_LIMIT = { limit: 50, windowMs: 10_000 } as const;

/**
 * What a model 2 package (deliveryType GO: Trendyol Go's courier) shows instead of the customer's
 * address (KB Yeni-siparis-paketlerini-cekme.md: every `address` field reads "Trendyol Go by Uber Eats
 * - Market" for grocery; the meal client AJ reads "Trendyol Yemek"); its phone is the call centre's.
 */
export const MODEL_2_ADDRESS_PLACEHOLDER = 'Trendyol Yemek';

export type SimulatedCStatus = 'Created' | 'Picking' | 'Invoiced' | 'Shipped' | 'Delivered' | 'Cancelled' | 'UnSupplied';

export interface SimulatedCItem {
  packageItemId: string;
  lineItemId: number;
  isCancelled: boolean;
}

export interface SimulatedCLine {
  productId: number;
  name: string;
  /** Unit price (the document's sample: price = unitSellingPrice, one item per unit). */
  price: number;
  items: SimulatedCItem[];
}

export interface SimulatedCPackage {
  /** 64-character alphanumeric package id. */
  id: string;
  supplierId: string;
  storeId: string;
  orderNumber: string;
  orderCode: string;
  packageStatus: SimulatedCStatus;
  /** STORE: the restaurant's courier (Model 1); GO: the platform's courier (Model 2). */
  deliveryType: 'GO' | 'STORE';
  lines: SimulatedCLine[];
  preparationTime?: number;
  /** The reason of the restaurant's `unsupplied` call. */
  unsuppliedReason?: number;
  cancelInfo?: { reasonCode: number; reason: string };
  /** The platform's test package (platforms.md Round 2: `testPackage: true`). */
  testPackage?: boolean;
  /** The customer collects it at the store (`storePickupSelected: true`): no courier steps. */
  storePickupSelected?: boolean;
  packageCreationDate: number;
  packageModificationDate: number;
  /** Fields merged into the package as listed (tests of odd payloads). */
  extra: Record<string, unknown>;
}

/** Restaurant-side cancel reasons of `unsupplied` (platforms.md). */
const UNSUPPLIED_REASONS = [621, 622, 623, 627];
const STATUSES: SimulatedCStatus[] = ['Created', 'Picking', 'Invoiced', 'Shipped', 'Delivered', 'Cancelled', 'UnSupplied'];
const MAX_PAGE_SIZE = 50;
const INTEGRATOR_NAME = /^[A-Za-z0-9]{1,30}$/;

/** The restaurant's status calls: the status each leads to and the one it needs. */
const STEPS: Record<string, { from: SimulatedCStatus; to: SimulatedCStatus; storeOnly: boolean }> = {
  picked: { from: 'Created', to: 'Picking', storeOnly: false },
  invoiced: { from: 'Picking', to: 'Invoiced', storeOnly: false },
  'manual-shipped': { from: 'Invoiced', to: 'Shipped', storeOnly: true },
  'manual-delivered': { from: 'Shipped', to: 'Delivered', storeOnly: true },
};

function refusal(status: number, message: string, exception = 'ClientApiException'): SimulatorResponse {
  return { status, body: { timestamp: Date.now(), status, exception, errors: [{ message }] } };
}

/**
 * A simulator of PLATFORM_C (Trendyol Go Yemek's integrator API): Basic auth, the mandatory
 * User-Agent, the package list by supplier, store, status and modification window in pages of at
 * most 50, the restaurant's status calls in their order (manual-shipped / manual-delivered for STORE
 * delivery only), and `unsupplied` checked against the package's own packageItemIds. Every request's
 * `x-agentname` and `x-executor-user` are kept in the call log (`calls[].headers`) for tests.
 */
export class PlatformCSimulator extends SimulatorServer {
  readonly packages = new Map<string, SimulatedCPackage>();
  private nextLineItemId = 1_000_008_181_985;
  private nextItemId = 1_000_008_723_596;
  private nextOrderNumber = 1_199_521_762;
  /** Accepted request times per supplier and endpoint, for `rateLimit`. */
  private readonly requestTimes = new Map<string, number[]>();

  readonly availability: PlatformCAvailabilityRoutes;
  readonly catalog: PlatformCCatalogRoutes;

  constructor(readonly options: PlatformCSimulatorOptions) {
    super();
    this.availability = new PlatformCAvailabilityRoutes(options.availability ?? {}, options.suppliers);
    this.catalog = new PlatformCCatalogRoutes(options.catalog ?? {}, this.availability, options.suppliers);
  }

  override async stop(): Promise<void> {
    this.catalog.stop();
    await super.stop();
  }

  /** A new package (status Created unless given), visible to the next poll. */
  addPackage(supplierId: string, storeId: string, overrides: Partial<Omit<SimulatedCPackage, 'lines'>> & { lines?: Array<{ name?: string; price?: number; productId?: number; quantity?: number }> } = {}): SimulatedCPackage {
    const now = Date.now();
    const lines = (overrides.lines ?? [{ name: 'Mantı', price: 95, productId: 319239, quantity: 2 }, { name: 'Ayran', price: 20, productId: 317823, quantity: 1 }]).map((line) => ({
      productId: line.productId ?? 317_000,
      name: line.name ?? 'Ürün',
      price: line.price ?? 50,
      items: Array.from({ length: line.quantity ?? 1 }, () => ({ packageItemId: String(this.nextItemId++), lineItemId: this.nextLineItemId++, isCancelled: false })),
    }));
    const orderNumber = overrides.orderNumber ?? String(this.nextOrderNumber++);
    const pkg: SimulatedCPackage = {
      ...overrides,
      id: overrides.id ?? randomBytes(32).toString('hex'),
      supplierId,
      storeId,
      orderNumber,
      orderCode: overrides.orderCode ?? orderNumber.slice(-3),
      packageStatus: overrides.packageStatus ?? 'Created',
      deliveryType: overrides.deliveryType ?? 'STORE',
      lines,
      packageCreationDate: overrides.packageCreationDate ?? now,
      packageModificationDate: overrides.packageModificationDate ?? now,
      extra: overrides.extra ?? {},
    };
    this.packages.set(pkg.id, pkg);
    return pkg;
  }

  /** The customer or the platform cancels the package; the next poll sees it modified. */
  cancelPackage(id: string, cancelInfo = { reasonCode: 604, reason: 'Müşteri iptal talep etti' }): void {
    const pkg = this.packages.get(id);
    if (!pkg) throw new Error(`no package ${id}`);
    this.modify(pkg, 'Cancelled');
    pkg.cancelInfo = cancelInfo;
  }

  /** The package as the list serves it. */
  packageView(pkg: SimulatedCPackage): Record<string, unknown> {
    const units = pkg.lines.reduce((sum, line) => sum + line.price * line.items.filter((item) => !item.isCancelled).length, 0);
    const placeholder = pkg.deliveryType === 'GO' ? MODEL_2_ADDRESS_PLACEHOLDER : undefined;
    return {
      id: pkg.id,
      supplierId: Number(pkg.supplierId) || pkg.supplierId,
      storeId: Number(pkg.storeId) || pkg.storeId,
      orderCode: pkg.orderCode,
      storePickupSelected: pkg.storePickupSelected === true,
      testPackage: pkg.testPackage === true,
      deliveryType: pkg.deliveryType,
      packageCreationDate: pkg.packageCreationDate,
      packageModificationDate: pkg.packageModificationDate,
      ...(pkg.preparationTime !== undefined ? { preparationTime: pkg.preparationTime } : {}),
      orderId: `100${pkg.orderNumber}`,
      orderNumber: pkg.orderNumber,
      totalPrice: Math.round(units * 100) / 100,
      callCenterPhone: '08502221212',
      customer: { id: 35018440, firstName: 'Zeynep', lastName: 'Kaya' },
      payment: { paymentType: 'PAY_WITH_CARD', mealCard: null },
      // Model 2: the address is a placeholder and the phone the call centre's (the platform's courier has the real ones).
      address: {
        firstName: 'Zeynep',
        lastName: 'Kaya',
        address1: placeholder ?? 'Atatürk Bulvarı 100',
        address2: placeholder ?? 'Daire 4',
        city: placeholder ?? 'Ankara',
        district: placeholder ?? 'Çankaya',
        neighborhood: placeholder ?? 'Kızılay',
        apartmentNumber: placeholder ? '' : '100',
        floor: placeholder ? '' : '2',
        doorNumber: placeholder ? '' : '4',
        addressDescription: placeholder ?? 'Zili çalmayın',
        latitude: '39.9208',
        longitude: '32.8541',
        phone: placeholder ? '08502221212' : '5301112233',
      },
      packageStatus: pkg.packageStatus,
      lines: pkg.lines.map((line) => ({
        price: line.price,
        unitSellingPrice: line.price,
        items: line.items.map((item) => ({ ...item, coupon: null, promotions: [] })),
        productId: line.productId,
        name: line.name,
        modifierProducts: [],
        extraIngredients: [],
        removedIngredients: [],
      })),
      customerNote: 'Yoğurt ayrı',
      totalDeliveryPrice: null,
      coupon: null,
      promotions: null,
      ...(pkg.cancelInfo ? { cancelInfo: pkg.cancelInfo } : {}),
      ...pkg.extra,
    };
  }

  protected route(request: SimulatorRequest): Promise<SimulatorResponse> | SimulatorResponse {
    const list = matchPath('/integrator/order/meal/suppliers/:supplierId/packages', request.path);
    const step = matchPath('/integrator/order/meal/suppliers/:supplierId/packages/:step', request.path);
    const manual = matchPath('/integrator/order/meal/suppliers/:supplierId/packages/:packageId/:step', request.path);
    const availability = this.availability.match(request.path);
    const catalog = this.catalog.match(request.path);
    const supplierId = (list ?? step ?? manual ?? availability ?? catalog)?.supplierId;
    if (!supplierId) return refusal(404, `no route ${request.method} ${request.path}`);

    const supplier = this.options.suppliers.find((entry) => entry.supplierId === supplierId);
    const basic = /^Basic (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
    const [apiKey, ...rest] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':') : [];
    if (!supplier || supplier.apiKey !== apiKey || supplier.secretKey !== rest.join(':')) return refusal(401, 'İstek gönderirken kullandığınız supplierID, API Key, API Secure Key bilgilerinden birisi eksik ya da yanlıştır.', 'ClientApiAuthenticationException');
    const userAgent = request.headers['user-agent'];
    if (!userAgent) return refusal(403, 'User-Agent is required');
    const [agentSupplier, integratorName, ...more] = String(userAgent).split(' - ');
    if (agentSupplier !== supplierId || more.length > 0 || !INTEGRATOR_NAME.test(integratorName ?? '')) return refusal(403, 'User-Agent must be "{supplierId} - {integratorName}" (integrator name: at most 30 alphanumeric characters)');
    if (this.overLimit(`${supplierId} ${request.method} ${availability?.endpoint ?? catalog?.endpoint ?? (list ? 'packages' : (step ?? manual)!.step)}`)) return { status: 429, body: { status: 429, message: 'too.many.requests' } };
    if (availability) return this.availability.route(request, supplierId);
    if (catalog) return this.catalog.route(request, supplierId);

    if (request.method === 'GET' && list) return this.list(supplierId, request);
    if (request.method === 'PUT' && manual && STEPS[manual.step]?.storeOnly) return this.advance(supplierId, manual.packageId, manual.step);
    if (request.method === 'PUT' && step) {
      const body = bodyOf(request);
      if (step.step === 'unsupplied') return this.unsupply(supplierId, body);
      if (STEPS[step.step] && !STEPS[step.step].storeOnly) {
        if (step.step === 'picked' && !(Number.isInteger(body.preparationTime) && (body.preparationTime as number) > 0)) return refusal(400, 'preparationTime (minutes) is required');
        return this.advance(supplierId, body.packageId, step.step, body.preparationTime as number | undefined);
      }
    }
    return refusal(405, `no route ${request.method} ${request.path}`);
  }

  /** Whether a request to this endpoint goes over `rateLimit` (if not, it is counted). */
  private overLimit(endpoint: string): boolean {
    const rule = this.options.rateLimit;
    if (!rule) return false;
    const now = Date.now();
    const times = (this.requestTimes.get(endpoint) ?? []).filter((at) => at > now - rule.windowMs);
    this.requestTimes.set(endpoint, times);
    if (times.length >= rule.limit) return true;
    times.push(now);
    return false;
  }

  private list(supplierId: string, request: SimulatorRequest): SimulatorResponse {
    const number = (name: string): number | undefined | null => {
      const raw = request.query.get(name);
      if (raw === null || raw === '') return undefined;
      return /^\d+$/.test(raw) ? Number(raw) : null;
    };
    const start = number('packageModificationStartDate');
    const end = number('packageModificationEndDate');
    const page = number('page') ?? 0;
    const size = number('size') ?? MAX_PAGE_SIZE;
    const storeId = request.query.get('storeId');
    const statuses = request.query.get('packageStatuses')?.split(',').filter(Boolean);
    if (start === null || end === null || page === null || size === null) return refusal(400, 'packageModificationStartDate, packageModificationEndDate, page and size are numbers (dates in epoch milliseconds)');
    if (size < 1 || size > MAX_PAGE_SIZE) return refusal(400, `size must be between 1 and ${MAX_PAGE_SIZE}`);
    if (statuses?.some((status) => !STATUSES.includes(status as SimulatedCStatus))) return refusal(400, `packageStatuses must be among ${STATUSES.join(', ')}`);
    const matching = [...this.packages.values()]
      .filter(
        (pkg) =>
          pkg.supplierId === supplierId &&
          (!storeId || pkg.storeId === storeId) &&
          (start === undefined || pkg.packageModificationDate >= start) &&
          (end === undefined || pkg.packageModificationDate <= end) &&
          (!statuses || statuses.includes(pkg.packageStatus)),
      )
      .sort((a, b) => a.packageModificationDate - b.packageModificationDate || a.id.localeCompare(b.id));
    const content = matching.slice(page * size, (page + 1) * size).map((pkg) => this.packageView(pkg));
    return { status: 200, body: { page, size, totalPages: Math.ceil(matching.length / size), totalCount: matching.length, content } };
  }

  /** The supplier's package, or the platform's refusal. */
  private find(supplierId: string, packageId: unknown): SimulatedCPackage | SimulatorResponse {
    if (typeof packageId !== 'string' || packageId === '') return refusal(400, 'packageId is required');
    const pkg = this.packages.get(packageId);
    if (!pkg) return refusal(404, `Dış sistem ${packageId} kaynağı bulunamadı. Neden: DomainNotFound.`);
    if (pkg.supplierId !== supplierId) return refusal(400, 'Değişiklik yapmak istediğiniz paket, kullandığınız supplierID ile ilişkili değildir.');
    return pkg;
  }

  private advance(supplierId: string, packageId: unknown, step: string, preparationTime?: number): SimulatorResponse {
    const pkg = this.find(supplierId, packageId);
    if (!('id' in pkg)) return pkg;
    const rule = STEPS[step];
    if (rule.storeOnly && pkg.deliveryType !== 'STORE') return refusal(400, `${step} is only for packages the restaurant delivers (deliveryType STORE)`);
    if (rule.storeOnly && pkg.storePickupSelected) return refusal(400, `${step} does not apply to a package the customer collects (storePickupSelected)`);
    if (pkg.packageStatus === rule.to) return { status: 200 };
    if (pkg.packageStatus === 'Cancelled' || pkg.packageStatus === 'UnSupplied') return refusal(400, `package is ${pkg.packageStatus}: a cancelled order cannot move on`);
    // An out-of-order step (platforms.md Round 2: 409).
    if (pkg.packageStatus !== rule.from) return refusal(409, `package is ${pkg.packageStatus}: ${step} needs ${rule.from}`);
    if (preparationTime !== undefined) pkg.preparationTime = preparationTime;
    this.modify(pkg, rule.to);
    return { status: 200 };
  }

  private unsupply(supplierId: string, body: Record<string, unknown>): SimulatorResponse {
    const pkg = this.find(supplierId, body.packageId);
    if (!('id' in pkg)) return pkg;
    if (!UNSUPPLIED_REASONS.includes(body.reasonId as number)) return refusal(400, `reasonId must be one of ${UNSUPPLIED_REASONS.join(', ')}`);
    const itemIds = body.itemIdList;
    const items = pkg.lines.flatMap((line) => line.items);
    if (!Array.isArray(itemIds) || itemIds.length === 0 || itemIds.some((id) => typeof id !== 'string' || !items.some((item) => item.packageItemId === id))) {
      return refusal(400, 'itemIdList must hold packageItemIds of the package');
    }
    if (pkg.packageStatus === 'Delivered' || pkg.packageStatus === 'Cancelled' || pkg.packageStatus === 'UnSupplied') return refusal(400, `package is ${pkg.packageStatus}: it cannot be cancelled`);
    for (const item of items) if (itemIds.includes(item.packageItemId)) item.isCancelled = true;
    pkg.unsuppliedReason = body.reasonId as number;
    // Every item listed cancels the package; some of them cancel those items only.
    this.modify(pkg, items.every((item) => item.isCancelled) ? 'UnSupplied' : pkg.packageStatus);
    return { status: 200 };
  }

  private modify(pkg: SimulatedCPackage, status: SimulatedCStatus): void {
    pkg.packageStatus = status;
    // Strictly later than the package's last modification, so a poll window always sees the change.
    pkg.packageModificationDate = Math.max(Date.now(), pkg.packageModificationDate + 1);
  }

  protected override adminRoute(request: SimulatorRequest): SimulatorResponse | undefined {
    const availability = this.availability.adminRoute(request) ?? this.catalog.adminRoute(request);
    if (availability) return availability;
    if (request.method === 'GET' && request.path === '/_simulator/packages') return { status: 200, body: [...this.packages.values()].map((pkg) => this.packageView(pkg)) };
    if (request.method === 'POST' && request.path === '/_simulator/packages') {
      const body = bodyOf(request);
      const supplier = this.options.suppliers.find((entry) => entry.supplierId === String(body.supplierId ?? '')) ?? this.options.suppliers[0];
      const storeId = body.storeId !== undefined ? String(body.storeId) : supplier?.storeIds[0];
      if (!supplier || !storeId) return { status: 422, body: { message: 'supplierId and storeId are required' } };
      const pkg = this.addPackage(supplier.supplierId, storeId, { deliveryType: body.deliveryType === 'GO' ? 'GO' : 'STORE', testPackage: body.testPackage === true, storePickupSelected: body.storePickupSelected === true });
      return { status: 201, body: this.packageView(pkg) };
    }
    const cancel = matchPath('/_simulator/packages/:id/cancel', request.path);
    if (request.method === 'POST' && cancel) {
      const pkg = this.packages.get(cancel.id);
      if (!pkg) return { status: 404, body: { message: 'no such package' } };
      this.cancelPackage(cancel.id);
      return { status: 200, body: this.packageView(pkg) };
    }
    return undefined;
  }
}
