import type { PlatformOrder } from './platform-adapter';

/**
 * Orders in: the platform's rules for an order once it reached us. Its inbound pieces (the entry's
 * controllers, guards and pollers) take the orders in; these rules say how long the restaurant has
 * to answer one.
 */
export interface PlatformOrders {
  /**
   * When the platform gives up on this order if nobody accepted or rejected it (cancels it, and may
   * close the store), for an order that reached us at `receivedAt`; null when there is nothing to
   * answer (the platform says it is already accepted or cancelled). The rule is the platform's own,
   * in its `*.assumptions.ts`.
   */
  acceptBy(order: PlatformOrder, receivedAt: Date): Date | null;
  /** Warn (order.acceptance_due, platform_orders_expiring) this long before an unanswered order's acceptBy. */
  readonly acceptanceWarningMs: number;
}
