import type { FieldError, PlatformOrderDetails, PlatformOrderItemPayload } from '@courier/contracts';
import type { CallBudget } from './call-budget';
import type { PlatformAvailability } from './platform-availability';
import type { PlatformCatalog } from './platform-catalog';
import type { PlatformOrders } from './platform-orders';
import type { PlatformStatus } from './platform-status';

/** An integration's credentials as an adapter needs them: secrets already decrypted (never log them). */
export interface IntegrationCredentials {
  integrationId: string;
  providerRestaurantId: string;
  /** Clear fields: chainCode, username, supplierId, storeId, providerMerchantId. */
  settings: Record<string, string>;
  /** Decrypted secret fields: secretKey, password, apiKey. */
  secrets: Record<string, string>;
}

/** A platform order as the status calls need it. */
export interface PlatformOrderRef {
  /** The platform's id of the order (the push's providerOrderId). */
  platformOrderId: string;
  /** Our id of the order (the remote order id a platform may keep). */
  yemekKuryeOrderId: string;
  /** What the adapter kept at intake (delivery type, token, item ids, ...). */
  platformData: Record<string, unknown>;
}

/** What the platform answered, kept on the status update for operators (body bounded). */
export interface PlatformAnswer {
  httpStatus: number | null;
  body: unknown;
  /** For calls without an HTTP answer: what went wrong. */
  error?: string;
}

/**
 * The result of one status call. `done`: the platform took it (2xx, or its "already done" answer);
 * `skipped`: the platform has no call for this action on this order; `retry`: worth another attempt
 * later (network, 429, 5xx, or a platform's "not yet"), with the platform's pacing when it has one;
 * `failed`: final (any other 4xx, credentials refused, not configured).
 */
export type PlatformCallOutcome =
  | { kind: 'done'; answer: PlatformAnswer; alreadyDone?: boolean }
  | { kind: 'skipped'; reason: string }
  | { kind: 'retry'; answer: PlatformAnswer; retryAfterMs?: number; pacing?: RetryPacing }
  | { kind: 'failed'; answer: PlatformAnswer; reason: string };

/** A platform's own retry rule: a fixed interval, and a limit counted from the first attempt. */
export interface RetryPacing {
  rule: string;
  intervalMs: number;
  windowMs: number;
}

/**
 * `ok`: the platform accepted the credentials (for the integration's restaurant where its answer names
 * one); `wrong_restaurant`: it accepted them for another restaurant than providerRestaurantId;
 * `rejected`: it refused them; `unreachable`: no verdict (network, 429, 5xx); `not_configured`: a
 * deployment setting is missing.
 */
export type CredentialCheckResult = 'ok' | 'wrong_restaurant' | 'rejected' | 'unreachable' | 'not_configured';

export interface CredentialCheck {
  result: CredentialCheckResult;
  detail: string;
  httpStatus?: number;
  /** The restaurant the platform's answer named for these credentials (absent: the answer names none). */
  platformRestaurantId?: string;
}

/** What a platform answered when told the integration is ready to take orders (a POS status). */
export type PosReadyOutcome = { ok: true; detail: string } | { ok: false; detail: string; retry: boolean; httpStatus?: number };

/** What the platform says about an order when it reaches us. */
export type PlatformOrderState = 'new' | 'accepted' | 'canceled';

/** An item of a platform order (the intake order's item fields, and the platform's product id). */
export type PlatformOrderItem = PlatformOrderItemPayload;

/** A platform's order, parsed and normalised by its adapter. */
export interface PlatformOrder {
  platformOrderId: string;
  /** The restaurant on the platform: matches an integration's providerRestaurantId. */
  providerRestaurantId: string;
  /** The number the platform shows the restaurant (interface.md's orderNumber of platform orders). */
  orderNumber: string;
  state: PlatformOrderState;
  scheduledDeliveryTime: Date | null;
  details: PlatformOrderDetails;
  /** What later status calls need; stored with the order. */
  platformData: Record<string, unknown>;
  /** A cancellation's note from the platform. */
  cancelNote?: string;
  /** The platform's test order: acknowledged, never passed on as a real order. */
  test?: boolean;
  /** Answer the order before this, or the platform cancels it (a deadline the platform states). */
  expiresAt?: Date | null;
}

export type ParsedPlatformOrder = { ok: true; order: PlatformOrder } | { ok: false; errors: FieldError[] };

/** Orders of a polled platform since a cursor. */
export type PollResult =
  | { kind: 'ok'; orders: ParsedPlatformOrder[]; cursorMs: number }
  | { kind: 'retry'; answer: PlatformAnswer; retryAfterMs?: number }
  | { kind: 'failed'; answer: PlatformAnswer; reason: string };

/**
 * One delivery platform's API: its login and credential check, shared by one object per capability
 * (orders in, status out, availability, catalog), each in its own file of the platform's folder.
 */
export interface PlatformAdapter {
  /** Neutral platform code (its definition's code). */
  readonly code: string;
  checkCredentials(credentials: IntegrationCredentials): Promise<CredentialCheck>;
  /**
   * Platforms that open an integration closed (a POS status): tells the platform the
   * integration takes orders now. Called once it is verified, and again when it is activated.
   */
  announcePosReady?(credentials: IntegrationCredentials): Promise<PosReadyOutcome>;
  /** The platform's call budget per set of credentials: the dispatcher books room in it before each call. */
  readonly callBudget?: CallBudget;
  /** Orders in: how long the restaurant has to answer an order. */
  readonly orders: PlatformOrders;
  /** Status out: the calls for an order's steps. */
  readonly status: PlatformStatus;
  /** The store's open / closed / busy state and products' sold-out switch (absent: the platform has none). */
  readonly availability?: PlatformAvailability;
  /** The menu: read it, change a product's price (absent: the platform has no catalog calls here). */
  readonly catalog?: PlatformCatalog;
}
