import { Logger } from '@nestjs/common';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { RoutingKey } from '@courier/contracts';
import { outboxEvent } from '@courier/messaging';

/**
 * The platforms whose providerRestaurantId is the customer's own label (unique per account only).
 * Must equal the registry's platforms with restaurantIdScope 'account' (checked by a unit test):
 * the index below cannot ask the registry, and every other platform, one added later included, is
 * a delivery platform whose restaurant one integration holds.
 */
export const ACCOUNT_SCOPED_PLATFORMS = ['THIRD_PARTY'] as const;

/** Who the clean-up of existing duplicates is recorded as, in the audit table and the logs. */
export const DEDUPLICATION_OPERATOR = 'migration:1764300600000';

interface DisplacedRow {
  id: string;
  restaurant_id: string;
  platform: string;
  provider_restaurant_id: string;
  settings: Record<string, string>;
  secrets: Record<string, string>;
  version: number;
  created_at: Date;
  updated_at: Date;
  keeper: string;
}

/**
 * A delivery platform's restaurant belongs to one integration across all accounts:
 * incoming orders are routed by (platform, providerRestaurantId) and the platforms prove nothing
 * about ownership. An integration that lost its restaurant to another one is kept, inactive and
 * `displaced`, with its credentials, and no longer counts for the uniqueness.
 *
 * Existing duplicates: the oldest integration (created_at, then id) keeps the restaurant; the others
 * are deactivated and displaced, each with an integration.upserted event in the outbox (so the
 * dispatcher's read model stops counting them), an audit row and a warning in the log. An operator
 * can transfer the restaurant afterwards (admin API).
 */
export class OnePlatformRestaurantOneIntegration1764300600000 implements MigrationInterface {
  name = 'OnePlatformRestaurantOneIntegration1764300600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE integrations
        ADD COLUMN displaced_at timestamptz(3),
        ADD COLUMN verified_at timestamptz(3),
        ADD COLUMN verified_by text`);
    // No foreign keys: the record outlives the integrations it names.
    await queryRunner.query(`
      CREATE TABLE platform_restaurant_audit (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        action text NOT NULL CHECK (action IN ('lookup', 'verify', 'transfer', 'deduplicate')),
        platform text NOT NULL,
        provider_restaurant_id text NOT NULL,
        integration_id uuid,
        previous_integration_id uuid,
        operator text,
        note text,
        occurred_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX platform_restaurant_audit_restaurant_idx ON platform_restaurant_audit (platform, provider_restaurant_id, occurred_at)');

    const excluded = ACCOUNT_SCOPED_PLATFORMS.map((code) => `'${code}'`).join(', ');
    const displaced: DisplacedRow[] = await queryRunner.query(`
      WITH ranked AS (
        SELECT id, first_value(id) OVER claim AS keeper, row_number() OVER claim AS rank
          FROM integrations
         WHERE platform NOT IN (${excluded})
        WINDOW claim AS (PARTITION BY platform, provider_restaurant_id ORDER BY created_at, id)
      ), displaced AS (
        UPDATE integrations i
           SET is_active = false, displaced_at = now(), version = i.version + 1, updated_at = now()
          FROM ranked r
         WHERE r.id = i.id AND r.rank > 1
        RETURNING i.id, i.restaurant_id, i.platform, i.provider_restaurant_id, i.settings, i.secrets, i.version, i.created_at, i.updated_at, r.keeper
      )
      SELECT * FROM displaced ORDER BY platform, provider_restaurant_id, created_at, id`);
    const logger = new Logger('Migration');
    for (const row of displaced) {
      // The payload integration-events.ts builds, written out here so that this migration stays as it is when that code changes.
      const event = outboxEvent(RoutingKey.IntegrationUpserted, {
        integrationId: row.id,
        restaurantId: row.restaurant_id,
        platform: row.platform,
        providerRestaurantId: row.provider_restaurant_id,
        isActive: false,
        displaced: true,
        settings: row.settings,
        secrets: row.secrets,
        version: row.version,
        createdAt: new Date(row.created_at).toISOString(),
        updatedAt: new Date(row.updated_at).toISOString(),
        occurredAt: new Date(row.updated_at).toISOString(),
      });
      // Spelt out, not libs/messaging's outboxInsert: a migration writes the table as it was at this point of the schema's history.
      await queryRunner.query('INSERT INTO outbox_messages (id, routing_key, payload, headers) VALUES ($1, $2, $3, $4)', [
        event.id,
        event.routingKey,
        JSON.stringify(event.payload),
        JSON.stringify(event.headers),
      ]);
      await queryRunner.query(
        `INSERT INTO platform_restaurant_audit (action, platform, provider_restaurant_id, integration_id, previous_integration_id, operator, note)
         VALUES ('deduplicate', $1, $2, $3, $4, $5, 'several integrations held this platform restaurant: the oldest keeps it')`,
        [row.platform, row.provider_restaurant_id, row.keeper, row.id, DEDUPLICATION_OPERATOR],
      );
      logger.warn(
        { platform: row.platform, providerRestaurantId: row.provider_restaurant_id, keptIntegrationId: row.keeper, displacedIntegrationId: row.id, restaurantId: row.restaurant_id },
        'duplicate platform restaurant: the younger integration was deactivated and displaced (resolve with the admin API)',
      );
    }

    await queryRunner.query('ALTER TABLE integrations ADD CONSTRAINT integrations_displaced_inactive_check CHECK (displaced_at IS NULL OR NOT is_active)');
    await queryRunner.query(`
      CREATE UNIQUE INDEX integrations_platform_restaurant_key ON integrations (platform, provider_restaurant_id)
       WHERE platform NOT IN (${excluded}) AND displaced_at IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX IF EXISTS integrations_platform_restaurant_key');
    await queryRunner.query('ALTER TABLE integrations DROP CONSTRAINT IF EXISTS integrations_displaced_inactive_check');
    await queryRunner.query('DROP TABLE IF EXISTS platform_restaurant_audit');
    await queryRunner.query('ALTER TABLE integrations DROP COLUMN IF EXISTS displaced_at, DROP COLUMN IF EXISTS verified_at, DROP COLUMN IF EXISTS verified_by');
  }
}
