import type { StatusPushAction } from '@courier/domain';
import type { CallBudget } from '../common/call-budget';
import type { PlatformOrder } from '../common/platform-adapter';

/**
 * PLATFORM_D: Migros Yemek ("gourmet" API). platforms.md section PLATFORM_D and "Round 2", source M:
 * Migros Yemek integrator clients found in public repositories (the search index names them by
 * content, not always by repository; each fact below says which client it comes from):
 * - M-go: a Go client, package `migros` (client.go, aes.go, types.go): hosts, XApiKey, every path,
 *   request and response types, CBC encryption with the spaced JSON, GetOrderDetail.
 * - M-py: a Python notifier (`integrations/migros.py`, its webhook routes and config): it cites Migros'
 *   own "MIGROS YEMEK API DOKUMANTASYONU.pdf" and encrypts with AES-256-ECB + PKCS7 "exactly like C#
 *   RijndaelManaged ECB"; UpdateOrderStatus values; the three webhooks (order created, the
 *   cancellation `{ OrderId, StoreId, UserId }`, the delivery status) told apart by shape; webhooks
 *   are plain JSON; "Migros retries a failed answer 3 times at 10-20-30 s", so it answers 200 even
 *   when it cannot process; its config names Basic Auth, one credential per integrator company, for
 *   the webhooks; GetStoreGroups as a credential check; the integrator-wide secret key.
 * - AJ: agrostech/AgrosJet-Render `backend/services/migros_service.py` (AES-256-ECB, PKCS7, key zero-
 *   padded or cut to 32 bytes; `CancelOrder { orderId, userId, cancelReasonId, notifyUser }` with
 *   userId = the order's `customer.id`; `PendingOrdersWithStores`, `ActiveOrdersWithStores`,
 *   `GetSummarizedOrder`), `backend/routers/webhooks.py` (the three webhooks; `XApiKey` "optional"
 *   on them; answers `{ success, message | errorMessage { errorDetail } }` with HTTP 200, "so that
 *   Migros does not retry"; the delivery-status body `{ orderId, storeId, status, deliveryStatus,
 *   isCancelled, deliveryProvider, courierName }`), `backend/routers/migros.py`.
 * - M-hp: hurrypos (beyproweb/hurrypos-backend) Migros notes and `utils/migrosClient.js`: AES-256-ECB
 *   ("not CBC"), `CancelOrder { orderId, storeId, notifyUser, cancelReasonId, userId: 0 }`. It derives
 *   the key with SHA-256 instead of padding it: the one reading of the key we do not follow (AJ and
 *   M-py, the two with the zero-padded or raw key, agree with M-go).
 * - M-js: a Node connector (MigrosYemekConnector): `{ success, errorMessage { errorDetail } }` answers,
 *   `Delivery` only for orders the restaurant delivers, kuruş prices.
 * - M-notes: an integrator's notes (AgrosJet PRD): item `price` is the line total, cancel only
 *   approved (not prepared) orders, "30 s after creation".
 *
 * Mapping of our integration fields (platforms.md): providerRestaurantId = Migros `storeId`,
 * providerMerchantId = `storeGroupId`, apiKey = the store's API key (`XApiKey`), encryptionMode
 * (optional) = ECB or CBC for this store. The encryption key is the integrator's secret key when the
 * deployment has one (PLATFORM_D_SECRET_KEY; M-py: "one per integrator company, used for
 * encryption"), else the apiKey: M-go falls back to it.
 *
 * Facts (documented by M):
 * - Hosts `https://gourmet.migrosonline.com`, test `https://test.gourmet.migrosonline.com` (M-go, M-py, AJ).
 * - Header `XApiKey: {apiKey}`, that exact spelling (M-go sets it bypassing Go's canonicalisation).
 * - POST bodies are encrypted and sent as `{ "value": "<base64>" }`; GETs carry no body (M-go, M-py, AJ).
 * - Answers `{ data, success, errorMessage?{ errorCode (string), errorTitle, errorDetail } }` (M-go
 *   types.go BaseResponse; M-js reads errorMessage.errorDetail); M-py and AJ also open an answer that
 *   comes back encrypted.
 * - Paths and bodies below (M-go client.go/types.go; M-py and AJ the same status values).
 * - Webhooks come as plain JSON (M-py, AJ: "NOT encrypted"); an encrypted `{ value }` webhook is
 *   opened all the same (either mode) when the deployment can find its key.
 *
 * Decisions where the sources are silent or disagree:
 * - The encryption mode: see PLATFORM_D_CIPHER (ECB by default, CBC per integration or deployment).
 * - Which `errorCode` values are transient: none is documented, so every `success: false` is final;
 *   network errors, 408, 429 and 5xx are retried (the common rule).
 * - How Migros authenticates its webhooks: not in M-go, M-js or AJ (which treats `XApiKey` as
 *   optional); M-py's config names Basic Auth per integrator. A webhook whose `XApiKey` is the
 *   store's apiKey is taken as it comes (constant-time compare; the integration found by the store id
 *   of the body). Any other (no key, a wrong one) is never trusted: the order is read back from
 *   Migros with the store's own key (GetOrderDetail) and only what Migros answers counts: a new order
 *   becomes the order Migros shows for that store, a cancellation needs the order cancelled on
 *   Migros. See PLATFORM_D_WEBHOOK.
 * - The delivery-status webhook: `isCancelled: true` cancels the order like the cancellation
 *   webhook. Other delivery statuses (ASSIGNED_FOR_DELIVERY, COURIER_APPROACHED, COURIER_ARRIVED,
 *   IN_DELIVERY, DELIVERED: M-py's list) are recorded in the log and move nothing: the courier core
 *   drives our orders' statuses, and no source says whether DELIVERED of Migros' own courier is final
 *   on Migros' side (AJ maps it to its own "delivered"; M-py only notifies). Unsure, so recorded only.
 * - CancelOrder's userId: AJ sends the order's customer id (`customer.id` of the order, which the
 *   cancellation webhook's `UserId` also carries), M-hp sends 0 next to storeId, M-go storeId alone.
 *   We send storeId and userId = the customer id kept at intake, 0 when the order had none.
 * - The read status of an order (GetOrderDetail `status`): AJ's map names NEW_PENDING, APPROVED,
 *   PREPARED, DELIVERY, COMPLETED, CANCELLED; we compare case-insensitively and also take REJECTED
 *   and CANCELED as cancelled.
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

/**
 * Accept-by. ASSUMED: no source says how long Migros waits for Approved or Rejected on a NEW_PENDING
 * order (searched: agrostech/AgrosJet-Render backend/services/migros_service.py, which only polls
 * `PendingOrdersWithStores`; M-go; M-py; hodoxnet/kuryemburada), nor what it does after. 5 minutes
 * from receipt, the shortest window any platform here documents; warning half-way.
 */
