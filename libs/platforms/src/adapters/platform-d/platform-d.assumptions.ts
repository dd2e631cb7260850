import type { StatusPushAction } from '@courier/domain';
import type { CallBudget } from '../common/call-budget';

/**
 * PLATFORM_D (Migros Yemek): no authoritative public documentation was found (platforms.md,
 * confidence low). Everything this adapter and its simulator do rests on the assumptions below,
 * kept in this one module so that the real API, once known, changes only this file and the parser.
 *
 * - Status: `PATCH /courier-order/status` (the one secondary source), header `X-API-Key` = the
 *   merchant's apiKey, JSON `{ merchantId, orderId, status, reason? }`.
 * - Credential check: `GET /merchants/{merchantId}` with the same header (200 = the key works).
 * - Orders in: the platform POSTs to our webhook with header `X-API-Key` = the merchant's apiKey and
 *   `{ eventType: ORDER_CREATED | ORDER_CANCELLED, merchantId, restaurantId, order { id, orderNumber,
 *   status, scheduledAt, customer { name, phone }, address { text, latitude, longitude },
 *   items [{ id, name, quantity, unitPrice, totalPrice, note }], totalPrice, currency, paymentMethod,
 *   note }, reason? }`.
 */
export const PLATFORM_D_STATUS_PATH = '/courier-order/status';
export const PLATFORM_D_API_KEY_HEADER = 'X-API-Key';

export function platformDMerchantPath(merchantId: string): string {
  return `/merchants/${encodeURIComponent(merchantId)}`;
}

export const PLATFORM_D_STATUSES: Readonly<Record<StatusPushAction, string>> = {
  VERIFY: 'accepted',
  PREPARE: 'preparing',
  HANDOVER: 'on_the_way',
  DELIVER: 'delivered',
  CANCEL: 'cancelled',
  REJECT: 'cancelled',
};

export const PLATFORM_D_EVENTS = { created: 'ORDER_CREATED', cancelled: 'ORDER_CANCELLED' } as const;

/**
 * Call budget per set of credentials (the store's API key): no limit is documented (platforms.md).
 * Assumed, on the safe side: 60 requests per 61 s. A cancellation books three (Migros' adapter reads
 * GetCancelReasons and GetOrderDetail, then sends Rejected or CancelOrder); a step one.
 */
export const PLATFORM_D_CALL_BUDGET: CallBudget = {
  scopes: [{ name: 'credentials', limit: 60, windowMs: 61_000, requests: { VERIFY: 1, PREPARE: 1, HANDOVER: 1, DELIVER: 1, CANCEL: 3, REJECT: 3 } }],
};
