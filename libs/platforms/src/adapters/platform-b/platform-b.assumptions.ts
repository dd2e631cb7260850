import type { PlatformOrderState } from '../platform-adapter';
import type { CallBudget } from '../common/call-budget';

/**
 * PLATFORM_B (Delivery Hero POS middleware, Yemeksepeti) facts the adapter relies on beyond
 * platforms.md, in one place.
 */

/** Token lifetime when the login answer says nothing (no expires_in, no JWT `exp`). */
export const PLATFORM_B_DEFAULT_TOKEN_TTL_MS = 3_600_000;

/** The 409 answered while the order awaits the plugin's acknowledgement names this state. */
export const WAITING_FOR_ACKNOWLEDGEMENT = 'WAITING_FOR_ACKNOWLEDGEMENT';

/**
 * Who delivers (assumed reading of the order payload): `expeditionType` "pickup" is a pickup; a
 * delivery with `delivery.riderPickupTime` is carried by the platform's riders; a delivery without
 * it by the vendor (the restaurant's own courier, i.e. us).
 */
export type PlatformBDelivery = 'pickup' | 'platform' | 'vendor';

/** Rejection reasons the middleware accepts (subset of the documented list). */
export const PLATFORM_B_REJECT_REASONS = [
  'ADDRESS_INCOMPLETE_MISSTATED',
  'BAD_WEATHER',
  'CLOSED',
  'FOOD_QUALITY_SPILLAGE',
  'ITEM_UNAVAILABLE',
  'MENU_ACCOUNT_SETTINGS',
  'NO_COURIER',
  'OUTSIDE_DELIVERY_AREA',
  'TECHNICAL_PROBLEM',
  'TOO_BUSY',
  'UNABLE_TO_FIND',
  'UNREACHABLE',
] as const;

/** The reason sent when the push gives none, or a free text that is not one of the codes. */
export const PLATFORM_B_DEFAULT_REJECT_REASON = 'TECHNICAL_PROBLEM';

/** acceptanceTime when the order names no later time: now plus this. */
export const PLATFORM_B_DEFAULT_PREPARATION_MS = 20 * 60_000;

/** The status the middleware sends to posOrderStatus when the order is cancelled on the platform. */
export const PLATFORM_B_CANCELLED_STATUSES = ['ORDER_CANCELLED', 'CANCELLED'];

export function platformBOrderState(status: string | undefined): PlatformOrderState {
  return status && PLATFORM_B_CANCELLED_STATUSES.includes(status.toUpperCase()) ? 'canceled' : 'new';
}

/**
 * Call budget per set of credentials: the middleware documents no limit (platforms.md). Assumed, on the
 * safe side: 60 status calls per 61 s (one a second on average; a restaurant sends a few per order).
 */
export const PLATFORM_B_CALL_BUDGET: CallBudget = {
  scopes: [{ name: 'credentials', limit: 60, windowMs: 61_000, requests: { VERIFY: 1, PREPARE: 1, HANDOVER: 1, DELIVER: 1, CANCEL: 1, REJECT: 1 } }],
};
