import { IntegrationCredentials, MenuProduct, PlatformAdapters, PlatformCatalog, PriceCallOutcome, PricePlan, ProductPriceChange } from '@courier/platforms';

export interface RecordedPriceCall {
  kind: 'set' | 'check';
  integrationId: string;
  change?: ProductPriceChange;
  params?: Record<string, unknown>;
  followUp?: Record<string, string | number>;
  at: number;
}

/**
 * A platform's catalog at the port, for the dispatcher's price machinery: plans like a platform with
 * a price ceiling and whole cents (and, with `requiresMenuProduct`, one that needs the imported
 * product's data), records every call, and answers each set and check with the next scripted outcome
 * (default: done). Installed in place of the adapter's own: tests of the commands, not of a platform.
 */
export class ScriptedCatalog implements PlatformCatalog {
  readonly calls: RecordedPriceCall[] = [];
  /** The stored products planPrice was given, in order. */
  readonly plannedWith: Array<MenuProduct | null> = [];
  private readonly setScript: PriceCallOutcome[] = [];
  private readonly checkScript: PriceCallOutcome[] = [];

  /** Absent where the platform's price call is synchronous (`asynchronous: false`, the default). */
  checkPrice?: (credentials: IntegrationCredentials, followUp: Record<string, string | number>) => Promise<PriceCallOutcome>;

  constructor(private readonly options: { maxPrice?: number; requiresMenuProduct?: boolean; asynchronous?: boolean } = {}) {
    if (options.asynchronous) this.checkPrice = (credentials, followUp) => this.check(credentials, followUp);
  }

  planPrice(change: ProductPriceChange, product: MenuProduct | null): PricePlan {
    this.plannedWith.push(product);
    const maxPrice = this.options.maxPrice ?? 10_000;
    if (change.price > maxPrice) return { kind: 'refused', code: 'PRICE_OUT_OF_RANGE', message: `the platform takes prices up to ${maxPrice}` };
    if (this.options.requiresMenuProduct && !product) return { kind: 'refused', code: 'PRODUCT_NOT_ON_MENU', message: 'the product is not on the imported menu' };
    return { kind: 'send', params: { priceInCents: Math.round(change.price * 100), chainProductId: (product?.platformData.chainProductId as string | undefined) ?? null } };
  }

  async setPrice(credentials: IntegrationCredentials, change: ProductPriceChange, plan: Extract<PricePlan, { kind: 'send' }>): Promise<PriceCallOutcome> {
    this.calls.push({ kind: 'set', integrationId: credentials.integrationId, change, params: plan.params, at: Date.now() });
    return this.setScript.shift() ?? { kind: 'done', answer: { httpStatus: 200, body: { ok: true } } };
  }

  private async check(credentials: IntegrationCredentials, followUp: Record<string, string | number>): Promise<PriceCallOutcome> {
    this.calls.push({ kind: 'check', integrationId: credentials.integrationId, followUp, at: Date.now() });
    return this.checkScript.shift() ?? { kind: 'done', answer: { httpStatus: 200, body: { status: 'COMPLETED' } } };
  }

  /** The next setPrice calls answer these outcomes, in order. */
  answerSetWith(...outcomes: PriceCallOutcome[]): void {
    this.setScript.push(...outcomes);
  }

  /** The next checkPrice calls answer these outcomes, in order. */
  answerCheckWith(...outcomes: PriceCallOutcome[]): void {
    this.checkScript.push(...outcomes);
  }

  callsOf(integrationId: string): RecordedPriceCall[] {
    return this.calls.filter((call) => call.integrationId === integrationId);
  }
}

/** Puts `catalog` in place of the platform adapter's own. */
export function installCatalog(adapters: PlatformAdapters, platform: string, catalog: PlatformCatalog | undefined): void {
  Object.defineProperty(adapters.get(platform)!, 'catalog', { value: catalog, configurable: true, writable: true });
}

/** A product of an integration's imported menu, linked to the restaurant's code (as an import with an external code leaves them). */
export async function seedLinkedProduct(
  db: { query(text: string, params?: unknown[]): Promise<unknown> },
  link: { integrationId: string; restaurantId: string; platform: string; platformProductId: string; productCode: string; price?: number; status?: 'ACTIVE' | 'INACTIVE'; platformData?: Record<string, unknown> },
): Promise<void> {
  await db.query(
    `INSERT INTO catalog_products (integration_id, platform_product_id, restaurant_id, platform, name, name_key, price, status, external_code, platform_data, first_seen_at, last_seen_at)
     VALUES ($1, $2, $3, $4, 'Lahmacun', 'lahmacun', $5, $6, $7, $8, now(), now())`,
    [link.integrationId, link.platformProductId, link.restaurantId, link.platform, link.price ?? 60, link.status ?? 'ACTIVE', link.productCode, JSON.stringify(link.platformData ?? {})],
  );
  await db.query(
    `INSERT INTO catalog_codes (restaurant_id, product_code, name, name_key, source, created_at) VALUES ($1, $2, 'Lahmacun', 'lahmacun', 'external_code', now()) ON CONFLICT DO NOTHING`,
    [link.restaurantId, link.productCode],
  );
  await db.query(
    `INSERT INTO catalog_links (integration_id, platform_product_id, restaurant_id, product_code, linked_by, linked_at) VALUES ($1, $2, $3, $4, 'external_code', now())`,
    [link.integrationId, link.platformProductId, link.restaurantId, link.productCode],
  );
}
