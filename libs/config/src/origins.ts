import { ValidateBy, ValidationOptions } from 'class-validator';

/** Whether `value` is exactly an origin: scheme, host and port, nothing else (`http://127.0.0.1:4444`). */
export function isOrigin(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

/** A list (ToList) of exact origins. */
export function IsOriginList(options?: ValidationOptions) {
  return ValidateBy({ name: 'isOriginList', validator: { validate: (value: unknown) => Array.isArray(value) && value.every(isOrigin) } }, options);
}
