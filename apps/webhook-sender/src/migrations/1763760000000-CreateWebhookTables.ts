import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sender's read model of the accounts (from account.* snapshots), the deliveries (one per order
 * event, the exact bytes sent), the queue of open deliveries (the durable work: due time, lease) and
 * every attempt made. See docs/webhook-delivery.md.
 */
export class CreateWebhookTables1763760000000 implements MigrationInterface {
  name = 'CreateWebhookTables1763760000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE webhook_accounts (
        restaurant_id text PRIMARY KEY,
        name text NOT NULL,
        status text NOT NULL,
        api_key_hash text NOT NULL,
        api_secret_hash text NOT NULL,
        status_url text,
        cancel_url text,
        signing_secret_ciphertext text,
        version int NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Not unique: a rotation seen out of order must never make an upsert fail.
    await queryRunner.query('CREATE INDEX webhook_accounts_api_key_hash_idx ON webhook_accounts (api_key_hash)');

    await queryRunner.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY,
        restaurant_id text NOT NULL,
        event text NOT NULL,
        order_id text NOT NULL,
        yemek_kurye_order_id text NOT NULL,
        source_key text NOT NULL,
        url text,
        body text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'retrying', 'delivered', 'failed', 'skipped')),
        attempts int NOT NULL DEFAULT 0,
        cycle int NOT NULL DEFAULT 1,
        cycle_started_at timestamptz NOT NULL,
        cycle_failures int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        last_attempt_at timestamptz,
        last_status_code int,
        last_error text,
        delivered_at timestamptz,
        alert_raised_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      ) WITH (fillfactor = 80)`);
    // Room on each page, so that recording an attempt (no indexed column changes) is a HOT update.
    await queryRunner.query('CREATE UNIQUE INDEX webhook_deliveries_source_key_idx ON webhook_deliveries (source_key)');
    await queryRunner.query('CREATE INDEX webhook_deliveries_list_idx ON webhook_deliveries (restaurant_id, created_at DESC, id DESC)');
    await queryRunner.query('CREATE INDEX webhook_deliveries_order_idx ON webhook_deliveries (restaurant_id, order_id)');
    await queryRunner.query('CREATE INDEX webhook_deliveries_yk_order_idx ON webhook_deliveries (restaurant_id, yemek_kurye_order_id)');

    // The durable work: one narrow row per open (pending or retrying) delivery, its next attempt's due
    // time and, while a process works on it, its lease. Finished deliveries leave it.
    await queryRunner.query(`
      CREATE TABLE webhook_delivery_queue (
        delivery_id uuid PRIMARY KEY REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
        host text NOT NULL DEFAULT '',
        due_at timestamptz NOT NULL,
        lease_until timestamptz
      ) WITH (fillfactor = 70)`);
    await queryRunner.query('CREATE INDEX webhook_delivery_queue_due_idx ON webhook_delivery_queue (due_at)');

    await queryRunner.query(`
      CREATE TABLE webhook_attempts (
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
        attempt int NOT NULL,
        url text,
        started_at timestamptz NOT NULL,
        status_code int,
        latency_ms int NOT NULL,
        error text,
        PRIMARY KEY (delivery_id, attempt)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS webhook_attempts');
    await queryRunner.query('DROP TABLE IF EXISTS webhook_delivery_queue');
    await queryRunner.query('DROP TABLE IF EXISTS webhook_deliveries');
    await queryRunner.query('DROP TABLE IF EXISTS webhook_accounts');
  }
}
