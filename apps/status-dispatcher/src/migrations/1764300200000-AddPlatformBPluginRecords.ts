import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What PLATFORM_B's plugin endpoints record beyond orders, in schema "dispatcher": the expiry of a
 * platform order (answer before it or the platform cancels it), the platforms' test orders (kept
 * apart: never an order of the courier core), and the platforms' open/closed state of each vendor.
 */
export class AddPlatformBPluginRecords1764300200000 implements MigrationInterface {
  name = 'AddPlatformBPluginRecords1764300200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE orders ADD COLUMN platform_expires_at timestamptz(3)');
    // The expiring-orders metric reads only orders that carry an expiry.
    await queryRunner.query('CREATE INDEX orders_platform_expiry_idx ON orders (platform_expires_at) WHERE platform_expires_at IS NOT NULL');
    await queryRunner.query(`
      CREATE TABLE platform_test_orders (
        id uuid PRIMARY KEY,
        provider text NOT NULL,
        order_id text NOT NULL,
        provider_restaurant_id text NOT NULL,
        integration_id text NOT NULL,
        order_number text NOT NULL,
        details jsonb NOT NULL,
        platform_data jsonb NOT NULL,
        expires_at timestamptz(3),
        received_at timestamptz(3) NOT NULL,
        last_status text,
        last_status_message text,
        last_status_at timestamptz(3),
        CONSTRAINT platform_test_orders_platform_order_key UNIQUE (provider, order_id)
      )`);
    await queryRunner.query(`
      CREATE TABLE platform_vendor_availability (
        provider text NOT NULL,
        provider_restaurant_id text NOT NULL,
        integration_id text NOT NULL,
        is_open boolean NOT NULL,
        closures jsonb NOT NULL,
        platform_timestamp timestamptz(3),
        received_at timestamptz(3) NOT NULL,
        PRIMARY KEY (provider, provider_restaurant_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS platform_vendor_availability');
    await queryRunner.query('DROP TABLE IF EXISTS platform_test_orders');
    await queryRunner.query('DROP INDEX IF EXISTS orders_platform_expiry_idx');
    await queryRunner.query('ALTER TABLE orders DROP COLUMN IF EXISTS platform_expires_at');
  }
}
