import type { OrderItemPayload } from '../order-created/order-created.event';

/** A platform order's body in the shape of an intake order, as far as the platform tells it. */
export interface PlatformOrderDetails {
  customerName: string;
  customerPhone?: string;
  deliveryAddress: string;
  deliveryLatitude?: number;
  deliveryLongitude?: number;
  scheduledDeliveryTime?: string;
  paymentMethod?: string;
  total?: number;
  currency: string;
  notes?: string;
  items: OrderItemPayload[];
  /** The customer collects the order at the restaurant: nothing to deliver (the platform says so). Absent: delivered. */
  pickup?: boolean;
  /** deliveryAddress is the platform's placeholder, not the customer's: the platform's courier has the real one. */
  deliveryAddressPlaceholder?: boolean;
  /** customerPhone is the platform's proxy (call-centre) number, not the customer's own. */
  customerPhoneProxy?: boolean;
}

/**
 * `order.platform_received`: status-dispatcher accepted an order from a delivery platform (webhook,
 * plugin call or poll). For the courier core: the order exists, with `status` NEW (or VALIDATED when
 * the platform says it is already accepted), and its status changes are pushed back with
 * `POST /internal/orders/status` using `providerOrderId`, `platform` and `restaurantId` (a platform
 * order id is unique per platform store only).
 */
export interface PlatformOrderReceivedEvent {
  yemekKuryeOrderId: string;
  /** The platform's order id (the push's providerOrderId). */
  orderId: string;
  /** The restaurant whose order it is (the push's restaurantId). */
  restaurantId: string;
  /** Neutral platform code (PLATFORM_A ...). */
  provider: string;
  providerRestaurantId: string;
  integrationId: string;
  orderNumber: string;
  status: string;
  receivedAt: string;
  scheduledDeliveryTime: string | null;
  details: PlatformOrderDetails;
}
