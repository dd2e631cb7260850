import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { scheduledTaskInsert } from '@courier/messaging';
import type { MenuProduct } from '@courier/platforms';
import type { StoredAnswer } from '../status-updates/status-update.model';
import type { AutoLink, DriftChange } from './catalog.decisions';
import type { CodeRow, DriftRow, ImportCounts, ImportRequestedBy, ImportRow, ImportState, LinkedBy, LinkedProductRow, LinkRow, StoredProductRow, UnlinkedProductRow } from './catalog.model';

type Queryable = Pick<EntityManager, 'query'>;

/** The durable task of each import (dedupe key importTaskKey). */
export const CATALOG_IMPORT_TASK = 'catalog.import';
/** The schedule: queues the imports due, every CATALOG_IMPORT_INTERVAL_MS (one task across replicas). */
export const CATALOG_IMPORT_PLANNER_TASK = 'catalog.import-planner';

export const importTaskKey = (importId: string) => `catalog-import:${importId}`;
/** The task of each import in `inserted` (its `id` and `requested_at`), its kind in the parameter `kind`. */
const importTaskInsert = (kind: string) =>
  scheduledTaskInsert({ from: 'inserted', kind: `${kind}::text`, dedupeKey: `'catalog-import:' || inserted.id`, payload: `jsonb_build_object('importId', inserted.id)`, dueAt: 'inserted.requested_at' });


const IMPORT_COLUMNS = `id, integration_id AS "integrationId", restaurant_id AS "restaurantId", platform, requested_by AS "requestedBy", state,
  requested_at AS "requestedAt", started_at AS "startedAt", finished_at AS "finishedAt", attempts, counts, last_answer AS "lastAnswer",
  last_error AS "lastError", drift_event_id AS "driftEventId", budget_slot_at AS "budgetSlotAt"`;

const PRODUCT_COLUMNS = `integration_id AS "integrationId", platform_product_id AS "platformProductId", platform, name, name_key AS "nameKey",
  price::float8 AS price, category, status, external_code AS "externalCode", options, removed_at AS "removedAt"`;

const PENDING = `state IN ('queued', 'running')`;

/** A product of a menu as stored: the adapter's product with its name's key. */
export type ProductToStore = MenuProduct & { nameKey: string };

/**
 * The catalog tables: `catalog_imports` (with their durable tasks), `catalog_products`,
 * `catalog_codes`, `catalog_links`, `catalog_drift`, and `catalog_order_products` read for the
 * unmapped list. Methods that take `db` run in the caller's transaction.
 */
