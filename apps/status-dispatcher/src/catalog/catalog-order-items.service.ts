import { Injectable } from '@nestjs/common';
import type { MappedOrderItem, PlatformOrderItemPayload } from '@courier/contracts';
import type { TransactionContext } from '@courier/messaging';
import { platformProductIdsOf, resolvePlatformOrderItems, unmappedProductsOf } from './catalog-order-items';
import { CatalogOrderItemMetrics } from './catalog-order-items.metrics';
import { CatalogOrderItemsRepository } from './catalog-order-items.repository';

/** The platform order an announcement's items belong to. */
export interface AnnouncedPlatformOrder {
  id: string;
  integrationId: string;
  restaurantId: string;
  provider: string;
}

/** What an order's announcement found: its items in codes, and how many map to none (counted once the transaction commits). */
export interface AnnouncedItems {
  items: MappedOrderItem[];
  unmappedItems: number;
}

/**
 * A platform order's items in the restaurant's codes when its order.platform_received is published:
 * resolved against the links of that moment, and the products that map to no code recorded for the
 * operator, in the caller's transaction (the order and its record of unmapped products never part).
 */
@Injectable()
export class CatalogOrderItemsService {
  constructor(
    private readonly repository: CatalogOrderItemsRepository,
    private readonly metrics: CatalogOrderItemMetrics,
  ) {}

  async announce(tx: TransactionContext, order: AnnouncedPlatformOrder, items: readonly PlatformOrderItemPayload[], now: Date): Promise<AnnouncedItems> {
    const links = await this.repository.linksOf(tx.manager, order.integrationId, platformProductIdsOf(items));
    const mapped = resolvePlatformOrderItems(items, links);
    const { products, unmappedItems } = unmappedProductsOf(mapped);
    await this.repository.recordUnmapped(tx.manager, { integrationId: order.integrationId, restaurantId: order.restaurantId, platform: order.provider, yemekKuryeOrderId: order.id, seenAt: now, products });
    return { items: mapped, unmappedItems };
  }

  /** Counts unmapped items of announcements whose transaction committed. */
  countUnmapped(platform: string, unmappedItems: number): void {
    if (unmappedItems > 0) this.metrics.unmappedItems.inc({ platform }, unmappedItems);
  }
}
