import type { MappedOrderItem, OrderItemPayload, PlatformOrderItemPayload } from '@courier/contracts';
import { THIRD_PARTY_PROVIDER } from '../orders/order.model';

/** The catalog's links of one integration: platform product id → the restaurant's productCode. */
export type CatalogLinks = ReadonlyMap<string, string>;

/**
 * A platform order's items in the restaurant's codes: the code linked to the item's platform product
 * on this integration, else the code the platform itself carried (Delivery Hero's remoteCode: the
 * POS's own code, as good as a link), else none (`mapped: false`). Every item is kept, in order.
 */
export function resolvePlatformOrderItems(items: readonly PlatformOrderItemPayload[], links: CatalogLinks): MappedOrderItem[] {
  return items.map(({ productCode: carried, platformProductId, ...item }) => {
    const linked = platformProductId !== undefined ? links.get(platformProductId) : undefined;
    const productCode = linked ?? presentCode(carried);
    return { ...item, productCode, platformProductId: platformProductId ?? null, mapped: productCode !== null };
  });
}

/** A THIRD_PARTY order's items as the sender gave them: mapped where the sender named its code. */
export function presentThirdPartyItems(items: readonly OrderItemPayload[]): MappedOrderItem[] {
  return items.map(({ productCode, ...item }) => {
    const code = presentCode(productCode);
    return { ...item, productCode: code, platformProductId: null, mapped: code !== null };
  });
}

/** The platform product ids an order's items name, once each (what the links are read for). */
export function platformProductIdsOf(items: readonly PlatformOrderItemPayload[]): string[] {
  return [...new Set(items.flatMap((item) => (item.platformProductId !== undefined ? [item.platformProductId] : [])))];
}

/** One platform product of an order that no code maps, as catalog_order_products records it. */
export interface UnmappedOrderProduct {
  platformProductId: string;
  name: string | null;
}

/**
 * The order's platform products that map to no code, once each (an order counts once per product,
 * however many of its lines name it). An unmapped item without a platform id cannot be listed for
 * linking: it is counted, not recorded.
 */
export function unmappedProductsOf(items: readonly MappedOrderItem[]): { products: UnmappedOrderProduct[]; unmappedItems: number } {
  const products = new Map<string, UnmappedOrderProduct>();
  let unmappedItems = 0;
  for (const item of items) {
    if (item.mapped) continue;
    unmappedItems += 1;
    if (item.platformProductId !== null && !products.has(item.platformProductId)) products.set(item.platformProductId, { platformProductId: item.platformProductId, name: item.productName ?? null });
  }
  return { products: [...products.values()], unmappedItems };
}

function presentCode(code: string | undefined): string | null {
  return code !== undefined && code.trim() !== '' ? code : null;
}

/**
 * An order's items in the restaurant's codes, as GET /internal/orders/{id} shows them: a platform
 * order's resolved against the links as they are now (a product linked after the order shows its
 * code), a THIRD_PARTY order's as the sender gave them.
 */
export function orderItemsInCodes(provider: string, items: readonly PlatformOrderItemPayload[], links: CatalogLinks): MappedOrderItem[] {
  return provider === THIRD_PARTY_PROVIDER ? presentThirdPartyItems(items) : resolvePlatformOrderItems(items, links);
}
