import { isISO8601, ValidateBy, ValidationOptions } from 'class-validator';

/**
 * An ISO 8601 date-time the service can use as a time: strict ISO 8601 that `Date` reads. The ISO
 * forms JavaScript cannot read (week and ordinal dates, the basic format, an hour without minutes)
 * pass IsISO8601 yet make an Invalid Date, which the database refuses with a 500.
 */
export function isDateTime(value: unknown): value is string {
  return typeof value === 'string' && isISO8601(value, { strict: true }) && !Number.isNaN(Date.parse(value));
}

export function IsDateTime(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isDateTime', validator: { validate: (value) => isDateTime(value), defaultMessage: () => 'must be an ISO 8601 date-time' } }, options);
}