export const PLATFORM_D_ACCEPT_WINDOW_MS = 300_000;
export const PLATFORM_D_ACCEPT_WARNING_MS = 150_000;

export function platformDAcceptBy(order: Pick<PlatformOrder, 'state'>, receivedAt: Date, windowMs = PLATFORM_D_ACCEPT_WINDOW_MS): Date | null {
  return order.state === 'new' ? new Date(receivedAt.getTime() + windowMs) : null;
}

export const PLATFORM_D_PRODUCTION_URL = 'https://gourmet.migrosonline.com';
export const PLATFORM_D_TEST_URL = 'https://test.gourmet.migrosonline.com';

/** Exactly this spelling (M-go: `req.Header["XApiKey"]`). */
export const PLATFORM_D_API_KEY_HEADER = 'XApiKey';

export const PLATFORM_D_PATHS = {
  /** Also the read-back of an unauthenticated webhook (M-go: `?orderId=&storeId=`). */
  orderDetail: '/Order/v2/GetOrderDetail',
  updateOrderStatus: '/Order/v2/UpdateOrderStatus',
  cancelOrder: '/Order/v2/CancelOrder',
  cancelReasons: '/Mapping/v2/GetCancelReasons',
  storeDetail: '/Store/GetStoreDetail',
  storeGroups: '/Store/GetStoreGroups',
} as const;

