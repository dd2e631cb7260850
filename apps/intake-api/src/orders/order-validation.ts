import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ErrorCode, FieldError } from '@courier/contracts';
import { checkDeliveryCoordinates, checkOrderMoney, ItemAmounts, OrderAmounts } from '@courier/domain';
import { inspectInput, ProblemException, toFieldErrors, unknownFieldsBeyondCap } from '@courier/http';
import { conformsToOrderDto } from './dto/third-party-order.check';
import { ThirdPartyOrderDto, ThirdPartyOrderItemDto } from './dto/third-party-order.dto';

/** The two fields every later check needs, known to be non-empty strings. */
export interface OrderIdentity {
  orderId: string;
  restaurantId: string;
}

/** Step 4 of the check order: 400 MISSING_REQUIRED_FIELD when orderId or restaurantId is absent, blank or not a string. */
export function requireOrderIdentity(body: Record<string, unknown>): OrderIdentity {
  const missing = (['orderId', 'restaurantId'] as const).filter((field) => typeof body[field] !== 'string' || (body[field] as string).trim() === '');
  if (missing.length > 0) {
    throw new ProblemException(
      400,
      ErrorCode.MissingRequiredField,
      `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} required.`,
      missing.map((field) => ({ field, message: 'is required (a non-empty string)' })),
    );
  }
  return { orderId: body.orderId as string, restaurantId: body.restaurantId as string };
}

const MONEY_FIELDS = ['subtotal', 'deliveryFee', 'serviceFee', 'discount', 'taxAmount', 'total'] as const;

/**
 * Step 7: every field rule, as one `errors` list — the DTO's (types, lengths, enums, items,
 * unknown fields), then the domain's money, currency and coordinate rules for fields the DTO did
 * not already refuse, then strings PostgreSQL could not store and prototype keys (`__proto__`,
 * `constructor.prototype`). Empty when the order is valid.
 */
export function validateOrder(body: Record<string, unknown>): FieldError[] {
  // The DTO's rules as plain code first: class-transformer + class-validator on every order is a
  // large share of intake's CPU (measured: docs/benchmarks.md). The DTO itself only when something
  // is wrong, so the errors and their messages are always its own.
  const dtoErrors = conformsToOrderDto(body) ? [] : orderDtoErrors(body);
  const refused = new Set(dtoErrors.map((error) => error.field));
  const domainErrors = [...checkOrderMoney(amountsOf(body)), ...checkDeliveryCoordinates(body)].filter((error) => !refused.has(error.field));
  // Strings PostgreSQL cannot store and prototype keys (which class-transformer drops unreported): the check of every app.
  const input = inspectInput(body);
  return [...dtoErrors, ...domainErrors, ...input.unstorable, ...input.prototypeKeys];
}

/** ThirdPartyOrderDto's errors for `body` (class-transformer + class-validator; the unknown fields alone when they overflow the capped list, as the global pipe does). */
export function orderDtoErrors(body: Record<string, unknown>): FieldError[] {
  const unknownFields = unknownFieldsBeyondCap(ThirdPartyOrderDto, body, { items: ThirdPartyOrderItemDto });
  if (unknownFields) return unknownFields;
  return toFieldErrors(
    validateSync(plainToInstance(ThirdPartyOrderDto, body), {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      stopAtFirstError: true,
      validationError: { target: false, value: false },
    }),
  );
}

/** The money fields as the domain checks take them (items that are not objects are the DTO's to report). */
function amountsOf(body: Record<string, unknown>): OrderAmounts {
  const amounts: Record<string, unknown> = { currency: body.currency };
  for (const field of MONEY_FIELDS) amounts[field] = body[field];
  if (Array.isArray(body.items)) {
    amounts.items = body.items.map((item): ItemAmounts => (item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as ItemAmounts) : {}));
  }
  return amounts as OrderAmounts;
}
