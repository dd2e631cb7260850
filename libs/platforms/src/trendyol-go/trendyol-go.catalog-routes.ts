import { randomUUID } from 'node:crypto';
import { DEMO_MENU, demoNameOn } from '../common/demo-menu';
import { bodyOf, matchPath, SimulatorRequest, SimulatorResponse } from '../common/simulator-server';
import { PlatformCAvailabilityRoutes, trendyolRefusal, TrendyolProductStatus } from './trendyol-go.availability-routes';

/*
 * Trendyol Go Yemek's menu and price calls, built from the sources named in trendyol-go.assumptions.ts
 * ("Catalog"), never from our adapter: `GET /integrator/product/meal/suppliers/{s}/stores/{st}/products`
 * answering `{ products, sections, ingredients, modifierGroups }`; `POST .../suppliers/{s}/products/price
 * { items: [{ restaurantId?, productId, sellingPrice }] }` (1 to 1,000 items) answering `{ batchRequestId }`
 * and queued; `GET .../suppliers/{s}/batch-requests/{id}` answering the batch and its items (kept 4
 * hours). Products are the supplier's (one id in every store), prices and statuses per store; a price
 * request without restaurantId changes every store of the supplier. `PUT .../stores/{st}/sections/{sectionId}/status
 * { status: ACTIVE | PASSIVE }` (tgoapps "Kategori Satışa Açma Kapama", MealMenuClient) takes a section, and
 * its products, off sale or back in that store. The same body sent again within
 * 15 minutes is refused (the meal clients: "tekrarlı fiyat güncelleme"; Trendyol's page for the
 * marketplace price call gives the window and the text). What the sources leave open is marked "assumed".
 */

/** One product of a store's menu, as the simulator keeps it (its status is the availability routes' map). */
export interface TrendyolMenuEntry {
  id: number;
  name: string;
  description: string;
  sellingPrice: number;
  originalPrice: number;
  sectionName: string;
  /** The seller's own code (assumed field `stockCode`), served only when set. */
  stockCode?: string;
  modifierGroupIds: number[];
}

/** A modifier group of a store's menu: its options are products of the menu answer (not in any section). */
export interface TrendyolModifierGroup {
  id: number;
  name: string;
  min: number;
  max: number;
  options: Array<{ id: number; name: string; price: number }>;
}

/** A seed product (`PlatformCCatalogOptions.menu`): ids are given or numbered from 320001. */
export interface TrendyolMenuSeed {
  id?: number;
  name: string;
  category: string;
  price: number;
  stockCode?: string;
  status?: TrendyolProductStatus;
  modifierGroupIds?: number[];
}

export interface PlatformCCatalogOptions {
  /** Every store's menu (default: DEMO_MENU, names upper-cased the Turkish way, `stockCode` where PLATFORM_C carries the code). */
  menu?: TrendyolMenuSeed[];
  modifierGroups?: TrendyolModifierGroup[];
  /** Processes each price request this long after it was taken (the one-machine mode); unset: only `processBatches()` does. */
  batchProcessingMs?: number;
}

type ItemStatus = 'IN_PROGRESS' | 'SUCCESS' | 'FAILED';

export interface TrendyolBatch {
  batchRequestId: string;
  supplierId: string;
  status: 'IN_PROGRESS' | 'COMPLETED';
  creationDate: number;
  lastModification: number;
  items: Array<{ requestItem: Record<string, unknown>; status: ItemStatus; failureReasons: string[] }>;
}

/** The demo menu as PLATFORM_C shows it: its own ids, names upper-cased, the code only where it carries one. */
export function trendyolDemoMenu(): TrendyolMenuSeed[] {
  return DEMO_MENU.map((product, index) => ({
    id: 320_001 + index,
    name: demoNameOn(product, 'turkish_upper'),
    category: product.category,
    price: product.price,
    ...(product.codeOn.includes('PLATFORM_C') ? { stockCode: product.productCode } : {}),
  }));
}