export type PlatformDCipherMode = 'ECB' | 'CBC';

/**
 * The encryption of POST bodies, in this one place. The sources disagree on the mode:
 * - ECB: AJ (`migros_service.py`, in use for every POST), M-py (citing Migros' API document and the
 *   .NET RijndaelManaged ECB setup) and M-hp: AES-256-ECB, PKCS7, no IV. A Migros ECB decryptor reads
 *   a CBC body right for its first 16 bytes only.
 * - CBC: M-go, with an all-zero IV (the .NET RijndaelManaged default), for "the platform's .NET
 *   decryptor".
 * Three independent clients against one: ECB is the default (PLATFORM_D_ENCRYPTION_MODE, per
 * integration the optional `encryptionMode` field); CBC stays selectable for a store where Migros
 * reads CBC. Both: the key string's UTF-8 bytes zero-padded (or cut) to 32 bytes, the JSON with a
 * space after each `:` and `,` (Python's json.dumps default in AJ and M-py; M-go writes it on purpose).
 * Inbound `{ value }` bodies are opened in either mode (the configured one first).
 */
export const PLATFORM_D_CIPHER = {
  defaultMode: 'ECB' as PlatformDCipherMode,
  keyBytes: 32,
  /** CBC only: the .NET Rijndael default IV, 16 zero bytes. */
  cbcIv: Buffer.alloc(16, 0),
  /** `{"a": 1, "b": 2}`: a space after each `:` and `,` outside strings. */
  spacedJson: true,
} as const;

/** The integration setting naming a store's mode (platform-d.definition.ts). */
export const PLATFORM_D_ENCRYPTION_MODE_FIELD = 'encryptionMode';

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
 * GetCancelReasons and GetOrderDetail, then sends Rejected or CancelOrder); a step one. A store change
 * books four (an open at most: GetStoreDetail, ActivateStore, RemoveStoreOffDate, GetStoreViewStatus),
 * a read two (GetStoreDetail, GetStoreViewStatus), a product one. A menu read and a price change book
 * two each (GetStoreDetail first when the integration has no storeGroupId, then the call).
 */
export const PLATFORM_D_CALL_BUDGET: CallBudget = {
  scopes: [
    {
      name: 'credentials',
      limit: 60,
      windowMs: 61_000,
      requests: { VERIFY: 1, PREPARE: 1, HANDOVER: 1, DELIVER: 1, CANCEL: 3, REJECT: 3, 'availability:store': 4, 'availability:product': 1, 'availability:read': 2, 'catalog:read': 2, 'catalog:price': 2 },
    },
  ],
};

/** The read statuses of an order Migros no longer has (AJ's CANCELLED; REJECTED and CANCELED tolerated). */
export function isPlatformDCancelledStatus(status: unknown): boolean {
  return typeof status === 'string' && ['CANCELLED', 'CANCELED', 'REJECTED'].includes(status.trim().toUpperCase());
}

/** CancelOrder's userId when the order came without a customer id (M-hp sends 0). */
export const PLATFORM_D_UNKNOWN_USER_ID = 0;

/** The delivery statuses of the delivery-status webhook (M-py's list, in order). */
export const PLATFORM_D_DELIVERY_STATUSES = ['ASSIGNED_FOR_DELIVERY', 'COURIER_APPROACHED', 'COURIER_ARRIVED', 'IN_DELIVERY', 'DELIVERED'] as const;

/**
 * How our webhook endpoints answer Migros. M-py: Migros retries an answer that is not a success three
 * times (10, 20, 30 s later); AJ and M-py answer HTTP 200 for what a retry cannot change (an unknown
 * store, an order they cannot use), AJ in Migros' own envelope `{ success, errorMessage { errorDetail } }`.
 * So: 200 `{ success: true, ... }` when handled, 200 `{ success: false, errorMessage, code, detail }`
 * when refused for good (the order is not Migros' for that store, the integration is paused), a
 * malformed body 422 problem JSON (with the envelope: AJ answers a body it cannot read with 400), and
 * 503 when the read-back could not reach Migros, so that Migros' retries bring the webhook again.
 * At most `readBacksPerStore` unauthenticated webhooks of one store are read back per `windowMs` (per
 * replica); beyond that 503 too: a flood of forged webhooks cannot spend the store's calls.
 */
