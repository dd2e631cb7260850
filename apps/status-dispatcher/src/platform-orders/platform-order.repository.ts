import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { PlatformOrderDetails } from '@courier/contracts';
import type { OrderStatusChange } from '../orders/order.model';
import { ANSWERED_ON_PLATFORM, ORDER_COLUMNS } from '../orders/order.repository';
import type { AcceptanceState, PlatformOrderRow } from './platform-order.model';

type Queryable = Pick<EntityManager, 'query'>;

export const PLATFORM_COLUMNS = `${ORDER_COLUMNS}, integration_id AS "integrationId", coalesce(platform_data, '{}') AS "platformData", approved_at AS "approvedAt", withheld`;

/** A withheld platform order as operators see it. */
export interface WithheldOrder {
  yemekKuryeOrderId: string;
  platform: string;
  providerRestaurantId: string;
  platformOrderId: string;
  orderNumber: string;
  integrationId: string;
  restaurantId: string;
  status: string;
  receivedAt: Date;
  integrationVerification: string;
}

export interface NewPlatformOrder {
  row: PlatformOrderRow;
  details: PlatformOrderDetails;
  /** Answer the order before this, or the platform gives up on it (its adapter's accept-by rule); null: nothing to answer. */
  acceptBy?: Date | null;
}

/** An order holding a platform order id: of which integration, platform store and restaurant. */
export interface PlatformOrderHolder {
  id: string;
  integrationId: string;
  providerRestaurantId: string;
  restaurantId: string;
}

/**
 * Orders that came from a delivery platform (`orders` rows of a platform `provider`, with their
 * history in `order_status_changes`). Methods that take `db` run in the caller's transaction.
 */
@Injectable()
export class PlatformOrderRepository {
  constructor(@InjectDataSource() private readonly dataSource: Pick<DataSource, 'query'>) {}

  /**
   * The platform order of one platform store, locked until the transaction ends (moves and pushes of
   * one order run one at a time). Platform order ids are unique per store only: every look-up names one.
   */
  async lock(db: Queryable, provider: string, platformOrderId: string, providerRestaurantId: string): Promise<PlatformOrderRow | undefined> {
    const [order] = await db.query(
      `SELECT ${PLATFORM_COLUMNS} FROM orders WHERE provider = $1 AND order_id = $2 AND provider_restaurant_id = $3 AND provider <> 'THIRD_PARTY' FOR UPDATE`,
      [provider, platformOrderId, providerRestaurantId],
    );
    return order;
  }

  /**
   * Locks every order of the platform with this platform order id (of one restaurant when given), in
   * one key order: the status push's lock, which refuses more than one match rather than guess.
   */
  async lockForPush(db: Queryable, provider: string, platformOrderId: string, restaurantId?: string): Promise<void> {
    await db.query(
      `SELECT id FROM orders WHERE provider = $1 AND order_id = $2 AND provider <> 'THIRD_PARTY' AND ($3::text IS NULL OR restaurant_id = $3) ORDER BY id FOR UPDATE`,
      [provider, platformOrderId, restaurantId ?? null],
    );
  }

  /** By our id, of one platform (and one platform restaurant when given). */
  async lockById(db: Queryable, id: string, provider: string, providerRestaurantId?: string): Promise<PlatformOrderRow | undefined> {
    const [order] = await db.query(
      `SELECT ${PLATFORM_COLUMNS} FROM orders WHERE id = $1 AND provider = $2 AND ($3::text IS NULL OR provider_restaurant_id = $3) FOR UPDATE`,
      [id, provider, providerRestaurantId ?? null],
    );
    return order;
  }

