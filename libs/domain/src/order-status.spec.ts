import { FINAL_ORDER_STATUSES, INITIAL_ORDER_STATUS, ORDER_STATUSES, isFinalOrderStatus, isOrderStatus } from './order-status';

describe('order status', () => {
  it('lists the nine statuses of the table plus FAILED', () => {
    expect([...ORDER_STATUSES].sort()).toEqual(
      ['ACCEPTED', 'ASSIGNED', 'CANCELED', 'DELIVERED', 'FAILED', 'NEW', 'ON_DELIVERY', 'PREPARED', 'ROUTED', 'VALIDATED'].sort(),
    );
  });

  it('starts in NEW', () => {
    expect(INITIAL_ORDER_STATUS).toBe('NEW');
  });

  it('has DELIVERED, CANCELED and FAILED as final statuses only', () => {
    expect([...FINAL_ORDER_STATUSES].sort()).toEqual(['CANCELED', 'DELIVERED', 'FAILED']);
    expect(ORDER_STATUSES.filter(isFinalOrderStatus).sort()).toEqual(['CANCELED', 'DELIVERED', 'FAILED']);
  });

  it.each([
    ['NEW', true],
    ['ON_DELIVERY', true],
    ['FAILED', true],
    ['new', false],
    ['CANCELLED', false],
    ['', false],
    [undefined, false],
    [3, false],
  ])('isOrderStatus(%p) is %p', (value, expected) => {
    expect(isOrderStatus(value)).toBe(expected);
  });
});
