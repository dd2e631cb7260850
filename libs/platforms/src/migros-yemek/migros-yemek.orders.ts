import type { FieldError } from '@courier/contracts';
import type { PlatformOrder, PlatformOrderItem } from '../common/platform-adapter';
import { isRecord, joinParts, joinWords, PayloadReader } from '../common/payload-reader';

/** What PLATFORM_D status calls need later, stored with the order. */
export interface PlatformDOrderData {
  storeId: string;
  storeGroupId?: string;
  /** RESTAURANT (the restaurant's courier) or MIGROS (M-js). */
  deliveryProvider?: string;
  /** The customer's id (`customer.id`): CancelOrder's userId (AJ). */
  userId?: string;
}

/** The delivery-status webhook (AJ `/migros/status`, M-py): Migros' view of the order's delivery. */
export interface PlatformDDeliveryStatus {
  ok: true;
  kind: 'delivery_status';
  storeId: string;
  orderId: string;
  /** The order's status on Migros (APPROVED, ...). */
  status?: string;
  /** ASSIGNED_FOR_DELIVERY, COURIER_APPROACHED, COURIER_ARRIVED, IN_DELIVERY, DELIVERED (M-py). */
  deliveryStatus?: string;
  isCancelled: boolean;
  deliveryProvider?: string;
  courierName?: string;
}

/**
 * A webhook from Migros: a new order (the order itself, plain JSON), a cancellation
 * (`{ OrderId, StoreId, UserId }`, capitalised) or a delivery status (`{ orderId, storeId,
 * deliveryStatus, isCancelled, ... }`). The store id says whose it is: the integration, and so the
 * key the webhook may carry, is found by it.
 */
export type PlatformDWebhook =
  | { ok: true; kind: 'order'; storeId: string; order: PlatformOrder }
  | { ok: true; kind: 'cancellation'; storeId: string; orderId: string; userId?: string }
  | PlatformDDeliveryStatus
  | { ok: false; errors: FieldError[] };

/** Amounts come in kuruş (M-go `// kuruş`, M-js "penny -> TL"); our orders carry TRY. */
function lira(kurus: number | undefined): number | undefined {
  return kurus === undefined ? undefined : Math.round(kurus) / 100;
}

/**
 * Tells the three shapes apart as M-py does: `deliveryStatus` (or AJ's `isCancelled`) makes a
 * delivery status, `OrderId` without order content a cancellation, anything else an order.
 */
export function parsePlatformDWebhook(body: unknown): PlatformDWebhook {
  if (isRecord(body) && ('deliveryStatus' in body || 'isCancelled' in body) && !('items' in body)) return parseDeliveryStatus(body);
  if (isRecord(body) && 'OrderId' in body && !('items' in body) && !('customer' in body)) return parseCancellation(body);
  return parseOrder(body);
}

/** An order as GetOrderDetail's `data` holds it (the Order Created shape), with Migros' read `status`. */
export function parsePlatformDOrder(body: unknown): PlatformDWebhook {
  return parseOrder(body);
}

function parseDeliveryStatus(body: Record<string, unknown>): PlatformDWebhook {
  const read = new PayloadReader(body);
  // AJ reads both spellings of the ids.
  const orderField = 'orderId' in body ? 'orderId' : 'OrderId';
  const storeField = 'storeId' in body ? 'storeId' : 'StoreId';
  const orderId = read.string(orderField, { required: true, max: 64 });
  const storeId = read.string(storeField, { required: true, max: 64 });
  const status = read.string('status', { max: 40 });
  const deliveryStatus = read.string('deliveryStatus', { max: 40 });
  const isCancelled = body.isCancelled === undefined || body.isCancelled === null ? undefined : read.boolean('isCancelled');
  const deliveryProvider = read.string('deliveryProvider', { max: 40 });
  const courierName = read.string('courierName', { max: 200 });
  if (!read.ok) return { ok: false, errors: read.errors };
  return { ok: true, kind: 'delivery_status', orderId: orderId!, storeId: storeId!, status, deliveryStatus, isCancelled: isCancelled === true, deliveryProvider, courierName };
}

function parseCancellation(body: Record<string, unknown>): PlatformDWebhook {
  const read = new PayloadReader(body);
  const orderId = read.string('OrderId', { required: true, max: 64 });
  const storeId = read.string('StoreId', { required: true, max: 64 });
  const userId = read.string('UserId', { max: 64 });
  if (!read.ok) return { ok: false, errors: read.errors };
  return { ok: true, kind: 'cancellation', orderId: orderId!, storeId: storeId!, userId };
}

