import { FieldError } from './field-error';
import { isIsoCurrencyCode } from './iso-4217-currencies';

/** How far an item's totalAmount may be from quantity x unitPrice - discountAmount. */
export const ITEM_TOTAL_TOLERANCE = 0.01;

export interface ItemAmounts {
  quantity?: number | null;
  unitPrice?: number | null;
  totalAmount?: number | null;
  discountAmount?: number | null;
}

export interface OrderAmounts {
  subtotal?: number | null;
  deliveryFee?: number | null;
  serviceFee?: number | null;
  discount?: number | null;
  taxAmount?: number | null;
  total?: number | null;
  currency?: string | null;
  items?: readonly ItemAmounts[] | null;
}

const ORDER_MONEY_FIELDS = ['subtotal', 'deliveryFee', 'serviceFee', 'discount', 'taxAmount', 'total'] as const;
const ITEM_MONEY_FIELDS = ['unitPrice', 'totalAmount', 'discountAmount'] as const;

/** Money and currency checks of an order and its items; field paths as in `items[0].unitPrice`. */
export function checkOrderMoney(order: OrderAmounts): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of ORDER_MONEY_FIELDS) errors.push(...checkMoneyField(order[field], field));
  errors.push(...checkCurrency(order.currency));
  (order.items ?? []).forEach((item, index) => errors.push(...checkItemMoney(item, `items[${index}]`)));
  return errors;
}

/** An absent currency is fine (TRY is used); a given one must be an ISO 4217 code. */
export function checkCurrency(currency: string | null | undefined, field = 'currency'): FieldError[] {
  if (currency === undefined || currency === null) return [];
  return isIsoCurrencyCode(currency) ? [] : [{ field, message: 'must be an ISO 4217 currency code in upper case, such as TRY' }];
}

export function checkItemMoney(item: ItemAmounts, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (isGiven(item.quantity)) {
    if (!isFiniteNumber(item.quantity)) errors.push({ field: `${path}.quantity`, message: 'must be a finite number' });
    else if (item.quantity <= 0) errors.push({ field: `${path}.quantity`, message: 'must be greater than 0' });
  }
  for (const field of ITEM_MONEY_FIELDS) errors.push(...checkMoneyField(item[field], `${path}.${field}`));
  if (errors.length > 0) return errors;

  const expected = expectedItemTotal(item);
  if (expected !== undefined && isFiniteNumber(item.totalAmount) && !withinTolerance(item.totalAmount, expected)) {
    errors.push({
      field: `${path}.totalAmount`,
      message: `must equal quantity x unitPrice - discountAmount (${formatAmount(expected)}) within ${ITEM_TOTAL_TOLERANCE}`,
    });
  }
  return errors;
}

/** quantity x unitPrice - discountAmount (no discount counts as 0); undefined when quantity or price is missing. */
export function expectedItemTotal(item: ItemAmounts): number | undefined {
  if (!isFiniteNumber(item.quantity) || !isFiniteNumber(item.unitPrice)) return undefined;
  const discount = isFiniteNumber(item.discountAmount) ? item.discountAmount : 0;
  return item.quantity * item.unitPrice - discount;
}

function checkMoneyField(value: number | null | undefined, field: string): FieldError[] {
  if (!isGiven(value)) return [];
  if (!isFiniteNumber(value)) return [{ field, message: 'must be a finite number' }];
  return value < 0 ? [{ field, message: 'must not be negative' }] : [];
}

/**
 * Binary floating point makes 3 x 3.35 come out as 10.049999999999999, so the 0.01 bound gets a
 * slack far below a cent (scaled to the amounts): a difference of exactly one cent is accepted.
 */
function withinTolerance(actual: number, expected: number): boolean {
  const slack = 1e-9 * Math.max(1, Math.abs(actual), Math.abs(expected));
  return Math.abs(actual - expected) <= ITEM_TOTAL_TOLERANCE + slack;
}

function formatAmount(amount: number): string {
  return String(Math.round(amount * 1e6) / 1e6);
}

function isGiven<T>(value: T | null | undefined): value is T {
  return value !== undefined && value !== null;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
