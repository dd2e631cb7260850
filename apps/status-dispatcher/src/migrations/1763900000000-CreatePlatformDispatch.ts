import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Platform orders (columns of `orders`, unique per platform order id), the status updates sent to
 * the platforms (durable commands), and the poll cursors of polled platforms, in schema "dispatcher".
 */
export class CreatePlatformDispatch1763900000000 implements MigrationInterface {
  name = 'CreatePlatformDispatch1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE orders
        ADD COLUMN integration_id text,
        ADD COLUMN platform_data jsonb,
        ADD COLUMN approved_at timestamptz(3)`);
    // A platform's retries, replayed webhooks and overlapping poll windows find the order they created;
    // the status push finds its order by (platform, providerOrderId).
    await queryRunner.query(`CREATE UNIQUE INDEX orders_platform_order_key ON orders (provider, order_id) WHERE provider <> 'THIRD_PARTY'`);
    await queryRunner.query(`
      CREATE TABLE status_updates (
        id uuid PRIMARY KEY,
        order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        seq int NOT NULL,
        platform text NOT NULL,
        provider_order_id text NOT NULL,
        action text NOT NULL CHECK (action IN ('VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER', 'CANCEL', 'REJECT')),
        previous_status text,
        reason text,
        state text NOT NULL CHECK (state IN ('queued', 'held', 'sent', 'retrying', 'failed', 'skipped')),
        hold_reason text,
        not_before timestamptz(3) NOT NULL,
        attempts int NOT NULL DEFAULT 0,
        sending_until timestamptz(3),
        first_attempt_at timestamptz(3),
        last_attempt_at timestamptz(3),
        sent_at timestamptz(3),
        last_answer jsonb,
        last_error text,
        accepted_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT status_updates_order_seq_key UNIQUE (order_id, seq)
      )`);
    // Guard 5's second net under the order's row lock: one live update per action and order.
    await queryRunner.query(`CREATE UNIQUE INDEX status_updates_order_action_key ON status_updates (order_id, action) WHERE state <> 'failed'`);
    await queryRunner.query(`CREATE INDEX status_updates_pending_idx ON status_updates (order_id, seq) WHERE state IN ('queued', 'held', 'retrying')`);
    await queryRunner.query(`
      CREATE TABLE platform_poll_cursors (
        integration_id text PRIMARY KEY,
        cursor_ms bigint NOT NULL,
        polled_at timestamptz(3) NOT NULL,
        last_error text,
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS platform_poll_cursors');
    await queryRunner.query('DROP TABLE IF EXISTS status_updates');
    await queryRunner.query('DROP INDEX IF EXISTS orders_platform_order_key');
    await queryRunner.query('ALTER TABLE orders DROP COLUMN IF EXISTS approved_at, DROP COLUMN IF EXISTS platform_data, DROP COLUMN IF EXISTS integration_id');
  }
}
