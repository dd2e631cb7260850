import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The read model learns each integration's verification by its platform (integration.upserted
 * `verification`); platform orders of an integration that is not verified are stored `withheld`:
 * kept for operators, not announced to the account, refused to its pushes, until the integration is
 * verified and they are released (announced, in order, once).
 *
 * Existing integrations start unverified, as integrations-api's own migration marks them, which
 * verifies them within minutes and announces each verdict; THIRD_PARTY needs no verification.
 */
export class AddIntegrationVerificationAndWithheldOrders1764400210000 implements MigrationInterface {
  name = 'AddIntegrationVerificationAndWithheldOrders1764400210000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE integrations ADD COLUMN verification text NOT NULL DEFAULT 'unverified' CHECK (verification IN ('unverified', 'verified', 'failed'))`);
    await queryRunner.query(`UPDATE integrations SET verification = 'verified' WHERE platform = 'THIRD_PARTY'`);
    await queryRunner.query('ALTER TABLE orders ADD COLUMN withheld boolean NOT NULL DEFAULT false');
    // The release and the operators' list read withheld orders only: a small partial index.
    await queryRunner.query('CREATE INDEX orders_withheld_idx ON orders (integration_id, received_at, id) WHERE withheld');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX IF EXISTS orders_withheld_idx');
    await queryRunner.query('ALTER TABLE orders DROP COLUMN IF EXISTS withheld');
    await queryRunner.query('ALTER TABLE integrations DROP COLUMN IF EXISTS verification');
  }
}
