import { ProblemException } from '@courier/http';
import { requireOrderIdentity, validateOrder } from './order-validation';

const valid = () => ({
  orderId: 'ord-1',
  restaurantId: 'rest_abcdefghijklmnopqrstu',
  customerName: 'Ayşe',
  deliveryAddress: 'Bağdat Cd. 10',
  items: [{ productCode: 'SKU-1', quantity: 2, unitPrice: 150, totalAmount: 300 }],
});
const fieldsOf = (body: Record<string, unknown>) => validateOrder(body).map((error) => error.field);
const future = () => new Date(Date.now() + 3_600_000).toISOString();

describe('requireOrderIdentity (400 MISSING_REQUIRED_FIELD)', () => {
  it('needs orderId and restaurantId as non-empty strings', () => {
    expect(requireOrderIdentity(valid())).toEqual({ orderId: 'ord-1', restaurantId: 'rest_abcdefghijklmnopqrstu' });
    for (const [body, fields] of [
      [{}, ['orderId', 'restaurantId']],
      [{ restaurantId: 'r' }, ['orderId']],
      [{ orderId: '', restaurantId: 'r' }, ['orderId']],
      [{ orderId: 5, restaurantId: 'r' }, ['orderId']],
      [{ orderId: 'o', restaurantId: null }, ['restaurantId']],
    ] as Array<[Record<string, unknown>, string[]]>) {
      try {
        requireOrderIdentity(body);
        throw new Error('accepted');
      } catch (error) {
        expect(error).toBeInstanceOf(ProblemException);
        const problem = error as ProblemException;
        expect(problem.getStatus()).toBe(400);
        expect(problem.code).toBe('MISSING_REQUIRED_FIELD');
        expect(problem.errors?.map((entry) => entry.field)).toEqual(fields);
      }
    }
  });
});