  /**
   * Stores a platform order and its first history entry in one statement, unless the platform order
   * is already known for this store (the unique (provider, order_id, provider_restaurant_id) index),
   * or for the restaurant (THIRD_PARTY's (restaurant_id, provider, order_id)): then nothing is written,
   * false comes back, and the caller reads the store's own order (ownOrder).
   */
  async insert(db: Queryable, { row, details, acceptBy }: NewPlatformOrder): Promise<boolean> {
    // One CTE: an order never exists without its first history entry.
    const inserted: unknown[] = await db.query(
      `WITH created AS (
         INSERT INTO orders (id, order_id, restaurant_id, provider, provider_restaurant_id, order_number, status, sequence, details, received_at,
                             scheduled_delivery_time, status_changed_at, integration_id, platform_data, approved_at, accept_by, withheld)
         SELECT id, order_id, restaurant_id, provider, provider_restaurant_id, order_number, status, 0, details, received_at,
                scheduled_delivery_time, received_at, integration_id, platform_data, approved_at, accept_by, withheld
           FROM jsonb_populate_record(NULL::orders, $1::jsonb)
         ON CONFLICT DO NOTHING RETURNING id, status, received_at)
       INSERT INTO order_status_changes (order_id, sequence, status, occurred_at) SELECT id, 0, status, received_at FROM created RETURNING order_id`,
      [
        JSON.stringify({
          id: row.id,
          order_id: row.orderId,
          restaurant_id: row.restaurantId,
          provider: row.provider,
          provider_restaurant_id: row.providerRestaurantId,
          order_number: row.orderNumber,
          status: row.status,
          details,
          received_at: row.receivedAt,
          scheduled_delivery_time: row.scheduledDeliveryTime,
          integration_id: row.integrationId,
          platform_data: row.platformData,
          approved_at: row.approvedAt,
          accept_by: acceptBy ?? null,
          withheld: row.withheld ?? false,
        }),
      ],
    );
    return inserted.length > 0;
  }

  /**
   * Whether the integration is verified, read under a share lock of its read-model row: a verification
   * arriving meanwhile waits for this transaction, so its release sees the order this one withholds.
   */
  async holderVerified(db: Queryable, integrationId: string): Promise<boolean> {
    const [row]: Array<{ verified: boolean }> = await db.query(`SELECT verification = 'verified' AS verified FROM integrations WHERE integration_id = $1 FOR SHARE`, [integrationId]);
    return row?.verified === true;
  }

  /**
   * Releases the oldest withheld order of a verified integration and returns it (the caller announces
   * it in the same transaction), or nothing when none is left or the integration is not verified (or
   * not live) in the read model. The integration's row lock makes releases of one integration run one
   * after the other, across replicas and redeliveries: each order is released once, in arrival order.
   */
  async releaseOldestWithheld(db: Queryable, integrationId: string): Promise<(PlatformOrderRow & { details: PlatformOrderDetails }) | undefined> {
    const result: unknown = await db.query(
      `WITH holder AS (
         SELECT integration_id FROM integrations
          WHERE integration_id = $1 AND verification = 'verified' AND deleted_at IS NULL AND NOT displaced FOR UPDATE),
       due AS (
         SELECT o.id AS due_id FROM orders o JOIN holder h ON h.integration_id = o.integration_id WHERE o.withheld ORDER BY o.received_at, o.id LIMIT 1 FOR UPDATE OF o)
       UPDATE orders SET withheld = false, updated_at = now() FROM due WHERE orders.id = due.due_id
       RETURNING ${PLATFORM_COLUMNS}, details`,
      [integrationId],
    );
    // An UPDATE answers [rows, count] through TypeORM's query().
    const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Array<PlatformOrderRow & { details: PlatformOrderDetails }>;
    return rows[0];
  }

  /** Withheld platform orders for operators, oldest first: where they came from, no customer details. */
  async listWithheld(limit: number, platform?: string): Promise<WithheldOrder[]> {
    return this.dataSource.query(
      `SELECT o.id AS "yemekKuryeOrderId", o.provider AS platform, o.provider_restaurant_id AS "providerRestaurantId", o.order_id AS "platformOrderId",
              o.order_number AS "orderNumber", o.integration_id AS "integrationId", o.restaurant_id AS "restaurantId", o.status, o.received_at AS "receivedAt",
              coalesce(i.verification, 'unverified') AS "integrationVerification"
         FROM orders o LEFT JOIN integrations i ON i.integration_id = o.integration_id
        WHERE o.withheld AND ($2::text IS NULL OR o.provider = $2)
        ORDER BY o.received_at, o.id LIMIT $1`,
      [limit, platform ?? null],
    );
  }

  /** The store's order with this platform order id, and the integration it came in for (undefined: none). */
  async ownOrder(db: Queryable, provider: string, providerRestaurantId: string, platformOrderId: string): Promise<{ id: string; integrationId: string } | undefined> {
    const [row]: Array<{ id: string; integrationId: string }> = await db.query(
      `SELECT id, integration_id AS "integrationId" FROM orders WHERE provider = $1 AND order_id = $2 AND provider_restaurant_id = $3 AND provider <> 'THIRD_PARTY'`,
      [provider, platformOrderId, providerRestaurantId],
    );
    return row;
  }

