import fc from 'fast-check';
import { OrderTrigger } from './order-transitions';
import { checkScheduledGate, finalApprovalDueAt, isFinalApprovalDue, isScheduledOrder } from './scheduled-order';

const HOUR = 60 * 60 * 1000;
const acceptedAt = new Date('2025-03-01T10:00:00.000Z');
const at = (offsetMs: number) => new Date(acceptedAt.getTime() + offsetMs);

/** Delivery at 14:00, so the final approval is due at 13:00. */
const scheduled = { acceptedAt, scheduledDeliveryTime: at(4 * HOUR) };
const dueAt = at(3 * HOUR);

describe('scheduled orders', () => {
  describe('isScheduledOrder', () => {
    it('is false without a delivery time', () => {
      expect(isScheduledOrder({ acceptedAt })).toBe(false);
      expect(isScheduledOrder({ acceptedAt, scheduledDeliveryTime: null })).toBe(false);
    });

    it('is false for delivery exactly one hour after acceptance', () => {
      expect(isScheduledOrder({ acceptedAt, scheduledDeliveryTime: at(HOUR) })).toBe(false);
    });

    it('is true one millisecond past the hour', () => {
      expect(isScheduledOrder({ acceptedAt, scheduledDeliveryTime: at(HOUR + 1) })).toBe(true);
    });

    it('is false for a delivery time in the past or unreadable', () => {
      expect(isScheduledOrder({ acceptedAt, scheduledDeliveryTime: at(-HOUR) })).toBe(false);
      expect(isScheduledOrder({ acceptedAt, scheduledDeliveryTime: new Date('not a date') })).toBe(false);
    });
  });

  it('makes the final approval due one hour before delivery', () => {
    expect(finalApprovalDueAt(new Date('2025-03-01T14:00:00.000Z')).toISOString()).toBe('2025-03-01T13:00:00.000Z');
  });

  describe('isFinalApprovalDue', () => {
    it('is false before the due time and true from it on', () => {
      expect(isFinalApprovalDue(scheduled, new Date(dueAt.getTime() - 1))).toBe(false);
      expect(isFinalApprovalDue(scheduled, dueAt)).toBe(true);
      expect(isFinalApprovalDue(scheduled, at(5 * HOUR))).toBe(true);
    });

    it('is false once marked, and for an ordinary order', () => {
      expect(isFinalApprovalDue({ ...scheduled, finalApprovedAt: dueAt }, at(5 * HOUR))).toBe(false);
      expect(isFinalApprovalDue({ acceptedAt, scheduledDeliveryTime: at(HOUR) }, at(5 * HOUR))).toBe(false);
      expect(isFinalApprovalDue({ acceptedAt }, at(5 * HOUR))).toBe(false);
    });
  });

  describe('checkScheduledGate', () => {
    it.each<OrderTrigger>(['ROUTE', 'ASSIGN'])('refuses %s one millisecond before the due time with ORDER_NOT_DUE', (trigger) => {
      expect(checkScheduledGate(scheduled, trigger, new Date(dueAt.getTime() - 1))).toEqual({ ok: false, reason: 'ORDER_NOT_DUE', dueAt });
    });

    it.each<OrderTrigger>(['ROUTE', 'ASSIGN'])('refuses %s right after acceptance', (trigger) => {
      expect(checkScheduledGate(scheduled, trigger, acceptedAt)).toEqual({ ok: false, reason: 'ORDER_NOT_DUE', dueAt });
    });

    it.each<OrderTrigger>(['ROUTE', 'ASSIGN'])('lets %s through at the due time even when not yet marked', (trigger) => {
      expect(checkScheduledGate(scheduled, trigger, dueAt)).toEqual({ ok: true });
    });

    it.each<OrderTrigger>(['ROUTE', 'ASSIGN'])('lets %s through once the final approval is marked, even early', (trigger) => {
      expect(checkScheduledGate({ ...scheduled, finalApprovedAt: at(HOUR) }, trigger, at(HOUR))).toEqual({ ok: true });
    });

    it.each<OrderTrigger>(['APPROVE', 'ACCEPT', 'PREPARE', 'PICK_UP', 'DELIVER', 'CANCEL'])('never holds back %s', (trigger) => {
      expect(checkScheduledGate(scheduled, trigger, acceptedAt)).toEqual({ ok: true });
    });

    it('never holds back an ordinary order', () => {
      expect(checkScheduledGate({ acceptedAt }, 'ASSIGN', acceptedAt)).toEqual({ ok: true });
      expect(checkScheduledGate({ acceptedAt, scheduledDeliveryTime: at(HOUR) }, 'ROUTE', acceptedAt)).toEqual({ ok: true });
    });

    it('opens exactly at delivery time minus one hour (property)', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: HOUR + 1, max: 30 * 24 * HOUR }),
          fc.integer({ min: -HOUR, max: 30 * 24 * HOUR }),
          fc.constantFrom<OrderTrigger>('ROUTE', 'ASSIGN'),
          (deliveryOffset, nowOffset, trigger) => {
            const order = { acceptedAt, scheduledDeliveryTime: at(deliveryOffset) };
            const result = checkScheduledGate(order, trigger, at(nowOffset));
            expect(result.ok).toBe(nowOffset >= deliveryOffset - HOUR);
          },
        ),
      );
    });
  });
});
