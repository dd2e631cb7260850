import { MigrationInterface, QueryRunner } from 'typeorm';

/** The signing secret a rotation replaced, kept (encrypted) until its grace period ends. */
export class AddPreviousWebhookSigningSecret1764401000000 implements MigrationInterface {
  name = 'AddPreviousWebhookSigningSecret1764401000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE restaurants ADD COLUMN webhook_previous_signing_secret text NULL, ADD COLUMN webhook_previous_signing_secret_valid_until timestamptz(3) NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE restaurants DROP COLUMN IF EXISTS webhook_previous_signing_secret, DROP COLUMN IF EXISTS webhook_previous_signing_secret_valid_until');
  }
}
