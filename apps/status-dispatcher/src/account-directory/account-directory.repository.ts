import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { AccountKeyLookup } from '@courier/http';
import type { AccountSnapshot, IntegrationDeletedEvent, IntegrationUpsertedEvent } from '@courier/contracts';
import type { DirectoryAccount, DirectoryIntegration } from './account-directory.model';

const COLUMNS = `i.integration_id AS "integrationId", i.restaurant_id AS "restaurantId", i.platform, i.provider_restaurant_id AS "providerRestaurantId",
  i.is_active AS "isActive", (i.deleted_at IS NOT NULL) AS deleted, coalesce(a.status <> 'disabled', true) AS "accountActive", i.settings, i.secrets,
  (i.verification = 'verified') AS verified`;

/** The dispatcher's read model of restaurant accounts and integrations (tables `restaurant_accounts`, `integrations`). */
@Injectable()
export class AccountDirectoryRepository implements AccountKeyLookup<DirectoryAccount> {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The live (not deleted, not displaced) integrations holding a platform restaurant, at most `limit`, active or not. */
  liveHoldersOf(platform: string, providerRestaurantId: string, limit: number): Promise<DirectoryIntegration[]> {
    return this.dataSource.query(
      `SELECT ${COLUMNS} FROM integrations i LEFT JOIN restaurant_accounts a ON a.restaurant_id = i.restaurant_id
        WHERE i.platform = $1 AND i.provider_restaurant_id = $2 AND i.deleted_at IS NULL AND NOT i.displaced
        ORDER BY i.integration_id LIMIT $3`,
      [platform, providerRestaurantId, limit],
    );
  }

