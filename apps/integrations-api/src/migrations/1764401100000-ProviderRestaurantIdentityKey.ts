import { Logger } from '@nestjs/common';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { identityKey } from '@courier/domain';
import { ACCOUNT_SCOPED_PLATFORMS } from './1764300600000-OnePlatformRestaurantOneIntegration';

interface Row {
  id: string;
  restaurant_id: string;
  platform: string;
  provider_restaurant_id: string;
  displaced_at: Date | null;
}

/**
 * providerRestaurantIds that differ only by case, width or surrounding space are one platform
 * restaurant: the unique indexes of 1763750000000 and 1764300600000 are repeated on
 * provider_restaurant_key (identityKey, computed here in code: PostgreSQL's lower() depends on the
 * database's locale). Existing rows that already collide on the key are not changed: the oldest
 * (created_at, then id) gets the key, the others keep a null key (still unique under their exact
 * ids, by the old indexes) and a warning in the log, until they are given another id.
 */
export class ProviderRestaurantIdentityKey1764401100000 implements MigrationInterface {
  name = 'ProviderRestaurantIdentityKey1764401100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE integrations ADD COLUMN provider_restaurant_key text');
    const rows: Row[] = await queryRunner.query('SELECT id, restaurant_id, platform, provider_restaurant_id, displaced_at FROM integrations ORDER BY created_at, id');
    const accountScoped: readonly string[] = ACCOUNT_SCOPED_PLATFORMS;
    const perAccount = new Set<string>();
    const acrossAccounts = new Set<string>();
    const ids: string[] = [];
    const keys: string[] = [];
    const logger = new Logger('Migration');
    for (const row of rows) {
      const key = identityKey(row.provider_restaurant_id);
      const own = JSON.stringify([row.restaurant_id, row.platform, key]);
      const global = !accountScoped.includes(row.platform) && row.displaced_at === null ? JSON.stringify([row.platform, key]) : undefined;
      if (perAccount.has(own) || (global !== undefined && acrossAccounts.has(global))) {
        logger.warn(
          { integrationId: row.id, restaurantId: row.restaurant_id, platform: row.platform, providerRestaurantId: row.provider_restaurant_id },
          'providerRestaurantId differs only by case, width or space from an older integration\'s: kept under its exact id (no identity key) until it is given another',
        );
        continue;
      }
      perAccount.add(own);
      if (global !== undefined) acrossAccounts.add(global);
      ids.push(row.id);
      keys.push(key);
    }
    await queryRunner.query(
      'UPDATE integrations i SET provider_restaurant_key = k.key FROM unnest($1::uuid[], $2::text[]) AS k(id, key) WHERE i.id = k.id',
      [ids, keys],
    );
    const excluded = ACCOUNT_SCOPED_PLATFORMS.map((code) => `'${code}'`).join(', ');
    await queryRunner.query('CREATE UNIQUE INDEX integrations_restaurant_platform_identity_key ON integrations (restaurant_id, platform, provider_restaurant_key)');
    await queryRunner.query(`
      CREATE UNIQUE INDEX integrations_platform_restaurant_identity_key ON integrations (platform, provider_restaurant_key)
       WHERE platform NOT IN (${excluded}) AND displaced_at IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX IF EXISTS integrations_platform_restaurant_identity_key');
    await queryRunner.query('DROP INDEX IF EXISTS integrations_restaurant_platform_identity_key');
    await queryRunner.query('ALTER TABLE integrations DROP COLUMN IF EXISTS provider_restaurant_key');
  }
}
