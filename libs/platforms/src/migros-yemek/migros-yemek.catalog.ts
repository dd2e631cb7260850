import type { IntegrationCredentials, PlatformAnswer, PlatformCallOutcome } from '../common/platform-adapter';
import type { MenuProduct, MenuReadOutcome, PlatformCatalog, PriceCallOutcome, PricePlan, ProductPriceChange } from '../common/platform-catalog';
import { outcomeOfError } from '../common/outcomes';
import { isRecord } from '../common/payload-reader';
import { PLATFORM_D_CATALOG_PATHS, PLATFORM_D_PATHS, PLATFORM_D_PRICE_DECIMALS, platformDId } from './migros-yemek.assumptions';
import { answerOf, outcomeOf, PlatformDAnswerRead, PlatformDCalls } from './migros-yemek.answers';

/** What a Migros menu product keeps for its price call (migros-yemek.assumptions.ts, Catalog). */
export interface PlatformDMenuProductData {
  menuId: number | string;
  /** Every menu item of the product (one per header it is listed under): the price call names each. */
  menuItemIds: Array<number | string>;
  headerIds: Array<number | string>;
  discountedPrice: number | null;
  headerStatus: string | null;
}

type Failure = Extract<PlatformCallOutcome, { kind: 'retry' } | { kind: 'failed' }>;

/**
 * PLATFORM_D catalog (Migros Yemek): the store's menu from GetMenuDetailsByStoreAndStoreGroupId, a
 * product's price by UpdateBatchPrice (synchronous). Both go encrypted through the adapter's own call.
 */
export class PlatformDCatalog implements PlatformCatalog {
  constructor(private readonly deps: PlatformDCalls) {}

  async readMenu(credentials: IntegrationCredentials): Promise<MenuReadOutcome> {
    try {
      const group = await this.storeGroupId(credentials);
      if ('outcome' in group) return readFailure(group.outcome);
      const answer = await this.deps.post(credentials, PLATFORM_D_CATALOG_PATHS.menuDetails, { storeId: platformDId(credentials.providerRestaurantId), storeGroupId: group.id });
      const outcome = outcomeOf(answer);
      if (outcome.kind === 'retry' || outcome.kind === 'failed') return readFailure(outcome);
      const data = isRecord(answer.body) ? answer.body.data : undefined;
      const parsed = parsePlatformDMenu(data);
      if ('error' in parsed) return { kind: 'failed', answer: answerOf(answer), reason: `PLATFORM_D answered GetMenuDetailsByStoreAndStoreGroupId with ${parsed.error}` };
      return { kind: 'ok', products: parsed.products, answer: answerOf(answer) };
    } catch (error) {
      return readFailure(outcomeOfError(error));
    }
  }

  planPrice(change: ProductPriceChange, product: MenuProduct | null): PricePlan {
    const price = change.price;
    if (typeof price !== 'number' || !Number.isFinite(price) || price <= 0) return { kind: 'refused', code: 'PRICE_OUT_OF_RANGE', message: 'Migros takes a price above 0.' };
    if (!hasAtMostDecimals(price, PLATFORM_D_PRICE_DECIMALS)) return { kind: 'refused', code: 'PRICE_PRECISION', message: `Migros prices are lira with kuruş: at most ${PLATFORM_D_PRICE_DECIMALS} decimals.` };
    const data = product ? menuProductData(product.platformData) : undefined;
    if (!product || !data) {
      return { kind: 'refused', code: 'PRODUCT_NOT_ON_MENU', message: 'Migros\' price call names the menu and the product\'s menu items: the product must be on the last imported menu (import the menu first).' };
    }
    // Sent as the kuruş-exact number (0.1 + 0.2 goes as 0.3).
    const rounded = Math.round(price * 10 ** PLATFORM_D_PRICE_DECIMALS) / 10 ** PLATFORM_D_PRICE_DECIMALS;
    return { kind: 'send', params: { menuId: data.menuId, menuItemIds: data.menuItemIds.join(','), productId: platformDId(change.platformProductId), price: rounded } };
  }

