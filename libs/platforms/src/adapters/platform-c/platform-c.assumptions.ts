import type { PlatformOrderState } from '../platform-adapter';
import type { CallBudget } from '../common/call-budget';

/**
 * PLATFORM_C (Trendyol Go Yemek) facts the adapter relies on, in one place: what is documented
 * (with its source) and what is still assumed. libs/platforms/README.md lists the same.
 */

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

/** Assumed: preparationTime (minutes) sent with `picked` when the package carries none. */
export const PLATFORM_C_DEFAULT_PREPARATION_MINUTES = 20;

/**
 * Restaurant-side reasons of `unsupplied` (platforms.md: 621, 622, 623, 627; the Trendyol Go clients
 * name them 621 supply problem, 622 store closed, 623 store cannot prepare, 627 order confusion).
 * Assumed: a push whose reason is one of them sends it; any other reason (free text) sends 621.
 */
export const PLATFORM_C_CANCEL_REASONS = [621, 622, 623, 627] as const;
export const PLATFORM_C_DEFAULT_CANCEL_REASON = 621;

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
