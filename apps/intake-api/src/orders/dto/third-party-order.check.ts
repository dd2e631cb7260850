import { forbiddenCharacterIn, normalisedOrSame } from '@courier/domain';
import { isFutureOffsetDateTime, NOT_BLANK, ORDER_LIMITS, PAYMENT_METHODS } from './third-party-order.dto';

/**
 * The rules of ThirdPartyOrderDto (and ThirdPartyOrderItemDto) as plain code, for the hot path:
 * true only when class-transformer + class-validator, with the options order-validation.ts uses,
 * would find nothing to report. When it says false the DTO is asked, so every 422 still lists
 * class-validator's errors and messages; it never says true where the DTO would refuse
 * (third-party-order.check.spec.ts compares the two on generated bodies).
 *
 * Deliberately stricter in one place: lengths are UTF-16 code units here, while MaxLength counts
 * a surrogate pair (and drops U+FE0E/U+FE0F); a string within the limit only by that count goes
 * to the DTO.
 */
export function conformsToOrderDto(body: Record<string, unknown>): boolean {
  for (const key in body) {
    const rule = ORDER_RULES.get(key);
    if (rule === undefined || !rule(body[key])) return false;
  }
  // Required fields: an absent one never went through its rule above.
  return body.orderId !== undefined && body.restaurantId !== undefined && body.customerName !== undefined && body.deliveryAddress !== undefined;
}

type Rule = (value: unknown) => boolean;

const absent = (value: unknown) => value === undefined || value === null;
/** IsString + MaxLength, and the Matches patterns given. */
const string =
  (max: number, ...patterns: RegExp[]): Rule =>
  (value) =>
    typeof value === 'string' && value.length <= max && patterns.every((pattern) => pattern.test(value));
/** IsOptional in front of a rule: null and undefined skip it. */
const optional =
  (rule: Rule): Rule =>
  (value) =>
    absent(value) || rule(value);
/** IsNumber({ allowNaN: false, allowInfinity: false }). */
const finiteNumber: Rule = (value) => typeof value === 'number' && Number.isFinite(value);
const anyString: Rule = (value) => typeof value === 'string';
const paymentMethods: readonly unknown[] = PAYMENT_METHODS;

const ITEM_RULES = new Map<string, Rule>([
  ['productCode', optional(string(ORDER_LIMITS.id))],
  ['productName', optional(string(ORDER_LIMITS.name))],
  ['quantity', optional(finiteNumber)],
  ['unitPrice', optional(finiteNumber)],
  ['totalAmount', optional(finiteNumber)],
  ['discountAmount', optional(finiteNumber)],
  ['productNote', optional(string(ORDER_LIMITS.text))],
  ['features', optional(string(ORDER_LIMITS.text))],
]);

/** IsObject + ValidateNested(ThirdPartyOrderItemDto), unknown fields refused. */
const item: Rule = (value) => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const fields = value as Record<string, unknown>;
  for (const key in fields) {
    const rule = ITEM_RULES.get(key);
    if (rule === undefined || !rule(fields[key])) return false;
  }
  return true;
};

/** IsArray + ArrayMaxSize + each item. */
const items: Rule = (value) => Array.isArray(value) && value.length <= ORDER_LIMITS.items && value.every(item);

const ORDER_RULES = new Map<string, Rule>([
  // NormalisedText: trimmed and NFC before MaxLength; control, bidi and zero-width characters refused.
  ['orderId', (value) => typeof value === 'string' && forbiddenCharacterIn(value) === undefined && normalisedOrSame(value).length <= ORDER_LIMITS.id],
  ['restaurantId', string(ORDER_LIMITS.id)],
  ['customerName', string(ORDER_LIMITS.name, NOT_BLANK)],
  ['customerPhone', optional(string(ORDER_LIMITS.phone))],
  ['customerEmail', optional(string(ORDER_LIMITS.email))],
  ['deliveryAddress', string(ORDER_LIMITS.address, NOT_BLANK)],
  ['deliveryLatitude', optional(finiteNumber)],
  ['deliveryLongitude', optional(finiteNumber)],
  ['scheduledDeliveryTime', optional((value) => typeof value === 'string' && isFutureOffsetDateTime(value))],
  ['paymentMethod', optional((value) => paymentMethods.includes(value))],
  ['paymentCaptured', optional((value) => typeof value === 'boolean')],
  ['subtotal', optional(finiteNumber)],
  ['deliveryFee', optional(finiteNumber)],
  ['serviceFee', optional(finiteNumber)],
  ['discount', optional(finiteNumber)],
  ['taxAmount', optional(finiteNumber)],
  ['total', optional(finiteNumber)],
  ['currency', optional(anyString)],
  ['notes', optional(string(ORDER_LIMITS.text))],
  ['items', optional(items)],
]);
