/**
 * `order.status_changed`: an order moved along the status table to a status other than CANCELED.
 * Carries every field of the webhook of interface.md plus the routing data the consumers need
 * (restaurantId: whose webhook URLs; sequence: grows by one per change of the order, so a read
 * model ignores an older change that arrives late).
 */
export interface OrderStatusChangedEvent {
  yemekKuryeOrderId: string;
  orderId: string;
  restaurantId: string;
  orderNumber: string;
  status: string;
  previousStatus: string;
  /** ISO 8601 with offset: when the change happened. */
  timestamp: string;
  provider: string;
  providerRestaurantId: string;
  sequence: number;
}
