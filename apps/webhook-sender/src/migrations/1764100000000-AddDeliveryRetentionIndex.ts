import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The retention (WEBHOOK_RETENTION) finds old deliveries by creation time. created_at never changes,
 * so this index keeps recording an attempt a HOT update (fillfactor 80 on webhook_deliveries).
 */
export class AddDeliveryRetentionIndex1764100000000 implements MigrationInterface {
  name = 'AddDeliveryRetentionIndex1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX webhook_deliveries_created_idx ON webhook_deliveries (created_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX webhook_deliveries_created_idx');
  }
}