const MENU = '/integrator/product/meal/suppliers/:supplierId/stores/:storeId/products';
const PRICE = '/integrator/product/meal/suppliers/:supplierId/products/price';
const BATCH = '/integrator/product/meal/suppliers/:supplierId/batch-requests/:batchRequestId';
const SECTION_STATUS = '/integrator/product/meal/suppliers/:supplierId/stores/:storeId/sections/:sectionId/status';
const MAX_ITEMS = 1_000;
/** Batch results are kept 4 hours (the meal client: "sonuclara 4 saat boyunca erisilebilir"). */
const BATCH_KEPT_MS = 4 * 60 * 60_000;
/** An unchanged body is refused for 15 minutes (assumed: the marketplace price call's documented window and text). */
const REPEAT_WINDOW_MS = 15 * 60_000;
const REPEATED_REQUEST = '15 dakika boyunca aynı isteği tekrarlı olarak atamazsınız!';

/**
 * The menu and price endpoints with each store's menu. PlatformCSimulator authenticates and
 * rate-limits a request (per endpoint), then routes it here. A product's status is the availability
 * routes' (so `PUT .../products/{id}/status` changes the served menu).
 */
export class PlatformCCatalogRoutes {
  private readonly menus = new Map<string, Map<number, TrendyolMenuEntry>>();
  private readonly modifierGroups: TrendyolModifierGroup[];
  readonly batches = new Map<string, TrendyolBatch>();
  /** Products whose price items fail, with the platform's reason (`refusePriceOf`). */
  private readonly refusedPrices = new Map<number, string>();
  /** When each supplier last sent each price body (the repeated-request refusal). */
  private readonly recentBodies = new Map<string, number>();
  /** Sections the restaurant took off sale, per store (by name). */
  private readonly passiveSections = new Map<string, Set<string>>();
  /** A section's id, kept while the simulator runs (assumed: one id per section name for the supplier's stores). */
  private readonly sectionIds = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private nextProductId = 330_001;

  constructor(
    private readonly options: PlatformCCatalogOptions,
    private readonly availability: PlatformCAvailabilityRoutes,
    private readonly suppliers: ReadonlyArray<{ supplierId: string; storeIds: string[] }>,
  ) {
    this.modifierGroups = options.modifierGroups ?? [];
    const seed = options.menu ?? trendyolDemoMenu();
    for (const supplier of suppliers) for (const storeId of supplier.storeIds) for (const product of seed) this.addMenuProduct(storeId, product);
  }

  /** Which catalog endpoint a path is (the rate limiter's key) and its supplier, or undefined. */
  match(path: string): { supplierId: string; endpoint: string } | undefined {
    const menu = matchPath(MENU, path);
    if (menu) return { supplierId: menu.supplierId, endpoint: 'menu' };
    const price = matchPath(PRICE, path);
    if (price) return { supplierId: price.supplierId, endpoint: 'price' };
    const batch = matchPath(BATCH, path);
    if (batch) return { supplierId: batch.supplierId, endpoint: 'batch-requests' };
    const section = matchPath(SECTION_STATUS, path);
    if (section) return { supplierId: section.supplierId, endpoint: 'section-status' };
    return undefined;
  }

  /** A product of a store's menu with its status, or undefined. */
  menuProduct(storeId: string, productId: number | string): (TrendyolMenuEntry & { status: TrendyolProductStatus }) | undefined {
    const entry = this.menus.get(storeId)?.get(Number(productId));
    const status = this.availability.store(storeId)?.products.get(String(productId));
    return entry && status ? { ...entry, status } : undefined;
  }

  /** The restaurant (in the seller panel) adds a product to a store's menu; it is ACTIVE unless said. */
  addMenuProduct(storeId: string, seed: TrendyolMenuSeed): TrendyolMenuEntry {
    const store = this.availability.store(storeId);
    if (!store) throw new Error(`no store ${storeId}`);
    const id = seed.id ?? this.nextProductId++;
    const entry: TrendyolMenuEntry = {
      id,
      name: seed.name,
      description: '',
      sellingPrice: seed.price,
      originalPrice: seed.price,
      sectionName: seed.category,
      ...(seed.stockCode ? { stockCode: seed.stockCode } : {}),
      modifierGroupIds: seed.modifierGroupIds ?? [],
    };
    const menu = this.menus.get(storeId) ?? new Map<number, TrendyolMenuEntry>();
    menu.set(id, entry);
    this.menus.set(storeId, menu);
    this.sectionIdOf(entry.sectionName);
    store.products.set(String(id), seed.status ?? 'ACTIVE');
    return entry;
  }

