import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The correlation id of the push that created a status update: its platform calls carry it as
 * X-Correlation-Id on every attempt, also when another update's end woke it. Nullable: updates
 * accepted before this migration have none (their calls carry the id of the task that runs them).
 */
export class AddStatusUpdateCorrelation1764000000000 implements MigrationInterface {
  name = 'AddStatusUpdateCorrelation1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE status_updates ADD COLUMN IF NOT EXISTS correlation_id text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE status_updates DROP COLUMN IF EXISTS correlation_id');
  }
}
