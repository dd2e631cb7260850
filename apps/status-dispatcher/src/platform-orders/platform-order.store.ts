import type { EntityManager } from 'typeorm';
import type { PlatformOrderDetails } from '@courier/contracts';
import { ORDER_COLUMNS } from '../orders/order.store';
import { PlatformOrderRow } from './platform-order.model';

type Queryable = Pick<EntityManager, 'query'>;

export const PLATFORM_COLUMNS = `${ORDER_COLUMNS}, integration_id AS "integrationId", coalesce(platform_data, '{}') AS "platformData", approved_at AS "approvedAt"`;

/**
 * The platform order, locked until the transaction ends (moves and pushes of one order run one at a
 * time); of one platform restaurant when given (a caller authenticated for one store).
 */
export async function lockPlatformOrder(db: Queryable, provider: string, platformOrderId: string, providerRestaurantId?: string): Promise<PlatformOrderRow | undefined> {
  const [order] = await db.query(
    `SELECT ${PLATFORM_COLUMNS} FROM orders WHERE provider = $1 AND order_id = $2 AND provider <> 'THIRD_PARTY' AND ($3::text IS NULL OR provider_restaurant_id = $3) FOR UPDATE`,
    [provider, platformOrderId, providerRestaurantId ?? null],
  );
  return order;
}

/** By our id, of one platform (and one platform restaurant when given). */
export async function lockPlatformOrderById(db: Queryable, id: string, provider: string, providerRestaurantId?: string): Promise<PlatformOrderRow | undefined> {
  const [order] = await db.query(
    `SELECT ${PLATFORM_COLUMNS} FROM orders WHERE id = $1 AND provider = $2 AND ($3::text IS NULL OR provider_restaurant_id = $3) FOR UPDATE`,
    [id, provider, providerRestaurantId ?? null],
  );
  return order;
}

export interface NewPlatformOrder {
  row: PlatformOrderRow;
  details: PlatformOrderDetails;
  /** Answer the order before this, or the platform cancels it (PLATFORM_B `expiryDate`). */
  expiresAt?: Date | null;
}

/**
 * Stores a platform order and its first history entry in one statement, unless the platform order
 * is already known (the unique (provider, order_id) index): then nothing is written and undefined
 * comes back, and the caller reads the existing one.
 */
export async function insertPlatformOrder(db: Queryable, { row, details, expiresAt }: NewPlatformOrder): Promise<boolean> {
  const inserted: unknown[] = await db.query(
    `WITH created AS (
       INSERT INTO orders (id, order_id, restaurant_id, provider, provider_restaurant_id, order_number, status, sequence, details, received_at,
                           scheduled_delivery_time, status_changed_at, integration_id, platform_data, approved_at, platform_expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, $9, $10, $9, $11, $12, $13, $14)
       ON CONFLICT DO NOTHING RETURNING id)
     INSERT INTO order_status_changes (order_id, sequence, status, occurred_at) SELECT id, 0, $7, $9 FROM created RETURNING order_id`,
    [
      row.id,
      row.orderId,
      row.restaurantId,
      row.provider,
      row.providerRestaurantId,
      row.orderNumber,
      row.status,
      JSON.stringify(details),
      row.receivedAt,
      row.scheduledDeliveryTime,
      row.integrationId,
      JSON.stringify(row.platformData),
      row.approvedAt,
      expiresAt ?? null,
    ],
  );
  return inserted.length > 0;
}

export async function platformOrderId(db: Queryable, provider: string, platformOrderId: string): Promise<string | undefined> {
  const [row]: Array<{ id: string }> = await db.query(`SELECT id FROM orders WHERE provider = $1 AND order_id = $2 AND provider <> 'THIRD_PARTY'`, [provider, platformOrderId]);
  return row?.id;
}

export async function platformOrderExists(db: Queryable, id: string, provider: string, providerRestaurantId: string): Promise<boolean> {
  const rows: unknown[] = await db.query('SELECT 1 FROM orders WHERE id = $1 AND provider = $2 AND provider_restaurant_id = $3', [id, provider, providerRestaurantId]);
  return rows.length > 0;
}
