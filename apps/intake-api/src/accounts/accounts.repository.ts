import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AccountSnapshot } from '@courier/contracts';
import type { AccountRow } from './accounts.model';
import { IntakeAccount } from './intake-account';

const ACCOUNT_COLUMNS = 'restaurant_id, status, api_secret_hash, third_party_integration_id, third_party_provider_restaurant_id, third_party_active';

/** The account of a row (also read joined to an order by OrdersRepository). */
export function accountFromRow(row: AccountRow): IntakeAccount {
  return {
    restaurantId: row.restaurant_id,
    status: row.status,
    apiSecretHash: row.api_secret_hash,
    thirdParty:
      row.third_party_integration_id !== null
        ? { integrationId: row.third_party_integration_id, providerRestaurantId: row.third_party_provider_restaurant_id ?? row.restaurant_id, isActive: row.third_party_active === true }
        : null,
  };
}

/** intake's `accounts` table: the read model of the restaurant accounts, fed by account.* snapshots. */
@Injectable()
export class AccountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The account whose API key hashes to `apiKeyHash`; null when none (or, never expected, more than one). */
  async findByKeyHash(apiKeyHash: string): Promise<IntakeAccount | null> {
    const rows: AccountRow[] = await this.dataSource.query(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE api_key_hash = $1 LIMIT 2`, [apiKeyHash]);
    return rows.length === 1 ? accountFromRow(rows[0]) : null;
  }

  /**
   * Stores the snapshot unless the stored one is as new or newer; returns whether it was stored.
   * One upsert guarded by the version: newest-wins stays true when two replicas apply at once.
   */
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
    return rows.length > 0;
  }
}
