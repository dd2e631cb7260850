import type { PlatformOrder, PlatformOrderState } from '../common/platform-adapter';
import type { CallBudget } from '../common/call-budget';
import { deadlineFrom } from '../common/acceptance';

/**
 * PLATFORM_C (Trendyol Go Yemek) facts the adapter relies on, in one place: what is documented
 * (with its source) and what is still assumed. libs/platforms/README.md lists the same.
 */

/**
 * Accept-by. Documented (platforms.md, round 2): a package left unanswered is cancelled by the
 * platform with reason 625. ASSUMED: how long it waits; no source found gives the time (searched:
 * hodoxnet/kuryemburada TrendyolGoEntegrasyonu/*.md, the meal clients), so 5 minutes, the shortest
 * window any platform here documents, counted from the package's `packageModificationDate` (a new
 * package's creation) or its receipt, whichever is earlier; warning half-way.
 */
export const PLATFORM_C_ACCEPT_WINDOW_MS = 300_000;
export const PLATFORM_C_ACCEPT_WARNING_MS = 150_000;

export function platformCAcceptBy(order: Pick<PlatformOrder, 'state' | 'platformData'>, receivedAt: Date, windowMs = PLATFORM_C_ACCEPT_WINDOW_MS): Date | null {
  if (order.state !== 'new') return null;
  const modified = order.platformData.packageModificationDate;
  return deadlineFrom(typeof modified === 'number' ? new Date(modified) : undefined, receivedAt, windowMs);
}

/**
 * Package statuses (documented: developers.tgoapps.com "Sipariş Paketlerini Çekme": Created, Picking,
 * Invoiced, Cancelled, UnSupplied, Shipped, Delivered). `picked` moves a package to Picking.
 * Assumed: anything else (a status added later) is read as a new package, which intake then
 * takes as it would a Created one.
 */
export function platformCOrderState(packageStatus: string | undefined): PlatformOrderState {
  switch (packageStatus) {
    case 'Cancelled':
    case 'UnSupplied':
      return 'canceled';
    case 'Picking':
    case 'Invoiced':
    case 'Shipped':
    case 'Delivered':
      return 'accepted';
    default:
      return 'new';
  }
}

/** deliveryType STORE: the restaurant's own courier, Model 1 (documented); only it has manual-shipped / manual-delivered. */
export const STORE_DELIVERY = 'STORE';

/** deliveryType GO: Trendyol Go's courier delivers, "model 2" (documented; KB Yeni-siparis-paketlerini-cekme.md names the grocery field `deliveryModel`). */
export const GO_DELIVERY = 'GO';

/**
 * Model 2's address is a placeholder and its phone a proxy (platforms.md Round 2): KB
 * (hodoxnet/kuryemburada TrendyolGoEntegrasyonu/Yeni-siparis-paketlerini-cekme.md, a copy of
 * Trendyol's page) says every field under `address` of a model 2 package reads "Trendyol Go by Uber
 * Eats - Market" (grocery); AJ (agrostech/AgrosJet-Render backend/services/trendyol_service.py) reads
 * a meal package with deliveryType GO as "address hidden" ("Trendyol Yemek") and dials `address.phone`
 * or `callCenterPhone` followed by the orderId; another client's sandbox package puts "TGO Yemek" in
 * `address1`. The rule: a package is model 2 when its deliveryType (or deliveryModel) is GO; its
 * address is also read as a placeholder when `address1` is one of those values; its phone as a proxy
 * in model 2 or when it is the package's `callCenterPhone`. ASSUMED: the meal value of the
 * placeholder (the sources show three spellings: all are recognised).
 */
export const PLATFORM_C_ADDRESS_PLACEHOLDER = /^\s*(trendyol( go)?( by uber eats)?( -)? ?(yemek|market)?|tgo yemek)\s*$/i;

export function platformCIsModel2(deliveryType: string | undefined): boolean {
  return deliveryType?.toUpperCase() === GO_DELIVERY;
}