@Injectable()
export class CatalogRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Queues an import of one integration with its task, unless one is queued or running already
   * (the partial unique index catalog_imports_pending_idx decides, across replicas): answers the
   * import queued, or the one already pending (`created` false).
   */
  async queueImport(db: Queryable, integration: { integrationId: string; restaurantId: string; platform: string }, by: ImportRequestedBy, at: Date, attempt = 1): Promise<{ id: string; state: ImportState; requestedAt: Date; created: boolean }> {
    const [row] = await db.query(
      `WITH inserted AS (
         INSERT INTO catalog_imports (id, integration_id, restaurant_id, platform, requested_by, state, requested_at, drift_event_id)
         VALUES ($1, $2, $3, $4, $5, 'queued', $6, $7)
         ON CONFLICT (integration_id) WHERE ${PENDING} DO NOTHING
         RETURNING id, state, requested_at),
       task AS (${importTaskInsert('$8')})
       SELECT id, state, requested_at AS "requestedAt", true AS created FROM inserted`,
      [randomUUID(), integration.integrationId, integration.restaurantId, integration.platform, by, at, randomUUID(), CATALOG_IMPORT_TASK],
    );
    if (row) return row;
    // Another import holds the slot: read it in a statement of its own (one that committed during ours is invisible to ours).
    const [pending] = await db.query(`SELECT id, state, requested_at AS "requestedAt", false AS created FROM catalog_imports WHERE integration_id = $1 AND ${PENDING}`, [integration.integrationId]);
    if (pending) return pending;
    // It ended between the two statements: the slot is free again.
    if (attempt >= 3) throw new Error(`catalog import of ${integration.integrationId}: the pending import kept changing`);
    return this.queueImport(db, integration, by, at, attempt + 1);
  }

  /**
   * The schedule's imports in one statement: every active, verified, live integration of the
   * platforms given whose last import was asked before `olderThan` and none is pending, at most
   * `limit`; two replicas running it at once queue each import once (the pending index).
   */
  async queueScheduledImports(platforms: string[], olderThan: Date, at: Date, limit: number): Promise<number> {
    const [row] = await this.dataSource.query(
      `WITH due AS (
         SELECT i.integration_id, i.restaurant_id, i.platform FROM integrations i LEFT JOIN restaurant_accounts a ON a.restaurant_id = i.restaurant_id
          WHERE i.platform = ANY($1::text[]) AND i.is_active AND i.deleted_at IS NULL AND NOT i.displaced AND i.verification = 'verified'
            AND coalesce(a.status <> 'disabled', true)
            AND NOT EXISTS (SELECT 1 FROM catalog_imports c WHERE c.integration_id = i.integration_id AND (c.${PENDING} OR c.requested_at > $2))
          ORDER BY i.integration_id LIMIT $4),
       inserted AS (
         INSERT INTO catalog_imports (id, integration_id, restaurant_id, platform, requested_by, state, requested_at, drift_event_id)
         SELECT gen_random_uuid(), integration_id, restaurant_id, platform, 'schedule', 'queued', $3, gen_random_uuid() FROM due
         ON CONFLICT (integration_id) WHERE ${PENDING} DO NOTHING
         RETURNING id, requested_at),
       task AS (${importTaskInsert('$5')})
       SELECT count(*)::int AS queued FROM inserted`,
      [platforms, olderThan, at, limit, CATALOG_IMPORT_TASK],
    );
    return row.queued;
  }

  async importById(importId: string): Promise<ImportRow | undefined> {
    const [row] = await this.dataSource.query(`SELECT ${IMPORT_COLUMNS} FROM catalog_imports WHERE id = $1`, [importId]);
    return row;
  }

  /** The account's import (undefined: none of this id, or another account's). */
  async importOf(restaurantId: string, importId: string): Promise<ImportRow | undefined> {
    const [row] = await this.dataSource.query(`SELECT ${IMPORT_COLUMNS} FROM catalog_imports WHERE id = $1 AND restaurant_id = $2`, [importId, restaurantId]);
    return row;
  }

  /** The import marked running (started once), if it is still pending. */
  async start(importId: string, at: Date): Promise<ImportRow | undefined> {
    const [rows]: [ImportRow[], number] = await this.dataSource.query(
      `UPDATE catalog_imports SET state = 'running', started_at = coalesce(started_at, $2) WHERE id = $1 AND ${PENDING} RETURNING ${IMPORT_COLUMNS}`,
      [importId, at],
    );
    return rows[0];
  }

  /** One more read of the menu (its booked slot used up); answers the attempts so far, or undefined when no longer pending. */
  async countAttempt(importId: string): Promise<number | undefined> {
    const [rows]: [Array<{ attempts: number }>, number] = await this.dataSource.query(
      `UPDATE catalog_imports SET attempts = attempts + 1, budget_slot_at = NULL WHERE id = $1 AND ${PENDING} RETURNING attempts`,
      [importId],
    );
    return rows[0]?.attempts;
  }

  /** The platform's budget had no room: the import waits for the slot it booked. */
  async waitForBudgetSlot(importId: string, slot: Date): Promise<void> {
    await this.dataSource.query(`UPDATE catalog_imports SET budget_slot_at = $2 WHERE id = $1 AND ${PENDING}`, [importId, slot]);
  }

  /** A read worth another try: its answer kept, the import stays running. */
  async recordRetry(importId: string, answer: StoredAnswer): Promise<void> {
    await this.dataSource.query(`UPDATE catalog_imports SET last_answer = $2 WHERE id = $1 AND ${PENDING}`, [importId, JSON.stringify(answer)]);
  }

  /** Ends a pending import failed; nothing else of the catalog changes. True when this call ended it. */
  async fail(importId: string, answer: StoredAnswer | null, error: string, at: Date): Promise<boolean> {
    const [, count]: [unknown[], number] = await this.dataSource.query(
      `UPDATE catalog_imports SET state = 'failed', finished_at = $4, last_answer = coalesce($2::jsonb, last_answer), last_error = $3, budget_slot_at = NULL WHERE id = $1 AND ${PENDING}`,
      [importId, answer === null ? null : JSON.stringify(answer), error.slice(0, 1000), at],
    );
    return count === 1;
  }

  /** The import locked for the caller's transaction, while still pending (a second run of its task finds it ended). */
  async lockPending(db: Queryable, importId: string): Promise<ImportRow | undefined> {
    const [row] = await db.query(`SELECT ${IMPORT_COLUMNS} FROM catalog_imports WHERE id = $1 AND ${PENDING} FOR UPDATE`, [importId]);
    return row;
  }

  /** Whether an import of the integration ended done before (its menu is there to compare with). */
  async hasDoneImport(db: Queryable, integrationId: string): Promise<boolean> {
    const rows: unknown[] = await db.query(`SELECT 1 FROM catalog_imports WHERE integration_id = $1 AND state = 'done' LIMIT 1`, [integrationId]);
    return rows.length > 0;
  }

  /** The integration's menu as last imported (products not removed). */
  async menuOf(db: Queryable, integrationId: string): Promise<StoredProductRow[]> {
    return db.query(`SELECT ${PRODUCT_COLUMNS} FROM catalog_products WHERE integration_id = $1 AND removed_at IS NULL`, [integrationId]);
  }

  async linksOf(db: Queryable, integrationId: string): Promise<LinkRow[]> {
    return db.query(
      `SELECT integration_id AS "integrationId", platform_product_id AS "platformProductId", product_code AS "productCode", linked_by AS "linkedBy", linked_at AS "linkedAt"
         FROM catalog_links WHERE integration_id = $1`,
      [integrationId],
    );
  }

  /**
   * Stores a menu read in one statement: its products inserted or updated (one back on the menu is
   * no longer removed), and the products it no longer lists marked removed. Answers how many were
   * stored and how many were marked removed.
   */
  async storeMenu(db: Queryable, integration: { integrationId: string; restaurantId: string; platform: string }, products: readonly ProductToStore[], at: Date): Promise<{ stored: number; removed: number }> {
    const menu = products.map((product) => ({
      platform_product_id: product.platformProductId,
      name: product.name,
      name_key: product.nameKey,
      price: product.price,
      category: product.category,
      status: product.status,
      external_code: product.externalCode,
      options: product.options ?? [],
      platform_data: product.platformData ?? {},
    }));
    const [row] = await db.query(
      `WITH menu AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS m(platform_product_id text, name text, name_key text, price numeric, category text, status text,
                                                            external_code text, options jsonb, platform_data jsonb)),
       stored AS (
         INSERT INTO catalog_products (integration_id, platform_product_id, restaurant_id, platform, name, name_key, price, category, status, external_code,
                                       options, platform_data, first_seen_at, last_seen_at, removed_at, updated_at)
         SELECT $2, platform_product_id, $3, $4, name, name_key, price, category, status, external_code, options, platform_data, $5, $5, NULL, now() FROM menu
         ON CONFLICT (integration_id, platform_product_id) DO UPDATE
            SET name = EXCLUDED.name, name_key = EXCLUDED.name_key, price = EXCLUDED.price, category = EXCLUDED.category, status = EXCLUDED.status,
                external_code = EXCLUDED.external_code, options = EXCLUDED.options, platform_data = EXCLUDED.platform_data, restaurant_id = EXCLUDED.restaurant_id,
                last_seen_at = EXCLUDED.last_seen_at, removed_at = NULL, updated_at = now()
         RETURNING 1),
       removed AS (
         UPDATE catalog_products SET removed_at = $5, updated_at = now()
          WHERE integration_id = $2 AND removed_at IS NULL AND platform_product_id NOT IN (SELECT platform_product_id FROM menu)
         RETURNING 1)
       SELECT (SELECT count(*)::int FROM stored) AS stored, (SELECT count(*)::int FROM removed) AS removed`,
      [JSON.stringify(menu), integration.integrationId, integration.restaurantId, integration.platform, at],
    );
    return row;
  }

  /**
   * The links an import made by itself, with their codes (a code new to the restaurant is named
   * after the product; an existing one keeps its name). A link or code that exists already is left
   * as it is. Answers how many links were made. Codes are written before links, in code order, as
   * PUT .../links takes them (code, then link): an import and a request creating the same code
   * wait for each other instead of deadlocking (one statement's CTEs would write the links first).
   */
  async insertAutoLinks(db: Queryable, integration: { integrationId: string; restaurantId: string }, links: ReadonlyArray<AutoLink & { nameKey: string }>, at: Date): Promise<number> {
    if (links.length === 0) return 0;
    const rows = JSON.stringify(links.map((link) => ({ platform_product_id: link.platformProductId, product_code: link.productCode, name: link.name, name_key: link.nameKey })));
    await db.query(
      `INSERT INTO catalog_codes (restaurant_id, product_code, name, name_key, source, created_at)
       SELECT $2, product_code, name, name_key, 'external_code', $3
         FROM jsonb_to_recordset($1::jsonb) AS l(product_code text, name text, name_key text) ORDER BY product_code
       ON CONFLICT DO NOTHING`,
      [rows, integration.restaurantId, at],
    );
    const linked: unknown[] = await db.query(
      `INSERT INTO catalog_links (integration_id, platform_product_id, restaurant_id, product_code, linked_by, linked_at)
       SELECT $3, platform_product_id, $2, product_code, 'external_code', $4
         FROM jsonb_to_recordset($1::jsonb) AS l(platform_product_id text, product_code text) ORDER BY product_code
       ON CONFLICT DO NOTHING RETURNING 1`,
      [rows, integration.restaurantId, integration.integrationId, at],
    );
    return linked.length;
  }

  async insertDrift(db: Queryable, importRow: Pick<ImportRow, 'id' | 'integrationId' | 'restaurantId' | 'platform'>, changes: readonly DriftChange[], at: Date): Promise<void> {
    if (changes.length === 0) return;
    await db.query(
      `INSERT INTO catalog_drift (id, import_id, integration_id, restaurant_id, platform, platform_product_id, product_code, kind, before, after, detected_at)
       SELECT gen_random_uuid(), $2, $3, $4, $5, d.platform_product_id, d.product_code, d.kind, d.before, d.after, $6
         FROM jsonb_to_recordset($1::jsonb) AS d(platform_product_id text, product_code text, kind text, before jsonb, after jsonb)`,
      [
        JSON.stringify(changes.map((change) => ({ platform_product_id: change.platformProductId, product_code: change.productCode, kind: change.kind, before: change.before, after: change.after }))),
        importRow.id,
        importRow.integrationId,
        importRow.restaurantId,
        importRow.platform,
        at,
      ],
    );
  }

  async finish(db: Queryable, importId: string, counts: ImportCounts, answer: StoredAnswer, at: Date): Promise<void> {
    await db.query(
      `UPDATE catalog_imports SET state = 'done', finished_at = $4, counts = $2, last_answer = $3, last_error = NULL, budget_slot_at = NULL WHERE id = $1`,
      [importId, JSON.stringify(counts), JSON.stringify(answer), at],
    );
  }

  /** The restaurant's codes, by code. */
  async codesOf(restaurantId: string, db: Queryable = this.dataSource): Promise<CodeRow[]> {
    return db.query(
      `SELECT product_code AS "productCode", name, name_key AS "nameKey", source, created_at AS "createdAt" FROM catalog_codes
        WHERE restaurant_id = $1 ORDER BY product_code LIMIT 5000`,
      [restaurantId],
    );
  }

  /** One code of the restaurant (undefined: none). */
  async codeOf(restaurantId: string, productCode: string): Promise<CodeRow | undefined> {
    const [row] = await this.dataSource.query(
      `SELECT product_code AS "productCode", name, name_key AS "nameKey", source, created_at AS "createdAt" FROM catalog_codes WHERE restaurant_id = $1 AND product_code = $2`,
      [restaurantId, productCode],
    );
    return row;
  }

  /** The restaurant's links with what the menu (or, for a product only seen in orders, the orders) says of each product. */
  async linkedProductsOf(restaurantId: string, db: Queryable = this.dataSource): Promise<LinkedProductRow[]> {
    return db.query(
      `SELECT l.integration_id AS "integrationId", l.platform_product_id AS "platformProductId", l.product_code AS "productCode", l.linked_by AS "linkedBy",
              l.linked_at AS "linkedAt", coalesce(p.name, o.name) AS name, p.name_key AS "nameKey", p.price::float8 AS price, p.status, p.removed_at AS "removedAt"
         FROM catalog_links l
         LEFT JOIN catalog_products p ON p.integration_id = l.integration_id AND p.platform_product_id = l.platform_product_id
         LEFT JOIN catalog_order_products o ON o.integration_id = l.integration_id AND o.platform_product_id = l.platform_product_id
        WHERE l.restaurant_id = $1`,
      [restaurantId],
    );
  }

  /** The integrations' products on their menus or seen in their orders that no link names, at most 1000 (by integration, name). */
  async unlinkedProducts(integrationIds: string[]): Promise<UnlinkedProductRow[]> {
    return this.dataSource.query(
      `SELECT coalesce(p.integration_id, o.integration_id) AS "integrationId", coalesce(p.platform, o.platform) AS platform,
              coalesce(p.platform_product_id, o.platform_product_id) AS "platformProductId", coalesce(p.name, o.name) AS name, p.price::float8 AS price,
              p.category, p.status, (p.platform_product_id IS NOT NULL) AS "onMenu", coalesce(o.orders, 0) AS orders, o.last_seen_at AS "lastOrderAt"
         FROM (SELECT * FROM catalog_products WHERE integration_id = ANY($1::text[]) AND removed_at IS NULL) p
         FULL JOIN (SELECT * FROM catalog_order_products WHERE integration_id = ANY($1::text[])) o
           ON o.integration_id = p.integration_id AND o.platform_product_id = p.platform_product_id
        WHERE NOT EXISTS (SELECT 1 FROM catalog_links l WHERE l.integration_id = coalesce(p.integration_id, o.integration_id)
                             AND l.platform_product_id = coalesce(p.platform_product_id, o.platform_product_id))
        ORDER BY 1, 4, 3 LIMIT 1000`,
      [integrationIds],
    );
  }

  /** Whether the integration's menu lists the product (or its orders had it): its name, or undefined when unknown. */
  async knownProduct(db: Queryable, integrationId: string, platformProductId: string): Promise<{ name: string | null } | undefined> {
    const [row] = await db.query(
      `SELECT name FROM catalog_products WHERE integration_id = $1 AND platform_product_id = $2 AND removed_at IS NULL
       UNION ALL SELECT name FROM catalog_order_products WHERE integration_id = $1 AND platform_product_id = $2 LIMIT 1`,
      [integrationId, platformProductId],
    );
    return row;
  }

  /**
   * Links set by hand are set one request at a time per restaurant, for the caller's transaction:
   * two requests moving products between codes lock the same link rows in opposite orders otherwise (a deadlock).
   */
  async lockLinksOf(db: Queryable, restaurantId: string): Promise<void> {
    await db.query(`SELECT pg_advisory_xact_lock(hashtextextended('catalog-links:' || $1, 0))`, [restaurantId]);
  }

  /** The code, created (set by hand, unnamed) when new, and locked for the caller's transaction: links of one code are set one request at a time. */
  async lockCode(db: Queryable, restaurantId: string, productCode: string, at: Date): Promise<CodeRow & { created: boolean }> {
    const inserted: unknown[] = await db.query(
      `INSERT INTO catalog_codes (restaurant_id, product_code, source, created_at) VALUES ($1, $2, 'manual', $3) ON CONFLICT DO NOTHING RETURNING 1`,
      [restaurantId, productCode, at],
    );
    const [row] = await db.query(
      `SELECT product_code AS "productCode", name, name_key AS "nameKey", source, created_at AS "createdAt" FROM catalog_codes WHERE restaurant_id = $1 AND product_code = $2 FOR UPDATE`,
      [restaurantId, productCode],
    );
    return { ...row, created: inserted.length > 0 };
  }

  async nameCode(db: Queryable, restaurantId: string, productCode: string, name: string, nameKey: string): Promise<void> {
    await db.query('UPDATE catalog_codes SET name = $3, name_key = $4 WHERE restaurant_id = $1 AND product_code = $2', [restaurantId, productCode, name, nameKey]);
  }

  /**
   * Sets the code's product on one integration (null: none): the code's link to another product
   * there goes, and the product, if linked to another code, moves to this one. A link that is
   * already this one stays as it was (how it was made included).
   */
  async setLink(db: Queryable, link: { integrationId: string; restaurantId: string; productCode: string; platformProductId: string | null; linkedBy: LinkedBy; at: Date }): Promise<void> {
    await db.query(`DELETE FROM catalog_links WHERE integration_id = $1 AND product_code = $2 AND platform_product_id IS DISTINCT FROM $3`, [link.integrationId, link.productCode, link.platformProductId]);
    if (link.platformProductId === null) return;
    await db.query(
      `INSERT INTO catalog_links (integration_id, platform_product_id, restaurant_id, product_code, linked_by, linked_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (integration_id, platform_product_id) DO UPDATE SET product_code = EXCLUDED.product_code, linked_by = EXCLUDED.linked_by, linked_at = EXCLUDED.linked_at
        WHERE catalog_links.product_code <> EXCLUDED.product_code`,
      [link.integrationId, link.platformProductId, link.restaurantId, link.productCode, link.linkedBy, link.at],
    );
  }

  /** The restaurant's drift, newest first, detected after `since` (when given). */
  async driftOf(restaurantId: string, since: Date | null, limit: number): Promise<DriftRow[]> {
    return this.dataSource.query(
      `SELECT id, import_id AS "importId", integration_id AS "integrationId", platform, platform_product_id AS "platformProductId", product_code AS "productCode",
              kind, before, after, detected_at AS "detectedAt"
         FROM catalog_drift WHERE restaurant_id = $1 AND ($2::timestamptz IS NULL OR detected_at > $2)
        ORDER BY detected_at DESC, import_id, platform_product_id, array_position(ARRAY['added', 'removed', 'linked_removed', 'price', 'name', 'status'], kind) LIMIT $3`,
      [restaurantId, since, limit],
    );
  }
}
