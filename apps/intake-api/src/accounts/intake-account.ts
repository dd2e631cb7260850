import type { AccountStatus } from '@courier/contracts';

/** What intake knows of a restaurant account: its read-model row (fed by account.* snapshots). */
export interface IntakeAccount {
  restaurantId: string;
  status: AccountStatus;
  apiSecretHash: string;
  /** The THIRD_PARTY integration; null when the account has none. */
  thirdParty: { integrationId: string; providerRestaurantId: string; isActive: boolean } | null;
}

export interface AccountRow {
  restaurant_id: string;
  status: AccountStatus;
  api_secret_hash: string;
  third_party_integration_id: string | null;
  third_party_provider_restaurant_id: string | null;
  third_party_active: boolean | null;
}

export const ACCOUNT_COLUMNS = 'restaurant_id, status, api_secret_hash, third_party_integration_id, third_party_provider_restaurant_id, third_party_active';

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
