import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each integration's verification by its platform: the credential check, bound to the restaurant
 * where the platform's answer names it. Only a verified integration is handed its platform orders.
 *
 * Existing platform integrations start unverified (their credentials were never proved for their
 * restaurant): the periodic verification checks them within minutes of the start, and their orders
 * meanwhile are kept, withheld, and released when they are verified. THIRD_PARTY is the customer's
 * own label: always verified. No event is written here: the dispatcher's read model starts from the
 * same defaults, and every verdict that changes a state is announced.
 */
export class AddIntegrationVerification1764400200000 implements MigrationInterface {
  name = 'AddIntegrationVerification1764400200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE integrations
        ADD COLUMN verification_state text NOT NULL DEFAULT 'unverified' CHECK (verification_state IN ('unverified', 'verified', 'failed')),
        ADD COLUMN verification_verified_at timestamptz(3),
        ADD COLUMN verification_detail text,
        ADD COLUMN verification_fingerprint text,
        ADD COLUMN verification_attempted_at timestamptz(3),
        ADD COLUMN pos_ready_fingerprint text`);
    await queryRunner.query(`UPDATE integrations SET verification_state = 'verified', verification_verified_at = created_at, verification_detail = 'THIRD_PARTY needs no platform verification.' WHERE platform = 'THIRD_PARTY'`);
    // The periodic retry's claim: the unverified ones, the longest unattempted first.
    await queryRunner.query(`CREATE INDEX integrations_unverified_idx ON integrations (verification_attempted_at NULLS FIRST) WHERE verification_state = 'unverified'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX IF EXISTS integrations_unverified_idx');
    await queryRunner.query(`
      ALTER TABLE integrations
        DROP COLUMN IF EXISTS verification_state,
        DROP COLUMN IF EXISTS verification_verified_at,
        DROP COLUMN IF EXISTS verification_detail,
        DROP COLUMN IF EXISTS verification_fingerprint,
        DROP COLUMN IF EXISTS verification_attempted_at,
        DROP COLUMN IF EXISTS pos_ready_fingerprint`);
  }
}
