import fc from 'fast-check';
import { orderDtoErrors } from '../order-validation';
import { conformsToOrderDto } from './third-party-order.check';

const future = () => new Date(Date.now() + 86_400_000).toISOString();

/** Strings without surrogates or U+FE0E/U+FE0F, where both count lengths alike. */
const plainText = (maxLength: number, noisy: boolean) =>
  fc.string({ unit: noisy ? fc.constantFrom('a', 'ş', ' ', '\n', '\u0000', '\u007f', 'Z', '1') : fc.constantFrom('a', 'ş', 'Z', '1', ' '), minLength: noisy ? 0 : 1, maxLength });
/** Near a length limit: on both sides when noisy, else up to it. */
const around = (limit: number, noisy: boolean) => fc.integer({ min: Math.max(0, limit - 2), max: noisy ? limit + 2 : limit }).map((length) => 'x'.repeat(length));
const anything = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.double(), fc.string({ maxLength: 3 }), fc.constant([]), fc.constant({}), fc.constant([1]));
const money = fc.oneof(fc.integer({ min: -5, max: 500 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -10, max: 1000 }));

type Model = Record<string, fc.Arbitrary<unknown>>;

/** Conforming fields, with zero to two of them taken from the noisy model instead. */
function fewMistakes(quiet: Model, noisy: Model) {
  const keys = Object.keys(quiet);
  return fc.tuple(fc.record(quiet, { requiredKeys: [] }), fc.record(noisy, { requiredKeys: [] }), fc.subarray(keys, { minLength: 0, maxLength: 2 })).map(([good, bad, mistaken]) => {
    const body: Record<string, unknown> = { ...good };
    for (const key of mistaken) body[key] = (bad as Record<string, unknown>)[key];
    return body;
  });
}

/**
 * The fields of an order: `noisy` ones mix in values of the wrong type, too long or blank strings,
 * control characters, unknown fields and missing required fields; quiet ones mostly conform.
 */
function orderModel(noisy: boolean): Model {
  const optionalField = <T>(value: fc.Arbitrary<T>) =>
    fc.option(noisy ? fc.oneof({ weight: 2, arbitrary: value }, { weight: 1, arbitrary: anything }) : value, { nil: undefined, freq: 3 });
  const requiredField = <T>(value: fc.Arbitrary<T>) => (noisy ? fc.oneof(value, anything, fc.constant(undefined)) : value);
  const unknown = <T>(value: T) => (noisy ? fc.option(fc.constant(value), { nil: undefined, freq: 2 }) : fc.constant(undefined));
  const text = (short: number, limit: number) => fc.oneof(plainText(short, noisy), around(limit, noisy));

  const itemModel = (noisyItem: boolean): Model => ({
    productCode: optionalField(text(4, 64)),
    productName: optionalField(text(4, 200)),
    quantity: optionalField(noisyItem ? money : fc.integer({ min: 1, max: 5 })),
    unitPrice: optionalField(money),
    totalAmount: optionalField(money),
    discountAmount: optionalField(money),
    productNote: optionalField(around(1000, noisy)),
    features: optionalField(around(1000, noisy)),
    colour: unknown('red'),
  });
  const item = noisy ? fc.oneof({ weight: 9, arbitrary: fewMistakes(itemModel(false), itemModel(true)) }, { weight: 1, arbitrary: anything }) : fc.record(itemModel(false), { requiredKeys: [] });
  const items = fc.array(item, { maxLength: 4 });
  return {
    orderId: requiredField(text(8, 64)),
    restaurantId: requiredField(text(8, 64)),
    customerName: requiredField(text(6, 200)),
    customerPhone: optionalField(text(4, 32)),
    customerEmail: optionalField(around(254, noisy)),
    deliveryAddress: requiredField(text(6, 500)),
    deliveryLatitude: optionalField(money),
    deliveryLongitude: optionalField(money),
    scheduledDeliveryTime: optionalField(noisy ? fc.constantFrom(future(), '2020-01-31T18:30:00+03:00', '2099-01-31T18:30:00', '2099-02-30T10:00:00Z', 'tomorrow') : fc.constant(future())),
    paymentMethod: optionalField(noisy ? fc.constantFrom('CASH', 'CARD_POS', 'ONLINE_PREPAID', 'CHEQUE', 'cash') : fc.constantFrom('CASH', 'CARD_POS', 'ONLINE_PREPAID')),
    paymentCaptured: optionalField(fc.boolean()),
    subtotal: optionalField(money),
    deliveryFee: optionalField(money),
    serviceFee: optionalField(money),
    discount: optionalField(money),
    taxAmount: optionalField(money),
    total: optionalField(money),
    currency: optionalField(fc.constantFrom('TRY', 'EUR', 'try', 'XXY')),
    notes: optionalField(around(1000, noisy)),
    items: optionalField(noisy ? fc.oneof(items, fc.constant(Array.from({ length: 201 }, () => ({})))) : items),
    tip: unknown(5),
  };
}
/** Order bodies with no, one or two mistakes in the DTO's terms (money and currency rules are the domain's, not checked here). */
const order = fewMistakes(orderModel(false), orderModel(true));

