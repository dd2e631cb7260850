import type { Order } from '../orders/order.model';

/** An order that came from a delivery platform (`provider` = the neutral platform code). */
export interface PlatformOrderRow extends Order {
  integrationId: string;
  /** What the adapter kept for later status calls (delivery type, token, item ids, ...). */
  platformData: Record<string, unknown>;
  /** When the platform said the order was accepted (not through a VERIFY push). */
  approvedAt: Date | null;
  /**
   * Received for an integration its platform had not verified: stored, but not the account's yet
   * (no event, no push) until the integration is verified and the order released.
   */
  withheld?: boolean;
}

/** What the acceptance warning of an order decides on (order.acceptance_due). */
export interface AcceptanceState extends PlatformOrderRow {
  acceptBy: Date | null;
  acceptanceWarnedAt: Date | null;
  /** A VERIFY, REJECT or CANCEL of it reached the platform. */
  answered: boolean;
}
