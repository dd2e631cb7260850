/**
 * `order.canceled`: an order moved into CANCELED (or intake's processing failed: previousStatus
 * NEW or null, cancelReasonId OTHER, canceledBy System). Only the cancel webhook is sent for it.
 */
export interface OrderCanceledEvent {
  yemekKuryeOrderId: string;
  orderId: string;
  restaurantId: string;
  orderNumber: string | null;
  previousStatus: string | null;
  reason: string;
  cancelReasonId: string;
  canceledBy: string;
  timestamp: string;
  provider: string;
  providerRestaurantId: string;
  sequence: number;
}
