import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Platform sessions and call budgets shared by the replicas (docs/platform-dispatch.md, "Platform
 * sessions and call budgets"): a session per integration and credential fingerprint (the token sealed
 * with SecretBox, its digest for compare-and-delete, a login lease), the booked call times of each
 * budget scope, and the slot an update waiting for the budget has booked.
 */
export class CreatePlatformSessionsAndCallBudgets1764300500000 implements MigrationInterface {
  name = 'CreatePlatformSessionsAndCallBudgets1764300500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS platform_sessions (
        integration_id text NOT NULL,
        fingerprint text NOT NULL,
        token text,
        token_digest text,
        expires_at timestamptz,
        login_until timestamptz,
        login_lease text,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (integration_id, fingerprint)
      )`);
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS platform_call_budgets (
        scope text PRIMARY KEY,
        calls bigint[] NOT NULL DEFAULT '{}',
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('ALTER TABLE status_updates ADD COLUMN IF NOT EXISTS budget_slot_at timestamptz(3)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE status_updates DROP COLUMN IF EXISTS budget_slot_at');
    await queryRunner.query('DROP TABLE IF EXISTS platform_call_budgets');
    await queryRunner.query('DROP TABLE IF EXISTS platform_sessions');
  }
}