/**
 * Flags of a package (platforms.md Round 2): `testPackage: true` marks the platform's test package
 * (kept apart, never a real order: the same store as PLATFORM_B's test orders, platform_test_orders);
 * `storePickupSelected: true` a customer pickup (no manual-shipped / manual-delivered: nobody ships
 * it). Both booleans; anything but `true` reads as false.
 */
export const PLATFORM_C_TEST_PACKAGE_FIELD = 'testPackage';
export const PLATFORM_C_PICKUP_FIELD = 'storePickupSelected';

/**
 * 429 on Trendyol Go: 50 requests / 10 s per endpoint, then `{"status":429,"message":"too.many.requests"}`
 * (KB Authorization.md, a copy of Trendyol's page). No Retry-After is documented: the retry waits the window.
 */
export const PLATFORM_C_RATE_LIMIT_WINDOW_MS = 10_000;

/**
 * 409: a status step out of order (platforms.md Round 2; KB paket-statu-bildirimi.md: the steps must
 * be fed in order). Final: the dispatcher sends an order's steps one at a time and in order, so a
 * 409 means the platform's package is elsewhere (an earlier step never went through, or the platform
 * moved or closed the package itself), which no retry changes. ASSUMED: a 409 is never "not yet"
 * (no source shows a step applied late).
 */
export const PLATFORM_C_OUT_OF_ORDER_STATUS = 409;

/** Assumed: preparationTime (minutes) sent with `picked` when the package carries none. */
export const PLATFORM_C_DEFAULT_PREPARATION_MINUTES = 20;

/**
 * Restaurant-side reasons of `unsupplied` (platforms.md: 621, 622, 623, 627; the Trendyol Go clients
 * name them 621 supply problem, 622 store closed, 623 store cannot prepare, 627 order confusion).
 * Assumed: a push whose reason is one of them sends it; any other reason (free text) sends 621.
 */
export const PLATFORM_C_CANCEL_REASONS = [621, 622, 623, 627] as const;
export const PLATFORM_C_DEFAULT_CANCEL_REASON = 621;

/** The supplier's packages (orders): status calls go below it, the poll lists it (platforms.md). */
export const platformCPackagesPath = (supplierId: string) => `/integrator/order/meal/suppliers/${encodeURIComponent(supplierId)}/packages`;

/** Packages per page (platforms.md: size <= 50). Assumed: 40 pages (2000 packages) per poll window is enough; the rest waits for the next poll. */
export const PLATFORM_C_PAGE_SIZE = 50;
export const PLATFORM_C_MAX_PAGES = 40;

/** A package id is a string of up to 64 characters (documented: "64 karakter uzunluğunda alfanumerik"). */
export const PLATFORM_C_PACKAGE_ID_MAX_LENGTH = 64;

/**
 * The supplier id goes into the User-Agent header and the path: letters, digits, '.', '_' and '-'
 * only (the platform's ids are numbers; a non-Latin-1 character would not even be sendable).
 */
export const PLATFORM_C_SUPPLIER_ID = /^[A-Za-z0-9._-]{1,64}$/;

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
    { name: 'store-status', ...PLATFORM_C_ENDPOINT, requests: { 'availability:store': 1 } },
    { name: 'stores', ...PLATFORM_C_ENDPOINT, requests: { 'availability:read': 1 } },
    { name: 'product-status', ...PLATFORM_C_ENDPOINT, requests: { 'availability:product': 1 } },
    { name: 'menu', ...PLATFORM_C_ENDPOINT, requests: { 'catalog:read': 1 } },
    { name: 'price', ...PLATFORM_C_ENDPOINT, requests: { 'catalog:price': 1 } },
    { name: 'batch-requests', ...PLATFORM_C_ENDPOINT, requests: { 'catalog:check': 1 } },
  ],
};

