import type { QueryRunner } from 'typeorm';

/**
 * The outbox, inbox and scheduled-task tables, created in the calling app's schema (its search_path).
 * Each app's first migration calls these, so every app owns its own copy.
 */
export async function createMessagingTables(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query(`
    CREATE TABLE outbox_messages (
      id uuid PRIMARY KEY,
      routing_key text NOT NULL,
      payload jsonb NOT NULL,
      headers jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      published_at timestamptz,
      attempts int NOT NULL DEFAULT 0,
      last_error text
    )`);
  await queryRunner.query(`CREATE INDEX outbox_messages_pending_idx ON outbox_messages (created_at) WHERE published_at IS NULL`);
  await queryRunner.query(`CREATE INDEX outbox_messages_published_idx ON outbox_messages (published_at) WHERE published_at IS NOT NULL`);
  await queryRunner.query(`
    CREATE TABLE processed_messages (
      consumer text NOT NULL,
      message_id text NOT NULL,
      processed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (consumer, message_id)
    )`);
  await queryRunner.query(`CREATE INDEX processed_messages_processed_at_idx ON processed_messages (processed_at)`);
  await queryRunner.query(`
    CREATE TABLE scheduled_tasks (
      id uuid PRIMARY KEY,
      kind text NOT NULL,
      dedupe_key text UNIQUE,
      payload jsonb NOT NULL,
      due_at timestamptz NOT NULL,
      attempts int NOT NULL DEFAULT 0,
      lease_until timestamptz,
      last_error text,
      headers jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
  await queryRunner.query(`CREATE INDEX scheduled_tasks_due_idx ON scheduled_tasks (due_at)`);
}

export async function dropMessagingTables(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query('DROP TABLE IF EXISTS scheduled_tasks');
  await queryRunner.query('DROP TABLE IF EXISTS processed_messages');
  await queryRunner.query('DROP TABLE IF EXISTS outbox_messages');
}

/**
 * The outbox relay's lease (OutboxRelay): a claimed row is skipped by other relays until
 * `claimed_until`. Nullable without a default, so adding it rewrites nothing; no index, so a claim
 * changes no indexed column and can be a HOT update.
 */
export async function addOutboxLease(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query('ALTER TABLE outbox_messages ADD COLUMN claimed_until timestamptz');
}

export async function dropOutboxLease(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query('ALTER TABLE outbox_messages DROP COLUMN IF EXISTS claimed_until');
}
