import type { StatusPushAction } from '@courier/domain';
import type { PlatformOrder, PlatformOrderState } from '../common/platform-adapter';
import type { CallBudget } from '../common/call-budget';
import { deadlineFrom } from '../common/acceptance';

/**
 * PLATFORM_A (Getir Yemek, GetirFood food external API) facts the adapter relies on, in one place,
 * each with its source. "G" is the GitHub repository api-evangelist/getir (a harvested copy of the
 * GetirFood developer portal); paths below are inside it. What G does not say is marked ASSUMED.
 */

/**
 * Accept-by: "an order must be answered (approved or cancelled) within 30 seconds; otherwise the
 * restaurant is called automatically by IVR" and "the confirmation time limit is 5 minutes; a
 * restaurant that reaches it is automatically closed and its orders cancelled" (G
 * conventions/getir-conventions.yml `timing_rules`; skills/getir-fulfil-food-order.md "The clock").
 * The window counts from the order's `checkoutDate` (ASSUMED: G does not say from when; checkout is
 * the earliest it can be), else from its receipt. We warn when Getir would phone (30 s in).
 * ASSUMED: a scheduled order (325, verify-scheduled) has the same 5 minutes.
 */
export const PLATFORM_A_ACCEPT_WINDOW_MS = 300_000;
export const PLATFORM_A_ACCEPT_WARNING_MS = PLATFORM_A_ACCEPT_WINDOW_MS - 30_000;

export function platformAAcceptBy(order: Pick<PlatformOrder, 'state' | 'platformData'>, receivedAt: Date, windowMs = PLATFORM_A_ACCEPT_WINDOW_MS): Date | null {
  if (order.state !== 'new') return null;
  const checkoutAt = typeof order.platformData.checkoutAt === 'string' ? new Date(order.platformData.checkoutAt) : undefined;
  return deadlineFrom(checkoutAt, receivedAt, windowMs);
}

/** Token lifetime 1 h, no refresh call: log in again (G authentication/getir-authentication.yml `token.ttl`). */
export const PLATFORM_A_TOKEN_TTL_MS = 3_600_000;

/**
 * Food order status numbers (the order's `status`, a number: G openapi/_original/getir-food-openapi.json
 * "Get Food Order Response Schema"). Not HTTP codes. The Swagger enumerates none of them:
 * - 325, 350, 400 and 500 are documented in G conventions/getir-conventions.yml `order_state_machine`
 *   and skills/getir-fulfil-food-order.md: 325 scheduled order awaiting approval (verify-scheduled),
 *   350 approved (no longer returned by /periodic/unapproved), 400 immediate or pre-approved scheduled
 *   order (verify), 500 "being prepared".
 * - 550 prepared, 600 handed over, 700 on the way, 800 reached, 900 delivered, 1500 cancelled by
 *   Getir (admin) or the client, 1600 cancelled by the restaurant: AJ (agrostech/AgrosJet-Render
 *   backend/services/getir_service.py `GETIR_ORDER_STATUSES`; platforms.md Round 2), one client, not G.
 *   The adapter never decides on them: "already done" is read from the order's step dates instead
 *   (see PLATFORM_A_STEP_DATES).
 */
export const PLATFORM_A_STATUS = {
  SCHEDULED_AWAITING_APPROVAL: 325,
  SCHEDULED_APPROVED: 350,
  AWAITING_APPROVAL: 400,
  VERIFIED: 500,
  PREPARED: 550,
  HANDED_OVER: 600,
  ON_THE_WAY: 700,
  REACHED: 800,
  DELIVERED: 900,
  CANCELED_BY_PLATFORM: 1500,
  CANCELED_BY_RESTAURANT: 1600,
} as const;

/** How the statuses are named in logs, the simulator's answers and tests (so 400/500 never read as HTTP errors). */
export const PLATFORM_A_STATUS_NAMES: Readonly<Record<number, string>> = {
  325: 'ScheduledAwaitingApproval',
  350: 'ScheduledApproved',
  400: 'AwaitingApproval',
  500: 'Verified',
  550: 'Prepared',
  600: 'HandedOver',
  700: 'OnTheWay',
  800: 'Reached',
  900: 'Delivered',
  1500: 'CancelledByPlatform',
  1600: 'CancelledByRestaurant',
};

