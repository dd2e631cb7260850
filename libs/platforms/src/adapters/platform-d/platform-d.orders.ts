import type { FieldError } from '@courier/contracts';
import type { ParsedPlatformOrder, PlatformOrderItem } from '../platform-adapter';
import { PayloadReader } from '../common/payload-reader';
import { PLATFORM_D_EVENTS } from './platform-d.assumptions';

/** An event of PLATFORM_D's (assumed) order webhook: the merchant it is for and the order. */
export type PlatformDEvent =
  | { ok: true; eventType: 'ORDER_CREATED' | 'ORDER_CANCELLED'; merchantId: string; parsed: ParsedPlatformOrder & { ok: true } }
  | { ok: false; errors: FieldError[] };

/** Parses the assumed webhook body (platform-d.assumptions.ts). */
export function parsePlatformDEvent(body: unknown): PlatformDEvent {
  const read = new PayloadReader(body);
  if (!read.ok) return { ok: false, errors: read.errors };
  const eventType = read.string('eventType', { required: true, max: 40 });
  if (eventType !== undefined && eventType !== PLATFORM_D_EVENTS.created && eventType !== PLATFORM_D_EVENTS.cancelled) {
    read.errors.push({ field: 'eventType', message: `must be ${PLATFORM_D_EVENTS.created} or ${PLATFORM_D_EVENTS.cancelled}` });
  }
  const merchantId = read.string('merchantId', { required: true, max: 128 });
  const restaurantId = read.string('restaurantId', { required: true, max: 128 });
  const id = read.string('order.id', { required: true, max: 64 });
  const scheduledAt = read.date('order.scheduledAt');
  const items: PlatformOrderItem[] = read.array('order.items', { max: 200 }).map((item, index) => ({
    productCode: read.string('id', { from: item, field: `order.items[${index}].id`, max: 64 }),
    productName: read.string('name', { from: item, field: `order.items[${index}].name`, max: 200 }),
    quantity: read.number('quantity', { from: item, field: `order.items[${index}].quantity`, min: 0 }),
    unitPrice: read.number('unitPrice', { from: item, field: `order.items[${index}].unitPrice`, min: 0 }),
    totalAmount: read.number('totalPrice', { from: item, field: `order.items[${index}].totalPrice`, min: 0 }),
    productNote: read.string('note', { from: item, field: `order.items[${index}].note` }),
  }));
  const details = {
    customerName: read.string('order.customer.name', { max: 200 }) ?? '',
    customerPhone: read.string('order.customer.phone', { max: 40 }),
    deliveryAddress: read.string('order.address.text', { max: 500 }) ?? '',
    deliveryLatitude: read.number('order.address.latitude', { min: -90, max: 90 }),
    deliveryLongitude: read.number('order.address.longitude', { min: -180, max: 180 }),
    scheduledDeliveryTime: scheduledAt?.toISOString(),
    paymentMethod: read.string('order.paymentMethod', { max: 100 }),
    total: read.number('order.totalPrice', { min: 0 }),
    currency: read.string('order.currency', { max: 3 }) ?? 'TRY',
    notes: read.string('order.note'),
    items,
  };
  const orderNumber = read.string('order.orderNumber', { max: 64 });
  const status = read.string('order.status', { max: 40 });
  const reason = read.string('reason');
  if (!read.ok) return { ok: false, errors: read.errors };
  const canceled = eventType === PLATFORM_D_EVENTS.cancelled;
  return {
    ok: true,
    eventType: eventType as 'ORDER_CREATED' | 'ORDER_CANCELLED',
    merchantId: merchantId!,
    parsed: {
      ok: true,
      order: {
        platformOrderId: id!,
        providerRestaurantId: restaurantId!,
        orderNumber: orderNumber ?? id!,
        state: canceled ? 'canceled' : status === 'accepted' ? 'accepted' : 'new',
        scheduledDeliveryTime: scheduledAt ?? null,
        details,
        platformData: { merchantId: merchantId! },
        cancelNote: reason,
      },
    },
  };
}