  /** Every order of the platform with this platform order id, whatever its store (at most `limit`), but `exceptId`. */
  async holders(db: Queryable, provider: string, platformOrderId: string, options: { exceptId?: string; limit?: number } = {}): Promise<PlatformOrderHolder[]> {
    return db.query(
      `SELECT id, integration_id AS "integrationId", provider_restaurant_id AS "providerRestaurantId", restaurant_id AS "restaurantId"
         FROM orders WHERE provider = $1 AND order_id = $2 AND provider <> 'THIRD_PARTY' AND ($3::uuid IS NULL OR id <> $3) ORDER BY received_at LIMIT $4`,
      [provider, platformOrderId, options.exceptId ?? null, options.limit ?? 10],
    );
  }

  /** Whether the integration has a platform order that is not final (orders_open_platform_orders_idx). */
  async hasOpenOrders(db: Queryable, integrationId: string): Promise<boolean> {
    const rows: unknown[] = await db.query(
      `SELECT 1 FROM orders WHERE integration_id = $1 AND provider <> 'THIRD_PARTY' AND status NOT IN ('DELIVERED', 'CANCELED', 'FAILED') LIMIT 1`,
      [integrationId],
    );
    return rows.length > 0;
  }

  async exists(db: Queryable, id: string, provider: string, providerRestaurantId: string): Promise<boolean> {
    const rows: unknown[] = await db.query('SELECT 1 FROM orders WHERE id = $1 AND provider = $2 AND provider_restaurant_id = $3', [id, provider, providerRestaurantId]);
    return rows.length > 0;
  }

  /** Stores a move of an order locked by the caller: its new status, sequence and time, and its history entry. */
  async recordMove(db: Queryable, id: string, change: OrderStatusChange): Promise<void> {
    // One CTE: the order's status and its history never part.
    await db.query(
      `WITH moved AS (
         UPDATE orders SET status = $2, sequence = $3, status_changed_at = $4, updated_at = now() WHERE id = $1 RETURNING id)
       INSERT INTO order_status_changes (order_id, sequence, status, previous_status, trigger, occurred_at, reason, cancel_reason_id, canceled_by)
       SELECT id, $3, $2, $5, $6, $4, $7, $8, $9 FROM moved`,
      [id, change.status, change.sequence, change.occurredAt, change.previousStatus, change.trigger, change.reason, change.cancelReasonId, change.canceledBy],
    );
  }

  /**
   * Platform orders nobody has answered yet, by platform, whose accept-by time is less than their
   * platform's warning time away (`warningMs`, by platform code) or passed within the last hour.
   * Unanswered = not final, and no VERIFY, REJECT or CANCEL of it sent to the platform yet.
   */
  async countExpiring(warningMs: Record<string, number>): Promise<Map<string, number>> {
    const rows: Array<{ platform: string; count: number }> = await this.dataSource.query(
      `SELECT o.provider AS platform, count(*)::int AS count
         FROM orders o JOIN jsonb_each_text($1::jsonb) w(platform, ms) ON w.platform = o.provider
        WHERE o.accept_by IS NOT NULL
          AND o.accept_by <= now() + make_interval(secs => w.ms::float8 / 1000) AND o.accept_by > now() - interval '1 hour'
          AND o.status NOT IN ('CANCELED', 'FAILED', 'DELIVERED')
          AND NOT ${ANSWERED_ON_PLATFORM}
        GROUP BY o.provider`,
      [JSON.stringify(warningMs)],
    );
    return new Map(rows.map((row) => [row.platform, row.count]));
  }

  /** The order with what its acceptance warning decides on, locked until the transaction ends. */
  async lockAcceptance(db: Queryable, id: string): Promise<AcceptanceState | undefined> {
    const [order] = await db.query(
      `SELECT ${PLATFORM_COLUMNS}, accept_by AS "acceptBy", acceptance_warned_at AS "acceptanceWarnedAt", ${ANSWERED_ON_PLATFORM} AS answered
         FROM orders o WHERE id = $1 AND provider <> 'THIRD_PARTY' FOR UPDATE`,
      [id],
    );
    return order;
  }

  async markAcceptanceWarned(db: Queryable, id: string, at: Date): Promise<void> {
    await db.query('UPDATE orders SET acceptance_warned_at = $2 WHERE id = $1', [id, at]);
  }
}
