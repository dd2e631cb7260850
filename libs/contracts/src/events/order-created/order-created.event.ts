/** Items and money of an intake order, as the sender gave them (validated by intake-api). */
export interface OrderItemPayload {
  productCode?: string;
  productName?: string;
  quantity?: number;
  unitPrice?: number;
  totalAmount?: number;
  discountAmount?: number;
  productNote?: string;
  features?: string;
}

/** The order body of interface.md after intake's validation and processing (geocoding). */
export interface OrderDetails {
  customerName: string;
  customerPhone?: string;
  customerEmail?: string;
  deliveryAddress: string;
  deliveryLatitude?: number;
  deliveryLongitude?: number;
  scheduledDeliveryTime?: string;
  paymentMethod?: 'CASH' | 'CARD_POS' | 'ONLINE_PREPAID';
  paymentCaptured?: boolean;
  subtotal?: number;
  deliveryFee?: number;
  serviceFee?: number;
  discount?: number;
  taxAmount?: number;
  total?: number;
  currency: string;
  notes?: string;
  items: OrderItemPayload[];
}

/**
 * `order.created`: intake-api accepted and processed a third-party order; status-dispatcher, which
 * owns the order lifecycle, creates it in NEW (assigning its per-restaurant orderNumber).
 */
export interface OrderCreatedEvent {
  yemekKuryeOrderId: string;
  orderId: string;
  restaurantId: string;
  provider: 'THIRD_PARTY';
  providerRestaurantId: string;
  receivedAt: string;
  details: OrderDetails;
}
