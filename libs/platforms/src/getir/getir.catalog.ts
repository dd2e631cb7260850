import type { IntegrationCredentials, PlatformCallOutcome } from '../common/platform-adapter';
import type {
  MenuOptionGroup,
  MenuProduct,
  MenuReadOutcome,
  PlatformCatalog,
  PriceCallOutcome,
  PricePlan,
  ProductPriceChange,
} from '../common/platform-catalog';
import { answerOf, isRetryableStatus, outcomeOfError } from '../common/outcomes';
import type { PlatformResponse } from '../common/platform-http';
import { isRecord } from '../common/payload-reader';
import { outcomeOf } from './getir.availability';
import {
  PLATFORM_A_CHAIN_MENUS_PATH,
  PLATFORM_A_CHAIN_PRICE_PATH,
  PLATFORM_A_CONFIGURATION_RATE_LIMIT,
  PLATFORM_A_MENU_PATH,
  PLATFORM_A_PRICE_BOUNDS,
  PLATFORM_A_PRODUCT_STATUS,
} from './getir.assumptions';
import type { PlatformACall } from './getir.adapter';

/** What a Getir product's later price call needs, stored with the imported product (platformData). */
export interface PlatformAProductData {
  /** Getir's chain product id (`chainProduct`): the price call's `chainProductOID`. */
  chainProductId: string | null;
  /** The chain menu holding the chain product (from `GET /chain-menus`): the price call's path. */
  chainMenuId: string | null;
  productCategoryId: string | null;
  /** Getir's own status number (100, 200, 400). */
  statusCode: number | null;
  struckPrice: number | null;
  isApproved: boolean | null;
}

/**
 * PLATFORM_A's catalog (getir.assumptions.ts, "Catalog"): the menu from `GET /restaurants/menu` (a
 * configuration call, booked `catalog:read`) with each chain product's chain menu from `GET
 * /chain-menus`; prices only through `POST /chain-menus/{oid}/update-prices` (booked `catalog:price`),
 * so a product of no chain menu is refused PRICE_UNSUPPORTED before anything is queued.
 */
export class PlatformACatalog implements PlatformCatalog {
  constructor(private readonly call: PlatformACall) {}

  async readMenu(credentials: IntegrationCredentials): Promise<MenuReadOutcome> {
    let menu: PlatformResponse;
    try {
      menu = await this.call(credentials, 'GET', PLATFORM_A_MENU_PATH);
    } catch (error) {
      return readOutcome(outcomeOfError(error), error);
    }
    const outcome = outcomeOf(menu, PLATFORM_A_CONFIGURATION_RATE_LIMIT.blockMs);
    if (outcome.kind !== 'done') return readOutcome(outcome);
    const answer = answerOf(menu);
    const parsed = parsePlatformAMenu(menu.body);
    if (!parsed.ok) return { kind: 'failed', answer, reason: parsed.reason };
    if (!parsed.products.some((product) => (product.platformData as unknown as PlatformAProductData).chainProductId)) {
      return { kind: 'ok', products: parsed.products, answer };
    }
    let chainMenus: PlatformResponse;
    try {
      chainMenus = await this.call(credentials, 'GET', PLATFORM_A_CHAIN_MENUS_PATH);
    } catch (error) {
      return readOutcome(outcomeOfError(error), error);
    }
    // A half-read menu is not imported: a chain menu list that is only late makes the whole read wait.
    if (isRetryableStatus(chainMenus.status)) return readOutcome(outcomeOf(chainMenus, PLATFORM_A_CONFIGURATION_RATE_LIMIT.blockMs));
    const holders = chainMenus.status >= 200 && chainMenus.status < 300 ? chainMenuOfProducts(chainMenus.body) : undefined;
    return { kind: 'ok', products: parsed.products.map((product) => withChainMenu(product, holders)), answer };
  }

  planPrice(change: ProductPriceChange, product: MenuProduct | null): PricePlan {
    const { price } = change;
    const B = PLATFORM_A_PRICE_BOUNDS;
    if (!Number.isFinite(price) || price <= B.min || price > B.max)
      return { kind: 'refused', code: 'PRICE_OUT_OF_RANGE', message: `PLATFORM_A takes a price above ${B.min} and at most ${B.max} lira.` };
    if (Math.abs(Math.round(price * 100) - price * 100) > 1e-6)
      return { kind: 'refused', code: 'PRICE_PRECISION', message: 'PLATFORM_A takes a price with at most 2 decimals (kuruş).' };
    if (!product)
      return {
        kind: 'refused',
        code: 'PRODUCT_NOT_ON_MENU',
        message: 'The product is not on the imported PLATFORM_A menu: its chain product and chain menu are unknown. Import the menu first.',
      };
    const data = product.platformData as Partial<PlatformAProductData>;
    const chainProductId = typeof data.chainProductId === 'string' && data.chainProductId !== '' ? data.chainProductId : null;
    const chainMenuId = typeof data.chainMenuId === 'string' && data.chainMenuId !== '' ? data.chainMenuId : null;
    if (!chainProductId)
      return {
        kind: 'refused',
        code: 'PRICE_UNSUPPORTED',
        message:
          "PLATFORM_A has no price call for a restaurant's own product: prices change only through a chain menu, and this product belongs to none. Change it in Getir's restaurant panel.",
      };
    if (!chainMenuId)
      return {
        kind: 'refused',
        code: 'PRICE_UNSUPPORTED',
        message: `PLATFORM_A changes prices only through a chain menu, and no chain menu listed by GET /chain-menus holds chain product ${chainProductId}.`,
      };
    return { kind: 'send', params: { chainMenuOID: chainMenuId, chainProductOID: chainProductId, price: Math.round(price * 100) / 100 } };
  }

