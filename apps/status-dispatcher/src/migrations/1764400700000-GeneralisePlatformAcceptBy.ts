import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every platform's accept-by time, not only PLATFORM_B's `expiryDate`: `platform_expires_at` becomes
 * `accept_by` (its values are PLATFORM_B's accept-by times already), and `acceptance_warned_at`
 * records that order.acceptance_due went out, so a task run again after a crash publishes nothing.
 */
export class GeneralisePlatformAcceptBy1764400700000 implements MigrationInterface {
  name = 'GeneralisePlatformAcceptBy1764400700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE orders RENAME COLUMN platform_expires_at TO accept_by');
    await queryRunner.query('ALTER INDEX orders_platform_expiry_idx RENAME TO orders_accept_by_idx');
    await queryRunner.query('ALTER TABLE orders ADD COLUMN acceptance_warned_at timestamptz(3)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE orders DROP COLUMN IF EXISTS acceptance_warned_at');
    await queryRunner.query('ALTER INDEX orders_accept_by_idx RENAME TO orders_platform_expiry_idx');
    await queryRunner.query('ALTER TABLE orders RENAME COLUMN accept_by TO platform_expires_at');
  }
}
