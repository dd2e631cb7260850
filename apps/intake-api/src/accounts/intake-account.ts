import type { AccountStatus } from '@courier/contracts';

/** What intake knows of a restaurant account: its read-model row (fed by account.* snapshots). */
export interface IntakeAccount {
  restaurantId: string;
  status: AccountStatus;
  apiSecretHash: string;
  /** The THIRD_PARTY integration; null when the account has none. */
  thirdParty: { integrationId: string; providerRestaurantId: string; isActive: boolean } | null;
}
