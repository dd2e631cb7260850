import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The open (not final) platform orders of an integration, found without reading its finished ones:
 * PLATFORM_A's poller asks for them every interval before it spends a rate-limited
 * `POST /food-orders/active`.
 */
export class AddOpenPlatformOrdersIndex1764400600000 implements MigrationInterface {
  name = 'AddOpenPlatformOrdersIndex1764400600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX orders_open_platform_orders_idx ON orders (integration_id) WHERE provider <> 'THIRD_PARTY' AND status NOT IN ('DELIVERED', 'CANCELED', 'FAILED')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX IF EXISTS orders_open_platform_orders_idx');
  }
}
