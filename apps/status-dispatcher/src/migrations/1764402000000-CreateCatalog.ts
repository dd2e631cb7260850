import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The restaurant's catalog (docs/catalog.md): each integration's imported menu, the restaurant's own
 * product codes and their links to platform products, imports, drift found by re-imports, platform
 * products seen in orders; price changes ride the availability commands (kind `price`, and
 * `checking` while an asynchronous platform works on one).
 */
export class CreateCatalog1764402000000 implements MigrationInterface {
  name = 'CreateCatalog1764402000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE availability_commands
        DROP CONSTRAINT availability_commands_kind_check,
        ADD CONSTRAINT availability_commands_kind_check CHECK (kind IN ('store', 'product', 'price')),
        DROP CONSTRAINT availability_commands_state_check,
        ADD CONSTRAINT availability_commands_state_check CHECK (state IN ('queued', 'retrying', 'checking', 'sent', 'failed', 'superseded')),
        ADD COLUMN product_code text,
        ADD COLUMN follow_up jsonb`);
    await queryRunner.query(`
      CREATE TABLE catalog_products (
        integration_id text NOT NULL,
        platform_product_id text NOT NULL,
        restaurant_id text NOT NULL,
        platform text NOT NULL,
        name text NOT NULL,
        name_key text NOT NULL,
        price numeric(12, 2),
        category text,
        status text NOT NULL CHECK (status IN ('ACTIVE', 'INACTIVE')),
        external_code text,
        options jsonb NOT NULL DEFAULT '[]',
        platform_data jsonb NOT NULL DEFAULT '{}',
        first_seen_at timestamptz(3) NOT NULL,
        last_seen_at timestamptz(3) NOT NULL,
        removed_at timestamptz(3),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (integration_id, platform_product_id)
      )`);
    await queryRunner.query('CREATE INDEX catalog_products_restaurant_idx ON catalog_products (restaurant_id, name_key)');
    await queryRunner.query(`
      CREATE TABLE catalog_codes (
        restaurant_id text NOT NULL,
        product_code text NOT NULL,
        name text,
        name_key text,
        source text NOT NULL CHECK (source IN ('external_code', 'manual', 'order')),
        created_at timestamptz(3) NOT NULL,
        PRIMARY KEY (restaurant_id, product_code)
      )`);
    await queryRunner.query(`
      CREATE TABLE catalog_links (
        integration_id text NOT NULL,
        platform_product_id text NOT NULL,
        restaurant_id text NOT NULL,
        product_code text NOT NULL,
        linked_by text NOT NULL CHECK (linked_by IN ('external_code', 'manual', 'confirmed')),
        linked_at timestamptz(3) NOT NULL,
        PRIMARY KEY (integration_id, platform_product_id),
        UNIQUE (integration_id, product_code)
      )`);
    await queryRunner.query('CREATE INDEX catalog_links_code_idx ON catalog_links (restaurant_id, product_code)');
    await queryRunner.query(`
      CREATE TABLE catalog_imports (
        id uuid PRIMARY KEY,
        integration_id text NOT NULL,
        restaurant_id text NOT NULL,
        platform text NOT NULL,
        requested_by text NOT NULL CHECK (requested_by IN ('restaurant', 'schedule')),
        state text NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
        requested_at timestamptz(3) NOT NULL,
        started_at timestamptz(3),
        finished_at timestamptz(3),
        attempts int NOT NULL DEFAULT 0,
        counts jsonb,
        last_answer jsonb,
        last_error text,
        drift_event_id uuid NOT NULL,
        budget_slot_at timestamptz(3)
      )`);
    await queryRunner.query('CREATE INDEX catalog_imports_integration_idx ON catalog_imports (integration_id, requested_at DESC)');
    // One import queued or running per integration, whoever asks (the restaurant, the schedule of any replica).
    await queryRunner.query(`CREATE UNIQUE INDEX catalog_imports_pending_idx ON catalog_imports (integration_id) WHERE state IN ('queued', 'running')`);
    await queryRunner.query(`
      CREATE TABLE catalog_drift (
        id uuid PRIMARY KEY,
        import_id uuid NOT NULL,
        integration_id text NOT NULL,
        restaurant_id text NOT NULL,
        platform text NOT NULL,
        platform_product_id text NOT NULL,
        product_code text,
        kind text NOT NULL CHECK (kind IN ('price', 'name', 'status', 'added', 'removed', 'linked_removed')),
        before jsonb,
        after jsonb,
        detected_at timestamptz(3) NOT NULL
      )`);
    await queryRunner.query('CREATE INDEX catalog_drift_restaurant_idx ON catalog_drift (restaurant_id, detected_at DESC)');
    await queryRunner.query(`
      CREATE TABLE catalog_order_products (
        integration_id text NOT NULL,
        platform_product_id text NOT NULL,
        restaurant_id text NOT NULL,
        platform text NOT NULL,
        name text,
        orders int NOT NULL DEFAULT 0,
        last_order_id uuid,
        first_seen_at timestamptz(3) NOT NULL,
        last_seen_at timestamptz(3) NOT NULL,
        PRIMARY KEY (integration_id, platform_product_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS catalog_order_products');
    await queryRunner.query('DROP TABLE IF EXISTS catalog_drift');
    await queryRunner.query('DROP TABLE IF EXISTS catalog_imports');
    await queryRunner.query('DROP TABLE IF EXISTS catalog_links');
    await queryRunner.query('DROP TABLE IF EXISTS catalog_codes');
    await queryRunner.query('DROP TABLE IF EXISTS catalog_products');
    await queryRunner.query(`DELETE FROM availability_commands WHERE kind = 'price'`);
    await queryRunner.query(`UPDATE availability_commands SET state = 'sent' WHERE state = 'checking'`);
    await queryRunner.query(`
      ALTER TABLE availability_commands
        DROP COLUMN IF EXISTS follow_up,
        DROP COLUMN IF EXISTS product_code,
        DROP CONSTRAINT availability_commands_state_check,
        ADD CONSTRAINT availability_commands_state_check CHECK (state IN ('queued', 'retrying', 'sent', 'failed', 'superseded')),
        DROP CONSTRAINT availability_commands_kind_check,
        ADD CONSTRAINT availability_commands_kind_check CHECK (kind IN ('store', 'product'))`);
  }
}
