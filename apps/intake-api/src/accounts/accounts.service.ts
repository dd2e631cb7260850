import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccountSnapshot } from '@courier/contracts';
import { ACCOUNT_COLUMNS, accountFromRow, AccountRow, IntakeAccount } from './intake-account';

/**
 * How long a key lookup is reused. Deactivations must bite within one second on every replica
 * (only the replica that consumes an event can drop its cache entry at once), so the event's
 * delivery time plus this must stay well under a second.
 */
export const ACCOUNT_CACHE_TTL_MS = 250;
/** Bound on cached keys (random keys of failed attempts must not grow memory without end). */
const ACCOUNT_CACHE_MAX_ENTRIES = 10_000;

interface CacheEntry {
  expiresAt: number;
  account: Promise<IntakeAccount | null>;
}

/**
 * intake's read model of the restaurant accounts: upserted from account.* snapshots (newest
 * version wins), looked up by API-key hash on every request with a short cache that also
 * collapses concurrent lookups of one key into one query.
 */
@Injectable()
export class AccountsService {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(private readonly dataSource: DataSource) {}

  findByKeyHash(apiKeyHash: string): Promise<IntakeAccount | null> {
    const now = Date.now();
    const cached = this.cache.get(apiKeyHash);
    if (cached && cached.expiresAt > now) return cached.account;
    if (this.cache.size >= ACCOUNT_CACHE_MAX_ENTRIES) this.cache.clear();
    const account = this.dataSource
      .query(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE api_key_hash = $1 LIMIT 2`, [apiKeyHash])
      .then((rows: AccountRow[]) => (rows.length === 1 ? accountFromRow(rows[0]) : null));
    const entry = { expiresAt: now + ACCOUNT_CACHE_TTL_MS, account };
    this.cache.set(apiKeyHash, entry);
    account.catch(() => {
      if (this.cache.get(apiKeyHash) === entry) this.cache.delete(apiKeyHash);
    });
    return account;
  }

  /** Keeps the snapshot when it is newer than the stored one; returns whether it was applied. */
  async applySnapshot(snapshot: AccountSnapshot): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO accounts (restaurant_id, status, api_key_hash, api_secret_hash, third_party_integration_id,
                             third_party_provider_restaurant_id, third_party_active, version, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())
       ON CONFLICT (restaurant_id) DO UPDATE SET
         status = excluded.status, api_key_hash = excluded.api_key_hash, api_secret_hash = excluded.api_secret_hash,
         third_party_integration_id = excluded.third_party_integration_id,
         third_party_provider_restaurant_id = excluded.third_party_provider_restaurant_id,
         third_party_active = excluded.third_party_active, version = excluded.version, updated_at = now()
       WHERE accounts.version < excluded.version
       RETURNING restaurant_id`,
      [
        snapshot.restaurantId,
        snapshot.status,
        snapshot.apiKeyHash,
        snapshot.apiSecretHash,
        snapshot.thirdParty?.integrationId ?? null,
        snapshot.thirdParty?.providerRestaurantId ?? null,
        snapshot.thirdParty?.isActive ?? null,
        snapshot.version,
      ],
    );
    // A rotated key's old hash is cached under its own entry: drop everything on this replica.
    if (rows.length > 0) this.cache.clear();
    return rows.length > 0;
  }
}
