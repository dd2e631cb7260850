const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Canonical UUID text only: anything else is an id that cannot exist (a 404, not a 400). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** A restaurant id as integrations-api issues them (`rest_` and 20-64 url-safe characters). */
export const RESTAURANT_ID = /^rest_[A-Za-z0-9_-]{20,64}$/;