export function platformAOrderState(status: number | undefined, cancelled = false): PlatformOrderState {
  // ASSUMED numbering above 900 (cancelled); a cancel body or a cancelDate says so without numbers.
  if (cancelled || (status !== undefined && status >= PLATFORM_A_STATUS.CANCELED_BY_PLATFORM)) return 'canceled';
  if (status === undefined || status === PLATFORM_A_STATUS.SCHEDULED_AWAITING_APPROVAL || status === PLATFORM_A_STATUS.AWAITING_APPROVAL) return 'new';
  return 'accepted';
}

/**
 * Which approval call an order needs, by its status (G conventions `order_state_machine`, overlays
 * preconditions): 325 -> verify-scheduled, 400 -> verify. Not by `isScheduled`: a pre-approved
 * scheduled order is at 400 and takes verify. A scheduled order needs one approval only: 325 ->
 * verify-scheduled -> 350, and Getir itself moves it to 500 an hour before its delivery time (G
 * conventions: "500: automatically set one hour before a scheduled order's delivery time"; G
 * skills/getir-fulfil-food-order.md; platforms.md Round 2): no second verify.
 */
export function platformAVerifyStep(status: number | undefined): 'verify' | 'verify-scheduled' | undefined {
  if (status === PLATFORM_A_STATUS.SCHEDULED_AWAITING_APPROVAL) return 'verify-scheduled';
  if (status === PLATFORM_A_STATUS.AWAITING_APPROVAL) return 'verify';
  return undefined;
}

/**
 * Whether Getir already counts the order as approved: 350 (a scheduled order approved with
 * verify-scheduled) or 500 and later, not cancelled. A VERIFY for such an order is done without a
 * call (a verify sent to a 350 order would be refused with 79 CannotVerifyBeforeActivationError).
 */
export function platformAIsApproved(status: number | undefined): boolean {
  if (status === undefined) return false;
  return status === PLATFORM_A_STATUS.SCHEDULED_APPROVED || (status >= PLATFORM_A_STATUS.VERIFIED && status < PLATFORM_A_STATUS.CANCELED_BY_PLATFORM);
}

/** deliveryType (G conventions `delivery_types`): 1 = Getir's courier (handover), 2 = the restaurant's courier (deliver). */
export const GETIR_COURIER = 1;
export const RESTAURANT_COURIER = 2;

/**
 * Service error codes of the envelope `{ code, error, message, details?, source? }`
 * (G errors/getir-error-codes.yml), as the adapter reads them.
 */
export const PLATFORM_A_ERROR = {
  /** -2 ValidationError (HTTP 400, `source` names the request part): our request is wrong. Final. */
  VALIDATION: -2,
  /** 1 FoodOrderNotFound (HTTP 404). Final. */
  ORDER_NOT_FOUND: 1,
  /** 2 FoodOrderAlreadyVerified: VERIFY is done. */
  ALREADY_VERIFIED: 2,
  /** 3 FoodOrderStatusInvalidError: the order is not in a status for this step. Not done; final unless the order already moved past the step. */
  STATUS_INVALID: 3,
  /** 4 FoodOrderStatusLock ("status warlock failed"): another change of the order holds its lock. Transient. */
  STATUS_LOCK: 4,
  /** 5 ClientAccountClosed. Final. */
  CLIENT_ACCOUNT_CLOSED: 5,
  /** 11 FoodOrderCanNotBeCancelled. Final. */
  CANNOT_BE_CANCELLED: 11,
  /** 13 FoodOrderAlreadyCancelled: CANCEL/REJECT is done. */
  ALREADY_CANCELLED: 13,
  /** 14 CourierStatusInvalid ("courier status is not valid for this action"): Getir's courier cannot take the order yet. Not yet: retry. */
  COURIER_STATUS_INVALID: 14,
  /** 15 CourierNotReachedToRestaurant: Getir's courier is on the way. Not yet: retry. */
  COURIER_NOT_AT_RESTAURANT: 15,
  /** 40 ProductNotBelongsToRestaurantError (a cancel's productId): final, not a timing error. */
  PRODUCT_NOT_OF_RESTAURANT: 40,
  /** 71 FoodOrderHasNoCourierError: Getir has not assigned a courier yet. Not yet: retry. */
  NO_COURIER_YET: 71,
  /** 62 FoodOrderDeliveredToClientTimeLimitError: deliver sent too soon after prepare. Retry after the interval. */
  DELIVERED_TIME_LIMIT: 62,
  /** 74 FoodOrderPreparedTimeLimitError: prepare sent too soon after verify. Retry after the interval. */
  PREPARED_TIME_LIMIT: 74,
} as const;

