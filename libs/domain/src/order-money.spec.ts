import fc from 'fast-check';
import { checkCurrency, checkItemMoney, checkOrderMoney, expectedItemTotal } from './order-money';

const fields = (errors: { field: string }[]) => errors.map((error) => error.field);

describe('order money', () => {
  describe('expectedItemTotal', () => {
    it('is quantity x unitPrice - discountAmount', () => {
      expect(expectedItemTotal({ quantity: 2, unitPrice: 10, discountAmount: 3 })).toBe(17);
    });

    it('counts a missing discount as 0', () => {
      expect(expectedItemTotal({ quantity: 2, unitPrice: 10 })).toBe(20);
    });

    it('is undefined without quantity or unit price', () => {
      expect(expectedItemTotal({ unitPrice: 10 })).toBeUndefined();
      expect(expectedItemTotal({ quantity: 2 })).toBeUndefined();
      expect(expectedItemTotal({ quantity: 2, unitPrice: null })).toBeUndefined();
    });
  });

  describe('item total', () => {
    const check = (totalAmount: number, item: { quantity: number; unitPrice: number; discountAmount?: number }) =>
      checkItemMoney({ ...item, totalAmount }, 'items[0]');

    it('accepts the exact total', () => {
      expect(check(17, { quantity: 2, unitPrice: 10, discountAmount: 3 })).toEqual([]);
    });

    it('accepts a total exactly one cent off, either way', () => {
      expect(check(17.01, { quantity: 2, unitPrice: 10, discountAmount: 3 })).toEqual([]);
      expect(check(16.99, { quantity: 2, unitPrice: 10, discountAmount: 3 })).toEqual([]);
    });

    it('refuses a total more than one cent off', () => {
      expect(check(17.011, { quantity: 2, unitPrice: 10, discountAmount: 3 })).toEqual([
        { field: 'items[0].totalAmount', message: 'must equal quantity x unitPrice - discountAmount (17) within 0.01' },
      ]);
      expect(fields(check(16.98, { quantity: 2, unitPrice: 10, discountAmount: 3 }))).toEqual(['items[0].totalAmount']);
    });

    it('accepts exactly one cent off although binary floating point makes it a hair more', () => {
      expect(Math.abs(17.01 - 17)).toBeGreaterThan(0.01);
      expect(check(17.01, { quantity: 1, unitPrice: 17 })).toEqual([]);
      expect(check(1.01, { quantity: 1, unitPrice: 1 })).toEqual([]);
      expect(check(100.01, { quantity: 1, unitPrice: 100 })).toEqual([]);
    });

    it('absorbs 3 x 1.15, which comes out as 3.4499999999999997', () => {
      expect(3 * 1.15).not.toBe(3.45);
      expect(check(3.45, { quantity: 3, unitPrice: 1.15 })).toEqual([]);
      expect(check(3.46, { quantity: 3, unitPrice: 1.15 })).toEqual([]);
      expect(check(3.44, { quantity: 3, unitPrice: 1.15 })).toEqual([]);
      expect(fields(check(3.47, { quantity: 3, unitPrice: 1.15 }))).toEqual(['items[0].totalAmount']);
      expect(fields(check(3.43, { quantity: 3, unitPrice: 1.15 }))).toEqual(['items[0].totalAmount']);
    });

    it('absorbs 0.1 x 3 and 1.15 x 100', () => {
      expect(check(0.3, { quantity: 3, unitPrice: 0.1 })).toEqual([]);
      expect(check(0.31, { quantity: 3, unitPrice: 0.1 })).toEqual([]);
      expect(check(115, { quantity: 100, unitPrice: 1.15 })).toEqual([]);
      expect(check(115.01, { quantity: 100, unitPrice: 1.15 })).toEqual([]);
      expect(check(114.99, { quantity: 100, unitPrice: 1.15 })).toEqual([]);
    });

    it('refuses 1.1 cents off', () => {
      expect(fields(check(17.011, { quantity: 1, unitPrice: 17 }))).toEqual(['items[0].totalAmount']);
      expect(fields(check(16.989, { quantity: 1, unitPrice: 17 }))).toEqual(['items[0].totalAmount']);
    });

    it('accepts a decimal quantity rounded to the cent', () => {
      // 0.333 kg at 45.50 is 15.1515
      expect(check(15.15, { quantity: 0.333, unitPrice: 45.5 })).toEqual([]);
      expect(check(15.16, { quantity: 0.333, unitPrice: 45.5 })).toEqual([]);
      expect(fields(check(15.17, { quantity: 0.333, unitPrice: 45.5 }))).toEqual(['items[0].totalAmount']);
    });

    it('holds at large amounts too', () => {
      expect(check(12_345_678.91, { quantity: 1, unitPrice: 12_345_678.9 })).toEqual([]);
      expect(fields(check(12_345_678.93, { quantity: 1, unitPrice: 12_345_678.9 }))).toEqual(['items[0].totalAmount']);
    });

    it('refuses a total that ignores the discount', () => {
      expect(fields(check(20, { quantity: 2, unitPrice: 10, discountAmount: 3 }))).toEqual(['items[0].totalAmount']);
    });

    it('accepts a zero-priced item', () => {
      expect(check(0, { quantity: 1, unitPrice: 0 })).toEqual([]);
    });

    it('does not compare when quantity or unit price is missing', () => {
      expect(checkItemMoney({ unitPrice: 10, totalAmount: 999 }, 'items[0]')).toEqual([]);
      expect(checkItemMoney({ quantity: 1, totalAmount: 999 }, 'items[0]')).toEqual([]);
      expect(checkItemMoney({}, 'items[0]')).toEqual([]);
    });

    it('compares a discount larger than the line as a mismatch, not a negative total', () => {
      expect(fields(check(0, { quantity: 1, unitPrice: 5, discountAmount: 6 }))).toEqual(['items[0].totalAmount']);
    });
  });

  describe('item fields', () => {
    it('refuses a quantity of 0 or less', () => {
      expect(checkItemMoney({ quantity: 0 }, 'items[2]')).toEqual([{ field: 'items[2].quantity', message: 'must be greater than 0' }]);
      expect(fields(checkItemMoney({ quantity: -1 }, 'items[2]'))).toEqual(['items[2].quantity']);
    });

    it('refuses negative money fields and skips the total comparison then', () => {
      expect(checkItemMoney({ quantity: 1, unitPrice: -5, totalAmount: -5, discountAmount: -0.01 }, 'items[0]')).toEqual([
        { field: 'items[0].unitPrice', message: 'must not be negative' },
        { field: 'items[0].totalAmount', message: 'must not be negative' },
        { field: 'items[0].discountAmount', message: 'must not be negative' },
      ]);
    });

    it('refuses values that are not finite numbers', () => {
      expect(checkItemMoney({ quantity: NaN, unitPrice: Infinity }, 'items[0]')).toEqual([
        { field: 'items[0].quantity', message: 'must be a finite number' },
        { field: 'items[0].unitPrice', message: 'must be a finite number' },
      ]);
    });
  });

  describe('checkOrderMoney', () => {
    it('accepts an empty order', () => {
      expect(checkOrderMoney({})).toEqual([]);
    });

    it('accepts a full valid order', () => {
      expect(
        checkOrderMoney({
          subtotal: 100,
          deliveryFee: 10,
          serviceFee: 0,
          discount: 5,
          taxAmount: 8,
          total: 113,
          currency: 'TRY',
          items: [{ quantity: 2, unitPrice: 50, totalAmount: 100, discountAmount: 0 }],
        }),
      ).toEqual([]);
    });

    it('refuses every negative order money field, 0 is fine', () => {
      const errors = checkOrderMoney({ subtotal: -1, deliveryFee: -0.01, serviceFee: -2, discount: -3, taxAmount: -4, total: -5 });
      expect(fields(errors)).toEqual(['subtotal', 'deliveryFee', 'serviceFee', 'discount', 'taxAmount', 'total']);
      expect(checkOrderMoney({ subtotal: 0, deliveryFee: 0, serviceFee: 0, discount: 0, taxAmount: 0, total: 0 })).toEqual([]);
    });

    it('names the item by its index', () => {
      const errors = checkOrderMoney({ items: [{ quantity: 1, unitPrice: 1, totalAmount: 1 }, { quantity: 1, unitPrice: 1, totalAmount: 2 }] });
      expect(fields(errors)).toEqual(['items[1].totalAmount']);
    });

    it('checks the currency', () => {
      expect(checkOrderMoney({ currency: 'XYZ' })).toEqual([{ field: 'currency', message: 'must be an ISO 4217 currency code in upper case, such as TRY' }]);
      expect(checkOrderMoney({ currency: null })).toEqual([]);
    });
  });

  describe('checkCurrency', () => {
    it('accepts an absent currency (TRY is used) and an ISO code', () => {
      expect(checkCurrency(undefined)).toEqual([]);
      expect(checkCurrency('EUR')).toEqual([]);
    });

    it('refuses lower case, blanks and unknown codes', () => {
      for (const value of ['eur', '', 'TL', 'EURO']) expect(fields(checkCurrency(value))).toEqual(['currency']);
    });
  });

  describe('properties', () => {
    const cents = fc.integer({ min: 0, max: 10_000_000 }).map((value) => value / 100);
    const quantity = fc.integer({ min: 1, max: 100_000 }).map((value) => value / 1000);

    it('a total rounded to the cent always matches', () => {
      fc.assert(
        fc.property(quantity, cents, (qty, unitPrice) => {
          const discountAmount = Math.floor((qty * unitPrice * 100) / 2) / 100;
          const totalAmount = Math.round((qty * unitPrice - discountAmount) * 100) / 100;
          expect(checkItemMoney({ quantity: qty, unitPrice, discountAmount, totalAmount }, 'items[0]')).toEqual([]);
        }),
      );
    });

    it('a total two cents or more off never matches', () => {
      fc.assert(
        fc.property(quantity, cents, fc.integer({ min: 2, max: 100_000 }), fc.boolean(), (qty, unitPrice, offCents, up) => {
          const exact = qty * unitPrice;
          const totalAmount = exact + ((up ? 1 : -1) * offCents) / 100;
          fc.pre(totalAmount >= 0);
          expect(fields(checkItemMoney({ quantity: qty, unitPrice, totalAmount }, 'items[0]'))).toEqual(['items[0].totalAmount']);
        }),
      );
    });
  });
});
