import type { AccountStatus } from '@courier/contracts';

/** An `accounts` row as SQL returns it; mapped to IntakeAccount at the repository's edge. */
export interface AccountRow {
  restaurant_id: string;
  status: AccountStatus;
  api_secret_hash: string;
  third_party_integration_id: string | null;
  third_party_provider_restaurant_id: string | null;
  third_party_active: boolean | null;
}