/** Codes meaning "this action already happened", per action (G errors: 2 FoodOrderAlreadyVerified, 13 FoodOrderAlreadyCancelled). */
export const PLATFORM_A_ALREADY_DONE: Readonly<Record<StatusPushAction, readonly number[]>> = {
  VERIFY: [PLATFORM_A_ERROR.ALREADY_VERIFIED],
  PREPARE: [],
  HANDOVER: [],
  DELIVER: [],
  CANCEL: [PLATFORM_A_ERROR.ALREADY_CANCELLED],
  REJECT: [PLATFORM_A_ERROR.ALREADY_CANCELLED],
};

/** Codes of a step sent before the minimum interval passed (G errors 62, 74; G conventions `timing_rules`). */
export const PLATFORM_A_TIME_LIMIT_CODES: readonly number[] = [PLATFORM_A_ERROR.DELIVERED_TIME_LIMIT, PLATFORM_A_ERROR.PREPARED_TIME_LIMIT];

/**
 * Codes of a handover sent before Getir's courier can take the order (G errors/getir-error-codes.yml
 * 14, 15, 71; G skills/getir-fulfil-food-order.md lists them among the errors "worth handling
 * explicitly"; platforms.md Round 2: "not yet", retry). Retried every PLATFORM_A_COURIER_RETRY_INTERVAL_MS
 * until the handover goes through, the order moves on (code 3, then read: done or final) or
 * PLATFORM_A_COURIER_RETRY_WINDOW_MS has passed since the first attempt (then failed with Getir's
 * answer). ASSUMED: the interval and the window (G gives neither; 30 s and 30 minutes by default).
 */
export const PLATFORM_A_COURIER_NOT_YET_CODES: readonly number[] = [PLATFORM_A_ERROR.COURIER_STATUS_INVALID, PLATFORM_A_ERROR.COURIER_NOT_AT_RESTAURANT, PLATFORM_A_ERROR.NO_COURIER_YET];

/** ASSUMED: how soon a status call refused with 4 FoodOrderStatusLock is tried again (G calls the lock transient, gives no delay). */
export const PLATFORM_A_STATUS_LOCK_RETRY_MS = 5_000;

/**
 * The order's date fields that prove a step happened (G Swagger "Get Food Order Response Schema":
 * verifyDate, scheduleVerifiedDate, prepareDate, handoverDate, reachDate, deliverDate). After code 3 the
 * adapter reads the order: a step whose date, or a later step's date, is set is done.
 */
export const PLATFORM_A_STEP_DATES: Readonly<Partial<Record<StatusPushAction, readonly string[]>>> = {
  VERIFY: ['verifyDate', 'scheduleVerifiedDate', 'prepareDate', 'handoverDate', 'reachDate', 'deliverDate'],
  PREPARE: ['prepareDate', 'handoverDate', 'reachDate', 'deliverDate'],
  HANDOVER: ['handoverDate', 'reachDate', 'deliverDate'],
  DELIVER: ['deliverDate'],
};

/**
 * Rate limiter (G rate-limits/getir-rate-limits.yml): 300 requests / 60 s per token, then the token is
 * blocked 20 s; cancel-options 40 / 600 s, blocked 60 s; /food-orders/periodic/* exempt. ASSUMED: a
 * blocked token is answered HTTP 429 (G documents no 429 and no rate-limit headers), so a 429 without
 * Retry-After waits the block.
 */
export const PLATFORM_A_RATE_LIMIT_BLOCK_MS = 20_000;
export const PLATFORM_A_CANCEL_OPTIONS_BLOCK_MS = 60_000;

/**
 * The steps the minimum interval applies to (G conventions `timing_rules`: "at least 1 minute must
 * elapse between calls to verify, prepare and deliver"; handover is not named).
 */
export const PLATFORM_A_SPACED_ACTIONS: readonly StatusPushAction[] = ['VERIFY', 'PREPARE', 'DELIVER'];

export const PLATFORM_A_DEFAULT_CANCEL_NOTE = 'Cancelled by the restaurant';

