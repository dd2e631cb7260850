import type { CallBudget } from '../common/call-budget';
import type { PlatformOrder } from '../common/platform-adapter';
/**
 * PLATFORM_B (Delivery Hero POS middleware, Yemeksepeti): what the adapter and the plugin follow,
 * in one place. "Documented" entries name their source: B = DH's POS Plugin API / POS Middleware
 * API as public plugins implement them, chiefly omidmohammadizadeh/orderhub-enterprise
 * `apps/api/src/modules/integrations/talabat/` (talabat-types.ts transcribes pluginOrder.yaml and
 * the reason enum; talabat-jwt.ts the MiddlewareJWTAuth scheme; talabat-order-sync.service.ts and
 * talabat-sandbox.service.ts the middleware's rules; tests/talabat-spec-examples.ts the spec's
 * example orders). "Assumed" entries are our reading where B is silent.
 */

/**
 * Accept-by. Documented (B pluginOrder.yaml `expiryDate`; hodoxnet/kuryemburada "Yemek Sepeti/
 * Delivery_Hero_POS_Plugin_API_1.0.0.md" "Auto-closure"): an order not accepted or rejected by its
 * `expiryDate` is cancelled automatically, the window differs per DH platform (ask the local team),
 * and repeated expiries close the vendor for a while. Assumed: 5 minutes for an order without an
 * `expiryDate` (none seen without one; the shortest window any platform here documents), and a
 * warning 3 minutes before the deadline.
 */
export const PLATFORM_B_ACCEPT_WINDOW_MS = 300_000;
export const PLATFORM_B_ACCEPT_WARNING_MS = 180_000;

export function platformBAcceptBy(order: Pick<PlatformOrder, 'state' | 'expiresAt'>, receivedAt: Date, windowMs = PLATFORM_B_ACCEPT_WINDOW_MS): Date | null {
  if (order.state !== 'new') return null;
  return order.expiresAt ?? new Date(receivedAt.getTime() + windowMs);
}

/** Documented (B, talabat-jwt.ts): the claim every middleware call to the plugin carries. */
export const PLATFORM_B_PLUGIN_SERVICE_CLAIM = 'middleware';

/** Documented (B, talabat-jwt.ts: the MiddlewareJWTAuth scheme): the plugin JWT is HMAC-signed with one of these; nothing else is accepted. */
export const PLATFORM_B_PLUGIN_JWT_ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const;

/** Assumed: tolerance on the plugin JWT's `exp` (B: `exp` optional; clocks differ a little). */
export const PLATFORM_B_PLUGIN_JWT_CLOCK_SKEW_MS = 30_000;

/** Assumed: token lifetime when the login answer says nothing (B: `expires_in` 1800-7200 s seen). */
export const PLATFORM_B_DEFAULT_TOKEN_TTL_MS = 3_600_000;

/**
 * Documented (platforms.md; B talabat-order-sync.service.ts quoting the spec): a 409 whose
 * `currentState` is one of these is "not yet": retry about every 10 s for up to 5 minutes. Any
 * other 409 (a cancelled order) is final.
 */
export const PLATFORM_B_RETRYABLE_409_STATES = ['WAITING_FOR_ACKNOWLEDGEMENT', 'ASSIGNED_TO_TRANSPORT'] as const;

/**
 * Documented (platforms.md; B): acceptanceTime must be at least 2 minutes after the request is sent.
 * Assumed: one more minute of margin, so clock skew and the time on the wire cannot trip it.
 */
export const PLATFORM_B_MIN_ACCEPTANCE_LEAD_MS = 2 * 60_000;
export const PLATFORM_B_ACCEPTANCE_MARGIN_MS = 60_000;

/** Assumed: acceptanceTime when the order names no later time (no rider pickup, expected delivery or pickup time): now plus this. */
export const PLATFORM_B_DEFAULT_PREPARATION_MS = 20 * 60_000;

/**
 * Who delivers (documented, B talabat-types.ts and the order sync): `expeditionType` "pickup" is a
 * pickup; a delivery with `delivery.riderPickupTime` set is carried by the platform's riders; a
 * delivery with it null by the vendor (the restaurant's own courier, i.e. us).
 */
export type PlatformBDelivery = 'pickup' | 'platform' | 'vendor';

