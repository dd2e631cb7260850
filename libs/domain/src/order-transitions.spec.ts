import fc from 'fast-check';
import { ORDER_STATUSES, OrderStatus } from './order-status';
import { HISTORY_TRIGGERS, ORDER_TRANSITIONS, ORDER_TRIGGERS, OrderTrigger, allowedTriggers, applyTrigger, isOrderTrigger } from './order-transitions';

/**
 * The order status table of interface.md with the triggers of decisions.md, written out by hand so
 * that the tests do not trust the implementation's table. Key: "STATUS TRIGGER", value: "NEXT effect".
 */
const EXPECTED_MOVES: Record<string, string> = {
  'NEW APPROVE': 'VALIDATED status_webhook',
  'NEW CANCEL': 'CANCELED cancel_webhook',
  'VALIDATED ROUTE': 'ROUTED status_webhook',
  'VALIDATED ASSIGN': 'ASSIGNED status_webhook',
  'VALIDATED PREPARE': 'PREPARED status_webhook',
  'VALIDATED CANCEL': 'CANCELED cancel_webhook',
  'ROUTED ASSIGN': 'ASSIGNED status_webhook',
  'ROUTED CANCEL': 'CANCELED cancel_webhook',
  'ASSIGNED ACCEPT': 'ACCEPTED status_webhook',
  'ASSIGNED CANCEL': 'CANCELED cancel_webhook',
  'ACCEPTED PREPARE': 'PREPARED status_webhook',
  'ACCEPTED CANCEL': 'CANCELED cancel_webhook',
  'PREPARED PICK_UP': 'ON_DELIVERY status_webhook',
  'PREPARED CANCEL': 'CANCELED cancel_webhook',
  'ON_DELIVERY DELIVER': 'DELIVERED status_webhook',
  'ON_DELIVERY CANCEL': 'CANCELED cancel_webhook',
};

const STATUSES: OrderStatus[] = ['NEW', 'VALIDATED', 'ROUTED', 'ASSIGNED', 'ACCEPTED', 'PREPARED', 'ON_DELIVERY', 'DELIVERED', 'CANCELED', 'FAILED'];
const TRIGGERS: OrderTrigger[] = ['APPROVE', 'ROUTE', 'ASSIGN', 'ACCEPT', 'PREPARE', 'PICK_UP', 'DELIVER', 'CANCEL'];
const FINAL: OrderStatus[] = ['DELIVERED', 'CANCELED', 'FAILED'];

const crossProduct = STATUSES.flatMap((status) => TRIGGERS.map((trigger) => [status, trigger] as const));
const allowedPairs = crossProduct.filter(([status, trigger]) => EXPECTED_MOVES[`${status} ${trigger}`] !== undefined);
const forbiddenPairs = crossProduct.filter(([status, trigger]) => EXPECTED_MOVES[`${status} ${trigger}`] === undefined);