/**
 * Fallback polling (G asyncapi/getir-food-webhooks.yml `fallback_polling`, Swagger): POST with the
 * `token` header, no body, each answering an array of food orders ("Active Food Orders Response Schema").
 * Only `/food-orders/periodic/*` is exempt from the rate limiter (G rate-limits/getir-rate-limits.yml:
 * `exemptions`, and `/food-orders/active` `rate_limited: true`; platforms.md Round 2, one source: 20 /
 * 60 s); G skills/getir-fulfil-food-order.md calls both exempt, the rate-limit file wins. ASSUMED: what
 * each list holds beyond its name (unapproved: 325/400; cancelled: recent cancellations; active: the
 * restaurant's orders not yet finished).
 */
export const PLATFORM_A_POLL_PATHS = {
  unapproved: '/food-orders/periodic/unapproved',
  cancelled: '/food-orders/periodic/cancelled',
  active: '/food-orders/active',
} as const;

/**
 * Call budget per token (platforms.md, G `rate-limits/getir-rate-limits.yml`): 300 requests / 60 s,
 * then the token is blocked 20 s; cancel-options 40 / 600 s (60 s block); the `/periodic` polls are
 * exempt (not booked). `POST /food-orders/active` is limited: booked (`poll:active`) in the token scope
 * and in its own, 18 / 62 s (platforms.md Round 2: 20 / 60 s, one source; the poller reads it only
 * when the booking finds room at once). Ours: 90 % of each limit, each window 2 s longer (a login,
 * which the source counts too, and a 401's repeat are not booked; a call reaches the platform a little
 * after its slot). G marks verify, prepare, handover, deliver and cancel as exempt and verify-scheduled
 * as limited; from a harvested copy, so every status call is booked anyway (safe either way: a
 * restaurant makes far fewer than 270 status calls a minute). Assumed: cancel-options counts in the
 * 300 too; an action the adapter then skips has booked its request all the same.
 */
export const PLATFORM_A_CALL_BUDGET: CallBudget = {
  scopes: [
    { name: 'token', limit: 270, windowMs: 62_000, requests: { VERIFY: 1, PREPARE: 1, HANDOVER: 1, DELIVER: 1, CANCEL: 2, REJECT: 2, 'poll:active': 1, 'availability:store': 2, 'availability:product': 1, 'availability:read': 1, 'catalog:read': 2, 'catalog:price': 1 } },
    { name: 'cancel-options', limit: 36, windowMs: 602_000, requests: { CANCEL: 1, REJECT: 1 } },
    { name: 'active-orders', limit: 18, windowMs: 62_000, requests: { 'poll:active': 1 } },
    // Restaurant configuration calls (status open/close, busyness, GET /restaurants, GET /restaurants/menu): see PLATFORM_A_CONFIGURATION_RATE_LIMIT.
    { name: 'configuration', limit: 2, windowMs: 65_000, requests: { 'availability:store': 2, 'availability:read': 1, 'catalog:read': 1 } },
  ],
};

/**
 * Ownership: `POST /auth/login` answers `{ token, restaurantId }` (G openapi/_original/getir-food-openapi.json
 * "Login Response Schema"): the restaurant the secretKey belongs to. The check verifies an integration
 * only when that id is its providerRestaurantId; an answer without restaurantId proves the key only.
 */
export const PLATFORM_A_LOGIN_RESTAURANT_FIELD = 'restaurantId';

/**
 * POS status: `PUT /restaurants/pos-status { appSecretKey, restaurantSecretKey, posStatus }`, no `token`
 * header (G Swagger "Model32": posStatus a number, enum [100, 200], all three required; the answer a
 * string). 100 = open (active), 200 = closed (passive): a Go Getir client ("100=açık, 200=kapalı",
 * PUT without a token) and a Python Getir service ("posStatus: 100 = Aktif, 200 = Pasif") read it so.
 * Getir opens an integrator's restaurants with the POS closed (platforms.md, Round 2). One client
 * budgets /restaurants/pos-status at 2 calls / 60 s (30 s block): the suite calls it once per
 * verification or activation, and the periodic retry at a low rate.
 */
export const PLATFORM_A_POS_STATUS = { OPEN: 100, CLOSED: 200 } as const;
export const PLATFORM_A_POS_STATUS_PATH = '/restaurants/pos-status';

