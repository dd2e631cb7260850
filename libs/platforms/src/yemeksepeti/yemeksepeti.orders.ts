import type { ParsedPlatformOrder, PlatformOrderItem } from '../common/platform-adapter';
import { isRecord, joinParts, joinWords, PayloadReader } from '../common/payload-reader';
import {
  PLATFORM_B_CALLBACK_URL_FIELDS,
  PLATFORM_B_CURRENCY_SYMBOLS,
  PLATFORM_B_DEFAULT_CURRENCY,
  PlatformBCallbackUrls,
  PlatformBDelivery,
} from './yemeksepeti.assumptions';

/** What PLATFORM_B status calls need later, stored with the order. */
export interface PlatformBOrderData {
  /** The middleware's order token: the id of every status call. */
  token: string;
  delivery: PlatformBDelivery;
  /** When the order is due: the rider's pickup, the expected delivery, or the customer's pickup time (acceptanceTime is based on it). */
  expectedAt?: string;
  /** Answer (accept or reject) before this, or the middleware cancels the order. */
  expiresAt?: string;
  /** Where each status goes (absent: the middleware API's documented paths). */
  callbackUrls?: PlatformBCallbackUrls;
  /** A test order: never cooked; a rejection says TEST_ORDER. */
  test?: boolean;
}

/**
 * An order the middleware dispatches to `POST /order/{remoteId}` (pluginOrder.yaml, see
 * yemeksepeti.assumptions.ts): `token`, `code`, `shortCode`, `expeditionType`, `preOrder`, `test`,
 * `expiryDate`, `customer { firstName, lastName, mobilePhone }`, `delivery { address { street, number,
 * city, postcode, latitude, longitude, deliveryInstructions }, expectedDeliveryTime, riderPickupTime }`,
 * `pickup { pickupTime }`, `comments.customerComment`, `payment.type`, `price.grandTotal` (amounts
 * are strings), `products [{ id, remoteCode, name, quantity, unitPrice, paidPrice, comment }]`,
 * `localInfo.currencySymbol` (there is no currency code), `callbackUrls`. Unknown fields are
 * ignored (the spec: the payload grows). `remoteId` (the vendor, our providerRestaurantId) comes
 * from the path.
 */
export function parsePlatformBOrder(remoteId: string, body: unknown): ParsedPlatformOrder {
  const read = new PayloadReader(body);
  if (!read.ok) return { ok: false, errors: read.errors };
  const token = read.string('token', { required: true, max: 512 });
  const code = read.string('code', { max: 255 });
  const shortCode = read.string('shortCode', { max: 255 });
  const expeditionType = read.string('expeditionType', { max: 40 });
  const preOrder = read.boolean('preOrder');
  const test = read.boolean('test') === true;
  const expiresAt = read.date('expiryDate');
  const expected = read.date('delivery.expectedDeliveryTime');
  const riderPickup = read.date('delivery.riderPickupTime');
  const pickupTime = read.date('pickup.pickupTime');
  const products = read.array('products', { max: 200 });
  const items: PlatformOrderItem[] = products.map((product, index) => ({
    // `remoteCode` is the POS's own code of the product (the restaurant's productCode); `id` Delivery Hero's.
    platformProductId: read.string('id', { from: product, field: `products[${index}].id`, max: 64 }),
    productCode: read.string('remoteCode', { from: product, field: `products[${index}].remoteCode`, max: 64 }),
    productName: read.string('name', { from: product, field: `products[${index}].name`, max: 200 }),
    quantity: read.number('quantity', { from: product, field: `products[${index}].quantity`, min: 0 }),
    unitPrice: read.number('unitPrice', { from: product, field: `products[${index}].unitPrice`, min: 0 }),
    totalAmount: read.number('paidPrice', { from: product, field: `products[${index}].paidPrice`, min: 0 }),
    productNote: read.string('comment', { from: product, field: `products[${index}].comment` }),
  }));
  const symbol = read.string('localInfo.currencySymbol', { max: 10 })?.trim();
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
    currency: (symbol && PLATFORM_B_CURRENCY_SYMBOLS[symbol.toUpperCase()]) || (symbol && PLATFORM_B_CURRENCY_SYMBOLS[symbol]) || PLATFORM_B_DEFAULT_CURRENCY,
    notes: joinParts(read.string('comments.customerComment'), read.string('delivery.address.deliveryInstructions')) || undefined,
    items,
  };
  const callbackUrls = readCallbackUrls(read);
  if (!read.ok) return { ok: false, errors: read.errors };

  const delivery: PlatformBDelivery = expeditionType?.toLowerCase() === 'pickup' ? 'pickup' : riderPickup ? 'platform' : 'vendor';
  const dueAt = delivery === 'platform' ? riderPickup : delivery === 'pickup' ? (pickupTime ?? expected) : expected;
  const platformData: PlatformBOrderData = {
    token: token!,
    delivery,
    ...(dueAt ? { expectedAt: dueAt.toISOString() } : {}),
    ...(expiresAt ? { expiresAt: expiresAt.toISOString() } : {}),
    ...(callbackUrls ? { callbackUrls } : {}),
    ...(test ? { test } : {}),
  };
  return {
    ok: true,
    order: {
      platformOrderId: token!,
      providerRestaurantId: remoteId,
      orderNumber: shortCode ?? code ?? token!,
      state: 'new',
      scheduledDeliveryTime: preOrder && expected ? expected : null,
      details,
      platformData: { ...platformData },
      test,
      expiresAt: expiresAt ?? null,
    },
  };
}

/** `callbackUrls` as sent: each URL a string or null (= that callback does not apply); undefined when the order has none. */
function readCallbackUrls(read: PayloadReader): PlatformBCallbackUrls | undefined {
  const raw = read.value('callbackUrls');
  if (raw === undefined || raw === null) return undefined;
  if (!isRecord(raw)) {
    read.errors.push({ field: 'callbackUrls', message: 'must be an object' });
    return undefined;
  }
  const urls: PlatformBCallbackUrls = {};
  for (const field of PLATFORM_B_CALLBACK_URL_FIELDS) {
    const value = raw[field];
    if (value === undefined || value === null || value === '') urls[field] = null;
    else if (typeof value === 'string' && value.length <= 2048) urls[field] = value;
    else read.errors.push({ field: `callbackUrls.${field}`, message: 'must be a URL (a string of at most 2048 characters) or null' });
  }
  return urls;
}