/**
 * The Order Created body (M-go types.go IncomingOrder; the simulator's examples/): `id`, `status`
 * (NEW_PENDING), `deliveryProvider`, `store { id, group { id } }`, `customer { fullName, firstName,
 * lastName, phoneNumber, deliveryAddress { direction, detail, district/town/city { name },
 * geoLocation { latitude, longitude } } }`, `prices { total, discounted, ... { amountAsPenny } }`,
 * `items [{ id, productId, name, price (line total, kuruş), unitPrice?, amount, note, options [{
 * headerName, itemNames, excluded }] }]` (no field of the restaurant's own code), `payment.type { name, isOnlinePayment }`,
 * `extendedProperties { orderNote }`.
 */
function parseOrder(body: unknown): PlatformDWebhook {
  const read = new PayloadReader(body);
  if (!read.ok) return { ok: false, errors: read.errors };
  const id = read.string('id', { required: true, max: 64 });
  const storeId = read.string('store.id', { required: true, max: 64 });
  const storeGroupId = read.string('store.group.id', { max: 64 });
  const status = read.string('status', { max: 40 });
  const deliveryProvider = read.string('deliveryProvider', { max: 40 });
  const userId = read.string('customer.id', { max: 64 });
  const items: PlatformOrderItem[] = read.array('items', { max: 200 }).map((item, index) => {
    const field = (name: string) => `items[${index}].${name}`;
    const quantity = read.number('amount', { from: item, field: field('amount'), min: 0, max: 10_000 });
    const lineTotal = lira(read.number('price', { from: item, field: field('price'), min: 0 }));
    // `price` is the line total (M-notes, M-py); `unitPrice` when sent, else the line over the quantity.
    const unitPrice = lira(read.number('unitPrice', { from: item, field: field('unitPrice'), min: 0 })) ?? (lineTotal !== undefined && quantity ? Math.round((lineTotal / quantity) * 100) / 100 : undefined);
    const options = read.array('options', { from: item, field: field('options'), max: 100 }).map((option, optionIndex) => {
      const at = `items[${index}].options[${optionIndex}]`;
      const names = read.string('itemNames', { from: option, field: `${at}.itemNames`, max: 500 });
      const header = read.string('headerName', { from: option, field: `${at}.headerName`, max: 200 });
      const text = header && names && header !== names ? `${header}: ${names}` : names ?? header;
      return text && read.boolean('excluded', { from: option, field: `${at}.excluded` }) ? `without ${text}` : text;
    });
    return {
      platformProductId: read.string('productId', { from: item, field: field('productId'), max: 64 }) ?? read.string('id', { from: item, field: field('id'), max: 64 }),
      productName: read.string('name', { from: item, field: field('name'), max: 200 }),
      quantity,
      unitPrice,
      totalAmount: lineTotal,
      productNote: read.string('note', { from: item, field: field('note') }),
      features: joinParts(...options) || undefined,
    };
  });
  const customerName = read.string('customer.fullName', { max: 200 }) ?? joinWords(read.string('customer.firstName', { max: 100 }), read.string('customer.lastName', { max: 100 }));
  const address = joinParts(
    read.string('customer.deliveryAddress.detail', { max: 500 }),
    read.string('customer.deliveryAddress.district.name', { max: 100 }),
    read.string('customer.deliveryAddress.town.name', { max: 100 }),
    read.string('customer.deliveryAddress.city.name', { max: 100 }),
  );
  const direction = read.string('customer.deliveryAddress.direction', { max: 500 });
  const orderNote = read.string('extendedProperties.orderNote');
  const details = {
    customerName,
    customerPhone: read.string('customer.phoneNumber', { max: 40 }),
    deliveryAddress: address,
    deliveryLatitude: read.number('customer.deliveryAddress.geoLocation.latitude', { min: -90, max: 90 }),
    deliveryLongitude: read.number('customer.deliveryAddress.geoLocation.longitude', { min: -180, max: 180 }),
    paymentMethod: read.string('payment.type.name', { max: 100 }),
    // What the customer pays: the discounted total when there is one (M-js, M-py).
    total: lira(read.number('prices.discounted.amountAsPenny', { min: 0 })) || lira(read.number('prices.total.amountAsPenny', { min: 0 })),
    currency: 'TRY',
    notes: joinParts(orderNote, direction ? `Address directions: ${direction}` : undefined) || undefined,
    items,
  };
  if (!read.ok) return { ok: false, errors: read.errors };
  return {
    ok: true,
    kind: 'order',
    storeId: storeId!,
    order: {
      platformOrderId: id!,
      providerRestaurantId: storeId!,
      orderNumber: id!,
      // NEW_PENDING is the one status M shows on a new order; the restaurant approves it with VERIFY.
      state: 'new',
      scheduledDeliveryTime: null,
      details,
      platformData: { storeId: storeId!, storeGroupId, deliveryProvider, ...(userId ? { userId } : {}), ...(status ? { status } : {}) } satisfies PlatformDOrderData & { status?: string },
    },
  };
}