/*
 * Availability (store open / closed / busy, products sold out). Sources: G openapi/_original/
 * getir-food-openapi.json (paths, bodies, enums), G rate-limits/getir-rate-limits.yml, G skills/
 * getir-manage-menu-availability.md, and three independent clients found by the search tools: a Go
 * Getir client (`SetRestaurantStatus`, `SetBusyness`), AJ (agrostech/AgrosJet-Render backend/services/
 * getir_service.py) and a C# Getir proxy controller (`DisableRestaurantDto`, `RestaurantInfoResponse`).
 */

/**
 * Store calls, all with the `token` header (G Swagger):
 * - `PUT /restaurants/status/open`, no body; answers 200 `{}` (Model4).
 * - `PUT /restaurants/status/close`, body `{ timeOffAmount?: 15 | 30 | 45 }` (Model30, an enum): with it
 *   Getir closes for that many minutes and reopens by itself; without it (the Go client: "0 = süresiz",
 *   the C# client: "null => süresiz", AJ sends no body) the close lasts until an open.
 * - `PUT /restaurants/delivery-duration/busyness { isBusy, busynessDifferenceDuration?: 15 | 30 | 45 }`
 *   (Model35; summary "Update restaurant delivery duration plus 15 min if set True"): busy mode adds
 *   the minutes to the delivery estimate. It does not close or open the restaurant. Model35 marks no
 *   field required (G does mark them elsewhere): we always send isBusy, as every client does; the
 *   simulator also takes a body without it (ASSUMED: not busy).
 * ASSUMED: open and close of a restaurant already in that state answer 200 (no source shows a refusal);
 * a busy restaurant stays busy across a close, so OPEN also sends `isBusy: false` and BUSY also opens.
 */
export const PLATFORM_A_AVAILABILITY_PATHS = {
  open: '/restaurants/status/open',
  close: '/restaurants/status/close',
  busyness: '/restaurants/delivery-duration/busyness',
  restaurant: '/restaurants',
  productStatus: (productId: string) => `/products/${encodeURIComponent(productId)}/status`,
} as const;

/** The only close durations Getir takes (G Swagger Model30 enum; AJ and the clients send only these). */
export const PLATFORM_A_CLOSE_MINUTES = [15, 30, 45] as const;

/** The only busy-mode extra minutes Getir takes (G Swagger Model35 enum); 15 when not given (its summary). */
export const PLATFORM_A_BUSY_MINUTES = [15, 30, 45] as const;
export const PLATFORM_A_DEFAULT_BUSY_MINUTES = 15;

/**
 * A timed close asked for `until` becomes Getir's smallest allowed duration that is not shorter (the
 * store must not reopen on its own before `until`; the dispatcher's own OPEN at `until` ends it on
 * time), or a close without timeOffAmount when `until` is more than 45 minutes away. An allowed
 * duration longer than asked by at most this tolerance counts as exactly the one asked (the request
 * took a moment to arrive: no `instead`); a shorter one is never chosen.
 */
export const PLATFORM_A_CLOSE_TOLERANCE_MS = 60_000;

/**
 * Configuration calls: G rate-limits lists `PUT /restaurants/status/open`, `/status/close` and
 * `GET /restaurants` among the 21 restaurant/menu configuration operations limited to 2 requests /
 * 60 s per token, blocked 30 s past it. G leaves `/restaurants/delivery-duration/busyness` out of its
 * list; a Python Getir rate limiter (found by `find_string` on "restaurants/status/close") puts it in
 * the same 2 / 60 s / 30 s family: counted there. ASSUMED: the block is answered like the default
 * limiter's (HTTP 429, see PLATFORM_A_RATE_LIMIT_BLOCK_MS) and blocks the configuration family only.
 * Our budget (`configuration` scope of PLATFORM_A_CALL_BUDGET): 2 per 65 s, a store change booking 2
 * (open + busyness), a read 1.
 */
export const PLATFORM_A_CONFIGURATION_RATE_LIMIT = { limit: 2, windowMs: 60_000, blockMs: 30_000 } as const;