/**
 * Ownership: the credential check reads one package of `.../suppliers/{supplierId}/packages` for the
 * integration's storeId with Basic `apiKey:secretKey` (T clients): a 2xx proves the key pair is the
 * supplier's. An empty page names no store, and providerRestaurantId is a label of ours, so nothing
 * binds it; orders are polled with the integration's own credentials, so it receives only what
 * Trendyol gives those (docs/platforms.md, "What proves ...").
 */
export const PLATFORM_C_CHECK_NAMES_STORE = false;

/*
 * Availability (store open / closed, products sold out). Sources: the T clients found by `find_string`
 * on "integrator/store/meal" and "/integrator/product/meal/suppliers" (AJ `backend/services/
 * trendyol_service.py` `update_restaurant_working_status`, a Python client's `get_stores`, a TypeScript
 * client's `getTrendyolStoreStatus` / `updateTrendyolStoreStatus`, ALKAROS' `TrendyolGoStoreStatusChannel`
 * and `TrendyolGoMenuClient.SetProductActiveAsync` (marked "UNVERIFIED DRAFT" by its authors), an
 * integrator's extract of developers.tgoapps.com), and platforms.md "Availability".
 * A Go client's `SetRestaurantStatus` sends `{ isOpen: bool }` instead: not followed (its other paths,
 * e.g. `/orders/{id}/status`, are in no Trendyol source; AJ, the TypeScript client and ALKAROS send
 * `status`), and the simulator refuses it like any body without a valid `status`.
 */

/**
 * Store: `PUT /integrator/store/meal/suppliers/{supplierId}/stores/{storeId}/status { status: "OPEN" |
 * "CLOSED" }`, answered 200. Trendyol has no timed close and no busy mode (a product-planning note
 * quoting the tgoapps page: "Süreli kapatma yok; süre dolunca açma isteğini [the integrator]
 * gönderir"): a close until a time is a close, reopened by the dispatcher's OPEN at that time.
 * `PUT .../stores/{storeId}/average-delivery-time { min, max }` exists for STORE delivery (Model 1)
 * only and sets the restaurant's standing estimate, with no way back to the earlier value from the
 * API: not used as a busy mode. ASSUMED: closing a closed store (or opening an open one) answers 200.
 */
export const PLATFORM_C_STORE_STATUS = { OPEN: 'OPEN', CLOSED: 'CLOSED' } as const;
export const platformCStoreStatusPath = (supplierId: string, storeId: string) => `/integrator/store/meal/suppliers/${encodeURIComponent(supplierId)}/stores/${encodeURIComponent(storeId)}/status`;

/**
 * Read-back: `GET /integrator/store/meal/suppliers/{supplierId}/stores?page=&size=` answers
 * `{ restaurants: [{ id, name, workingStatus: "OPEN" | "CLOSED", ... }] }` (the Python and TypeScript
 * clients read `restaurants[].workingStatus`; `id` a number). ASSUMED: pages of at most 50 (as the
 * package list), the page counters beside `restaurants` (`page`, `size`, `totalPages`, `totalCount`)
 * may be absent: a page shorter than asked is the last.
 */
export const platformCStoresPath = (supplierId: string) => `/integrator/store/meal/suppliers/${encodeURIComponent(supplierId)}/stores`;
export const PLATFORM_C_STORES_PAGE_SIZE = 50;
export const PLATFORM_C_STORES_MAX_PAGES = 20;

/**
 * Products: `PUT /integrator/product/meal/suppliers/{supplierId}/stores/{storeId}/products/{productId}/status
 * { status: "ACTIVE" | "PASSIVE" }` (ALKAROS, the endpoint table, platforms.md). A 409 is a concurrent
 * change of the same store (ALKAROS: "a 409 means a concurrent change of the same store: sent once
 * more", after 500 ms; another integrator keeps a write lock per store and retries): retried, not
 * final. ALKAROS is a draft its authors did not verify against Trendyol: the 409 reading is thin, and
 * retrying a 409 is harmless if it never comes. A status outside ACTIVE / PASSIVE is refused (the
 * tgoapps "Hata Kodları" page: an invalid enum value). No timed sold-out: the dispatcher's timer sends
 * ACTIVE at `until`.
 */
