import { MigrationInterface, QueryRunner } from 'typeorm';

/** Restaurant accounts and their integrations, in schema "integrations". */
export class CreateAccountsAndIntegrations1763750000000 implements MigrationInterface {
  name = 'CreateAccountsAndIntegrations1763750000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE restaurants (
        id text PRIMARY KEY CHECK (id ~ '^rest_[A-Za-z0-9_-]{20,64}$'),
        name text NOT NULL,
        status text NOT NULL CHECK (status IN ('active', 'disabled')),
        api_key_hash text NOT NULL,
        api_secret_hash text NOT NULL,
        webhook_status_url text,
        webhook_cancel_url text,
        webhook_signing_secret text,
        version int NOT NULL DEFAULT 1,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT restaurants_api_key_hash_key UNIQUE (api_key_hash)
      )`);
    await queryRunner.query('CREATE INDEX restaurants_created_idx ON restaurants (created_at, id)');
    await queryRunner.query(`
      CREATE TABLE integrations (
        id uuid PRIMARY KEY,
        restaurant_id text NOT NULL REFERENCES restaurants (id) ON DELETE CASCADE,
        platform text NOT NULL,
        provider_restaurant_id text NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        settings jsonb NOT NULL DEFAULT '{}',
        secrets jsonb NOT NULL DEFAULT '{}',
        version int NOT NULL DEFAULT 1,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT integrations_restaurant_platform_provider_key UNIQUE (restaurant_id, platform, provider_restaurant_id)
      )`);
    // One THIRD_PARTY integration per account: intake decides by it alone.
    await queryRunner.query(`CREATE UNIQUE INDEX integrations_one_third_party_key ON integrations (restaurant_id) WHERE platform = 'THIRD_PARTY'`);
    await queryRunner.query('CREATE INDEX integrations_restaurant_created_idx ON integrations (restaurant_id, created_at, id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS integrations');
    await queryRunner.query('DROP TABLE IF EXISTS restaurants');
  }
}
