import type { PlatformOrderState } from '../platform-adapter';
import type { CallBudget } from '../common/call-budget';

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

/**
 * Call budget per set of credentials and per endpoint: 50 requests / 10 s per endpoint (platforms.md,
 * secondary evidence). Ours: 40 per 11 s (80 %: the number is second-hand; the window 1 s longer for a
 * call reaching the platform after its slot). The package poll is not a status call: its own interval paces it.
 */
const PLATFORM_C_ENDPOINT = { limit: 40, windowMs: 11_000 };
export const PLATFORM_C_CALL_BUDGET: CallBudget = {
  scopes: [
    { name: 'picked', ...PLATFORM_C_ENDPOINT, requests: { VERIFY: 1 } },
    { name: 'invoiced', ...PLATFORM_C_ENDPOINT, requests: { PREPARE: 1 } },
    { name: 'manual-shipped', ...PLATFORM_C_ENDPOINT, requests: { HANDOVER: 1 } },
    { name: 'manual-delivered', ...PLATFORM_C_ENDPOINT, requests: { DELIVER: 1 } },
    { name: 'unsupplied', ...PLATFORM_C_ENDPOINT, requests: { CANCEL: 1, REJECT: 1 } },
  ],
};