  /** The restaurant changes a product in the seller panel (drift the suite did not make). */
  changeMenuProduct(storeId: string, productId: number, change: { price?: number; name?: string; status?: TrendyolProductStatus; category?: string }): void {
    const entry = this.menus.get(storeId)?.get(productId);
    if (!entry) throw new Error(`no product ${productId} in store ${storeId}`);
    if (change.price !== undefined) Object.assign(entry, { sellingPrice: change.price, originalPrice: change.price });
    if (change.name !== undefined) entry.name = change.name;
    if (change.category !== undefined) {
      entry.sectionName = change.category;
      this.sectionIdOf(change.category);
    }
    if (change.status !== undefined) this.availability.store(storeId)!.products.set(String(productId), change.status);
  }

  /** The restaurant takes a section (category) off sale or back in the seller panel; its products go with it. */
  changeSectionStatus(storeId: string, sectionName: string, status: TrendyolProductStatus): void {
    const passive = this.passiveSections.get(storeId) ?? new Set<string>();
    if (status === 'PASSIVE') passive.add(sectionName);
    else passive.delete(sectionName);
    this.passiveSections.set(storeId, passive);
  }

  removeMenuProduct(storeId: string, productId: number): void {
    this.menus.get(storeId)?.delete(productId);
    this.availability.store(storeId)?.products.delete(String(productId));
  }

  /** Test hook: the platform refuses every price item of this product (assumed reason text unless given). */
  refusePriceOf(productId: number, reason = `Ürün fiyatı güncellenemedi: ${productId} için fiyat kabul edilmedi`): void {
    this.refusedPrices.set(productId, reason);
  }

  /** Runs the platform's queue: every batch still IN_PROGRESS is processed now. */
  processBatches(): TrendyolBatch[] {
    const processed = [...this.batches.values()].filter((batch) => batch.status === 'IN_PROGRESS');
    for (const batch of processed) this.process(batch);
    return processed;
  }

  /** Clears the automatic processing timers (the simulator's stop). */
  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** An authenticated supplier's catalog call. */
  route(request: SimulatorRequest, supplierId: string): SimulatorResponse {
    const menu = matchPath(MENU, request.path);
    if (menu && request.method === 'GET') {
      const store = this.availability.store(menu.storeId);
      if (!store || store.supplierId !== supplierId) return notTheSuppliers();
      return { status: 200, body: this.menuView(menu.storeId) };
    }
    if (matchPath(PRICE, request.path) && request.method === 'POST') return this.takePrices(request, supplierId);
    const section = matchPath(SECTION_STATUS, request.path);
    if (section && request.method === 'PUT') {
      const store = this.availability.store(section.storeId);
      if (!store || store.supplierId !== supplierId) return notTheSuppliers();
      const name = [...this.sectionIds].find(([sectionName, id]) => String(id) === section.sectionId && this.sectionNamesOf(section.storeId).includes(sectionName))?.[0];
      if (name === undefined) return trendyolRefusal(404, `section ${section.sectionId} bulunamadı`);
      const { status } = bodyOf(request);
      // An enum field with another value (tgoapps "Hata Kodları": status other than ACTIVE / PASSIVE).
      if (status !== 'ACTIVE' && status !== 'PASSIVE') return trendyolRefusal(400, 'status must be one of ACTIVE, PASSIVE');
      this.changeSectionStatus(section.storeId, name, status);
      return { status: 200 };
    }
    const batch = matchPath(BATCH, request.path);
    if (batch && request.method === 'GET') {
      const found = this.batches.get(batch.batchRequestId);
      // Assumed from Trendyol's marketplace batch call (loncadev/lonca, checked live): an unknown id reads as processing, not 404.
      if (!found || found.supplierId !== supplierId || found.creationDate + BATCH_KEPT_MS < Date.now())
        return { status: 200, body: { batchRequestId: batch.batchRequestId, status: 'PROCESSING', items: [] } };
      return { status: 200, body: batchView(found) };
    }
    return trendyolRefusal(405, `no route ${request.method} ${request.path}`);
  }

