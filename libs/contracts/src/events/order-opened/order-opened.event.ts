/**
 * `order.opened`: status-dispatcher created an intake order in its lifecycle (status NEW,
 * sequence 0). Intake shows the order as NEW only from this event on, so a caller who saw NEW can
 * move the order at once (read-your-writes across the two services). No webhook: creation is not
 * a move of the status table.
 */
export interface OrderOpenedEvent {
  yemekKuryeOrderId: string;
  orderId: string;
  restaurantId: string;
  orderNumber: string;
  status: 'NEW';
  /** ISO 8601 with offset: when the lifecycle created the order. */
  timestamp: string;
  /** Always 0: the first entry of the order's history (later changes count up from it). */
  sequence: 0;
}