export const PLATFORM_C_PRODUCT_STATUS = { ACTIVE: 'ACTIVE', PASSIVE: 'PASSIVE' } as const;
export const platformCProductStatusPath = (supplierId: string, storeId: string, productId: string) =>
  `/integrator/product/meal/suppliers/${encodeURIComponent(supplierId)}/stores/${encodeURIComponent(storeId)}/products/${encodeURIComponent(productId)}/status`;
export const PLATFORM_C_CONCURRENT_CHANGE_STATUS = 409;
export const PLATFORM_C_CONCURRENT_CHANGE_RETRY_MS = 1_000;

/*
 * Catalog (the menu and prices). Sources: the tgoapps docs extract (a Docusaurus bundle's text kept by
 * an integrator: "Menülerin Alınması" GET getRestaurantProducts, "Ürün Fiyat Güncelleme" POST updatePrice
 * with "RestoranId Değerleri", "Toplu İşlem Kontrolü" GET getBatchRequestResult, "Hata Kodları"), a
 * TypeScript meal client (`MealMenuClient`: getMenu, updatePrices "at most 1000 items", getBatchRequestResult
 * "results kept 4 hours"), a Next.js integrator's Trendyol client and menu action (menu shape, price
 * rules, batch result shape), ALKAROS `TrendyolGoMenuClient` (UNVERIFIED DRAFT by its authors), another
 * integrator's notes (Tekeat: the meal menu API has six services and no product creation; the menu
 * answer holds ingredients, modifierGroups with min / max and modifierProducts), and Trendyol's
 * getBatchRequestResult pages for its other product APIs (status IN_PROGRESS | COMPLETED, items[].status,
 * failureReasons; for price updates "check the item statuses").
 */

/**
 * Menu: `GET /integrator/product/meal/suppliers/{supplierId}/stores/{storeId}/products` answers
 * `{ products: [...], sections: [...], ingredients: [...], modifierGroups: [...] }` in one answer (no
 * client sends a page or size: ASSUMED unpaged). A product: `id` (a number), `name`, `description`,
 * `sellingPrice` and `originalPrice` in lira (decimals, as the order lines' prices), `status`,
 * `ingredients` / `extraIngredients` (ingredient ids), `modifierGroups` ([{ id, position }], refs).
 * A section: `{ id, name, position, status, products: [{ id, position }] }`: a product's category is
 * the section listing it. A modifier group: `{ id, name, min, max, modifierProducts: [{ id, price,
 * position }] }`, its options being products of `products[]` (their names there). An ingredient:
 * `{ id, name, price }`. Tolerated, cheaply: `price` as a number or an object holding `sellingPrice`
 * (one client saw it nested), section refs given as bare ids. ASSUMED: a product in no section that is
 * some group's modifier product is an option, not a menu product; a product status `ACTIVE` is on
 * sale and any other value (`PASSIVE`, `INACTIVE`) is not; a product without `status` is ACTIVE
 * (as the clients read it). A section has a status of its own (tgoapps "Kategori Satışa Açma
 * Kapama": `PUT .../sections/{sectionId}/status` takes a category off sale; the Next.js integrator
 * skips sections that are not ACTIVE): a product listed only in sections that are not ACTIVE is not
 * on sale, whatever its own status. A body without a `products` array is not the documented shape.
 */
export const platformCMenuPath = (supplierId: string, storeId: string) =>
  `/integrator/product/meal/suppliers/${encodeURIComponent(supplierId)}/stores/${encodeURIComponent(storeId)}/products`;

/**
 * The restaurant's own code on a product. No meal source shows one: the menu answer's products carry
 * Trendyol's ids only, and products are created in the seller panel, not through the API. ASSUMED:
 * where a product does carry the seller's code it is in `stockCode` (the name Trendyol's marketplace and
 * Hızlı Market product APIs give the seller's own code), else `barcode`; neither present reads as no
 * code (the catalog proposes a link by name).
 */
