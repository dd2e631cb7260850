import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { OrderItemPayload, PlatformOrderItemPayload } from '@courier/contracts';
import type { UnmappedOrderProduct } from './catalog-order-items';

type Queryable = Pick<EntityManager, 'query'>;

/** An order's items as stored, and the catalog links of the platform products they name (none for THIRD_PARTY orders). */
export interface StoredOrderItems {
  provider: string;
  items: Array<OrderItemPayload & PlatformOrderItemPayload>;
  /** platform product id → productCode, as linked now. */
  links: Record<string, string>;
}

/** Where a platform order's unmapped products came from. */
export interface OrderProductsSeen {
  integrationId: string;
  restaurantId: string;
  platform: string;
  yemekKuryeOrderId: string;
  seenAt: Date;
  products: UnmappedOrderProduct[];
}

/**
 * What the order paths read and write of the catalog: the links of an order's platform products
 * (`catalog_links`) and the platform products seen in orders with no code (`catalog_order_products`,
 * which the unmapped list reads). Methods that take `db` run in the caller's transaction.
 */
@Injectable()
export class CatalogOrderItemsRepository {
  constructor(@InjectDataSource() private readonly dataSource: Pick<DataSource, 'query'>) {}

  /** The codes linked to these platform products of the integration (absent: not linked). */
  async linksOf(db: Queryable, integrationId: string, platformProductIds: readonly string[]): Promise<Map<string, string>> {
    if (platformProductIds.length === 0) return new Map();
    const rows: Array<{ platformProductId: string; productCode: string }> = await db.query(
      `SELECT platform_product_id AS "platformProductId", product_code AS "productCode"
         FROM catalog_links WHERE integration_id = $1 AND platform_product_id = ANY($2::text[])`,
      [integrationId, platformProductIds],
    );
    return new Map(rows.map((row) => [row.platformProductId, row.productCode]));
  }

  /**
   * Counts one more order for each product (name kept from the latest order that gave one). Rows
   * are written in key order: concurrent orders naming the same products never deadlock.
   */
  async recordUnmapped(db: Queryable, seen: OrderProductsSeen): Promise<void> {
    if (seen.products.length === 0) return;
    await db.query(
      `WITH seen AS (
         SELECT * FROM jsonb_to_record($1::jsonb) AS s("integrationId" text, "restaurantId" text, platform text, "yemekKuryeOrderId" uuid, "seenAt" timestamptz, products jsonb))
       INSERT INTO catalog_order_products AS p (integration_id, platform_product_id, restaurant_id, platform, name, orders, last_order_id, first_seen_at, last_seen_at)
       SELECT seen."integrationId", product."platformProductId", seen."restaurantId", seen.platform, product.name, 1, seen."yemekKuryeOrderId", seen."seenAt", seen."seenAt"
         FROM seen, jsonb_to_recordset(seen.products) AS product("platformProductId" text, name text)
        ORDER BY product."platformProductId"
       ON CONFLICT (integration_id, platform_product_id) DO UPDATE
         SET name = coalesce(EXCLUDED.name, p.name), orders = p.orders + 1, last_order_id = EXCLUDED.last_order_id, last_seen_at = greatest(p.last_seen_at, EXCLUDED.last_seen_at)`,
      [JSON.stringify(seen)],
    );
  }

  /** An order's stored items with the links of their platform products as they are now (withheld orders are not the account's: none). */
  async orderItems(id: string): Promise<StoredOrderItems | undefined> {
    const [row] = await this.dataSource.query(
      `SELECT o.provider, coalesce(o.details->'items', '[]'::jsonb) AS items,
              (SELECT coalesce(jsonb_object_agg(l.platform_product_id, l.product_code), '{}'::jsonb)
                 FROM catalog_links l
                WHERE o.provider <> 'THIRD_PARTY' AND l.integration_id = o.integration_id
                  AND l.platform_product_id IN (SELECT item->>'platformProductId' FROM jsonb_array_elements(coalesce(o.details->'items', '[]'::jsonb)) item)) AS links
         FROM orders o WHERE o.id = $1 AND NOT o.withheld`,
      [id],
    );
    return row;
  }
}
