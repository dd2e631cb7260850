import { MigrationInterface, QueryRunner } from 'typeorm';

/** Read model of the accounts, intake orders, their status history and the rate-limit counters. */
export class CreateIntakeTables1763760000000 implements MigrationInterface {
  name = 'CreateIntakeTables1763760000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE accounts (
        restaurant_id text PRIMARY KEY,
        status text NOT NULL,
        api_key_hash text NOT NULL,
        api_secret_hash text NOT NULL,
        third_party_integration_id text,
        third_party_provider_restaurant_id text,
        third_party_active boolean,
        version int NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Not unique: a unique index could make a replayed old snapshot fail forever (a poison message).
    await queryRunner.query(`CREATE INDEX accounts_api_key_hash_idx ON accounts (api_key_hash)`);

    await queryRunner.query(`
      CREATE TABLE orders (
        restaurant_id text NOT NULL,
        order_id text NOT NULL,
        yemek_kurye_order_id uuid NOT NULL UNIQUE,
        payload_hash text NOT NULL,
        payload jsonb NOT NULL,
        state text NOT NULL CHECK (state IN ('ACCEPTED', 'PROCESSED', 'FAILED')),
        attempt int NOT NULL DEFAULT 1,
        received_at timestamptz NOT NULL,
        processed_at timestamptz,
        failed_at timestamptz,
        failure_reason text,
        order_number text,
        delivery_latitude double precision,
        delivery_longitude double precision,
        coordinates_source text CHECK (coordinates_source IN ('sender', 'geocoder')),
        requeued_at timestamptz,
        PRIMARY KEY (restaurant_id, order_id)
      )`);
    // The sweeper looks for orders stuck in ACCEPTED.
    await queryRunner.query(`CREATE INDEX orders_accepted_idx ON orders (received_at) WHERE state = 'ACCEPTED'`);

    await queryRunner.query(`
      CREATE TABLE order_status_history (
        yemek_kurye_order_id uuid NOT NULL,
        sequence int NOT NULL,
        status text NOT NULL,
        previous_status text,
        order_number text,
        occurred_at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (yemek_kurye_order_id, sequence)
      )`);

    // UNLOGGED: no WAL for a counter that lives one minute; a crash forgetting it is harmless.
    await queryRunner.query(`
      CREATE UNLOGGED TABLE rate_limit_counters (
        scope text NOT NULL,
        key_hash text NOT NULL,
        window_start bigint NOT NULL,
        count int NOT NULL,
        PRIMARY KEY (scope, key_hash, window_start)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS rate_limit_counters');
    await queryRunner.query('DROP TABLE IF EXISTS order_status_history');
    await queryRunner.query('DROP TABLE IF EXISTS orders');
    await queryRunner.query('DROP TABLE IF EXISTS accounts');
  }
}