describe('order transitions', () => {
  it('covers the statuses and triggers the spec names', () => {
    expect([...ORDER_STATUSES].sort()).toEqual([...STATUSES].sort());
    expect([...ORDER_TRIGGERS].sort()).toEqual([...TRIGGERS].sort());
    expect(allowedPairs).toHaveLength(16);
    expect(forbiddenPairs).toHaveLength(STATUSES.length * TRIGGERS.length - 16);
  });

  it('holds exactly the 16 rows of the table, nothing more', () => {
    const rows = ORDER_TRANSITIONS.map((row) => `${row.from} ${row.trigger} -> ${row.to} ${row.effect}`).sort();
    const expected = Object.entries(EXPECTED_MOVES)
      .map(([key, value]) => `${key} -> ${value}`)
      .sort();
    expect(rows).toEqual(expected);
  });

  it.each(allowedPairs.map(([status, trigger]) => [status, trigger, EXPECTED_MOVES[`${status} ${trigger}`]]))(
    'allowed: %s + %s -> %s',
    (status, trigger, move) => {
      const [next, effect] = move.split(' ');
      expect(applyTrigger(status as OrderStatus, trigger as OrderTrigger)).toEqual({ ok: true, next, effect });
    },
  );

  it.each(forbiddenPairs)('forbidden: %s + %s -> INVALID_TRANSITION', (status, trigger) => {
    expect(applyTrigger(status, trigger)).toEqual({ ok: false, reason: 'INVALID_TRANSITION', current: status });
  });

  it('sends only the cancel webhook on every move into CANCELED, and never the status webhook', () => {
    for (const status of STATUSES) {
      const result = applyTrigger(status, 'CANCEL');
      if (FINAL.includes(status)) expect(result.ok).toBe(false);
      else expect(result).toEqual({ ok: true, next: 'CANCELED', effect: 'cancel_webhook' });
    }
  });

  it('lists the allowed triggers of each status', () => {
    expect(allowedTriggers('NEW').sort()).toEqual(['APPROVE', 'CANCEL']);
    expect(allowedTriggers('VALIDATED').sort()).toEqual(['ASSIGN', 'CANCEL', 'PREPARE', 'ROUTE']);
    expect(allowedTriggers('ON_DELIVERY').sort()).toEqual(['CANCEL', 'DELIVER']);
    for (const status of FINAL) expect(allowedTriggers(status)).toEqual([]);
  });

  it.each([
    ['APPROVE', true],
    ['PICK_UP', true],
    ['approve', false],
    ['VERIFY', false],
    [null, false],
  ])('isOrderTrigger(%p) is %p', (value, expected) => {
    expect(isOrderTrigger(value)).toBe(expected);
  });

  describe('properties', () => {
    const trigger = fc.constantFrom(...TRIGGERS);
    const status = fc.constantFrom(...STATUSES);

    it('no sequence of triggers ever leaves a final status', () => {
      fc.assert(
        fc.property(fc.constantFrom(...FINAL), fc.array(trigger, { maxLength: 30 }), (start, triggers) => {
          for (const next of triggers) {
            expect(applyTrigger(start, next)).toEqual({ ok: false, reason: 'INVALID_TRANSITION', current: start });
          }
        }),
      );
    });

    it('any accepted sequence of transitions from NEW follows the table', () => {
      fc.assert(
        fc.property(fc.array(trigger, { maxLength: 40 }), (triggers) => {
          let current: OrderStatus = 'NEW';
          for (const next of triggers) {
            const result = applyTrigger(current, next);
            const expected = EXPECTED_MOVES[`${current} ${next}`];
            if (expected === undefined) {
              expect(result).toEqual({ ok: false, reason: 'INVALID_TRANSITION', current });
              continue;
            }
            if (!result.ok) throw new Error(`${current} ${next} refused but the table allows it`);
            expect(`${result.next} ${result.effect}`).toBe(expected);
            current = result.next;
          }
          // FAILED is never reached through triggers.
          expect(current).not.toBe('FAILED');
        }),
      );
    });

    it('a refused trigger never changes anything and an accepted one never stays in place', () => {
      fc.assert(
        fc.property(status, trigger, (from, next) => {
          const result = applyTrigger(from, next);
          if (result.ok) expect(result.next).not.toBe(from);
          else expect(result.current).toBe(from);
        }),
      );
    });

    it('the effect is the cancel webhook exactly when the move ends in CANCELED', () => {
      fc.assert(
        fc.property(status, trigger, (from, next) => {
          const result = applyTrigger(from, next);
          if (result.ok) expect(result.effect === 'cancel_webhook').toBe(result.next === 'CANCELED');
        }),
      );
    });
  });
});

describe('HISTORY_TRIGGERS', () => {
  it('names every trigger an order history can hold, once each', () => {
    expect([...HISTORY_TRIGGERS].sort()).toEqual(
      ['APPROVE', 'ROUTE', 'ASSIGN', 'ACCEPT', 'PREPARE', 'PICK_UP', 'DELIVER', 'CANCEL', 'VERIFY', 'HANDOVER', 'REJECT', 'PLATFORM_CANCEL', 'PLATFORM_PICKED_UP'].sort(),
    );
  });
});