  /**
   * `GET /_simulator/menus/{storeId}`: the served menu; `PATCH /_simulator/menus/{storeId}/products/{productId}
   * { price?, name?, status? }`: the restaurant changes it in the seller panel; `POST /_simulator/batches/process`:
   * run the queue now.
   */
  adminRoute(request: SimulatorRequest): SimulatorResponse | undefined {
    const menu = matchPath('/_simulator/menus/:storeId', request.path);
    if (menu && request.method === 'GET') {
      if (!this.menus.has(menu.storeId)) return { status: 404, body: { message: 'no such store' } };
      return { status: 200, body: this.menuView(menu.storeId) };
    }
    const product = matchPath('/_simulator/menus/:storeId/products/:productId', request.path);
    if (product && request.method === 'PATCH') {
      if (!this.menuProduct(product.storeId, product.productId)) return { status: 404, body: { message: 'no such product in this store' } };
      const { price, name, status } = bodyOf(request);
      if ((price !== undefined && !(typeof price === 'number' && price > 0)) || (name !== undefined && typeof name !== 'string') || (status !== undefined && status !== 'ACTIVE' && status !== 'PASSIVE'))
        return { status: 422, body: { message: 'price (a number above 0), name (text) and status (ACTIVE | PASSIVE) are optional' } };
      this.changeMenuProduct(product.storeId, Number(product.productId), { price: price as number | undefined, name: name as string | undefined, status: status as TrendyolProductStatus | undefined });
      return { status: 200, body: this.menuProduct(product.storeId, product.productId) };
    }
    if (request.path === '/_simulator/batches/process' && request.method === 'POST')
      return { status: 200, body: this.processBatches().map((batch) => batchView(batch)) };
    return undefined;
  }

  /** A store's menu in the platform's shape. */
  menuView(storeId: string): Record<string, unknown> {
    const entries = [...(this.menus.get(storeId)?.values() ?? [])];
    const statuses = this.availability.store(storeId)?.products;
    const sectionNames = this.sectionNamesOf(storeId);
    const groups = this.modifierGroups.filter((group) => entries.some((entry) => entry.modifierGroupIds.includes(group.id)));
    const optionProducts = new Map(groups.flatMap((group) => group.options.map((option) => [option.id, option] as const)));
    return {
      products: [
        ...entries.map((entry) => ({
          id: entry.id,
          name: entry.name,
          description: entry.description,
          sellingPrice: entry.sellingPrice,
          originalPrice: entry.originalPrice,
          status: statuses?.get(String(entry.id)) ?? 'PASSIVE',
          ...(entry.stockCode ? { stockCode: entry.stockCode } : {}),
          ingredients: [],
          extraIngredients: [],
          modifierGroups: entry.modifierGroupIds.map((id, position) => ({ id, position })),
        })),
        ...[...optionProducts.values()].map((option) => ({ id: option.id, name: option.name, description: '', sellingPrice: option.price, originalPrice: option.price, status: 'ACTIVE', ingredients: [], extraIngredients: [], modifierGroups: [] })),
      ],
      sections: sectionNames.map((name, index) => ({
        id: this.sectionIdOf(name),
        name,
        position: index,
        status: this.passiveSections.get(storeId)?.has(name) ? 'PASSIVE' : 'ACTIVE',
        products: entries.filter((entry) => entry.sectionName === name).map((entry, position) => ({ id: entry.id, position })),
      })),
      ingredients: [],
      modifierGroups: groups.map((group) => ({
        id: group.id,
        name: group.name,
        min: group.min,
        max: group.max,
        modifierProducts: group.options.map((option, position) => ({ id: option.id, price: option.price, position })),
      })),
    };
  }

  private sectionNamesOf(storeId: string): string[] {
    return [...new Set([...(this.menus.get(storeId)?.values() ?? [])].map((entry) => entry.sectionName))];
  }

  private sectionIdOf(name: string): number {
    if (!this.sectionIds.has(name)) this.sectionIds.set(name, 9_001 + this.sectionIds.size);
    return this.sectionIds.get(name)!;
  }

