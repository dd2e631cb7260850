import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The W3C traceparent of the order event a delivery was made from (when tracing is on): every
 * attempt runs in that trace, so the webhook POST (and its traceparent header) joins the trace of
 * the change that caused it. Nullable: tracing off, or deliveries from before this migration.
 */
export class AddDeliveryTraceparent1764401300000 implements MigrationInterface {
  name = 'AddDeliveryTraceparent1764401300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE webhook_deliveries ADD COLUMN IF NOT EXISTS traceparent text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS traceparent');
  }
}
