import type { AccountStatus } from '@courier/contracts';

/** An integration bearing a platform restaurant, with its account's name and status. */
export interface PlatformRestaurantIntegration {
  integrationId: string;
  restaurantId: string;
  restaurantName: string;
  accountStatus: AccountStatus;
  isActive: boolean;
  displacedAt: Date | null;
  verifiedAt: Date | null;
  verifiedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}
