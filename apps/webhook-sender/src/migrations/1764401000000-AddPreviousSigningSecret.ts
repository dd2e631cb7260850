import { MigrationInterface, QueryRunner } from 'typeorm';

/** The account's rotated-out signing secret (encrypted) and when it stops signing, from the account events. */
export class AddPreviousSigningSecret1764401000000 implements MigrationInterface {
  name = 'AddPreviousSigningSecret1764401000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE webhook_accounts ADD COLUMN previous_signing_secret_ciphertext text NULL, ADD COLUMN previous_signing_secret_valid_until timestamptz NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE webhook_accounts DROP COLUMN IF EXISTS previous_signing_secret_ciphertext, DROP COLUMN IF EXISTS previous_signing_secret_valid_until');
  }
}