/** As the body arrives: parsed JSON (no undefined values). */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

describe('conformsToOrderDto', () => {
  it('agrees with ThirdPartyOrderDto (class-transformer + class-validator) on generated bodies', () => {
    let conforming = 0;
    fc.assert(
      fc.property(order, (generated) => {
        const body = asJson(generated);
        const conforms = conformsToOrderDto(body);
        expect({ conforms, errors: orderDtoErrors(body) }).toEqual(conforms ? { conforms, errors: [] } : { conforms, errors: expect.arrayContaining([expect.anything()]) });
        if (conforms) conforming += 1;
      }),
      { numRuns: 3000 },
    );
    // Both answers were exercised.
    expect(conforming).toBeGreaterThan(30);
  });

  it('never says yes where the DTO refuses, whatever the JSON', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('orderId', 'restaurantId', 'customerName', 'deliveryAddress', 'items', 'total', 'constructor', '__proto__', 'x'), fc.jsonValue({ maxDepth: 3 })), (generated) => {
        const body = asJson(generated);
        if (conformsToOrderDto(body)) expect(orderDtoErrors(body)).toEqual([]);
      }),
      { numRuns: 2000 },
    );
    for (const body of [
      { orderId: 'o', restaurantId: 'r', customerName: 'n', deliveryAddress: 'a', items: [{ productName: `${'😀'.repeat(150)}` }] },
      JSON.parse('{"orderId":"o","restaurantId":"r","customerName":"n","deliveryAddress":"a","__proto__":{"x":1}}') as Record<string, unknown>,
    ]) {
      if (conformsToOrderDto(body)) expect(orderDtoErrors(body)).toEqual([]);
    }
  });

  it('takes the benchmark order and the documented bounds', () => {
    const base = { orderId: 'order-1', restaurantId: 'rest_x', customerName: 'Ayşe Yılmaz', deliveryAddress: 'Bağdat Cd. 10' };
    for (const body of [
      { ...base, customerPhone: '+905321234567', deliveryLatitude: 40.98, deliveryLongitude: 29.05, paymentMethod: 'CARD_POS', subtotal: 300, deliveryFee: 20, total: 320, currency: 'TRY', items: [{ productCode: 'SKU-1', productName: 'Adana kebab', quantity: 2, unitPrice: 130, totalAmount: 260 }] },
      { ...base, orderId: 'o'.repeat(64), customerName: 'n'.repeat(200), deliveryAddress: 'a'.repeat(500), notes: 'x'.repeat(1000), items: Array.from({ length: 200 }, () => ({ productNote: 'p'.repeat(1000) })), scheduledDeliveryTime: future(), paymentCaptured: true, customerPhone: null, currency: null },
    ]) {
      expect(conformsToOrderDto(body)).toBe(true);
      expect(orderDtoErrors(body)).toEqual([]);
    }
    for (const change of [{ tip: 1 }, { orderId: 'a\nb' }, { customerName: ' ' }, { items: [{ colour: 'red' }] }, { items: [[]] }, { deliveryAddress: undefined }, { total: '1' }]) {
      const body = asJson({ ...base, ...change });
      expect(conformsToOrderDto(body)).toBe(false);
      expect(orderDtoErrors(body).length).toBeGreaterThan(0);
    }
  });
});
