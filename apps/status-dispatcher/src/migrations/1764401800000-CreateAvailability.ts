import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Restaurant availability (docs/availability.md): per integration what was asked and what the
 * platform confirmed or reported, products switched off, and the durable platform commands. The
 * account read model gains the key hashes the management API authenticates with.
 */
export class CreateAvailability1764401800000 implements MigrationInterface {
  name = 'CreateAvailability1764401800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE restaurant_accounts ADD COLUMN api_key_hash text, ADD COLUMN api_secret_hash text');
    await queryRunner.query('CREATE INDEX restaurant_accounts_api_key_idx ON restaurant_accounts (api_key_hash)');
    await queryRunner.query(`
      CREATE TABLE store_availability (
        integration_id text PRIMARY KEY,
        restaurant_id text NOT NULL,
        platform text NOT NULL,
        request_seq bigint NOT NULL DEFAULT 0,
        asked_state text,
        asked_until timestamptz(3),
        asked_busy_minutes int,
        asked_reason text,
        asked_by text,
        asked_at timestamptz(3),
        change_id uuid,
        confirmed_state text,
        confirmed_until timestamptz(3),
        confirmed_at timestamptz(3),
        confirmed_by text,
        platform_state text,
        platform_until timestamptz(3),
        platform_reason text,
        platform_seen_at timestamptz(3),
        reported_state text,
        last_answer jsonb,
        last_answer_at timestamptz(3),
        read_until timestamptz(3),
        last_read_at timestamptz(3),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX store_availability_restaurant_idx ON store_availability (restaurant_id)');
    await queryRunner.query(`
      CREATE TABLE product_availability (
        integration_id text NOT NULL,
        platform_product_id text NOT NULL,
        restaurant_id text NOT NULL,
        platform text NOT NULL,
        request_seq bigint NOT NULL DEFAULT 0,
        available boolean NOT NULL,
        until timestamptz(3),
        asked_at timestamptz(3) NOT NULL,
        change_id uuid NOT NULL,
        confirmed_available boolean,
        confirmed_at timestamptz(3),
        last_answer jsonb,
        last_answer_at timestamptz(3),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (integration_id, platform_product_id)
      )`);
    await queryRunner.query(`
      CREATE TABLE availability_commands (
        id uuid PRIMARY KEY,
        change_id uuid NOT NULL,
        integration_id text NOT NULL,
        restaurant_id text NOT NULL,
        platform text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('store', 'product')),
        target text NOT NULL,
        request jsonb NOT NULL,
        params jsonb NOT NULL,
        requested_by text NOT NULL,
        state text NOT NULL CHECK (state IN ('queued', 'retrying', 'sent', 'failed', 'superseded')),
        not_before timestamptz(3) NOT NULL,
        attempts int NOT NULL DEFAULT 0,
        sending_until timestamptz(3),
        budget_slot_at timestamptz(3),
        first_attempt_at timestamptz(3),
        last_attempt_at timestamptz(3),
        sent_at timestamptz(3),
        ended_at timestamptz(3),
        last_answer jsonb,
        last_error text,
        accepted_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    // The pending commands of one target: what a new request supersedes and what a claim waits behind.
    await queryRunner.query(`CREATE INDEX availability_commands_pending_idx ON availability_commands (integration_id, kind, target) WHERE state IN ('queued', 'retrying')`);
    await queryRunner.query('CREATE INDEX availability_commands_change_idx ON availability_commands (change_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS availability_commands');
    await queryRunner.query('DROP TABLE IF EXISTS product_availability');
    await queryRunner.query('DROP TABLE IF EXISTS store_availability');
    await queryRunner.query('DROP INDEX IF EXISTS restaurant_accounts_api_key_idx');
    await queryRunner.query('ALTER TABLE restaurant_accounts DROP COLUMN IF EXISTS api_key_hash, DROP COLUMN IF EXISTS api_secret_hash');
  }
}
