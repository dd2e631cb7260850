import { FieldError } from './field-error';

export interface DeliveryCoordinates {
  deliveryLatitude?: number | null;
  deliveryLongitude?: number | null;
}

/** Both or neither: one coordinate alone cannot place the address, and geocoding would ignore it. */
export function checkDeliveryCoordinates(order: DeliveryCoordinates): FieldError[] {
  const { deliveryLatitude: latitude, deliveryLongitude: longitude } = order;
  const hasLatitude = latitude !== undefined && latitude !== null;
  const hasLongitude = longitude !== undefined && longitude !== null;
  if (hasLatitude !== hasLongitude) {
    return hasLatitude
      ? [{ field: 'deliveryLongitude', message: 'must be given together with deliveryLatitude' }]
      : [{ field: 'deliveryLatitude', message: 'must be given together with deliveryLongitude' }];
  }
  if (!hasLatitude) return [];
  return [...checkRange(latitude, 'deliveryLatitude', 90), ...checkRange(longitude, 'deliveryLongitude', 180)];
}

function checkRange(value: number | null | undefined, field: string, limit: number): FieldError[] {
  if (typeof value !== 'number' || !Number.isFinite(value)) return [{ field, message: 'must be a finite number' }];
  return value < -limit || value > limit ? [{ field, message: `must be between -${limit} and ${limit}` }] : [];
}
