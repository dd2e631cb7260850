import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A platform order belongs to the platform store (integration) it came in for: platform orders and
 * the platforms' test orders are unique per (provider, platform store, platform order id), no longer
 * per (provider, platform order id), so another store's order with the same id can never be answered
 * as this store's. THIRD_PARTY's indexes are untouched.
 */
export class ScopePlatformOrdersToStore1764400100000 implements MigrationInterface {
  name = 'ScopePlatformOrdersToStore1764400100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX IF EXISTS orders_platform_order_key');
    // order_id before the store: the same index serves the look-ups by platform order id alone (collisions, the status push).
    await queryRunner.query(`CREATE UNIQUE INDEX orders_platform_store_order_key ON orders (provider, order_id, provider_restaurant_id) WHERE provider <> 'THIRD_PARTY'`);
    await queryRunner.query('ALTER TABLE platform_test_orders DROP CONSTRAINT IF EXISTS platform_test_orders_platform_order_key');
    await queryRunner.query('ALTER TABLE platform_test_orders ADD CONSTRAINT platform_test_orders_store_order_key UNIQUE (provider, order_id, provider_restaurant_id)');
  }

  /** Fails while two stores hold orders with one platform order id (the old key cannot hold them). */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE platform_test_orders DROP CONSTRAINT IF EXISTS platform_test_orders_store_order_key');
    await queryRunner.query('ALTER TABLE platform_test_orders ADD CONSTRAINT platform_test_orders_platform_order_key UNIQUE (provider, order_id)');
    await queryRunner.query('DROP INDEX IF EXISTS orders_platform_store_order_key');
    await queryRunner.query(`CREATE UNIQUE INDEX orders_platform_order_key ON orders (provider, order_id) WHERE provider <> 'THIRD_PARTY'`);
  }
}
