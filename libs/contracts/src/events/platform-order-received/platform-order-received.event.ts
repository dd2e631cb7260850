import type { OrderItemPayload } from '../order-created/order-created.event';

/**
 * An item of a platform order as its adapter read it: `platformProductId` is the platform's own id
 * of the product (what the catalog links to a restaurant's code); `productCode` only where the
 * platform itself carries the restaurant's code (Delivery Hero's `remoteCode`).
 */
export interface PlatformOrderItemPayload extends OrderItemPayload {
  platformProductId?: string;
}

/**
 * An item in the restaurant's codes, as order.platform_received and GET /internal/orders/{id} carry it.
 * `productCode`: the restaurant's code linked in the catalog to (integration, platformProductId), else
 * the code the platform carried, else null; `mapped` is false exactly when it is null (the item is kept,
 * listed for the operator to map). THIRD_PARTY items: as the sender gave them, platformProductId null.
 */
export interface MappedOrderItem extends Omit<OrderItemPayload, 'productCode'> {
  productCode: string | null;
  platformProductId: string | null;
  mapped: boolean;
}

/** A platform order's body in the shape of an intake order, as far as the platform tells it (stored with the order). */
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
  items: PlatformOrderItemPayload[];
  /** The customer collects the order at the restaurant: nothing to deliver (the platform says so). Absent: delivered. */
  pickup?: boolean;
  /** deliveryAddress is the platform's placeholder, not the customer's: the platform's courier has the real one. */
  deliveryAddressPlaceholder?: boolean;
  /** customerPhone is the platform's proxy (call-centre) number, not the customer's own. */
  customerPhoneProxy?: boolean;
}

/** The body as order.platform_received carries it: its items resolved to the restaurant's codes when published. */
export interface PlatformOrderReceivedDetails extends Omit<PlatformOrderDetails, 'items'> {
  items: MappedOrderItem[];
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
  details: PlatformOrderReceivedDetails;
}
