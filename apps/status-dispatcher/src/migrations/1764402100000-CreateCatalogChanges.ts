import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A sold-out or price change asked by the restaurant's product code (docs/catalog.md): what was asked
 * and what each integration answered at once (queued with its command, refused, unsupported, not
 * linked), so GET /api/v1/my/catalog/changes/{id} shows the integrations where nothing was queued too.
 */
export class CreateCatalogChanges1764402100000 implements MigrationInterface {
  name = 'CreateCatalogChanges1764402100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE catalog_changes (
        id uuid PRIMARY KEY,
        restaurant_id text NOT NULL,
        product_code text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('availability', 'price')),
        request jsonb NOT NULL,
        results jsonb NOT NULL,
        accepted_at timestamptz(3) NOT NULL
      )`);
    await queryRunner.query('CREATE INDEX catalog_changes_restaurant_idx ON catalog_changes (restaurant_id, accepted_at DESC)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS catalog_changes');
  }
}
