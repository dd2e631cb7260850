import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { PlatformOrder, VendorClosure } from '@courier/platforms';
import type { DirectoryIntegration } from '../account-directory/account-directory.model';

type Queryable = Pick<EntityManager, 'query'>;

/** The platforms' records besides real orders: `platform_test_orders` and `platform_vendor_availability`. Methods run in the caller's transaction. */
@Injectable()
export class PlatformPluginRecordsRepository {
  /** Stores a test order once per platform store; the id of the store's one (undefined: a concurrent store of it is not visible to this statement yet). */
  async insertTestOrder(db: Queryable, integration: DirectoryIntegration, order: PlatformOrder): Promise<string | undefined> {
    const [row]: Array<{ id: string }> = await db.query(
      `WITH created AS (
         INSERT INTO platform_test_orders (id, provider, order_id, provider_restaurant_id, integration_id, order_number, details, platform_data, expires_at, received_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now()) ON CONFLICT (provider, order_id, provider_restaurant_id) DO NOTHING RETURNING id)
       SELECT id FROM created UNION ALL SELECT id FROM platform_test_orders WHERE provider = $2 AND order_id = $3 AND provider_restaurant_id = $4 LIMIT 1`,
      [randomUUID(), integration.platform, order.platformOrderId, integration.providerRestaurantId, integration.integrationId, order.orderNumber, JSON.stringify(order.details), JSON.stringify(order.platformData), order.expiresAt ?? null],
    );
    return row?.id;
  }

  /** The store's test order with this platform order id. */
  async testOrderId(db: Queryable, provider: string, providerRestaurantId: string, platformOrderId: string): Promise<string | undefined> {
    const [existing]: Array<{ id: string }> = await db.query('SELECT id FROM platform_test_orders WHERE provider = $1 AND order_id = $2 AND provider_restaurant_id = $3', [
      provider,
      platformOrderId,
      providerRestaurantId,
    ]);
    return existing?.id;
  }

  /** Records a status of a test order (by our id, of one platform restaurant); false when there is no such test order. */
  async recordTestOrderStatus(db: Queryable, provider: string, testOrderId: string, providerRestaurantId: string, status: string, message: string | null): Promise<boolean> {
    const updated: unknown[] = await db.query(
      `WITH updated AS (
         UPDATE platform_test_orders SET last_status = $4, last_status_message = $5, last_status_at = now()
          WHERE id = $1 AND provider = $2 AND provider_restaurant_id = $3 RETURNING id)
       SELECT id FROM updated`,
      [testOrderId, provider, providerRestaurantId, status, message],
    );
    return updated.length > 0;
  }

  /** The vendor's availability as reported; the newest platform timestamp wins. */
  async recordAvailability(db: Queryable, integration: DirectoryIntegration, open: boolean, closures: VendorClosure[], platformTimestamp: Date | null): Promise<void> {
    await db.query(
      `INSERT INTO platform_vendor_availability (provider, provider_restaurant_id, integration_id, is_open, closures, platform_timestamp, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, now())
       ON CONFLICT (provider, provider_restaurant_id) DO UPDATE
         SET integration_id = EXCLUDED.integration_id, is_open = EXCLUDED.is_open, closures = EXCLUDED.closures,
             platform_timestamp = EXCLUDED.platform_timestamp, received_at = EXCLUDED.received_at
       WHERE platform_vendor_availability.platform_timestamp IS NULL OR EXCLUDED.platform_timestamp IS NULL
          OR EXCLUDED.platform_timestamp >= platform_vendor_availability.platform_timestamp`,
      [integration.platform, integration.providerRestaurantId, integration.integrationId, open, JSON.stringify(closures), platformTimestamp],
    );
  }
}
