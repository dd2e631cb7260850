import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { MenuProduct } from '@courier/platforms';
import type { ChangeResult, CodeLinkRow } from './catalog-changes.model';

type Queryable = Pick<EntityManager, 'query'>;

export interface CatalogChangeRow {
  id: string;
  restaurantId: string;
  productCode: string;
  kind: 'availability' | 'price';
  request: { available?: boolean; until?: string | null; price?: number };
  results: ChangeResult[];
  acceptedAt: Date;
}

interface LinkedProductRecord {
  integrationId: string;
  platformProductId: string;
  name: string | null;
  price: number | null;
  category: string | null;
  status: MenuProduct['status'] | null;
  externalCode: string | null;
  options: MenuProduct['options'] | null;
  platformData: Record<string, unknown> | null;
  onMenu: boolean;
}

/**
 * What a change by product code reads of the catalog (links, codes, the imported products) and its
 * own table, `catalog_changes`. Methods that take `db` run in the caller's transaction.
 */
@Injectable()
export class CatalogChangesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The code's links in the restaurant's integrations, each with its product as imported (removed from the menu: null). */
  async linksOf(restaurantId: string, productCode: string): Promise<CodeLinkRow[]> {
    const rows: LinkedProductRecord[] = await this.dataSource.query(
      `SELECT l.integration_id AS "integrationId", l.platform_product_id AS "platformProductId", p.name, p.price::float8 AS price, p.category, p.status,
              p.external_code AS "externalCode", p.options, p.platform_data AS "platformData", (p.integration_id IS NOT NULL AND p.removed_at IS NULL) AS "onMenu"
         FROM catalog_links l LEFT JOIN catalog_products p ON p.integration_id = l.integration_id AND p.platform_product_id = l.platform_product_id
        WHERE l.restaurant_id = $1 AND l.product_code = $2 ORDER BY l.integration_id`,
      [restaurantId, productCode],
    );
    return rows.map((row) => ({
      integrationId: row.integrationId,
      platformProductId: row.platformProductId,
      product: row.onMenu
        ? { platformProductId: row.platformProductId, name: row.name!, price: row.price, category: row.category, status: row.status!, externalCode: row.externalCode, options: row.options ?? [], platformData: row.platformData ?? {} }
        : null,
    }));
  }

  /** Whether the restaurant has the code in its catalog (linked or not). */
  async codeKnown(restaurantId: string, productCode: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM catalog_codes WHERE restaurant_id = $1 AND product_code = $2', [restaurantId, productCode]);
    return rows.length > 0;
  }

  async recordChange(db: Queryable, change: CatalogChangeRow): Promise<void> {
    await db.query(
      `INSERT INTO catalog_changes (id, restaurant_id, product_code, kind, request, results, accepted_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [change.id, change.restaurantId, change.productCode, change.kind, JSON.stringify(change.request), JSON.stringify(change.results), change.acceptedAt],
    );
  }

  /** One change of the restaurant (undefined: none with this id, or another account's). */
  async change(restaurantId: string, changeId: string): Promise<CatalogChangeRow | undefined> {
    const [row] = await this.dataSource.query(
      `SELECT id, restaurant_id AS "restaurantId", product_code AS "productCode", kind, request, results, accepted_at AS "acceptedAt"
         FROM catalog_changes WHERE id = $1 AND restaurant_id = $2`,
      [changeId, restaurantId],
    );
    return row;
  }
}
