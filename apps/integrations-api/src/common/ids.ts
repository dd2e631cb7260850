import { randomBytes } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RESTAURANT_ID = /^rest_[A-Za-z0-9_-]{20,64}$/;

/** Canonical UUID text only: anything else is an id that cannot exist (a 404, not a 400). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

export function isRestaurantId(value: unknown): value is string {
  return typeof value === 'string' && RESTAURANT_ID.test(value);
}

/** `rest_` + 24 url-safe characters (18 random bytes, 144 bits). */
export function newRestaurantId(): string {
  return `rest_${randomBytes(18).toString('base64url')}`;
}