export const PLATFORM_D_WEBHOOK = {
  retryDelaysS: [10, 20, 30],
  readBacksPerStore: 30,
  windowMs: 60_000,
} as const;

/*
 * Availability (store open / closed, products sold out). Sources: M-go's client.go and types.go (every
 * call below, its body and the off-date constants), AJ (`backend/routers/integration_stores.py`
 * update_migros_store_status: AddStoreOffDate / RemoveStoreOffDate for close / open; its PRD names
 * GetStoreViewStatus), a Go handler of the same client (`/off-date`, `/view-status` routes).
 */

/**
 * Documented (M-go): every availability call is a POST with the encrypted `{ value }` body and answers
 * the usual envelope. ActivateStore / DeActivateStore `{ storeId, warehouseId }` (M-go reads warehouseId
 * from GetStoreDetail before each); AddStoreOffDate `{ storeId, storeGroupId, storeOffDateOption }`,
 * RemoveStoreOffDate `{ storeId, storeGroupId }`; GetStoreViewStatus `{ storeId }` -> `{ status: OPEN |
 * CLOSED, openingTime }` ("the store's temporary closed state"; openingTime a "unix timestamp": read as
 * seconds, or milliseconds when it is that large); UpdateProductStatusByStoreId `{ storeId, productId,
 * status: ACTIVE | PASSIVE }`.
 */
export const PLATFORM_D_AVAILABILITY_PATHS = {
  activateStore: '/Store/ActivateStore',
  deactivateStore: '/Store/DeActivateStore',
  addStoreOffDate: '/Store/AddStoreOffDate',
  removeStoreOffDate: '/Store/RemoveStoreOffDate',
  storeViewStatus: '/Store/GetStoreViewStatus',
  productStatus: '/Menu/UpdateProductStatusByStoreId',
} as const;

/**
 * The timed closes (M-go constants ONE_HOUR, FOUR_HOUR, NEXT_SHIFT_START; AJ writes the last as
 * NEXT_WORK_HOUR: we send M-go's spelling, the one platforms.md records). Assumed: a close until a time
 * takes the shortest option that covers it (ONE_HOUR up to 60 min, FOUR_HOUR up to 240), the
 * dispatcher's own OPEN at `until` reopening it earlier; beyond four hours NEXT_SHIFT_START, which can
 * end before `until` (its length depends on the store's working hours): `instead` says so.
 */
export const PLATFORM_D_OFF_DATE_OPTIONS = [
  { option: 'ONE_HOUR', minutes: 60 },
  { option: 'FOUR_HOUR', minutes: 240 },
] as const;
export const PLATFORM_D_NEXT_SHIFT_OPTION = 'NEXT_SHIFT_START';

/**
 * Assumed: a close without an end is DeActivateStore (M-go's SetStoreStatus(false)); an open activates
 * the store when GetStoreDetail shows it inactive (M-go's SetStoreStatus(true)) and removes any off date
 * (RemoveStoreOffDate, AJ's open), so it undoes either kind of close. No source says what
 * RemoveStoreOffDate answers when there is no off date: a refusal of it counts only when
 * GetStoreViewStatus then does not show the store OPEN.
 */
export const PLATFORM_D_OPEN_CALLS = ['GetStoreDetail', 'ActivateStore when inactive', 'RemoveStoreOffDate', 'GetStoreViewStatus when that is refused'] as const;

/** No busy mode or preparation-time call in any Migros source (platforms.md: "none found"). */
export const PLATFORM_D_HAS_BUSY_MODE = false;

/*
 * Catalog (the menu and its prices). Sources: M-go's client.go (GetMenu, UpdateProductPrice) and types.go
 * (MenuDetailsRequest, MenuData, MenuHeaderInfo, FoodMenuItemDTO, PriceItem, UpdateBatchPriceRequest);
 * M-rs, a Rust Migros integration (`MigrosPayloadMenuDetails { storeId, storeGroupId }`,
 * `MigrosResponseMenuDetails` reading `data.menuHeaderInfos[].foodMenuItemDetailsDTOs[] { id, productId,
 * status }`, and `errorMessage.isSystemError`, `validatonErrorMessages` in its answers).
 */

