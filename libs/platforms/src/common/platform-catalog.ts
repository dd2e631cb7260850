import type { IntegrationCredentials, PlatformAnswer, PlatformCallOutcome } from './platform-adapter';

/** A product's state on the platform's menu. */
export type MenuProductStatus = 'ACTIVE' | 'INACTIVE';

/** One option of a product (a choice in one of its option groups). */
export interface MenuOption {
  id: string;
  name: string;
  /** Extra price of the option in the menu's currency, where the platform gives one. */
  price: number | null;
}

export interface MenuOptionGroup {
  id: string;
  name: string;
  options: MenuOption[];
}

/** A product of a platform's menu, normalised by the adapter. */
export interface MenuProduct {
  platformProductId: string;
  name: string;
  /** In the menu's currency (TRY), as the platform shows it; null where the menu gives none. */
  price: number | null;
  category: string | null;
  status: MenuProductStatus;
  /**
   * The restaurant's own product code where the platform carries one (an external / PLU / POS
   * code field, per platform in its assumptions file): the catalog links such a product by it.
   */
  externalCode: string | null;
  options: MenuOptionGroup[];
  /** What the platform's later calls about this product need (a chain product id, a store group), stored as is. */
  platformData: Record<string, unknown>;
}

/** A menu read: the products, or why not (answered like status calls). */
export type MenuReadOutcome =
  | { kind: 'ok'; products: MenuProduct[]; answer: PlatformAnswer }
  | { kind: 'retry'; answer: PlatformAnswer; retryAfterMs?: number }
  | { kind: 'failed'; answer: PlatformAnswer; reason: string };

/** Why the catalog cannot do something on a platform: answered per integration, nothing sent. */
export type CatalogRefusalCode =
  | 'MENU_READ_UNSUPPORTED'
  | 'PRICE_UNSUPPORTED'
  | 'PRICE_OUT_OF_RANGE'
  | 'PRICE_PRECISION'
  | 'PRODUCT_NOT_ON_MENU';

/** A new price for one platform product (in the menu's currency). */
export interface ProductPriceChange {
  platformProductId: string;
  price: number;
}

/**
 * What a platform will send for a price change, decided before anything is queued (pure):
 * `params` are the platform's own wire values, stored with the command and given back to `setPrice`.
 */
export type PricePlan =
  | { kind: 'send'; params: Record<string, string | number | boolean | null> }
  | { kind: 'refused'; code: CatalogRefusalCode; message: string };

/**
 * A price call's result. `pending`: the platform took the request and works on it asynchronously
 * (a platform whose price changes are batch requests answered later); `followUp` is stored with the command and given to `checkPrice`
 * after `checkAfterMs`, until it answers done, failed or retry.
 */
export type PriceCallOutcome =
  | PlatformCallOutcome
  | { kind: 'pending'; answer: PlatformAnswer; followUp: Record<string, string | number>; checkAfterMs: number };

/**
 * A platform's menu calls. Calls are booked in the adapter's `callBudget` under `catalog:read`,
 * `catalog:price` and `catalog:check` (each platform's limits in its folder).
 */
export interface PlatformCatalog {
  /** Reads the integration's menu (absent: the platform offers no read; `menuReadUnsupported` says what exists). */
  readMenu?(credentials: IntegrationCredentials): Promise<MenuReadOutcome>;
  /** Why there is no read, for the answer (`MENU_READ_UNSUPPORTED`): set exactly when `readMenu` is absent. */
  readonly menuReadUnsupported?: string;
  /** Validates a price for the platform (bounds, decimals, what it refuses); `product` is the stored menu product (null: not imported). */
  planPrice(change: ProductPriceChange, product: MenuProduct | null): PricePlan;
  setPrice(credentials: IntegrationCredentials, change: ProductPriceChange, plan: Extract<PricePlan, { kind: 'send' }>): Promise<PriceCallOutcome>;
  /** Platforms whose price call is asynchronous: the request's result. */
  checkPrice?(credentials: IntegrationCredentials, followUp: Record<string, string | number>): Promise<PriceCallOutcome>;
}