describe('validateOrder (422)', () => {
  it('accepts a valid order, null for optional fields, and the documented bounds', () => {
    expect(validateOrder(valid())).toEqual([]);
    expect(validateOrder({ ...valid(), customerPhone: null, items: null, currency: null })).toEqual([]);
    expect(
      validateOrder({
        ...valid(),
        orderId: 'o'.repeat(64),
        customerName: 'n'.repeat(200),
        deliveryAddress: 'a'.repeat(500),
        notes: 'x'.repeat(1000),
        items: Array.from({ length: 200 }, () => ({ productNote: 'p'.repeat(1000), features: 'f'.repeat(1000) })),
        deliveryLatitude: -90,
        deliveryLongitude: 180,
        scheduledDeliveryTime: future(),
        paymentMethod: 'ONLINE_PREPAID',
        paymentCaptured: true,
        currency: 'EUR',
        subtotal: 0,
      }),
    ).toEqual([]);
  });

  it.each([
    ['customerName missing', { customerName: undefined }, 'customerName'],
    ['customerName blank', { customerName: '   ' }, 'customerName'],
    ['customerName not a string', { customerName: 7 }, 'customerName'],
    ['customerName too long', { customerName: 'n'.repeat(201) }, 'customerName'],
    ['deliveryAddress missing', { deliveryAddress: undefined }, 'deliveryAddress'],
    ['deliveryAddress empty', { deliveryAddress: '' }, 'deliveryAddress'],
    ['deliveryAddress too long', { deliveryAddress: 'a'.repeat(501) }, 'deliveryAddress'],
    ['orderId too long', { orderId: 'o'.repeat(65) }, 'orderId'],
    ['orderId with control characters', { orderId: 'a\nb' }, 'orderId'],
    ['restaurantId too long', { restaurantId: 'r'.repeat(65) }, 'restaurantId'],
    ['notes too long', { notes: 'x'.repeat(1001) }, 'notes'],
    ['customerPhone too long', { customerPhone: '1'.repeat(33) }, 'customerPhone'],
    ['customerEmail too long', { customerEmail: `${'e'.repeat(250)}@x.io` }, 'customerEmail'],
    ['too many items', { items: Array.from({ length: 201 }, () => ({})) }, 'items'],
    ['items not an array', { items: { productCode: 'x' } }, 'items'],
    ['item not an object', { items: [5] }, 'items'],
    ['item an array', { items: [[1]] }, 'items'],
    ['item productName too long', { items: [{ productName: 'p'.repeat(201) }] }, 'items[0].productName'],
    ['item productCode too long', { items: [{ productCode: 'p'.repeat(65) }] }, 'items[0].productCode'],
    ['item productNote too long', { items: [{ productNote: 'p'.repeat(1001) }] }, 'items[0].productNote'],
    ['item features too long', { items: [{ features: 'f'.repeat(1001) }] }, 'items[0].features'],
    ['item quantity zero', { items: [{ quantity: 0 }] }, 'items[0].quantity'],
    ['item quantity negative', { items: [{ quantity: -1 }] }, 'items[0].quantity'],
    ['item quantity a string', { items: [{ quantity: '2' }] }, 'items[0].quantity'],
    ['item unitPrice negative', { items: [{ unitPrice: -1 }] }, 'items[0].unitPrice'],
    ['item totalAmount off by more than 0.01', { items: [{ quantity: 2, unitPrice: 150, totalAmount: 300.02 }] }, 'items[0].totalAmount'],
    ['item totalAmount ignoring the discount', { items: [{ quantity: 2, unitPrice: 150, discountAmount: 10, totalAmount: 300 }] }, 'items[0].totalAmount'],
    ['unknown item field', { items: [{ colour: 'red' }] }, 'items[0].colour'],
    ['latitude out of range', { deliveryLatitude: 90.5, deliveryLongitude: 0 }, 'deliveryLatitude'],
    ['longitude out of range', { deliveryLatitude: 0, deliveryLongitude: -180.5 }, 'deliveryLongitude'],
    ['latitude without longitude', { deliveryLatitude: 41 }, 'deliveryLongitude'],
    ['longitude without latitude', { deliveryLongitude: 29 }, 'deliveryLatitude'],
    ['latitude a string', { deliveryLatitude: '41', deliveryLongitude: 29 }, 'deliveryLatitude'],
    ['negative subtotal', { subtotal: -0.01 }, 'subtotal'],
    ['negative deliveryFee', { deliveryFee: -1 }, 'deliveryFee'],
    ['negative serviceFee', { serviceFee: -1 }, 'serviceFee'],
    ['negative discount', { discount: -1 }, 'discount'],
    ['negative taxAmount', { taxAmount: -1 }, 'taxAmount'],
    ['negative total', { total: -1 }, 'total'],
    ['total a string', { total: '10' }, 'total'],
    ['currency not ISO 4217', { currency: 'XXY' }, 'currency'],
    ['currency in lower case', { currency: 'try' }, 'currency'],
    ['paymentMethod unknown', { paymentMethod: 'CHEQUE' }, 'paymentMethod'],
    ['paymentCaptured not a boolean', { paymentCaptured: 'yes' }, 'paymentCaptured'],
    ['scheduledDeliveryTime without offset', { scheduledDeliveryTime: '2099-01-31T18:30:00' }, 'scheduledDeliveryTime'],
    ['scheduledDeliveryTime in the past', { scheduledDeliveryTime: '2020-01-31T18:30:00+03:00' }, 'scheduledDeliveryTime'],
    ['scheduledDeliveryTime not a date', { scheduledDeliveryTime: 'tomorrow' }, 'scheduledDeliveryTime'],
    ['unknown field', { tip: 5 }, 'tip'],
    ['NUL in a string', { notes: 'a\u0000b' }, 'notes'],
    ['unpaired surrogate', { items: [{ productName: 'a\ud800b' }] }, 'items[0].productName'],
  ])('refuses %s', (_case, changes, field) => {
    const body = { ...valid(), ...changes };
    for (const [key, value] of Object.entries(changes)) if (value === undefined) delete (body as Record<string, unknown>)[key];
    const errors = validateOrder(body);
    expect(errors.map((error) => error.field)).toContain(field);
    for (const error of errors) expect(typeof error.message).toBe('string');
  });

  it('lists every problem once, DTO and domain rules together', () => {
    const fields = fieldsOf({ ...valid(), customerName: '', subtotal: 'ten', currency: 'xx', items: [{ quantity: 0, unitPrice: -2 }] });
    expect(fields.sort()).toEqual(['currency', 'customerName', 'items[0].quantity', 'items[0].unitPrice', 'subtotal'].sort());
  });
});
