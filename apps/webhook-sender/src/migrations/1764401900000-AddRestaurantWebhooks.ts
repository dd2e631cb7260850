import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks about a restaurant rather than an order (restaurant.availability_changed): they have no
 * order ids but the platform integration they concern. Dropping NOT NULL and adding a nullable column
 * rewrite nothing. Rolling upgrade: a replica of the previous version may claim such a delivery and
 * would send it to the cancel URL (it sends every event but order.status_changed there), so finish
 * rolling out webhook-sender before status-dispatcher publishes the event (docs/webhook-delivery.md).
 */
export class AddRestaurantWebhooks1764401900000 implements MigrationInterface {
  name = 'AddRestaurantWebhooks1764401900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE webhook_deliveries ALTER COLUMN order_id DROP NOT NULL, ALTER COLUMN yemek_kurye_order_id DROP NOT NULL');
    await queryRunner.query('ALTER TABLE webhook_deliveries ADD COLUMN IF NOT EXISTS integration_id text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The restaurant webhooks cannot be kept without order ids (their attempts and queue rows go with them).
    await queryRunner.query('DELETE FROM webhook_deliveries WHERE order_id IS NULL OR yemek_kurye_order_id IS NULL');
    await queryRunner.query('ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS integration_id');
    await queryRunner.query('ALTER TABLE webhook_deliveries ALTER COLUMN order_id SET NOT NULL, ALTER COLUMN yemek_kurye_order_id SET NOT NULL');
  }
}
