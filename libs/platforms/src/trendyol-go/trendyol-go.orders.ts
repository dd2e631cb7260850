import type { ParsedPlatformOrder, PlatformOrderItem } from '../common/platform-adapter';
import { isRecord, joinParts, joinWords, PayloadReader } from '../common/payload-reader';
import { PLATFORM_C_ADDRESS_PLACEHOLDER, PLATFORM_C_PACKAGE_ID_MAX_LENGTH, PLATFORM_C_PICKUP_FIELD, PLATFORM_C_TEST_PACKAGE_FIELD, platformCIsModel2, platformCOrderState } from './trendyol-go.assumptions';

/** What PLATFORM_C status calls need later, stored with the order. */
export interface PlatformCOrderData {
  deliveryType?: string;
  /** The packageItemId of every item not already cancelled: `unsupplied` cancels them all. */
  packageItemIds: string[];
  packageStatus?: string;
  preparationTime?: number;
  packageModificationDate?: number;
  /** `storePickupSelected: true`: the customer collects it (no manual-shipped / manual-delivered). */
  storePickup?: boolean;
}

/**
 * A package of `GET /integrator/order/meal/suppliers/{supplierId}/packages` (examples in
 * simulators/platform-c/examples): `id` (a string of up to 64 characters), `orderNumber`, `orderCode`,
 * `packageStatus`, `storeId` (a number), `deliveryType` (GO or STORE), `customer { firstName, lastName }`,
 * `address { address1, address2, neighborhood, district, city, latitude, longitude, phone }`,
 * `lines [{ productId, name, price, unitSellingPrice, items [{ packageItemId, lineItemId, isCancelled }] }]`
 * (one item per unit; no field of the restaurant's own code), `totalPrice`, `customerNote`, `preparationTime`, `packageModificationDate`,
 * `cancelInfo { reasonCode, reason }`.
 */
export function parsePlatformCPackage(body: unknown): ParsedPlatformOrder {
  const read = new PayloadReader(body);
  if (!read.ok) return { ok: false, errors: read.errors };
  const id = read.string('id', { required: true, max: PLATFORM_C_PACKAGE_ID_MAX_LENGTH });
  const storeId = read.string('storeId', { required: true, max: 128 });
  const packageStatus = read.string('packageStatus', { max: 40 });
  const orderNumber = read.string('orderNumber', { max: 64 });
  const lines = read.array('lines', { max: 200 });
  const packageItemIds: string[] = [];
  const items: PlatformOrderItem[] = lines.map((line, index) => {
    const field = `lines[${index}]`;
    const lineItems = read.array('items', { from: line, field: `${field}.items`, max: 200 });
    let quantity = 0;
    lineItems.forEach((item, itemIndex) => {
      const itemId = read.string('packageItemId', { from: item, field: `${field}.items[${itemIndex}].packageItemId`, required: true, max: 64 });
      if (read.boolean('isCancelled', { from: item, field: `${field}.items[${itemIndex}].isCancelled` })) return;
      quantity += 1;
      if (itemId !== undefined) packageItemIds.push(itemId);
    });
    const unitPrice = read.number('unitSellingPrice', { from: line, field: `${field}.unitSellingPrice`, min: 0 }) ?? read.number('price', { from: line, field: `${field}.price`, min: 0 });
    return {
      platformProductId: read.string('productId', { from: line, field: `${field}.productId`, max: 64 }),
      productName: read.string('name', { from: line, field: `${field}.name`, max: 200 }),
      quantity,
      unitPrice,
      totalAmount: unitPrice !== undefined ? Math.round(unitPrice * quantity * 100) / 100 : undefined,
    };
  });
  const deliveryType = read.string('deliveryType', { max: 20 }) ?? read.string('deliveryModel', { max: 20 });
  const customerPhone = read.string('address.phone', { max: 40 });
  const callCenterPhone = read.string('callCenterPhone', { max: 40 });
  const address1 = read.string('address.address1', { max: 300 });
  const model2 = platformCIsModel2(deliveryType);
  const pickup = flag(body, PLATFORM_C_PICKUP_FIELD);
  const test = flag(body, PLATFORM_C_TEST_PACKAGE_FIELD);
  const details = {
    customerName: joinWords(read.string('customer.firstName', { max: 100 }), read.string('customer.lastName', { max: 100 })),
    customerPhone,
    deliveryAddress: joinParts(
      address1,
      read.string('address.address2', { max: 300 }),
      read.string('address.neighborhood', { max: 100 }),
      read.string('address.district', { max: 100 }),
      read.string('address.city', { max: 100 }),
    ),
    deliveryLatitude: read.number('address.latitude', { min: -90, max: 90 }),
    deliveryLongitude: read.number('address.longitude', { min: -180, max: 180 }),
    total: read.number('totalPrice', { min: 0 }),
    currency: 'TRY',
    notes: read.string('customerNote'),
    items,
    ...(pickup ? { pickup: true } : {}),
    ...(model2 || (address1 !== undefined && PLATFORM_C_ADDRESS_PLACEHOLDER.test(address1)) ? { deliveryAddressPlaceholder: true } : {}),
    ...(customerPhone !== undefined && (model2 || customerPhone === callCenterPhone) ? { customerPhoneProxy: true } : {}),
  };
  const preparationTime = read.number('preparationTime', { min: 0, max: 1440 });
  const packageModificationDate = read.number('packageModificationDate', { min: 0 });
  const cancelReason = joinWords(read.string('cancelInfo.reasonCode', { max: 20 }), read.string('cancelInfo.reason', { max: 300 }));
  if (!read.ok) return { ok: false, errors: read.errors };
  return {
    ok: true,
    order: {
      platformOrderId: id!,
      providerRestaurantId: storeId!,
      orderNumber: orderNumber ?? id!,
      state: platformCOrderState(packageStatus),
      scheduledDeliveryTime: null,
      details,
      platformData: { deliveryType, packageItemIds, packageStatus, preparationTime, packageModificationDate, ...(pickup ? { storePickup: true } : {}) } satisfies PlatformCOrderData,
      cancelNote: packageStatus ? `package ${packageStatus} on the platform${cancelReason ? ` (${cancelReason})` : ''}` : undefined,
      ...(test ? { test: true } : {}),
    },
  };
}

/** A package flag: set when `true` (also the text "true": a flag is never a reason to drop a package). */
function flag(body: unknown, field: string): boolean {
  const value = isRecord(body) ? body[field] : undefined;
  return value === true || value === 'true';
}
