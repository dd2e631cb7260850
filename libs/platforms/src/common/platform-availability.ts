import type { StoreAvailabilityState } from '@courier/contracts';
import type { IntegrationCredentials, PlatformAnswer, PlatformCallOutcome } from '../common/platform-adapter';

export type { StoreAvailabilityState } from '@courier/contracts';

/** What the restaurant (or the courier core) asked of one store. */
export interface StoreAvailabilityRequest {
  state: StoreAvailabilityState;
  /** CLOSED or BUSY until then, then OPEN again (the dispatcher's durable timer sends the OPEN). */
  until?: Date;
  /** BUSY: how many minutes deliveries take longer. */
  busyMinutes?: number;
}

/**
 * Why a platform cannot do what was asked. The dispatcher answers it per integration as
 * `{ state: 'unsupported', code }` and sends nothing.
 */
export type AvailabilityUnsupportedCode =
  | 'BUSY_MODE_UNSUPPORTED'
  | 'TIMED_CLOSE_UNSUPPORTED'
  | 'DURATION_UNSUPPORTED'
  | 'PRODUCT_AVAILABILITY_UNSUPPORTED'
  | 'AVAILABILITY_NOT_CONFIGURED';

/**
 * What a platform will send for a store request, decided before anything is queued (pure).
 * `params` are the platform's own (its wire values, such as a close duration or an off-date
 * option), stored with the command and given back to `setStore` as they are.
 * `instead` says, for the restaurant, what the platform does in place of what was asked (a close
 * neighbour: "closes for 45 minutes, the nearest the platform allows"), with a code the answer carries.
 */
export type StoreAvailabilityPlan =
  | { kind: 'send'; state: StoreAvailabilityState; params: Record<string, string | number | boolean | null>; instead?: { code: string; message: string } }
  | { kind: 'unsupported'; code: AvailabilityUnsupportedCode; message: string };

/** One product switched off (sold out) or back on. */
export interface ProductAvailabilityChange {
  platformProductId: string;
  available: boolean;
  /** Sold out until then (the dispatcher's durable timer sends it back on). */
  until?: Date;
}

export type ProductAvailabilityPlan =
  | { kind: 'send'; params: Record<string, string | number | boolean | null>; instead?: { code: string; message: string } }
  | { kind: 'unsupported'; code: AvailabilityUnsupportedCode; message: string };

/** A store's state as the platform reports it. */
export type StoreReadOutcome =
  | { kind: 'ok'; state: StoreAvailabilityState; until?: Date; platformReason?: string; answer: PlatformAnswer }
  | { kind: 'retry'; answer: PlatformAnswer; retryAfterMs?: number }
  | { kind: 'failed'; answer: PlatformAnswer; reason: string };

/**
 * A platform's availability calls: one store's open / closed / busy state and one product's
 * sold-out switch. Calls are booked in the adapter's `callBudget` under `availability:store`,
 * `availability:product` and `availability:read` (each platform's limits in its folder).
 * `setStore` and `setProduct` answer like status calls (done, retry with pacing, failed).
 */
export interface PlatformAvailability {
  planStore(request: StoreAvailabilityRequest, now: Date): StoreAvailabilityPlan;
  setStore(credentials: IntegrationCredentials, plan: Extract<StoreAvailabilityPlan, { kind: 'send' }>): Promise<PlatformCallOutcome>;
  /** Where the platform lets us read the store's state (absent: it does not). */
  readStore?(credentials: IntegrationCredentials): Promise<StoreReadOutcome>;
  planProduct(change: ProductAvailabilityChange, now: Date): ProductAvailabilityPlan;
  setProduct(credentials: IntegrationCredentials, change: ProductAvailabilityChange, plan: Extract<ProductAvailabilityPlan, { kind: 'send' }>): Promise<PlatformCallOutcome>;
}
