import type { OrderDetails, OrderItemPayload } from '@courier/contracts';
import { DEFAULT_CURRENCY } from '@courier/domain';
import type { Coordinates } from '../geocoding/geocoder';

const OPTIONAL_ORDER_FIELDS = [
  'customerPhone',
  'customerEmail',
  'scheduledDeliveryTime',
  'paymentMethod',
  'paymentCaptured',
  'subtotal',
  'deliveryFee',
  'serviceFee',
  'discount',
  'taxAmount',
  'total',
  'notes',
] as const;
const ITEM_FIELDS = ['productCode', 'productName', 'quantity', 'unitPrice', 'totalAmount', 'discountAmount', 'productNote', 'features'] as const;

/** The coordinates the sender gave (both or neither, as validation ensured). */
export function senderCoordinates(payload: Record<string, unknown>): Coordinates | undefined {
  const { deliveryLatitude: latitude, deliveryLongitude: longitude } = payload;
  return typeof latitude === 'number' && typeof longitude === 'number' ? { latitude, longitude } : undefined;
}

/**
 * order.created's `details` from a validated payload: fields given as null are left out, currency
 * defaults to TRY and items to [], and the coordinates are the sender's or the geocoder's.
 */
export function orderDetails(payload: Record<string, unknown>, coordinates: Coordinates | undefined): OrderDetails {
  const details: Record<string, unknown> = {
    customerName: payload.customerName,
    deliveryAddress: payload.deliveryAddress,
    currency: typeof payload.currency === 'string' ? payload.currency : DEFAULT_CURRENCY,
    items: Array.isArray(payload.items) ? payload.items.map((item) => pickGiven(item as Record<string, unknown>, ITEM_FIELDS) as OrderItemPayload) : [],
    ...pickGiven(payload, OPTIONAL_ORDER_FIELDS),
  };
  if (coordinates) {
    details.deliveryLatitude = coordinates.latitude;
    details.deliveryLongitude = coordinates.longitude;
  }
  return details as unknown as OrderDetails;
}

function pickGiven(source: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) {
    if (source[field] !== undefined && source[field] !== null) picked[field] = source[field];
  }
  return picked;
}
