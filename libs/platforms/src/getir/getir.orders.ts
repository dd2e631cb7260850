import type { ParsedPlatformOrder, PlatformOrderItem } from '../common/platform-adapter';
import { isRecord, joinParts, PayloadReader } from '../common/payload-reader';
import { PLATFORM_A_STATUS, platformAOrderState } from './getir.assumptions';

/** What PLATFORM_A status calls need later, stored with the order. */
export interface PlatformAOrderData {
  deliveryType?: number;
  isScheduled?: boolean;
  /** Getir's food order status when the order reached us (325: verify-scheduled, 400: verify). */
  status?: number;
  /** `checkoutDate`: where Getir's time to answer starts (the accept-by rule). */
  checkoutAt?: string;
}

/**
 * The food order inside a webhook body: Getir sends the order itself (G asyncapi/getir-food-webhooks.yml);
 * one integrator's documentation shows it wrapped as `{ foodOrder: {...} }` (platforms.md). Both are taken.
 */
export function unwrapPlatformAFoodOrder(body: unknown): unknown {
  return isRecord(body) && isRecord(body.foodOrder) && body.id === undefined ? body.foodOrder : body;
}

/**
 * A Getir food order as the partner webhooks (new order, cancelled order) and the polling endpoints
 * carry it (G Swagger "Get Food Order Response Schema", G asyncapi payload_fields): `id`, `status`,
 * `restaurant.id`, `confirmationId`, `deliveryType`, `isScheduled`, `scheduledDate`,
 * `client { name, contactPhoneNumber, clientPhoneNumber, deliveryAddress { address, aptNo, floor, doorNo,
 * district, city, description }, location { lat, lon } }`, `products [{ id, product, chainProduct, name { tr, en },
 * count, price, totalPrice, note }]` (no field of the restaurant's own code), `clientNote`, `totalPrice`, `totalDiscountedPrice`, `paymentMethodText { tr, en }`;
 * a cancellation adds `cancelDate`, `cancelNote`, `cancelReason { id, messages { tr, en }, cancelSource }`.
 * Bare or wrapped in `{ foodOrder }`.
 */
export function parsePlatformAOrder(body: unknown, options: { restaurantRequired?: boolean } = {}): ParsedPlatformOrder {
  const read = new PayloadReader(unwrapPlatformAFoodOrder(body));
  if (!read.ok) return { ok: false, errors: read.errors };
  const id = read.string('id', { required: true, max: 64 });
  // A cancellation is found by the order id alone; a new order must say whose it is.
  const restaurantId = read.string('restaurant.id', { required: options.restaurantRequired ?? true, max: 128 });
  const status = read.number('status', { min: 0, max: 100_000 });
  const deliveryType = read.number('deliveryType', { min: 0, max: 100 });
  const isScheduled = read.boolean('isScheduled');
  const scheduledDate = read.date('scheduledDate');
  const products = read.array('products', { max: 200 });
  const items: PlatformOrderItem[] = products.map((product, index) => ({
    // `product` names the menu product (G Swagger Model5 `product` = Model10 `id`, what the catalog imports); `id` is the line's own, taken only without it.
    platformProductId: read.string('product', { from: product, field: `products[${index}].product`, max: 64 }) ?? read.string('id', { from: product, field: `products[${index}].id`, max: 64 }),
    productName: read.string('name.tr', { from: product, field: `products[${index}].name.tr`, max: 200 }) ?? read.string('name.en', { from: product, field: `products[${index}].name.en`, max: 200 }),
    quantity: read.number('count', { from: product, field: `products[${index}].count`, min: 0 }),
    unitPrice: read.number('price', { from: product, field: `products[${index}].price`, min: 0 }),
    totalAmount: read.number('totalPrice', { from: product, field: `products[${index}].totalPrice`, min: 0 }),
    productNote: read.string('note', { from: product, field: `products[${index}].note` }),
  }));
  const address = joinParts(
    read.string('client.deliveryAddress.address', { max: 500 }),
    read.string('client.deliveryAddress.aptNo', { max: 50 }),
    read.string('client.deliveryAddress.floor', { max: 50 }),
    read.string('client.deliveryAddress.doorNo', { max: 50 }),
    read.string('client.deliveryAddress.district', { max: 100 }),
    read.string('client.deliveryAddress.city', { max: 100 }),
  );
  const addressNote = read.string('client.deliveryAddress.description', { max: 500 });
  const clientNote = read.string('clientNote');
  const details = {
    customerName: read.string('client.name', { max: 200 }) ?? '',
    customerPhone: read.string('client.contactPhoneNumber', { max: 40 }) ?? read.string('client.clientPhoneNumber', { max: 40 }),
    deliveryAddress: address,
    deliveryLatitude: read.number('client.location.lat', { min: -90, max: 90 }),
    deliveryLongitude: read.number('client.location.lon', { min: -180, max: 180 }),
    scheduledDeliveryTime: scheduledDate?.toISOString(),
    paymentMethod: read.string('paymentMethodText.en', { max: 100 }) ?? read.string('paymentMethodText.tr', { max: 100 }),
    total: read.number('totalDiscountedPrice', { min: 0 }) ?? read.number('totalPrice', { min: 0 }),
    currency: 'TRY',
    notes: joinParts(clientNote, addressNote) || undefined,
    items,
  };
  const cancelDate = read.date('cancelDate');
  const cancelNote = read.string('cancelNote') ?? read.string('cancelReason.messages.en', { max: 1000 }) ?? read.string('cancelReason.messages.tr', { max: 1000 });
  const cancelReasonId = read.string('cancelReason.id', { max: 64 });
  const confirmationId = read.string('confirmationId', { max: 64 });
  const checkoutDate = read.date('checkoutDate');
  if (!read.ok) return { ok: false, errors: read.errors };

  const scheduled = isScheduled ?? status === PLATFORM_A_STATUS.SCHEDULED_AWAITING_APPROVAL;
  return {
    ok: true,
    order: {
      platformOrderId: id!,
      providerRestaurantId: restaurantId ?? '',
      orderNumber: confirmationId ?? id!,
      state: platformAOrderState(status, cancelDate !== undefined || cancelReasonId !== undefined),
      scheduledDeliveryTime: scheduled && scheduledDate ? scheduledDate : null,
      details,
      platformData: { deliveryType, isScheduled: scheduled, status, ...(checkoutDate ? { checkoutAt: checkoutDate.toISOString() } : {}) } satisfies PlatformAOrderData,
      cancelNote,
    },
  };
}
