import { MigrationInterface, QueryRunner } from 'typeorm';

/** status-dispatcher's read model of accounts and integrations (from integrations-api's events). */
export class CreateAccountDirectory1763800001000 implements MigrationInterface {
  name = 'CreateAccountDirectory1763800001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE restaurant_accounts (
        restaurant_id text PRIMARY KEY,
        name text NOT NULL,
        status text NOT NULL,
        third_party jsonb,
        version int NOT NULL,
        occurred_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE integrations (
        integration_id text PRIMARY KEY,
        restaurant_id text NOT NULL,
        platform text NOT NULL,
        provider_restaurant_id text NOT NULL,
        is_active boolean NOT NULL,
        settings jsonb NOT NULL DEFAULT '{}',
        secrets jsonb NOT NULL DEFAULT '{}',
        version int NOT NULL,
        deleted_at timestamptz(3),
        occurred_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    // The status push finds an order's integration by platform and the platform's restaurant id.
    await queryRunner.query('CREATE INDEX integrations_platform_provider_idx ON integrations (platform, provider_restaurant_id) WHERE deleted_at IS NULL');
    await queryRunner.query('CREATE INDEX integrations_restaurant_idx ON integrations (restaurant_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS integrations');
    await queryRunner.query('DROP TABLE IF EXISTS restaurant_accounts');
  }
}