/**
 * `GET /restaurants` (G Swagger Model3): `{ id, averagePreparationTime, status, isCourierAvailable, name,
 * isStatusChangedByUser, closedSource, rating }`. The `status` numbers are not in G: the C# client
 * reads "100=open, 200=closed" (its own answer to a timed close says 300, a value of the proxy, not
 * one Getir is shown to send), another client "1 = açık, 0 = kapalı". Read tolerantly: 100 or 1 open;
 * 200, 300 or 0 closed; anything else unknown.
 * `isStatusChangedByUser: false` on a closed restaurant means Getir closed it (G conventions
 * `timing_rules`: an order unanswered for 5 minutes closes the restaurant); `closedSource`'s values
 * are not documented (ASSUMED: 1 the restaurant, 2 Getir). The read does not show busy mode.
 */
export const PLATFORM_A_RESTAURANT_STATUS = { OPEN: [100, 1], CLOSED: [200, 300, 0] } as const;
export const PLATFORM_A_CLOSED_SOURCE = { RESTAURANT: 1, GETIR: 2 } as const;

/**
 * Products: `PUT /products/{productId}/status { status }` with "ACTIVE: 100, INACTIVE: 200,
 * DAILY_INACTIVE: 400" (G Swagger Model34), `GET /products/{productId}/status` -> `{ id, status }`
 * (Model21). G rate-limits puts both in the default 300 / 60 s budget (a Python client limits them
 * to 3 / 60 s: the token scope covers product calls; a burst of sold-out dishes is rare). Error 40
 * ProductNotBelongsToRestaurantError and 41 ProductNotActiveError (G skills) are final.
 * ASSUMED: DAILY_INACTIVE lasts until the end of the restaurant's day (Turkey, UTC+3, midnight): a
 * product sold out until a time today is sent as 400 (Getir brings it back by itself the next day,
 * the dispatcher's timer at `until`), any other sold-out as 200.
 */
export const PLATFORM_A_PRODUCT_STATUS = { ACTIVE: 100, INACTIVE: 200, DAILY_INACTIVE: 400 } as const;
export const PLATFORM_A_DAY_OFFSET_MS = 3 * 3_600_000;

/*
 * Catalog (menu read, prices). Sources: G openapi/_original/getir-food-openapi.json (`GET /restaurants/
 * menu` Model13 > Model12 > Model10 > Model8 > Model6; `GET /chain-menus`, `GET /chain-menus/{chainMenuOID}`
 * answering an undocumented "string"; `POST /chain-menus/{chainMenuOID}/update-prices` Model26), G
 * rate-limits/getir-rate-limits.yml, G skills/getir-manage-menu-availability.md, G data-model/
 * getir-data-model.yml, and the Go Getir client found with `find_string` on "food-external-api-gateway"
 * (`GetMenu`, `GetChainMenus`, `UpdateChainMenuPrices` and its types file).
 */

/**
 * The menu: `GET /restaurants/menu` (token header) answers `{ productCategories: [{ id, name{tr,en},
 * restaurant, products: [...], isApproved, weight, status, chainProductCategory }] }`; a product is
 * `{ id, restaurant, productCategory, optionCategories, name{tr,en}, description{tr,en}, price,
 * struckPrice, weight, status, isApproved, imageURL, wideImageURL, chainProduct }` (G Swagger Model10);
 * an option category `{ id, name, minCount, maxCount, removeToppings, weight, status,
 * chainOptionCategory, options }` (Model8), an option `{ id, product, chainProduct, name,
 * clientDisplayName, optionProduct, chainOptionProduct, optionCategories, type, price, weight, status,
 * chainOption }` (Model6). One answer, no paging (G documents no query parameter). Names: `tr`, else `en`.
 * Prices are lira with kuruş as decimals (Model24's `x-constraint: { precision: 2 }`; the order
 * webhook's product prices read the same way). Product status as PUT /products/{id}/status takes it
 * (Model34): 100 ACTIVE; 200 INACTIVE and 400 DAILY_INACTIVE read as INACTIVE; ASSUMED: any other
 * number is INACTIVE too (the Swagger types it as a bare number). A category's `status` is kept in
 * platformData and not folded into the product's (its values are not documented).
 */
export const PLATFORM_A_MENU_PATH = '/restaurants/menu';