/**
 * Documented (M-go, M-rs): both calls are POSTs with the encrypted `{ value }` body, answered in the usual
 * envelope. `GetMenuDetailsByStoreAndStoreGroupId { storeId, storeGroupId }` -> `data { id, storeGroupId,
 * name, status, menuHeaderInfos: [{ id, menuId, name, status, foodMenuItemDetailsDTOs: [{ id, menuId,
 * productId, productName, productDescription, defaultPrimaryPrice, defaultPrimaryDiscountedPrice, status
 * }] }] }`: one menu per store, its categories ("headers"), their products ("menu items"), no paging.
 * `UpdateBatchPrice { storeId, storeGroupId, menuId, prices: [{ menuItemId, productId, defaultPrimaryPrice,
 * defaultPrimaryDiscountedPrice }] }`: menuId is the menu's `data.id`, menuItemId the item's `id`.
 */
export const PLATFORM_D_CATALOG_PATHS = {
  menuDetails: '/Menu/GetMenuDetailsByStoreAndStoreGroupId',
  batchPrice: '/Menu/UpdateBatchPrice',
} as const;

/**
 * storeGroupId: the integration's providerMerchantId (a required field of PLATFORM_D; M-go takes it from
 * its settings as storeGroupId, falling back to its chainId). Documented (M-go types.go StoreDetail, its
 * comment "warehouseId ve storeGroupId için"): GetStoreDetail names the store's storeGroupId, so when an
 * integration has none stored it is read there first (one GET, no body), the cheapest documented way.
 * The credential check already refuses a providerMerchantId that is not GetStoreDetail's storeGroupId.
 */
export const PLATFORM_D_STORE_GROUP_SOURCE = ['providerMerchantId', 'GetStoreDetail data.storeGroupId'] as const;

/**
 * Assumed: menu prices are lira with kuruş decimals (M-go types `defaultPrimaryPrice` and the price it
 * sends as float64, while every kuruş amount of an order is an int64 named `amountAsPenny` or commented
 * "kuruş"). The price is sent with at most 2 decimals. No bound is documented: any price above 0.
 */
export const PLATFORM_D_PRICE_DECIMALS = 2;

/**
 * Assumed, from M-go's UpdateProductPrice: a new price sets `defaultPrimaryPrice` and
 * `defaultPrimaryDiscountedPrice` alike (a discount Migros shows is ended by a price change). The
 * menu's price (MenuProduct.price) is `defaultPrimaryPrice`; the discounted one is kept in platformData.
 */
export const PLATFORM_D_PRICE_SETS_DISCOUNTED = true;

/**
 * Assumed: the product's id is `productId` (the id UpdateProductStatusByStoreId and the order's items
 * use). A product listed under two headers is one product whose price call names every menu item it
 * has (one PriceItem each). Status `ACTIVE` (any case) is ACTIVE, anything else (PASSIVE) INACTIVE, a
 * missing status ACTIVE; the header's status is kept in platformData, not folded into the product's.
 * No restaurant code: neither M-go's nor M-rs' FoodMenuItemDTO carries an external / POS code field
 * (M-rs keeps its own `urun_id` mapping in its database), so externalCode is null and Migros products
 * are linked by name or by hand. Options come from a separate call (M-rs, by menuId) that is not read:
 * options are empty.
 */
export const PLATFORM_D_MENU_HAS_EXTERNAL_CODE = false;

/**
 * Assumed: UpdateBatchPrice is synchronous and all or nothing: M-go reads only the HTTP status, so a
 * 2xx envelope without `success: false` is the price applied. The sources show no per-item answer;
 * should `data` come as a list of items, an entry with `success` or `isSuccess` false fails the call
 * with its message. We send one product per call (its menu items), so the envelope is its answer.
 */
export const PLATFORM_D_PRICE_ANSWER = 'envelope';
