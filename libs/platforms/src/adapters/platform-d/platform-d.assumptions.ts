import type { StatusPushAction } from '@courier/domain';
import type { CallBudget } from '../common/call-budget';

/**
 * PLATFORM_D: Migros Yemek ("gourmet" API). platforms.md section PLATFORM_D, source M: Migros Yemek
 * integrator clients found in public repositories (the search index names them by content, not
 * always by repository; each fact below says which client it comes from):
 * - M-go: a Go client, package `migros` (client.go, aes.go, types.go): hosts, XApiKey, every path,
 *   request and response types, CBC encryption with the spaced JSON, GetOrderDetail.
 * - M-py: a Python notifier (`migros.py` + its config): ECB encryption marked "for future features",
 *   UpdateOrderStatus values, the cancellation webhook `{ OrderId, StoreId, UserId }`, GetStoreGroups
 *   as a credential check, the integrator-wide secret key.
 * - M-js: a Node connector (MigrosYemekConnector): `{ success, errorMessage { errorDetail } }` answers,
 *   `Delivery` only for orders the restaurant delivers, kuruş prices.
 * - M-notes: an integrator's notes (AgrosJet PRD): item `price` is the line total, cancel only
 *   approved (not prepared) orders, "30 s after creation".
 *
 * Mapping of our integration fields (platforms.md): providerRestaurantId = Migros `storeId`,
 * providerMerchantId = `storeGroupId`, apiKey = the store's API key (`XApiKey`). The encryption key
 * is the integrator's secret key when the deployment has one (PLATFORM_D_SECRET_KEY; M-py: "one per
 * integrator company, used for encryption"), else the apiKey: M-go falls back to it.
 *
 * Facts (documented by M):
 * - Hosts `https://gourmet.migrosonline.com`, test `https://test.gourmet.migrosonline.com` (M-go, M-py).
 * - Header `XApiKey: {apiKey}`, that exact spelling (M-go sets it bypassing Go's canonicalisation).
 * - POST bodies are encrypted and sent as `{ "value": "<base64>" }`; GETs carry no body (M-go, M-py).
 * - Answers `{ data, success, errorMessage?{ errorCode (string), errorTitle, errorDetail } }` (M-go
 *   types.go BaseResponse; M-js reads errorMessage.errorDetail).
 * - Paths and bodies below (M-go client.go/types.go; M-py the same status values).
 *
 * Still assumed (not documented anywhere we could read):
 * - The encryption mode: see PLATFORM_D_CIPHER.
 * - Which `errorCode` values are transient: none is documented, so every `success: false` is final;
 *   network errors, 408, 429 and 5xx are retried (the common rule).
 * - How Migros authenticates its webhooks: not in M-go nor M-js; M-py's config says "Basic Auth, one
 *   credential per integrator". We accept the integration's apiKey in header `XApiKey` (constant-time
 *   compare; the integration found by the store id of the body), per the project's decision.
 * - The 30 s rule of M-notes (cancel not sooner than 30 s after creation) gives no error code: a
 *   refusal is final like any other.
 * - A repeated status (the same orderStatus again) is answered as success by the simulator.
 * - Ids are JSON numbers (Migros ids are int64): a providerRestaurantId / order id of up to 15 digits is
 *   sent as a number, anything else as the string it is (Migros would refuse it).
 */

/**
 * Ownership: `GET /Store/GetStoreDetail` with the store's XApiKey answers the store it belongs to
 * (`data.id`, `data.storeGroupId`: M-go reads it for warehouseId). The check verifies an integration
 * only when they are its providerRestaurantId and providerMerchantId (else `wrong_restaurant`).
 */
export const PLATFORM_D_CHECK_NAMES_STORE = true;

export const PLATFORM_D_PRODUCTION_URL = 'https://gourmet.migrosonline.com';
export const PLATFORM_D_TEST_URL = 'https://test.gourmet.migrosonline.com';

/** Exactly this spelling (M-go: `req.Header["XApiKey"]`). */
export const PLATFORM_D_API_KEY_HEADER = 'XApiKey';

