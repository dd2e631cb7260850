import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Intake now shows an order as NEW once status-dispatcher's `order.opened` (history sequence 0) has
 * come back. Orders processed before that event existed get their sequence-0 entry from their
 * processing time, so they keep showing what they showed before.
 */
export class BackfillOrderOpened1764300900000 implements MigrationInterface {
  name = 'BackfillOrderOpened1764300900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `INSERT INTO order_status_history (yemek_kurye_order_id, sequence, status, previous_status, order_number, occurred_at)
       SELECT yemek_kurye_order_id, 0, 'NEW', NULL, order_number, processed_at FROM orders WHERE state = 'PROCESSED' AND processed_at IS NOT NULL
       ON CONFLICT (yemek_kurye_order_id, sequence) DO NOTHING`,
    );
  }

  async down(): Promise<void> {
    // The entries are true history (the order was NEW then): nothing to undo.
  }
}
