import { decideOrderTransition } from './order-lifecycle';

const HOUR = 60 * 60 * 1000;
const acceptedAt = new Date('2025-03-01T10:00:00.000Z');
const scheduledDeliveryTime = new Date(acceptedAt.getTime() + 3 * HOUR);
const dueAt = new Date(acceptedAt.getTime() + 2 * HOUR);

describe('decideOrderTransition', () => {
  it('moves an ordinary order as the table says', () => {
    expect(decideOrderTransition({ status: 'VALIDATED', acceptedAt }, 'ASSIGN', acceptedAt)).toEqual({
      ok: true,
      next: 'ASSIGNED',
      effect: 'status_webhook',
    });
  });

  it('lets a scheduled order be pre-approved at once', () => {
    expect(decideOrderTransition({ status: 'NEW', acceptedAt, scheduledDeliveryTime }, 'APPROVE', acceptedAt)).toEqual({
      ok: true,
      next: 'VALIDATED',
      effect: 'status_webhook',
    });
  });

  it('answers ORDER_NOT_DUE for ROUTE of a scheduled order before its final approval', () => {
    expect(decideOrderTransition({ status: 'VALIDATED', acceptedAt, scheduledDeliveryTime }, 'ROUTE', acceptedAt)).toEqual({
      ok: false,
      reason: 'ORDER_NOT_DUE',
      current: 'VALIDATED',
      dueAt,
    });
  });

  it('lets ROUTE through once due', () => {
    expect(decideOrderTransition({ status: 'VALIDATED', acceptedAt, scheduledDeliveryTime }, 'ROUTE', dueAt)).toEqual({
      ok: true,
      next: 'ROUTED',
      effect: 'status_webhook',
    });
  });

  it('puts INVALID_TRANSITION before ORDER_NOT_DUE', () => {
    expect(decideOrderTransition({ status: 'CANCELED', acceptedAt, scheduledDeliveryTime }, 'ASSIGN', acceptedAt)).toEqual({
      ok: false,
      reason: 'INVALID_TRANSITION',
      current: 'CANCELED',
    });
    expect(decideOrderTransition({ status: 'NEW', acceptedAt, scheduledDeliveryTime }, 'ROUTE', acceptedAt)).toEqual({
      ok: false,
      reason: 'INVALID_TRANSITION',
      current: 'NEW',
    });
  });

  it('still lets a scheduled order be cancelled before its final approval', () => {
    expect(decideOrderTransition({ status: 'VALIDATED', acceptedAt, scheduledDeliveryTime }, 'CANCEL', acceptedAt)).toEqual({
      ok: true,
      next: 'CANCELED',
      effect: 'cancel_webhook',
    });
  });
});