  async setPrice(credentials: IntegrationCredentials, _change: ProductPriceChange, plan: Extract<PricePlan, { kind: 'send' }>): Promise<PriceCallOutcome> {
    const { menuId, menuItemIds, productId, price } = plan.params;
    const items = String(menuItemIds ?? '').split(',').filter((id) => id !== '');
    if (menuId === null || menuId === undefined || items.length === 0 || typeof price !== 'number') {
      return { kind: 'failed', answer: { httpStatus: null, body: null, error: 'incomplete plan' }, reason: 'the planned price names no menu, menu item or price' };
    }
    try {
      const group = await this.storeGroupId(credentials);
      if ('outcome' in group) return group.outcome;
      const answer = await this.deps.post(credentials, PLATFORM_D_CATALOG_PATHS.batchPrice, {
        storeId: platformDId(credentials.providerRestaurantId),
        storeGroupId: group.id,
        menuId,
        // M-go sets the discounted price to the new price too (migros-yemek.assumptions.ts).
        prices: items.map((menuItemId) => ({ menuItemId: platformDId(menuItemId), productId, defaultPrimaryPrice: price, defaultPrimaryDiscountedPrice: price })),
      });
      const outcome = outcomeOf(answer);
      if (outcome.kind !== 'done') return outcome;
      const refusedItem = refusedPriceItem(answer);
      return refusedItem ? { kind: 'failed', answer: answerOf(answer), reason: `PLATFORM_D refused the price of a menu item (${refusedItem})` } : outcome;
    } catch (error) {
      return outcomeOfError(error);
    }
  }

  /** The integration's storeGroupId, else GetStoreDetail's (migros-yemek.assumptions.ts, PLATFORM_D_STORE_GROUP_SOURCE). */
  private async storeGroupId(credentials: IntegrationCredentials): Promise<{ id: number | string } | { outcome: Failure }> {
    const configured = credentials.settings.providerMerchantId?.trim();
    if (configured) return { id: platformDId(configured) };
    const answer = await this.deps.get(credentials, PLATFORM_D_PATHS.storeDetail);
    const outcome = outcomeOf(answer);
    if (outcome.kind === 'retry' || outcome.kind === 'failed') return { outcome };
    const group = isRecord(answer.body) && isRecord(answer.body.data) ? answer.body.data.storeGroupId : undefined;
    if ((typeof group !== 'number' && typeof group !== 'string') || group === '') return { outcome: { kind: 'failed', answer: answerOf(answer), reason: 'PLATFORM_D named no storeGroupId for the store (GetStoreDetail) and the integration has no providerMerchantId' } };
    return { id: platformDId(String(group)) };
  }
}

function readFailure(outcome: PlatformCallOutcome): MenuReadOutcome {
  if (outcome.kind === 'retry') return { kind: 'retry', answer: outcome.answer, retryAfterMs: outcome.retryAfterMs };
  if (outcome.kind === 'failed') return { kind: 'failed', answer: outcome.answer, reason: outcome.reason };
  return { kind: 'failed', answer: 'answer' in outcome ? outcome.answer : ({ httpStatus: null, body: null } as PlatformAnswer), reason: 'the menu read ended without a menu' };
}

function hasAtMostDecimals(value: number, decimals: number): boolean {
  const scaled = value * 10 ** decimals;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
}

/** A whole Migros id (a number, or its digits in a string): ids name menus, headers and items. */
function idOf(value: unknown): number | string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  if (typeof value === 'string' && /^\d{1,19}$/.test(value.trim()) && !/^0+$/.test(value.trim())) return platformDId(value.trim());
  return undefined;
}

/** A price as the menu gives it: a number, or a numeric string; anything else none. */
function priceOf(value: unknown): number | null {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value.replace(',', '.')) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * GetMenuDetailsByStoreAndStoreGroupId's `data` as menu products (migros-yemek.assumptions.ts, Catalog):
 * an error when it is not `{ menuHeaderInfos: [...] }` or an item names no productId.
 */