/**
 * The restaurant's own code: none. No Getir menu shape carries an external / PLU / POS code: Model10
 * lists the fields above, the Go client's MenuProduct (`id, name, description, price, imageURL, status,
 * optionCategories`) and a C# Getir proxy's product class agree. `chainProduct` is Getir's own chain-level
 * id (the path parameter of `/products/chain-id/{chainProductId}`), shared by a chain's branches, not
 * the restaurant's code: kept in platformData (`chainProductId`), never used as externalCode. Getir
 * products are therefore linked by name proposals or by hand, never automatically by code.
 */
export const PLATFORM_A_EXTERNAL_CODE_FIELD = null;

/**
 * Prices: G documents one price call, `POST /chain-menus/{chainMenuOID}/update-prices` with Model26
 * `{ chainProducts: [{ chainProductOID, price }], chainOptions: [{ chainOptionOID, price }] }` (both
 * item fields required; price `minimum: 0`, `precision: 2`); its answer is an undocumented "string" (read
 * as synchronous: 2xx = applied). G skills/getir-manage-menu-availability.md: "This is the only
 * price-mutation operation in the published contract — there is no per-product price endpoint." The Go
 * client declares an `UpdateProductPriceRequest { price }` type that no call and no path uses: not
 * evidence of a call. A plain restaurant's product (no `chainProduct`) therefore has no price call:
 * planPrice refuses PRICE_UNSUPPORTED. A chain menu is brand-level (G data-model: "A brand-level menu
 * shared across the chain's restaurants ... bulk price updates"): a price sent there reaches every
 * branch on that chain menu, not this restaurant alone.
 * The Go client sends the items as `{ id, price }` and null for an empty list; G's Model24 requires
 * `chainProductOID` and types both lists as arrays, so the adapter sends `{ chainProductOID, price }`
 * and `chainOptions: []`, and the simulator refuses the Go client's forms (-2 ValidationError).
 * ASSUMED (G's registry has no chain menu error; -1 is its UnknownError, HTTP 500): an unknown chain
 * menu, or a chain product / option it does not hold, is refused 400 with the registry's 46
 * InvalidInput; any such 4xx is final.
 */
export const PLATFORM_A_CHAIN_PRICE_PATH = (chainMenuOID: string) => `/chain-menus/${encodeURIComponent(chainMenuOID)}/update-prices`;

/**
 * Which chain menu holds a product: the restaurant menu names the chain product, not its chain menu,
 * so readMenu also reads `GET /chain-menus` when some product has a `chainProduct`. G types its answer
 * as a string; the Go client reads `[{ id, name{tr,en}, products?: [{ id, name, price }] }]` (ASSUMED
 * that shape, also accepted wrapped as `{ chainMenus: [...] }`). A chain product listed in a chain
 * menu's `products` belongs to it; ASSUMED: when the answer holds exactly one chain menu without a
 * product list, every chain product of the restaurant belongs to that one. Otherwise the product keeps
 * no chain menu and its price is refused PRICE_UNSUPPORTED (no per-menu read is made: `GET
 * /chain-menus/{oid}` is typed as a string too). A 4xx on `/chain-menus` (ASSUMED: a restaurant of no
 * chain) leaves every product without one; 429 / 5xx retry the whole read.
 */
export const PLATFORM_A_CHAIN_MENUS_PATH = '/chain-menus';

/**
 * Price bounds: above 0 (G: `minimum: 0`; a zero price is not a sale), at most 2 decimals (G
 * `precision: 2`). ASSUMED: at most 100 000 lira (G gives no maximum; a higher price is taken as a
 * kuruş / lira mix-up rather than a dish).
 */
export const PLATFORM_A_PRICE_BOUNDS = { min: 0, max: 100_000, decimals: 2 } as const;

/*
 * Budget (PLATFORM_A_CALL_BUDGET, `catalog:read` and `catalog:price`): `GET /restaurants/menu` is one of G rate-limits' 21 restaurant/menu configuration operations
 * (2 / 60 s per token, 30 s block): a read books the `configuration` scope (1) and the token scope (2:
 * the menu and `/chain-menus`). `/chain-menus/*` appears nowhere in G's rate-limit list, so it falls in
 * the default 300 / 60 s ("All rate-limited endpoints unless overridden"): the price call books the
 * token scope only (G skills' "almost every operation in this skill sits in the 2 / 60 s bucket" is
 * looser than the list: it also names product status calls, which the list puts in the default
 * budget). ASSUMED: a 429 on the price call without Retry-After waits the longer, configuration block.
 */
