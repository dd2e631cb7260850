import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The read model learns which integrations are displaced (integration.upserted `displaced`): they
 * no longer hold their platform restaurant, so routing does not count them.
 *
 * No unique index on (platform, provider_restaurant_id): each row follows its own integration's
 * versions, and the events of a transfer (the old holder displaced, the new one given the
 * restaurant) may arrive in either order. A unique index would fail the one that comes first and,
 * past the delivery limit, dead-letter it; instead routing refuses while two live rows exist.
 */
export class AddIntegrationDisplaced1764300610000 implements MigrationInterface {
  name = 'AddIntegrationDisplaced1764300610000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE integrations ADD COLUMN displaced boolean NOT NULL DEFAULT false');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE integrations DROP COLUMN IF EXISTS displaced');
  }
}
