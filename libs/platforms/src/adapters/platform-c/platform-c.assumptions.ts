import type { PlatformOrderState } from '../platform-adapter';

/**
 * PLATFORM_C (Trendyol Go Yemek) facts the adapter relies on beyond platforms.md (confidence medium),
 * in one place.
 */

/** Package statuses (as the package list carries them in `packageStatus`). */
export function platformCOrderState(packageStatus: string | undefined): PlatformOrderState {
  switch (packageStatus) {
    case 'Cancelled':
    case 'UnSupplied':
      return 'canceled';
    case 'Picked':
    case 'Invoiced':
    case 'Shipped':
    case 'Delivered':
      return 'accepted';
    default:
      return 'new';
  }
}

/** deliveryType STORE: the restaurant's own courier (manual-shipped / manual-delivered apply). */
export const STORE_DELIVERY = 'STORE';

/** preparationTime (minutes) sent with `picked` when the order does not say. */
export const PLATFORM_C_DEFAULT_PREPARATION_MINUTES = 20;

/** Cancel reasons of `unsupplied` (platforms.md); the first is sent unless the push names another. */
export const PLATFORM_C_CANCEL_REASONS = [621, 622, 623, 627] as const;

/** Packages per page of the list (the largest page the API serves) and pages per poll. */
export const PLATFORM_C_PAGE_SIZE = 50;
export const PLATFORM_C_MAX_PAGES = 40;
