import type { StatusPushAction } from '@courier/domain';
import type { PlatformOrderState } from '../platform-adapter';
import type { CallBudget } from '../common/call-budget';

/**
 * PLATFORM_A (Getir Yemek) facts the adapter relies on beyond platforms.md, in one place. platforms.md
 * is confident about hosts, login, the status paths, the 60 s rule, the error envelope and the codes
 * 2 and 13; the rest below is our reading of the public documentation and is marked as such.
 */

/** Token lifetime: 3600 s (platforms.md). */
export const PLATFORM_A_TOKEN_TTL_MS = 3_600_000;

/** Food order statuses (assumed numbering of the public docs). */
export const PLATFORM_A_STATUS = {
  SCHEDULED_AWAITING_VERIFICATION: 325,
  AWAITING_VERIFICATION: 400,
  VERIFIED: 500,
  PREPARED: 550,
  HANDED_OVER: 600,
  ON_THE_WAY: 700,
  REACHED: 800,
  DELIVERED: 900,
  CANCELED_BY_PLATFORM: 1500,
  CANCELED_BY_RESTAURANT: 1600,
} as const;

export function platformAOrderState(status: number | undefined): PlatformOrderState {
  if (status === undefined) return 'new';
  if (status >= PLATFORM_A_STATUS.CANCELED_BY_PLATFORM) return 'canceled';
  if (status === PLATFORM_A_STATUS.SCHEDULED_AWAITING_VERIFICATION || status === PLATFORM_A_STATUS.AWAITING_VERIFICATION) return 'new';
  return status > PLATFORM_A_STATUS.AWAITING_VERIFICATION ? 'accepted' : 'new';
}

/** deliveryType: 1 = Getir's courier (handover), 2 = the restaurant's courier (deliver). */
export const GETIR_COURIER = 1;
export const RESTAURANT_COURIER = 2;

/**
 * Domain error codes that mean "this transition already happened" for each action. 2 and 13 are
 * documented (FoodOrderAlreadyVerified, FoodOrderAlreadyCancelled); 3, 4 and 5 are assumed by analogy.
 */
export const PLATFORM_A_ALREADY_DONE: Readonly<Record<StatusPushAction, readonly number[]>> = {
  VERIFY: [2],
  PREPARE: [3],
  HANDOVER: [4],
  DELIVER: [5],
  CANCEL: [13],
  REJECT: [13],
};

/** Assumed code of the answer to a step sent less than 60 s after the previous one: worth a retry. */
export const PLATFORM_A_TOO_EARLY_CODE = 40;
export const PLATFORM_A_TOO_EARLY_RETRY_MS = 5_000;

/** A 429 blocks the token for 20 s (platforms.md) when no Retry-After says otherwise. */
export const PLATFORM_A_RATE_LIMIT_BLOCK_MS = 20_000;

/** The steps the 60 s rule applies to, in order (platforms.md: "to each step"). */
export const PLATFORM_A_SPACED_ACTIONS: readonly StatusPushAction[] = ['VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER'];

export const PLATFORM_A_DEFAULT_CANCEL_NOTE = 'Cancelled by the restaurant';

/**
 * Call budget per token (platforms.md, G `rate-limits/getir-rate-limits.yml`): 300 requests / 60 s,
 * then the token is blocked 20 s; cancel-options 40 / 600 s (60 s block); the `/periodic` polls are
 * exempt (not status calls: not booked). Ours: 90 % of each limit, each window 2 s longer (a login,
 * which the source counts too, and a 401's repeat are not booked; a call reaches the platform a little
 * after its slot). G marks verify, prepare, handover, deliver and cancel as exempt and verify-scheduled
 * as limited; from a harvested copy, so every status call is booked anyway (safe either way: a
 * restaurant makes far fewer than 270 status calls a minute). Assumed: cancel-options counts in the
 * 300 too; an action the adapter then skips has booked its request all the same.
 */
export const PLATFORM_A_CALL_BUDGET: CallBudget = {
  scopes: [
    { name: 'token', limit: 270, windowMs: 62_000, requests: { VERIFY: 1, PREPARE: 1, HANDOVER: 1, DELIVER: 1, CANCEL: 2, REJECT: 2 } },
    { name: 'cancel-options', limit: 36, windowMs: 602_000, requests: { CANCEL: 1, REJECT: 1 } },
  ],
};