  async setPrice(
    credentials: IntegrationCredentials,
    _change: ProductPriceChange,
    plan: Extract<PricePlan, { kind: 'send' }>,
  ): Promise<PriceCallOutcome> {
    const { chainMenuOID, chainProductOID, price } = plan.params;
    try {
      const response = await this.call(credentials, 'POST', PLATFORM_A_CHAIN_PRICE_PATH(String(chainMenuOID)), {
        chainProducts: [{ chainProductOID, price }],
        chainOptions: [],
      });
      return outcomeOf(response, PLATFORM_A_CONFIGURATION_RATE_LIMIT.blockMs);
    } catch (error) {
      return outcomeOfError(error);
    }
  }
}

export type PlatformAMenuParse = { ok: true; products: MenuProduct[] } | { ok: false; reason: string };

/**
 * `GET /restaurants/menu`'s body (G Swagger Model13) as menu products. Not the documented shape (no
 * `productCategories` array, a category or product that is not an object) fails; missing optional
 * fields are tolerated; a product without an id cannot be addressed and is left out.
 */
export function parsePlatformAMenu(body: unknown): PlatformAMenuParse {
  if (!isRecord(body) || !Array.isArray(body.productCategories))
    return { ok: false, reason: 'PLATFORM_A answered a menu without a productCategories array' };
  const products: MenuProduct[] = [];
  for (const [index, category] of body.productCategories.entries()) {
    if (!isRecord(category)) return { ok: false, reason: `PLATFORM_A answered a menu whose productCategories[${index}] is not an object` };
    const items = category.products ?? [];
    if (!Array.isArray(items)) return { ok: false, reason: `PLATFORM_A answered a menu whose productCategories[${index}].products is not an array` };
    for (const [at, item] of items.entries()) {
      if (!isRecord(item)) return { ok: false, reason: `PLATFORM_A answered a menu whose productCategories[${index}].products[${at}] is not an object` };
      const id = text(item.id);
      if (!id) continue;
      const statusCode = typeof item.status === 'number' ? item.status : null;
      const data: PlatformAProductData = {
        chainProductId: text(item.chainProduct),
        chainMenuId: null,
        productCategoryId: text(item.productCategory) ?? text(category.id),
        statusCode,
        struckPrice: typeof item.struckPrice === 'number' ? item.struckPrice : null,
        isApproved: typeof item.isApproved === 'boolean' ? item.isApproved : null,
      };
      products.push({
        platformProductId: id,
        name: localized(item.name) ?? id,
        price: typeof item.price === 'number' && Number.isFinite(item.price) ? item.price : null,
        category: localized(category.name),
        status: statusCode === PLATFORM_A_PRODUCT_STATUS.ACTIVE ? 'ACTIVE' : 'INACTIVE',
        externalCode: null,
        options: optionGroups(item.optionCategories),
        platformData: { ...data },
      });
    }
  }
  return { ok: true, products };
}

/** Option categories (Model8) and their options (Model6); entries without an id are left out. */
function optionGroups(value: unknown): MenuOptionGroup[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).flatMap((group) => {
    const id = text(group.id);
    if (!id) return [];
    const options = (Array.isArray(group.options) ? group.options : []).filter(isRecord).flatMap((option) => {
      const optionId = text(option.id);
      if (!optionId) return [];
      const price = typeof option.price === 'number' && Number.isFinite(option.price) ? option.price : null;
      return [{ id: optionId, name: localized(option.name) ?? localized(option.clientDisplayName) ?? optionId, price }];
    });
    return [{ id, name: localized(group.name) ?? id, options }];
  });
}

/**
 * Chain product id -> chain menu id from `GET /chain-menus` (the Go client's `[{ id, name, products?:
 * [{ id }] }]`, or wrapped `{ chainMenus }`); `'*'` holds the one chain menu that lists no products.
 */
export function chainMenuOfProducts(body: unknown): Map<string, string> | undefined {
  const list = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body.chainMenus) ? body.chainMenus : undefined;
  if (!list) return undefined;
  const menus = list.filter(isRecord).flatMap((menu) => {
    const id = text(menu.id) ?? text(menu._id);
    return id ? [{ id, products: Array.isArray(menu.products) ? menu.products : undefined }] : [];
  });
  const holders = new Map<string, string>();
  for (const menu of menus)
    for (const product of menu.products ?? []) {
      const productId = isRecord(product) ? (text(product.id) ?? text(product.chainProductOID)) : text(product);
      if (productId && !holders.has(productId)) holders.set(productId, menu.id);
    }
  if (menus.length === 1 && menus[0].products === undefined) holders.set('*', menus[0].id);
  return holders;
}

function withChainMenu(product: MenuProduct, holders: Map<string, string> | undefined): MenuProduct {
  const data = product.platformData as unknown as PlatformAProductData;
  if (!data.chainProductId || !holders) return product;
  const chainMenuId = holders.get(data.chainProductId) ?? holders.get('*') ?? null;
  return { ...product, platformData: { ...data, chainMenuId } };
}

/** Getir's `{ tr, en }` name: Turkish first. */
function localized(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() || null;
  if (!isRecord(value)) return null;
  return text(value.tr) ?? text(value.en);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** A read that did not succeed, as the read's outcome (anything else is a programming error). */
function readOutcome(outcome: PlatformCallOutcome, error?: unknown): Exclude<MenuReadOutcome, { kind: 'ok' }> {
  if (outcome.kind === 'retry') return { kind: 'retry', answer: outcome.answer, retryAfterMs: outcome.retryAfterMs };
  if (outcome.kind === 'failed') return { kind: 'failed', answer: outcome.answer, reason: outcome.reason };
  throw error ?? new Error(`a failed read cannot be ${outcome.kind}`);
}

