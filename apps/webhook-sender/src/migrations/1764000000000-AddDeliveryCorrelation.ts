import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The correlation id of the order event a delivery was made from (the status change's request):
 * every attempt, retries and redeliveries included, sends it as X-Correlation-Id and logs it.
 * Nullable: deliveries created before this migration, or from an event without one, have none.
 */
export class AddDeliveryCorrelation1764000000000 implements MigrationInterface {
  name = 'AddDeliveryCorrelation1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE webhook_deliveries ADD COLUMN IF NOT EXISTS correlation_id text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS correlation_id');
  }
}
