import type { ParsedPlatformOrder, PlatformOrderItem } from '../platform-adapter';
import { joinParts, joinWords, PayloadReader } from '../common/payload-reader';
import { PlatformBDelivery } from './platform-b.assumptions';

/** What PLATFORM_B status calls need later, stored with the order. */
export interface PlatformBOrderData {
  /** The middleware's order token: the id of every status call. */
  token: string;
  delivery: PlatformBDelivery;
  /** When the customer expects the order (acceptanceTime is based on it). */
  expectedAt?: string;
}

/**
 * An order the middleware dispatches to `POST /order/{remoteId}`: `token`, `code`, `shortCode`,
 * `expeditionType`, `preOrder`, `customer { firstName, lastName, mobilePhone }`,
 * `delivery { address { street, number, city, postcode, latitude, longitude }, expectedDeliveryTime,
 * riderPickupTime }`, `comments.customerComment`, `payment.type`, `price.grandTotal`,
 * `products [{ id, name, quantity, unitPrice, paidPrice, comment }]`, `localInfo.currencyCode`.
 * `remoteId` (the vendor, our providerRestaurantId) comes from the path.
 */
export function parsePlatformBOrder(remoteId: string, body: unknown): ParsedPlatformOrder {
  const read = new PayloadReader(body);
  if (!read.ok) return { ok: false, errors: read.errors };
  const token = read.string('token', { required: true, max: 512 });
  const code = read.string('code', { max: 255 });
  const shortCode = read.string('shortCode', { max: 255 });
  const expeditionType = read.string('expeditionType', { max: 40 });
  const preOrder = read.boolean('preOrder');
  const expected = read.date('delivery.expectedDeliveryTime');
  const riderPickup = read.date('delivery.riderPickupTime');
  const products = read.array('products', { max: 200 });
  const items: PlatformOrderItem[] = products.map((product, index) => ({
    productCode: read.string('id', { from: product, field: `products[${index}].id`, max: 64 }),
    productName: read.string('name', { from: product, field: `products[${index}].name`, max: 200 }),
    quantity: read.number('quantity', { from: product, field: `products[${index}].quantity`, min: 0 }),
    unitPrice: read.number('unitPrice', { from: product, field: `products[${index}].unitPrice`, min: 0 }),
    totalAmount: read.number('paidPrice', { from: product, field: `products[${index}].paidPrice`, min: 0 }),
    productNote: read.string('comment', { from: product, field: `products[${index}].comment` }),
  }));
  const details = {
    customerName: joinWords(read.string('customer.firstName', { max: 100 }), read.string('customer.lastName', { max: 100 })),
    customerPhone: read.string('customer.mobilePhone', { max: 40 }),
    deliveryAddress: joinParts(
      joinWords(read.string('delivery.address.street', { max: 300 }), read.string('delivery.address.number', { max: 40 })),
      read.string('delivery.address.postcode', { max: 20 }),
      read.string('delivery.address.city', { max: 100 }),
    ),
    deliveryLatitude: read.number('delivery.address.latitude', { min: -90, max: 90 }),
    deliveryLongitude: read.number('delivery.address.longitude', { min: -180, max: 180 }),
    scheduledDeliveryTime: preOrder && expected ? expected.toISOString() : undefined,
    paymentMethod: read.string('payment.type', { max: 100 }),
    total: read.number('price.grandTotal', { min: 0 }),
    currency: read.string('localInfo.currencyCode', { max: 3 }) ?? 'TRY',
    notes: read.string('comments.customerComment'),
    items,
  };
  if (!read.ok) return { ok: false, errors: read.errors };

  const delivery: PlatformBDelivery = expeditionType?.toLowerCase() === 'pickup' ? 'pickup' : riderPickup ? 'platform' : 'vendor';
  return {
    ok: true,
    order: {
      platformOrderId: token!,
      providerRestaurantId: remoteId,
      orderNumber: shortCode ?? code ?? token!,
      state: 'new',
      scheduledDeliveryTime: preOrder && expected ? expected : null,
      details,
      platformData: { token: token!, delivery, expectedAt: (expected ?? riderPickup)?.toISOString() } satisfies PlatformBOrderData,
    },
  };
}