  /** Whether an integration now deleted or displaced held this platform restaurant (no live one is asked about). */
  async formerlyHeld(platform: string, providerRestaurantId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      'SELECT 1 FROM integrations WHERE platform = $1 AND provider_restaurant_id = $2 AND (deleted_at IS NOT NULL OR displaced) LIMIT 1',
      [platform, providerRestaurantId],
    );
    return rows.length > 0;
  }

  async integration(integrationId: string): Promise<DirectoryIntegration | undefined> {
    const [row]: DirectoryIntegration[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM integrations i LEFT JOIN restaurant_accounts a ON a.restaurant_id = i.restaurant_id WHERE i.integration_id = $1`,
      [integrationId],
    );
    return row;
  }

  /** Ids of the platform's active, not deleted integrations. */
  async activeIntegrationIds(platform: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      'SELECT integration_id AS id FROM integrations WHERE platform = $1 AND is_active AND deleted_at IS NULL ORDER BY integration_id',
      [platform],
    );
    return rows.map((row) => row.id);
  }

  /** Keeps the newer version of an account (a duplicate or an older one changes nothing). */
  async storeAccount(account: AccountSnapshot): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO restaurant_accounts (restaurant_id, name, status, third_party, version, occurred_at, updated_at, api_key_hash, api_secret_hash)
       VALUES ($1, $2, $3, $4, $5, $6, now(), $7, $8)
       ON CONFLICT (restaurant_id) DO UPDATE
          SET name = EXCLUDED.name, status = EXCLUDED.status, third_party = EXCLUDED.third_party,
              version = EXCLUDED.version, occurred_at = EXCLUDED.occurred_at, updated_at = now(),
              api_key_hash = EXCLUDED.api_key_hash, api_secret_hash = EXCLUDED.api_secret_hash
        WHERE restaurant_accounts.version < EXCLUDED.version`,
      [
        account.restaurantId,
        account.name,
        account.status,
        account.thirdParty
          ? JSON.stringify({ integrationId: account.thirdParty.integrationId, providerRestaurantId: account.thirdParty.providerRestaurantId, isActive: account.thirdParty.isActive })
          : null,
        account.version,
        account.occurredAt,
        account.apiKeyHash,
        account.apiSecretHash,
      ],
    );
  }

  /** The accounts whose API key has this hash (SHA-256 hex), with their secret's hash, for the key pair check. */
  /** ApiCredentialsGuard's port: the active-or-not accounts holding this key (an account whose key hashes the read model has not received yet holds none). */
  findByApiKeyHash(apiKeyHash: string): Promise<DirectoryAccount[]> {
    return this.dataSource.query(
      'SELECT restaurant_id AS "restaurantId", status, api_secret_hash AS "apiSecretHash" FROM restaurant_accounts WHERE api_key_hash = $1 AND api_secret_hash IS NOT NULL LIMIT 5',
      [apiKeyHash],
    );
  }

  /** Whether the read model knows the account, or any integration of it (the read model may hold integrations before their account). */
  async accountExists(restaurantId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      'SELECT 1 FROM restaurant_accounts WHERE restaurant_id = $1 UNION ALL SELECT 1 FROM integrations WHERE restaurant_id = $1 LIMIT 1',
      [restaurantId],
    );
    return rows.length > 0;
  }

  /** The account's live (not deleted, not displaced) integrations, oldest id first. */
  integrationsOf(restaurantId: string): Promise<DirectoryIntegration[]> {
    return this.dataSource.query(
      `SELECT ${COLUMNS} FROM integrations i LEFT JOIN restaurant_accounts a ON a.restaurant_id = i.restaurant_id
        WHERE i.restaurant_id = $1 AND i.deleted_at IS NULL AND NOT i.displaced ORDER BY i.integration_id`,
      [restaurantId],
    );
  }

  /** Active, verified, live integrations of the platforms given (the read-back's list). */
  readableIntegrations(platforms: string[]): Promise<DirectoryIntegration[]> {
    return this.dataSource.query(
      `SELECT ${COLUMNS} FROM integrations i LEFT JOIN restaurant_accounts a ON a.restaurant_id = i.restaurant_id
        WHERE i.platform = ANY($1::text[]) AND i.is_active AND i.deleted_at IS NULL AND NOT i.displaced AND i.verification = 'verified'
          AND coalesce(a.status <> 'disabled', true) ORDER BY i.integration_id`,
      [platforms],
    );
  }

  /** Keeps the newer version of an integration (a duplicate or an older one changes nothing). */
  async storeIntegration(integration: IntegrationUpsertedEvent): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO integrations (integration_id, restaurant_id, platform, provider_restaurant_id, is_active, displaced, settings, secrets, version, deleted_at, occurred_at, updated_at, verification)
       SELECT integration_id, restaurant_id, platform, provider_restaurant_id, is_active, displaced, settings, secrets, version, NULL, occurred_at, now(), verification
         FROM jsonb_populate_record(NULL::integrations, $1::jsonb)
       ON CONFLICT (integration_id) DO UPDATE
          SET restaurant_id = EXCLUDED.restaurant_id, platform = EXCLUDED.platform, provider_restaurant_id = EXCLUDED.provider_restaurant_id,
              is_active = EXCLUDED.is_active, displaced = EXCLUDED.displaced, settings = EXCLUDED.settings, secrets = EXCLUDED.secrets, version = EXCLUDED.version,
              verification = EXCLUDED.verification,
              deleted_at = NULL, occurred_at = EXCLUDED.occurred_at, updated_at = now()
        WHERE integrations.version < EXCLUDED.version`,
      [
        JSON.stringify({
          integration_id: integration.integrationId,
          restaurant_id: integration.restaurantId,
          platform: integration.platform,
          provider_restaurant_id: integration.providerRestaurantId,
          is_active: integration.isActive,
          displaced: integration.displaced ?? false,
          settings: integration.settings,
          secrets: integration.secrets,
          version: integration.version,
          occurred_at: integration.occurredAt,
          // Older producers send none: unverified (THIRD_PARTY needs none, its orders are not platform orders).
          verification: integration.verification ?? (integration.platform === 'THIRD_PARTY' ? 'verified' : 'unverified'),
        }),
      ],
    );
  }

  /** A tombstone (with the delete's version) so that a late upsert cannot bring the integration back. */
  async removeIntegration(deletion: IntegrationDeletedEvent): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO integrations (integration_id, restaurant_id, platform, provider_restaurant_id, is_active, settings, secrets, version, deleted_at, occurred_at, updated_at)
       VALUES ($1, $2, $3, $4, false, '{}', '{}', $5, $6, $6, now())
       ON CONFLICT (integration_id) DO UPDATE
          SET is_active = false, settings = '{}', secrets = '{}', version = EXCLUDED.version,
              deleted_at = EXCLUDED.deleted_at, occurred_at = EXCLUDED.occurred_at, updated_at = now()
        WHERE integrations.version < EXCLUDED.version`,
      [deletion.integrationId, deletion.restaurantId, deletion.platform, deletion.providerRestaurantId, deletion.version, deletion.occurredAt],
    );
  }
}
