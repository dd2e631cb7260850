/** Lifecycle of an intake row: accepted (202 given), then processed into a NEW order, or failed. */
export type IntakeOrderState = 'ACCEPTED' | 'PROCESSED' | 'FAILED';

export type CoordinatesSource = 'sender' | 'geocoder';

export interface IntakeOrderRow {
  restaurant_id: string;
  order_id: string;
  yemek_kurye_order_id: string;
  payload_hash: string;
  payload: Record<string, unknown>;
  state: IntakeOrderState;
  attempt: number;
  received_at: Date;
  processed_at: Date | null;
  failed_at: Date | null;
  failure_reason: string | null;
  order_number: string | null;
  delivery_latitude: number | null;
  delivery_longitude: number | null;
  coordinates_source: CoordinatesSource | null;
}

/** The 202 body of decisions.md; a replay rebuilds it from the row, so it is exactly the first one. */
export interface AcceptedOrderBody {
  status: 'accepted';
  orderId: string;
  yemekKuryeOrderId: string;
  receivedAt: string;
}

export function acceptedBody(row: Pick<IntakeOrderRow, 'order_id' | 'yemek_kurye_order_id' | 'received_at'>): AcceptedOrderBody {
  return { status: 'accepted', orderId: row.order_id, yemekKuryeOrderId: row.yemek_kurye_order_id, receivedAt: row.received_at.toISOString() };
}
