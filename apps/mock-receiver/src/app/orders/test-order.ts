import { randomBytes } from 'node:crypto';
import type { components } from './intake-api.openapi';

/** The order as the published intake document (docs/openapi/intake-api.json) describes it. */
export type IntakeOrder = components['schemas']['ThirdPartyOrderDto'];
type IntakeOrderItem = components['schemas']['ThirdPartyOrderItemDto'];

/**
 * The document's fields, each optional and an enum widened to its base type: a test order carries
 * its values as given, valid or not, so that the service's validation can be tested.
 */
type AsGiven<T> = { [K in keyof T]?: NonNullable<T[K]> extends string ? string : NonNullable<T[K]> extends number ? number : T[K] };

/** An item of the Order of interface.md. */
export type TestOrderItem = AsGiven<IntakeOrderItem>;

/** The Order of interface.md, as the receiver sends it to the intake endpoint. */
export type TestOrder = Omit<AsGiven<IntakeOrder>, 'orderId' | 'items'> & { orderId: string; items?: TestOrderItem[] };

export type TestOrderInput = Partial<Omit<TestOrder, 'restaurantId'>>;

/** Prices include 10 % VAT (food in Turkey); taxAmount is the VAT part of total. */
export const VAT_RATE = 0.1;

const DEFAULT_ITEMS: TestOrderItem[] = [
  { productCode: 'ADN-001', productName: 'Adana Kebap (porsiyon)', quantity: 2, unitPrice: 285, discountAmount: 0, features: 'Acılı, soğansız' },
  { productCode: 'AYR-300', productName: 'Ayran 300 ml', quantity: 2, unitPrice: 35, discountAmount: 0 },
  { productCode: 'KNF-010', productName: 'Künefe', quantity: 1, unitPrice: 160, discountAmount: 16, productNote: 'Kaymaklı olsun' },
];

const DEFAULT_CUSTOMER = {
  customerName: 'Ayşe Yılmaz',
  customerPhone: '+905321234567',
  customerEmail: 'ayse.yilmaz@example.com',
  deliveryAddress: 'Caferağa Mah. Moda Cad. No: 12 Daire: 3, 34710 Kadıköy/İstanbul',
  deliveryLatitude: 40.98731,
  deliveryLongitude: 29.02593,
  notes: 'Zile basmayın, kapıya bırakın lütfen.',
} satisfies TestOrderInput;

const DEFAULT_FEES = { deliveryFee: 29.9, serviceFee: 4.99, discount: 0 } satisfies TestOrderInput;

const cents = (amount: number) => Math.round(amount * 100);
const fromCents = (amount: number) => amount / 100;

/** A fresh order id: `mock-<yyyymmdd>-<10 hex>`. */
export function freshOrderId(now: Date = new Date()): string {
  return `mock-${now.toISOString().slice(0, 10).replace(/-/g, '')}-${randomBytes(5).toString('hex')}`;
}

function completeItem(item: TestOrderItem): TestOrderItem {
  if (item.totalAmount !== undefined || typeof item.quantity !== 'number' || typeof item.unitPrice !== 'number') return { ...item };
  return { ...item, totalAmount: fromCents(Math.round(item.quantity * cents(item.unitPrice)) - cents(item.discountAmount ?? 0)) };
}

/**
 * The order POST /api/send-order sends: the fields given, the default order for the rest, a fresh
 * orderId, and every total that was not given computed so that they add up:
 * subtotal = sum of item totals, total = subtotal + deliveryFee + serviceFee - discount.
 * Given values are sent as they are, even when they do not add up (to test the service).
 */
export function buildTestOrder(input: TestOrderInput, restaurantId: string, now: Date = new Date()): TestOrder {
  const items = (input.items ?? DEFAULT_ITEMS).map(completeItem);
  const subtotal = input.subtotal ?? fromCents(items.reduce((sum, item) => sum + cents(item.totalAmount ?? 0), 0));
  const deliveryFee = input.deliveryFee ?? DEFAULT_FEES.deliveryFee;
  const serviceFee = input.serviceFee ?? DEFAULT_FEES.serviceFee;
  const discount = input.discount ?? DEFAULT_FEES.discount;
  const total = input.total ?? fromCents(cents(subtotal) + cents(deliveryFee) + cents(serviceFee) - cents(discount));
  const taxAmount = input.taxAmount ?? fromCents(Math.round((cents(total) * VAT_RATE) / (1 + VAT_RATE)));
  const paymentMethod = input.paymentMethod ?? 'ONLINE_PREPAID';
  const { orderId, items: _items, ...given } = input;
  return {
    orderId: orderId ?? freshOrderId(now),
    ...(restaurantId ? { restaurantId } : {}),
    ...DEFAULT_CUSTOMER,
    ...given,
    paymentMethod,
    paymentCaptured: input.paymentCaptured ?? paymentMethod === 'ONLINE_PREPAID',
    subtotal,
    deliveryFee,
    serviceFee,
    discount,
    taxAmount,
    total,
    currency: input.currency ?? 'TRY',
    items,
  };
}