export function parsePlatformDMenu(data: unknown): { products: MenuProduct[] } | { error: string } {
  if (!isRecord(data)) return { error: 'no menu in data' };
  if (!Array.isArray(data.menuHeaderInfos)) return { error: 'a menu without menuHeaderInfos' };
  const menuId = idOf(data.id);
  const byProduct = new Map<string, MenuProduct & { platformData: PlatformDMenuProductData & Record<string, unknown> }>();
  for (const [headerIndex, header] of data.menuHeaderInfos.entries()) {
    if (!isRecord(header)) return { error: `menuHeaderInfos[${headerIndex}] that is not an object` };
    const items = header.foodMenuItemDetailsDTOs ?? [];
    if (!Array.isArray(items)) return { error: `menuHeaderInfos[${headerIndex}].foodMenuItemDetailsDTOs that is not a list` };
    for (const [itemIndex, item] of items.entries()) {
      const field = `menuHeaderInfos[${headerIndex}].foodMenuItemDetailsDTOs[${itemIndex}]`;
      if (!isRecord(item)) return { error: `${field} that is not an object` };
      const productId = idOf(item.productId);
      if (productId === undefined) return { error: `${field} without a productId` };
      const itemMenuId = menuId ?? idOf(item.menuId) ?? idOf(header.menuId);
      const menuItemId = idOf(item.id);
      const existing = byProduct.get(String(productId));
      if (existing) {
        // The same product under another header: one more menu item for its price call.
        if (menuItemId !== undefined && !existing.platformData.menuItemIds.includes(menuItemId)) existing.platformData.menuItemIds.push(menuItemId);
        continue;
      }
      const status = text(item.status);
      const headerId = idOf(header.id);
      byProduct.set(String(productId), {
        platformProductId: String(productId),
        name: text(item.productName) ?? '',
        price: priceOf(item.defaultPrimaryPrice),
        category: text(header.name),
        status: status === null || status.toUpperCase() === 'ACTIVE' ? 'ACTIVE' : 'INACTIVE',
        externalCode: null,
        options: [],
        platformData: {
          menuId: itemMenuId ?? null,
          menuItemIds: menuItemId === undefined ? [] : [menuItemId],
          headerIds: headerId === undefined ? [] : [headerId],
          discountedPrice: priceOf(item.defaultPrimaryDiscountedPrice),
          headerStatus: text(header.status),
        } as PlatformDMenuProductData & Record<string, unknown>,
      });
    }
  }
  return { products: [...byProduct.values()] };
}

/** The stored platformData of a Migros product, when it has what the price call needs. */
function menuProductData(platformData: Record<string, unknown>): PlatformDMenuProductData | undefined {
  const menuId = idOf(platformData.menuId);
  const menuItemIds = Array.isArray(platformData.menuItemIds) ? platformData.menuItemIds.map(idOf).filter((id): id is number | string => id !== undefined) : [];
  if (menuId === undefined || menuItemIds.length === 0) return undefined;
  return { menuId, menuItemIds, headerIds: [], discountedPrice: null, headerStatus: null };
}

/** A per-item refusal in a list `data`, should Migros answer one (migros-yemek.assumptions.ts, PLATFORM_D_PRICE_ANSWER). */
function refusedPriceItem(answer: PlatformDAnswerRead): string | undefined {
  const data = isRecord(answer.body) ? answer.body.data : undefined;
  if (!Array.isArray(data)) return undefined;
  const refused = data.filter(isRecord).find((entry) => entry.success === false || entry.isSuccess === false);
  if (!refused) return undefined;
  const id = refused.menuItemId ?? refused.productId;
  const message = text(refused.message) ?? text(refused.errorMessage) ?? (isRecord(refused.errorMessage) ? text(refused.errorMessage.errorDetail) ?? text(refused.errorMessage.errorCode) : null);
  return `${id === undefined ? 'an item' : `menu item ${String(id)}`}${message ? `: ${message}` : ''}`;
}