export const PLATFORM_C_EXTERNAL_CODE_FIELDS = ['stockCode', 'barcode'] as const;

/**
 * Price: `POST /integrator/product/meal/suppliers/{supplierId}/products/price { items: [{ restaurantId,
 * productId, sellingPrice }] }`, 1 to 1,000 items, answered `{ batchRequestId }`: the platform queues the
 * request. `restaurantId` is optional and without it the price changes in every restaurant of the
 * supplier (the Next.js client and Tekeat's notes): an integration is one store, so it is always sent.
 * Only `sellingPrice` is sent (`originalPrice` is Trendyol's to compute). The same request body sent
 * again is refused as a repeated request (the Next.js meal client: "AYNI body ile tekrar gönderilirse
 * 'tekrarlı fiyat güncelleme' hatası"; Trendyol's own page for its marketplace price call, the same
 * queue: "15 dakika boyunca aynı isteği tekrarlı olarak atamazsınız!", a non-2xx answer to the POST in
 * the clients that handle it). The trigger is the body, not the price: the product may have had another
 * price in between (A, then B, then A again within 15 minutes is refused), so a repeated refusal is
 * checked against the menu: the product's sellingPrice in the store already the one sent is done; else
 * the request is sent again after the 15 minutes. A failure reason of that wording on the item (no
 * source shows one) reads as done too. ASSUMED: the meal call keeps the marketplace's 15 minutes; a
 * price equal to the current one in a new body is taken (no source says otherwise). ASSUMED bounds:
 * more than 0, at most 2 decimals (the clients round to kuruş), at most 100,000 lira (no bound is
 * documented: a guard against a price sent in kuruş). The call needs the product id only, so a product
 * not imported yet is priced all the same (an id the platform does not know fails its item, read by the
 * check).
 */
export const platformCPricePath = (supplierId: string) => `/integrator/product/meal/suppliers/${encodeURIComponent(supplierId)}/products/price`;
export const PLATFORM_C_MAX_PRICE = 100_000;
export const PLATFORM_C_REPEATED_PRICE = /tekrarl[ıi]|repeated|duplicate|ayn[ıi] fiyat/i;
export const PLATFORM_C_REPEATED_REQUEST_WINDOW_MS = 15 * 60_000;

/**
 * Batch result: `GET /integrator/product/meal/suppliers/{supplierId}/batch-requests/{batchRequestId}`
 * answers `{ batchRequestId, status: IN_PROGRESS | COMPLETED, itemCount, failedItemCount, items: [{
 * requestItem: { productId, restaurantId, sellingPrice }, status: SUCCESS | FAILED, failureReasons: [] }] }`,
 * kept 4 hours. Trendyol's price pages say to read the item's status (the batch's may be absent), so:
 * our product's item SUCCESS is done, FAILED (or any failure reason) is failed with the reasons; no
 * item or an item without either is pending, unless the batch is COMPLETED (then failed: nothing says
 * the price was taken). `requestItem.request.productId` is read too (one client's type). The batch's
 * own status while queued is `IN_PROGRESS` in one client and `PROCESSING` in the Next.js meal client:
 * anything but COMPLETED is still working. An unknown or expired batch id is not a 404 on Trendyol's
 * marketplace batch call (loncadev/lonca, checked live: "returns PROCESSING for unknown batch IDs"), so
 * a batch that still gives no result for our item 4 hours (the retention) after the request is failed;
 * a 404, should the meal call answer one, is final at once. ASSUMED: a batch is processed within
 * seconds: checked 5 s after the request and every 5 s after.
 */
export const platformCBatchPath = (supplierId: string, batchRequestId: string) =>
  `/integrator/product/meal/suppliers/${encodeURIComponent(supplierId)}/batch-requests/${encodeURIComponent(batchRequestId)}`;
export const PLATFORM_C_PRICE_CHECK_AFTER_MS = 5_000;
export const PLATFORM_C_BATCH_KEPT_MS = 4 * 60 * 60_000;
