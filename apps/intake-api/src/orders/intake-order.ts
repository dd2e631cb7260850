/** Lifecycle of an intake order: accepted (202 given), then processed into a NEW order, or failed. */
export type IntakeOrderState = 'ACCEPTED' | 'PROCESSED' | 'FAILED';

export type CoordinatesSource = 'sender' | 'geocoder';

/** An order as intake stored it (OrdersRepository maps its row to this). */
export interface IntakeOrder {
  restaurantId: string;
  orderId: string;
  yemekKuryeOrderId: string;
  payloadHash: string;
  payload: Record<string, unknown>;
  state: IntakeOrderState;
  attempt: number;
  receivedAt: Date;
  processedAt: Date | null;
  failedAt: Date | null;
  failureReason: string | null;
  orderNumber: string | null;
  deliveryLatitude: number | null;
  deliveryLongitude: number | null;
  coordinatesSource: CoordinatesSource | null;
}

/** One entry of an order's status history (order.opened, order.status_changed, order.canceled). */
export interface OrderStatusChange {
  yemekKuryeOrderId: string;
  /** 0 for order.opened (NEW), then counting up: the newest status is the highest sequence. */
  sequence: number;
  status: string;
  previousStatus: string | null;
  orderNumber: string | null;
  occurredAt: Date;
}

/** The 202 body of decisions.md; a replay rebuilds it from the stored order, so it is exactly the first one. */
export interface AcceptedOrderBody {
  status: 'accepted';
  orderId: string;
  yemekKuryeOrderId: string;
  receivedAt: string;
}

export function acceptedBody(order: Pick<IntakeOrder, 'orderId' | 'yemekKuryeOrderId' | 'receivedAt'>): AcceptedOrderBody {
  return { status: 'accepted', orderId: order.orderId, yemekKuryeOrderId: order.yemekKuryeOrderId, receivedAt: order.receivedAt.toISOString() };
}