/** Documented (B talabat-types.ts, "exactly as spelled"): every rejection reason the middleware accepts. */
export const PLATFORM_B_REJECT_REASONS = [
  'ADDRESS_INCOMPLETE_MISSTATED',
  'BAD_WEATHER',
  'BLACKLISTED',
  'CARD_READER_NOT_AVAILABLE',
  'CLOSED',
  'CONTENT_WRONG_MISLEADING',
  'FOOD_QUALITY_SPILLAGE',
  'FRAUD_PRANK',
  'ITEM_UNAVAILABLE',
  'LATE_DELIVERY',
  'MENU_ACCOUNT_SETTINGS',
  'MOV_NOT_REACHED',
  'NO_COURIER',
  'NO_PICKER',
  'NO_RESPONSE',
  'OUTSIDE_DELIVERY_AREA',
  'TECHNICAL_PROBLEM',
  'TEST_ORDER',
  'TOO_BUSY',
  'UNABLE_TO_FIND',
  'UNABLE_TO_PAY',
  'UNPROFESSIONAL_BEHAVIOUR',
  'WILL_NOT_WORK_WITH_PLATFORM',
  'WRONG_ORDER_ITEMS_DELIVERED',
] as const;

export type PlatformBRejectReason = (typeof PLATFORM_B_REJECT_REASONS)[number];

/**
 * Documented (B talabat-types.ts: the reasons the spec marks "applicable after acceptance"): an
 * accepted order can be cancelled only with one of these; the others are refused after acceptance.
 */
export const PLATFORM_B_AFTER_ACCEPTANCE_REASONS: readonly PlatformBRejectReason[] = [
  'BAD_WEATHER',
  'CARD_READER_NOT_AVAILABLE',
  'CONTENT_WRONG_MISLEADING',
  'FOOD_QUALITY_SPILLAGE',
  'LATE_DELIVERY',
  'UNABLE_TO_FIND',
  'UNABLE_TO_PAY',
  'UNPROFESSIONAL_BEHAVIOUR',
  'WRONG_ORDER_ITEMS_DELIVERED',
];

/**
 * The reason sent when the push's reason is neither a code nor recognisable text. Documented
 * reading (B talabat-order-sync.service.ts): TOO_BUSY, "the honest default for a kitchen that said
 * no without saying why"; test orders always TEST_ORDER.
 */
export const PLATFORM_B_DEFAULT_REJECT_REASON: PlatformBRejectReason = 'TOO_BUSY';

/**
 * Assumed: words in a free-text push reason that name a code (first match wins). Ours, not B's:
 * B only fixes the codes.
 */