export const PLATFORM_D_PATHS = {
  updateOrderStatus: '/Order/v2/UpdateOrderStatus',
  cancelOrder: '/Order/v2/CancelOrder',
  cancelReasons: '/Mapping/v2/GetCancelReasons',
  orderDetail: '/Order/v2/GetOrderDetail',
  storeDetail: '/Store/GetStoreDetail',
  storeGroups: '/Store/GetStoreGroups',
} as const;

/**
 * The encryption of POST bodies, in this one place. M's two clients disagree on the mode:
 * - M-go (its production code path: every POST goes through it) uses AES-256-CBC with an all-zero IV
 *   (the .NET RijndaelManaged default), PKCS7, a key of the key string's UTF-8 bytes zero-padded (or
 *   cut) to 32 bytes, and writes the JSON with a space after each `:` and `,` because "the platform's
 *   .NET decryptor requires this exact byte layout".
 * - M-py uses AES-256-ECB and marks its encrypted calls as not yet used ("ready for future features").
 * We follow M-go. Changing the reading is this constant (and the simulator's, which checks the
 * documented choice independently).
 */
export const PLATFORM_D_CIPHER = {
  algorithm: 'aes-256-cbc',
  keyBytes: 32,
  /** The .NET Rijndael default IV: 16 zero bytes. */
  iv: Buffer.alloc(16, 0),
  /** `{"a": 1, "b": 2}`: a space after each `:` and `,` outside strings. */
  spacedJson: true,
} as const;

/** UpdateOrderStatus values (M-go types.go, M-py). */
export const PLATFORM_D_ORDER_STATUS = {
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
  PREPARED: 'Prepared',
  DELIVERY: 'Delivery',
  COMPLETED: 'Completed',
} as const;

/** The webhook's status of an order waiting for the restaurant (M-py, M-go); cancel/reject choose Rejected while it holds. */
export const PLATFORM_D_NEW_ORDER_STATUS = 'NEW_PENDING';

/** deliveryProvider of an order the restaurant's courier delivers (M-js: "Delivery ... only for RESTAURANT"). */
export const PLATFORM_D_RESTAURANT_DELIVERY = 'RESTAURANT';

/**
 * Our actions on Migros (M-py's router sends them in this order: Approved -> Prepared -> Delivery ->
 * Completed; M-js: acceptOrder Approved, markOrderReady Prepared, markOrderPickedUp Delivery,
 * markOrderDelivered Completed). HANDOVER and DELIVER only for orders the restaurant delivers
 * (M-js for Delivery; Completed by the same reasoning: Migros' courier reports its own delivery).
 * REJECT and CANCEL: Rejected with cancelReasonId while the order is NEW_PENDING, else CancelOrder
 * (M-notes: CancelOrder is for approved orders).
 */
export const PLATFORM_D_STEP_STATUS: Readonly<Record<Exclude<StatusPushAction, 'CANCEL' | 'REJECT'>, string>> = {
  VERIFY: PLATFORM_D_ORDER_STATUS.APPROVED,
  PREPARE: PLATFORM_D_ORDER_STATUS.PREPARED,
  HANDOVER: PLATFORM_D_ORDER_STATUS.DELIVERY,
  DELIVER: PLATFORM_D_ORDER_STATUS.COMPLETED,
};

/** CancelOrder's notifyUser: the customer hears of the cancellation from Migros (M-go, M-py send true). */
export const PLATFORM_D_NOTIFY_USER = true;

/** A Migros id as JSON: a number when it is one (int64 ids; up to 15 digits stay exact in JSON numbers). */
export function platformDId(id: string): number | string {
  return /^[1-9]\d{0,14}$/.test(id) ? Number(id) : id;
}

/**
 * Call budget per set of credentials (the store's API key): no limit is documented (platforms.md).
 * Assumed, on the safe side: 60 requests per 61 s. A cancellation books three (Migros' adapter reads
 * GetCancelReasons and GetOrderDetail, then sends Rejected or CancelOrder); a step one.
 */
export const PLATFORM_D_CALL_BUDGET: CallBudget = {
  scopes: [{ name: 'credentials', limit: 60, windowMs: 61_000, requests: { VERIFY: 1, PREPARE: 1, HANDOVER: 1, DELIVER: 1, CANCEL: 3, REJECT: 3 } }],
};
