import type { ParsedPlatformOrder, PlatformOrderItem } from '../platform-adapter';
import { joinParts, joinWords, PayloadReader } from '../common/payload-reader';
import { platformCOrderState } from './platform-c.assumptions';

/** What PLATFORM_C status calls need later, stored with the order. */
export interface PlatformCOrderData {
  deliveryType?: string;
  /** Every item id of the package (unsupplied cancels them all). */
  itemIds: number[];
  packageStatus?: string;
  preparationTime?: number;
}

/**
 * A package of `GET /integrator/order/meal/suppliers/{supplierId}/packages`: `id` (packageId),
 * `orderNumber`, `packageStatus`, `storeId`, `deliveryType` (GO or STORE), `customer { firstName,
 * lastName }`, `address { address1, address2, district, city, latitude, longitude, phone }`,
 * `lines [{ name, price, quantity?, items [{ id }] }]`, `totalPrice`, `customerNote`,
 * `preparationTime`, `packageModificationDate`, `isScheduled` / `scheduledDeliveryDate`.
 */
export function parsePlatformCPackage(body: unknown): ParsedPlatformOrder {
  const read = new PayloadReader(body);
  if (!read.ok) return { ok: false, errors: read.errors };
  const id = read.string('id', { required: true, max: 64 });
  const storeId = read.string('storeId', { required: true, max: 128 });
  const packageStatus = read.string('packageStatus', { max: 40 });
  const orderNumber = read.string('orderNumber', { max: 64 });
  const scheduled = read.date('scheduledDeliveryDate');
  const lines = read.array('lines', { max: 200 });
  const itemIds: number[] = [];
  const items: PlatformOrderItem[] = lines.map((line, index) => {
    const lineItems = read.array('items', { from: line, field: `lines[${index}].items`, max: 200 });
    lineItems.forEach((item, itemIndex) => {
      const itemId = read.number('id', { from: item, field: `lines[${index}].items[${itemIndex}].id`, min: 0 });
      if (itemId !== undefined) itemIds.push(itemId);
    });
    const unitPrice = read.number('price', { from: line, field: `lines[${index}].price`, min: 0 });
    const quantity = read.number('quantity', { from: line, field: `lines[${index}].quantity`, min: 0 }) ?? (lineItems.length || undefined);
    return {
      productCode: read.string('productId', { from: line, field: `lines[${index}].productId`, max: 64 }),
      productName: read.string('name', { from: line, field: `lines[${index}].name`, max: 200 }),
      quantity,
      unitPrice,
      totalAmount: unitPrice !== undefined && quantity !== undefined ? Math.round(unitPrice * quantity * 100) / 100 : undefined,
    };
  });
  const details = {
    customerName: joinWords(read.string('customer.firstName', { max: 100 }), read.string('customer.lastName', { max: 100 })),
    customerPhone: read.string('address.phone', { max: 40 }),
    deliveryAddress: joinParts(
      read.string('address.address1', { max: 300 }),
      read.string('address.address2', { max: 300 }),
      read.string('address.district', { max: 100 }),
      read.string('address.city', { max: 100 }),
    ),
    deliveryLatitude: read.number('address.latitude', { min: -90, max: 90 }),
    deliveryLongitude: read.number('address.longitude', { min: -180, max: 180 }),
    scheduledDeliveryTime: scheduled?.toISOString(),
    total: read.number('totalPrice', { min: 0 }),
    currency: 'TRY',
    notes: read.string('customerNote'),
    items,
  };
  const deliveryType = read.string('deliveryType', { max: 20 });
  const preparationTime = read.number('preparationTime', { min: 0, max: 1440 });
  if (!read.ok) return { ok: false, errors: read.errors };
  return {
    ok: true,
    order: {
      platformOrderId: id!,
      providerRestaurantId: storeId!,
      orderNumber: orderNumber ?? id!,
      state: platformCOrderState(packageStatus),
      scheduledDeliveryTime: scheduled ?? null,
      details,
      platformData: { deliveryType, itemIds, packageStatus, preparationTime } satisfies PlatformCOrderData,
      cancelNote: packageStatus ? `package ${packageStatus} on the platform` : undefined,
    },
  };
}