export const PLATFORM_B_REASON_WORDS: ReadonlyArray<[RegExp, PlatformBRejectReason]> = [
  [/courier|rider|driver|kurye/i, 'NO_COURIER'],
  [/out of stock|unavailable|sold out|stok|tükendi/i, 'ITEM_UNAVAILABLE'],
  [/closed|kapal/i, 'CLOSED'],
  [/address|adres/i, 'ADDRESS_INCOMPLETE_MISSTATED'],
  [/area|too far|zone|bölge/i, 'OUTSIDE_DELIVERY_AREA'],
  [/weather|rain|snow|storm|hava/i, 'BAD_WEATHER'],
  [/busy|yoğun/i, 'TOO_BUSY'],
  [/late|gecik/i, 'LATE_DELIVERY'],
  [/unreachable|cannot find|can't find|not found|ulaşılam/i, 'UNABLE_TO_FIND'],
  [/fraud|prank|fake|sahte/i, 'FRAUD_PRANK'],
  [/pay|ödeme/i, 'UNABLE_TO_PAY'],
  [/system|technical|outage|teknik/i, 'TECHNICAL_PROBLEM'],
];

/**
 * The `reason` of the plugin's 400 to a dispatch it cannot process (the middleware does not retry a
 * 400; a 5xx it retries up to 10 times). Documented reading (B talabat-order.service.ts): the
 * spec's advice is that a POS rejects a mapping problem with MENU_ACCOUNT_SETTINGS.
 */
export const PLATFORM_B_UNPROCESSABLE_REASON: PlatformBRejectReason = 'MENU_ACCOUNT_SETTINGS';
// The plugin's answer statuses and what each refusal maps to: yemeksepeti.plugin-answers.ts (documented
// set, OH; the vendor rules there are our choices where B is silent).
// Assumed: nobody answers a test order automatically; it expires on the platform unless an operator answers it.

/**
 * Documented (B talabat-types.ts TalabatOrderStatusUpdate): statuses the middleware sends to
 * posOrderStatus. ORDER_CANCELLED cancels; ORDER_PICKED_UP is the rider (or customer) collecting
 * it; the others (COURIER_ARRIVED_AT_VENDOR, rider waiting warnings, product modification results)
 * are acknowledged and recorded; "the list can be extended", so an unknown one is acknowledged too.
 */
export const PLATFORM_B_CANCELLED_STATUS = 'ORDER_CANCELLED';
export const PLATFORM_B_PICKED_UP_STATUS = 'ORDER_PICKED_UP';

/**
 * Documented (B talabat-order-sync.service.ts, quoting the plugin spec): each status update goes to
 * the absolute URL the order carried in `callbackUrls`, and "in the cases when the URL is not present
 * you should not be sending us that type of callback". Assumed: an order without a `callbackUrls`
 * object at all (stored before we kept them, or a middleware that sends none) uses the middleware
 * API's documented paths on PLATFORM_B_BASE_URL, and a URL on another host than PLATFORM_B_BASE_URL
 * is never called with our token (the documented path on our configured host is called instead).
 */
export interface PlatformBCallbackUrls {
  orderAcceptedUrl?: string | null;
  orderRejectedUrl?: string | null;
  orderPickedUpUrl?: string | null;
  orderPreparedUrl?: string | null;
}

export const PLATFORM_B_CALLBACK_URL_FIELDS = ['orderAcceptedUrl', 'orderRejectedUrl', 'orderPickedUpUrl', 'orderPreparedUrl'] as const;

/**
 * Assumed: the ISO 4217 code of `localInfo.currencySymbol` (B: the order has no currency code).
 * An unknown symbol is Turkish lira, Yemeksepeti's currency.
 */
export const PLATFORM_B_CURRENCY_SYMBOLS: Readonly<Record<string, string>> = { '₺': 'TRY', TL: 'TRY', TRY: 'TRY', '€': 'EUR', EUR: 'EUR', $: 'USD', USD: 'USD', AED: 'AED', QAR: 'QAR', KWD: 'KWD' };
export const PLATFORM_B_DEFAULT_CURRENCY = 'TRY';
/**
 * Call budget per set of credentials: the middleware documents no limit (platforms.md). Assumed, on the
 * safe side: 60 status calls per 61 s (one a second on average; a restaurant sends a few per order).
 * An availability change books the availability GET and one PUT (a vendor on one DH platform; a second
 * platform's PUT rides in the margin), a product change the GET and one item PUT, a read the GET.
 */
export const PLATFORM_B_CALL_BUDGET: CallBudget = {
  scopes: [
    {
      name: 'credentials',
      limit: 60,
      windowMs: 61_000,
      requests: { VERIFY: 1, PREPARE: 1, HANDOVER: 1, DELIVER: 1, CANCEL: 1, REJECT: 1, 'availability:store': 2, 'availability:product': 2, 'availability:read': 1 },
    },
  ],
};

/**
 * Ownership: the credential check is the chain's login (`POST /v2/login`, client credentials), whose
 * answer (`access_token`, `token_type`, `expires_in`: B) names no vendor. So a verified PLATFORM_B
 * integration has proved its chain credentials, not its remoteId; ASSUMED: the middleware calls our
 * plugin only for the remoteIds Delivery Hero's vendor configuration maps to our POS, and an
 * operator's transfer settles a disputed remoteId (docs/platforms.md, "What proves ...").
 */
export const PLATFORM_B_CHECK_NAMES_VENDOR = false;

/*
 * Availability (store open / closed, products sold out). Sources, each read with the search tools:
 * - TB: omidmohammadizadeh/orderhub-enterprise `.../talabat/talabat-store.service.ts` ("DH Branch
 *   Availability Status", mandatory for certification) and `talabat-types.ts`
 *   (`TalabatVendorAvailabilityUpdate`, `TalabatClosedReason`), `talabat-plugin.controller.ts`.
 * - PY: a PedidosYa responder and plugin (Deno, `peya-responder`, `peya-plugin`) quoting
 *   middlewareExternalApi.yaml "Availability Status GET/PUT" and the item-availability schema.
 * - FO: a Foodora NestJS client (`foodora.service.ts`, `dto/foodora-restaurant-availability.dto.ts`,
 *   `dto/foodora.enum.dto.ts`: PosAvailabilityState, PosClosingReason, AvailabilityStatusResponse).
 * - YC: a Yemeksepeti C# controller (`AvailabilityItem`, `SetAvailabilityBody`, closedReason and
 *   closingMinutes rules).
 * - FP: FoodpandaMiddlewareClient (TypeScript: getVendorAvailability, setVendorAvailability,
 *   updateCatalogItemsAvailability, getUnavailableCatalogItems).
 * - NK: a NOKTApp Yemeksepeti adapter listing the v2 paths "read from the published specification".
 * - OC: nosh/omniconnect README (store and item availability, the inbound availability route).
 */

/**
 * Documented (FP, FO, YC, TB, PY, NK): `GET /v2/chains/{chainCode}/remoteVendors/{posVendorId}/availability`
 * answers an array, one entry per DH platform the vendor is on: `availabilityState`, `availabilityStates`
 * (the states that entry takes), `changeable`, `closedReason`, `closingReasons`, `closingMinutes` (an
 * array: the values it takes), `platformId`, `platformKey`, `platformRestaurantId`, `platformType`, and
 * (TB) `closedUntil`. `PUT` the same path `{ availabilityState, platformKey, platformRestaurantId,
 * closedReason?, closingMinutes? }` with platformKey and platformRestaurantId taken from the GET.
 * posVendorId is our providerRestaurantId (the remoteId of the plugin calls), chainCode the integration's.
 */
export const PLATFORM_B_VENDOR_AVAILABILITY_PATH = (chainCode: string, remoteId: string) => `/v2/chains/${encodeURIComponent(chainCode)}/remoteVendors/${encodeURIComponent(remoteId)}/availability`;

/**
 * Documented (PY quoting the spec: "It should first be checked which kind of availability changes are
 * allowed by making a GET request to this endpoint and verifying that the `changeable` property is
 * true otherwise the request will be unsuccessful"; TB: DH closes vendors itself, e.g. after too many
 * rejected or expired orders, "and only DH can reopen those"): every change is GET, then a PUT per
 * changeable entry with values that entry lists. An entry that is not changeable is DH's: a final refusal.
 * Two readings of an empty list: DH's own GET sample (a transcription of its POS middleware docs, "POS
 * Vendor Availability Status") shows changeable OPEN entries with `availabilityStates: []`,
 * `closingReasons: []`, `closingMinutes: []`, and TB checks a list only when it is non-empty; PY skips an
 * entry whose availabilityStates is empty. We follow the first (an empty list restricts nothing): DH
 * refusing the PUT is a final failure anyway, while the second would never change such a vendor.
 */
export const PLATFORM_B_AVAILABILITY_STATES = ['OPEN', 'CLOSED', 'CLOSED_UNTIL', 'CLOSED_TODAY', 'INACTIVE', 'UNKNOWN'] as const;

/**
 * Documented (YC: "closedReason zorunludur (CLOSED/CLOSED_UNTIL)", "closingMinutes zorunludur
 * (CLOSED_UNTIL)"; PY: closingMinutes only counts with CLOSED_UNTIL and is "a closed list
 * (30/60/120/...)": choose from the entry's list). Assumed: for a timed close we send the smallest listed
 * value that covers the time asked (so the store stays closed until `until`, when the dispatcher's own
 * OPEN reopens it), else the largest listed; the closedReason is the first of these the entry lists,
 * else the entry's first reason (PY and TB fall back to OTHER). FO's PosClosingReason: CLOSED,
 * UPDATES_IN_MENU, HOLIDAY_SPECIAL_DAY, TECHNICAL_PROBLEM, REFURBISHMENT, TOO_BUSY_NO_DRIVERS,
 * BAD_WEATHER, OTHER; TB adds TOO_BUSY_KITCHEN.
 */
export const PLATFORM_B_CLOSED_REASONS_PREFERRED = ['CLOSED', 'OTHER'] as const;

/**
 * Documented (NK, TB, PY): a 204 to the availability GET means "acknowledged, result not yet available,
 * retry in a couple of seconds" (TB waits 2 s, PY tells its caller 5 s). Assumed: the call is retried
 * after this long. A GET entry in state UNKNOWN (DH's GET sample has one, not changeable, beside known
 * ones) is left out of a read; only when every entry is UNKNOWN is the read retried after this long.
 */
export const PLATFORM_B_AVAILABILITY_PENDING_RETRY_MS = 5_000;

/**
 * No busy mode (platforms.md; B, FP, OC): the middleware only moves one order's preparation time
 * (`PUT /v2/orders/{token}/adjust-preparation-time`), it has no vendor-wide busy state. BUSY is
 * answered as unsupported.
 */
export const PLATFORM_B_HAS_BUSY_MODE = false;

/**
 * Products. Documented (NK "read from the published specification", PY, OC; a Pedidos Ya C# bridge):
 * `PUT /v2/chains/{chainCode}/vendors/{posVendorId}/catalog/items/availability { globalEntityId, items:
 * [id], type: ITEM | TOPPING, isAvailable, willBeAvailable?: NEXT_BUSINESS_DAY | AT_TIMESTAMP,
 * atTimeStamp? }`; willBeAvailable only when switching off (PY: "with isAvailable true it is a 400");
 * globalEntityId is required (PY: the schema's `required`) and is the vendor's platformKey (PY; NK reads
 * it from `.../platform-vendors`); 204 is success, 200 a partial success with the failures in its body
 * (PY). FP sends the same path as POST: the simulator takes both, we send PUT (three sources). Assumed:
 * the item id is our platformProductId (the catalog's item id), type ITEM, and the call goes once per
 * platformKey of the availability GET. DH's docs (the POS middleware "Catalog Item Availability"
 * transcription) mark globalEntityId, items, type and isAvailable required, globalEntityId "(if available)";
 * TB quotes it "should be provided if available or can be ignored if unavailable" (the simulator takes both;
 * we always send it). TB sends the same body with willBeAvailable AT_TIMESTAMP / atTimeStamp, by PUT, in
 * chunks of 100 items. `GET .../catalog/items/unavailable`
 * lists the items switched off (FP, NK, OC; DH's sample `[{ platformVendorId, globalEntityId, status,
 * unavailableItems: [] }]` does not show an item's shape, so we do not read it).
 */
export const PLATFORM_B_ITEM_AVAILABILITY_PATH = (chainCode: string, remoteId: string) => `/v2/chains/${encodeURIComponent(chainCode)}/vendors/${encodeURIComponent(remoteId)}/catalog/items/availability`;

/**
 * The plugin side (inbound). Documented (TB talabat-types.ts, talabat-store.service.ts quoting the plugin
 * spec; PY peya-plugin; OC; FP's plugin router): DH calls `PUT {plugin}/remoteId/{remoteId}/availability
 * { timestamp, closures?: [{ reason, start, end?, changeable }] }` when the vendor's availability changes
 * on DH's side (opened, closed by DH or in its vendor portal); no closure active now = open. "Acknowledge
 * receipt immediately and handle any internal state updates asynchronously"; "notifications with an
 * older timestamp than the current known state should be ignored"; it may come repeated and out of order
 * (PY). Signed like every middleware call (PLATFORM_B_PLUGIN_SERVICE_CLAIM). Assumed: answered 200 with
 * no body (TB, PY, FP answer 200).
 */
export const PLATFORM_B_INBOUND_AVAILABILITY_PATH = '/remoteId/:remoteId/availability';

/*
 * Catalog (the menu and its prices). Sources: FP (FoodpandaMiddlewareClient), B (the POS Plugin API:
 * `GET /menuimport/{remoteId}`), platforms.md "Catalog"; Yemeksepeti's own integration page says its
 * catalog API is not open yet in Turkey.
 */

/**
 * Documented (B, FP): Delivery Hero offers the POS no menu read. The platform asks the POS for the menu
 * (`GET {plugin}/menuimport/{remoteId}`, answered 202) and the POS pushes its whole catalog
 * (`PUT /v2/chains/{chainCode}/catalog`, results under `.../vendors/{posVendorId}/menu-import-logs`):
 * the menu is the POS's, so prices change only through such a push, which the suite does not own.
 * Products are switched off and on by their item availability (PLATFORM_B_ITEM_AVAILABILITY_PATH).
 */
export const PLATFORM_B_MENU_READ = 'none' as const;

/**
 * Documented (B pluginOrder.yaml, its example orders: `"id": "ID_FOR_DOUBLE_CHEESE_BURGER_ON_PLATFORM"`,
 * `"remoteCode": "ID_FOR_DOUBLE_CHEESE_BURGER_ON_POS"`, the same pair on selectedToppings): an order
 * product's `remoteCode` is the restaurant's (the POS's) own code for it, `id` Delivery Hero's.
 * parsePlatformBOrder takes `remoteCode` as the item's productCode and falls back to `id` when a product
 * comes without one (a product the POS did not push a code for): such a code is Delivery Hero's id,
 * not the restaurant's.
 */
export const PLATFORM_B_ORDER_PRODUCT_CODE_FIELD = 'remoteCode' as const;