  private takePrices(request: SimulatorRequest, supplierId: string): SimulatorResponse {
    const { items } = bodyOf(request);
    if (!Array.isArray(items) || items.length < 1 || items.length > MAX_ITEMS)
      return trendyolRefusal(400, `Gönderdiğiniz istekte liste eleman sayısı minimum 1, maximum ${MAX_ITEMS} olmalıdır.`);
    const stores = this.suppliers.find((supplier) => supplier.supplierId === supplierId)?.storeIds ?? [];
    for (const item of items) {
      const restaurantId = (item as Record<string, unknown> | null)?.restaurantId;
      // Another seller's restaurant: the authentication refusal (tgoapps "Hata Kodları": restaurantId not the supplier's).
      if (restaurantId !== undefined && restaurantId !== null && !stores.includes(String(restaurantId))) return notTheSuppliers();
    }
    const now = Date.now();
    for (const [key, sentAt] of this.recentBodies) if (sentAt + REPEAT_WINDOW_MS <= now) this.recentBodies.delete(key);
    // The body unchanged, not the price: the same price in another body is taken.
    const bodyKey = `${supplierId} ${JSON.stringify(items)}`;
    if (this.recentBodies.has(bodyKey)) return trendyolRefusal(400, REPEATED_REQUEST);
    this.recentBodies.set(bodyKey, now);
    const batch: TrendyolBatch = {
      batchRequestId: `${randomUUID()}-${Math.floor(now / 1000)}`,
      supplierId,
      status: 'IN_PROGRESS',
      creationDate: now,
      lastModification: now,
      items: items.map((item) => ({ requestItem: typeof item === 'object' && item !== null ? { ...item } : { value: item }, status: 'IN_PROGRESS', failureReasons: [] })),
    };
    this.batches.set(batch.batchRequestId, batch);
    const delay = this.options.batchProcessingMs;
    if (delay !== undefined) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (batch.status === 'IN_PROGRESS') this.process(batch);
      }, delay);
      timer.unref();
      this.timers.add(timer);
    }
    return { status: 200, body: { batchRequestId: batch.batchRequestId } };
  }

  /** Each item succeeds (its price applied to its store, or every store of the supplier) or fails with a reason. */
  private process(batch: TrendyolBatch): void {
    const stores = this.suppliers.find((supplier) => supplier.supplierId === batch.supplierId)?.storeIds ?? [];
    for (const item of batch.items) {
      const { productId, sellingPrice, restaurantId } = item.requestItem;
      const targets = restaurantId === undefined || restaurantId === null ? stores : [String(restaurantId)];
      const entries = targets.map((storeId) => this.menus.get(storeId)?.get(Number(productId))).filter((entry): entry is TrendyolMenuEntry => entry !== undefined);
      const reason =
        typeof productId !== 'number' || !Number.isInteger(productId)
          ? 'productId alanı sayısal olmalıdır'
          : entries.length === 0
            ? `Ürün bulunamadı: ${productId}`
            : typeof sellingPrice !== 'number' || !(sellingPrice > 0) || Math.abs(Math.round(sellingPrice * 100) - sellingPrice * 100) > 1e-6
              ? 'sellingPrice sıfırdan büyük ve en fazla iki ondalıklı olmalıdır'
              : this.refusedPrices.get(productId);
      if (reason) {
        Object.assign(item, { status: 'FAILED', failureReasons: [reason] });
        continue;
      }
      for (const entry of entries) Object.assign(entry, { sellingPrice, originalPrice: sellingPrice });
      item.status = 'SUCCESS';
    }
    batch.status = 'COMPLETED';
    batch.lastModification = Math.max(Date.now(), batch.lastModification + 1);
  }
}

function batchView(batch: TrendyolBatch): Record<string, unknown> {
  return {
    batchRequestId: batch.batchRequestId,
    supplierId: Number(batch.supplierId) || batch.supplierId,
    status: batch.status,
    creationDate: batch.creationDate,
    lastModification: batch.lastModification,
    sourceType: 'API',
    itemCount: batch.items.length,
    failedItemCount: batch.items.filter((item) => item.status === 'FAILED').length,
    // Assumed name of the meal price batch's type.
    batchRequestType: 'MealProductPriceUpdate',
    items: batch.items.map((item) => ({ requestItem: item.requestItem, status: item.status, failureReasons: item.failureReasons })),
  };
}

function notTheSuppliers(): SimulatorResponse {
  return trendyolRefusal(
    401,
    'İstek gönderirken kullandığınız supplierID, API Key, API Secure Key bilgilerinden birisi eksik ya da yanlıştır.',
    'ClientApiAuthenticationException',
  );
}
