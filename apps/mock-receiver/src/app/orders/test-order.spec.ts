import { buildTestOrder, freshOrderId, TestOrder } from './test-order';

const cents = (amount: number | undefined) => Math.round((amount ?? 0) * 100);

function expectTotalsAddUp(order: TestOrder) {
  for (const item of order.items ?? []) {
    expect(cents(item.totalAmount)).toBe(Math.round((item.quantity ?? 0) * cents(item.unitPrice)) - cents(item.discountAmount));
  }
  expect(cents(order.subtotal)).toBe((order.items ?? []).reduce((sum, item) => sum + cents(item.totalAmount), 0));
  expect(cents(order.total)).toBe(cents(order.subtotal) + cents(order.deliveryFee) + cents(order.serviceFee) - cents(order.discount));
}

describe('buildTestOrder', () => {
  it('builds a realistic default order whose totals add up', () => {
    const order = buildTestOrder({}, 'rest_demo0000000000000000000');
    expect(order).toMatchObject({
      restaurantId: 'rest_demo0000000000000000000',
      customerName: expect.any(String),
      deliveryAddress: expect.any(String),
      currency: 'TRY',
      paymentMethod: 'ONLINE_PREPAID',
      paymentCaptured: true,
    });
    expect(order.items!.length).toBeGreaterThanOrEqual(2);
    expectTotalsAddUp(order);
    expect(order.total).toBe(818.89);
    // 10 % VAT included in the total.
    expect(order.taxAmount).toBe(74.44);
  });

  it('gives every order a fresh id, and keeps a given one', () => {
    const first = buildTestOrder({}, 'rest_x');
    const second = buildTestOrder({}, 'rest_x');
    expect(first.orderId).not.toBe(second.orderId);
    expect(first.orderId).toMatch(/^mock-\d{8}-[0-9a-f]{10}$/);
    expect(buildTestOrder({ orderId: 'mine-1' }, 'rest_x').orderId).toBe('mine-1');
    expect(freshOrderId(new Date('2025-03-04T00:00:00Z'))).toMatch(/^mock-20250304-/);
  });

  it('leaves restaurantId out when none is configured (the service then says which field is missing)', () => {
    expect(buildTestOrder({}, '')).not.toHaveProperty('restaurantId');
  });

  it('sends given items and computes the totals that were left out', () => {
    const order = buildTestOrder({ items: [{ productName: 'Lahmacun', quantity: 3, unitPrice: 0.1 }], deliveryFee: 0 }, 'rest_x');
    expect(order.items).toEqual([{ productName: 'Lahmacun', quantity: 3, unitPrice: 0.1, totalAmount: 0.3 }]);
    expect(order.subtotal).toBe(0.3);
    expect(order.deliveryFee).toBe(0);
    expectTotalsAddUp(order);
  });

  it('sends given totals as they are, even when they do not add up', () => {
    const order = buildTestOrder({ items: [{ quantity: 1, unitPrice: 10, totalAmount: 99 }], subtotal: 1, total: 2, taxAmount: 0 }, 'rest_x');
    expect(order).toMatchObject({ subtotal: 1, total: 2, taxAmount: 0 });
    expect(order.items![0].totalAmount).toBe(99);
  });

  it('marks cash orders as not captured', () => {
    expect(buildTestOrder({ paymentMethod: 'CASH' }, 'rest_x').paymentCaptured).toBe(false);
  });
});
