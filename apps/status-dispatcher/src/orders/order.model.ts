import type { OrderStatus, OrderTrigger } from '@courier/domain';

/** Provider of the orders that intake accepts; the order status table governs these. */
export const THIRD_PARTY_PROVIDER = 'THIRD_PARTY';

/**
 * An order whose lifecycle the dispatcher owns (table `orders`), without its intake body
 * (`details`), which the lifecycle never reads. `id` is the yemekKuryeOrderId.
 */
export interface Order {
  id: string;
  /** The sender's own order id (intake's idempotency key). */
  orderId: string;
  restaurantId: string;
  /** Integration type; THIRD_PARTY for intake orders. */
  provider: string;
  providerRestaurantId: string;
  /** Per-restaurant sequence number, as a string. */
  orderNumber: string;
  status: OrderStatus;
  /** Number of status changes so far (0 at creation); events carry it so consumers can order them. */
  sequence: number;
  /** When intake accepted the order: the reference of "scheduled" (delivery more than 1 h later). */
  receivedAt: Date;
  scheduledDeliveryTime: Date | null;
  /** Scheduled orders only: delivery time minus one hour. */
  finalApprovalDueAt: Date | null;
  finalApprovedAt: Date | null;
  /** Timestamp of the latest status change (creation included); the next one is stamped later. */
  statusChangedAt: Date;
}

/** One state of an order's history (table `order_status_changes`): its creation (no trigger) or a move. */
export interface OrderStatusChange {
  sequence: number;
  status: OrderStatus;
  previousStatus: OrderStatus | null;
  trigger: OrderTrigger | null;
  /** The change's timestamp, as its event carries it. */
  occurredAt: Date;
  reason: string | null;
  cancelReasonId: string | null;
  canceledBy: string | null;
}

export interface OrderAcceptance {
  acceptBy: Date | null;
  answered: boolean;
}
