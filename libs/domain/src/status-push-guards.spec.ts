import fc from 'fast-check';
import { STATUS_PUSH_ACTIONS, StatusPushAction } from './status-push-actions';
import { AcceptedStatusUpdate, StatusPushHistory, StatusPushRules, evaluateStatusPush } from './status-push-guards';

/** A platform whose definition holds PREPARE after approval, and one without the rule. */
const HOLDS_PREPARE: StatusPushRules = { holdsPrepareAfterApproval: true };
const NO_HOLD: StatusPushRules = {};

const T0 = new Date('2025-03-01T12:00:00.000Z').getTime();
const at = (offsetMs: number) => new Date(T0 + offsetMs);

function accepted(action: StatusPushAction, offsetMs: number, extra: Partial<AcceptedStatusUpdate> = {}): AcceptedStatusUpdate {
  return { statusUpdateId: `su-${action}-${offsetMs}`, action, acceptedAt: at(offsetMs), ...extra };
}

function historyOf(...updates: AcceptedStatusUpdate[]): StatusPushHistory {
  return { accepted: updates };
}

/** An order verified at T0 through a push. */
const verified = historyOf(accepted('VERIFY', 0));

describe('evaluateStatusPush', () => {
  describe('guard 1: DELIVER only after PREPARE or HANDOVER', () => {
    it('refuses DELIVER on a fresh order', () => {
      expect(evaluateStatusPush(historyOf(), 'DELIVER', NO_HOLD, at(0))).toEqual({ decision: 'refuse', code: 'DELIVER_BEFORE_PREPARE' });
    });

    it('refuses DELIVER after VERIFY only', () => {
      expect(evaluateStatusPush(verified, 'DELIVER', NO_HOLD, at(120_000))).toEqual({ decision: 'refuse', code: 'DELIVER_BEFORE_PREPARE' });
    });

    it.each<StatusPushAction>(['PREPARE', 'HANDOVER'])('accepts DELIVER after %s', (action) => {
      const history = historyOf(accepted('VERIFY', 0), accepted(action, 90_000));
      expect(evaluateStatusPush(history, 'DELIVER', NO_HOLD, at(120_000))).toEqual({ decision: 'dispatch' });
    });

    it.each(['PREPARED', 'ON_DELIVERY', 'DELIVERED'] as const)('accepts DELIVER when the order is already %s', (orderStatus) => {
      expect(evaluateStatusPush({ accepted: [], orderStatus }, 'DELIVER', NO_HOLD, at(0))).toEqual({ decision: 'dispatch' });
    });

    it('still refuses DELIVER on an order that is only VALIDATED', () => {
      expect(evaluateStatusPush({ accepted: [], orderStatus: 'VALIDATED' }, 'DELIVER', NO_HOLD, at(0))).toEqual({
        decision: 'refuse',
        code: 'DELIVER_BEFORE_PREPARE',
      });
    });
  });

  describe('guard 2: a second VERIFY is refused', () => {
    it('refuses VERIFY when the order was approved without a VERIFY push', () => {
      expect(evaluateStatusPush({ accepted: [], approvedAt: at(0) }, 'VERIFY', NO_HOLD, at(1000))).toEqual({
        decision: 'refuse',
        code: 'ALREADY_VERIFIED',
      });
    });

    it('dispatches the first VERIFY', () => {
      expect(evaluateStatusPush(historyOf(), 'VERIFY', HOLDS_PREPARE, at(0))).toEqual({ decision: 'dispatch' });
    });
  });

  describe('guard 3: nothing is accepted for a cancelled order', () => {
    it.each<StatusPushAction>(['CANCEL', 'REJECT'])('refuses every other action after %s', (canceling) => {
      const history = historyOf(accepted('VERIFY', 0), accepted(canceling, 1000));
      for (const action of STATUS_PUSH_ACTIONS.filter((candidate) => candidate !== canceling && candidate !== 'VERIFY')) {
        expect(evaluateStatusPush(history, action, NO_HOLD, at(120_000))).toEqual({ decision: 'refuse', code: 'ORDER_CANCELED' });
      }
    });

    it('refuses when the order was cancelled outside the push', () => {
      for (const action of STATUS_PUSH_ACTIONS) {
        expect(evaluateStatusPush({ accepted: [], orderStatus: 'CANCELED' }, action, NO_HOLD, at(0))).toEqual({
          decision: 'refuse',
          code: 'ORDER_CANCELED',
        });
      }
    });
  });

  describe('guard 4: a platform whose rules hold PREPARE holds it for 60 s after approval', () => {
    it('holds PREPARE 59.999 s after approval until 60 s', () => {
      expect(evaluateStatusPush(verified, 'PREPARE', HOLDS_PREPARE, at(59_999))).toEqual({
        decision: 'hold',
        releaseAt: at(60_000),
        reason: 'PREPARE_HOLD',
      });
    });

    it('dispatches PREPARE exactly 60 s after approval', () => {
      expect(evaluateStatusPush(verified, 'PREPARE', HOLDS_PREPARE, at(60_000))).toEqual({ decision: 'dispatch' });
    });

    it('holds PREPARE sent at the moment of approval', () => {
      expect(evaluateStatusPush(verified, 'PREPARE', HOLDS_PREPARE, at(0))).toEqual({ decision: 'hold', releaseAt: at(60_000), reason: 'PREPARE_HOLD' });
    });

    it('measures from the given approval time rather than the VERIFY acceptance', () => {
      const history = { accepted: [accepted('VERIFY', 0)], approvedAt: at(5_000) };
      expect(evaluateStatusPush(history, 'PREPARE', HOLDS_PREPARE, at(64_999))).toEqual({ decision: 'hold', releaseAt: at(65_000), reason: 'PREPARE_HOLD' });
      expect(evaluateStatusPush(history, 'PREPARE', HOLDS_PREPARE, at(65_000))).toEqual({ decision: 'dispatch' });
    });

    it('uses the configured hold', () => {
      expect(evaluateStatusPush(verified, 'PREPARE', HOLDS_PREPARE, at(999), { holdMs: 1000 })).toEqual({
        decision: 'hold',
        releaseAt: at(1000),
        reason: 'PREPARE_HOLD',
      });
      expect(evaluateStatusPush(verified, 'PREPARE', HOLDS_PREPARE, at(1000), { holdMs: 1000 })).toEqual({ decision: 'dispatch' });
      expect(evaluateStatusPush(verified, 'PREPARE', HOLDS_PREPARE, at(0), { holdMs: 0 })).toEqual({ decision: 'dispatch' });
    });

    it.each<[string, StatusPushRules]>([
      ['no rules', {}],
      ['a rule without the hold', { holdsPrepareAfterApproval: false }],
    ])('does not hold PREPARE on a platform with %s', (_name, rules) => {
      expect(evaluateStatusPush(verified, 'PREPARE', rules, at(1))).toEqual({ decision: 'dispatch' });
    });

    it.each<StatusPushAction>(['HANDOVER', 'CANCEL', 'REJECT'])('does not hold %s where PREPARE is held', (action) => {
      expect(evaluateStatusPush(verified, action, HOLDS_PREPARE, at(1))).toEqual({ decision: 'dispatch' });
    });

    it('does not hold PREPARE when no approval is known', () => {
      expect(evaluateStatusPush(historyOf(), 'PREPARE', HOLDS_PREPARE, at(0))).toEqual({ decision: 'dispatch' });
    });

    it('makes a later update wait behind a held one, so the platform sees them in order', () => {
      const history = historyOf(accepted('VERIFY', 0), accepted('PREPARE', 10_000, { releaseAt: at(60_000) }));
      expect(evaluateStatusPush(history, 'HANDOVER', HOLDS_PREPARE, at(20_000))).toEqual({
        decision: 'hold',
        releaseAt: at(60_000),
        reason: 'BEHIND_HELD_UPDATE',
      });
      expect(evaluateStatusPush(history, 'DELIVER', HOLDS_PREPARE, at(20_000))).toEqual({
        decision: 'hold',
        releaseAt: at(60_000),
        reason: 'BEHIND_HELD_UPDATE',
      });
    });

    it('lets later updates go once the held one is released', () => {
      const history = historyOf(accepted('VERIFY', 0), accepted('PREPARE', 10_000, { releaseAt: at(60_000) }));
      expect(evaluateStatusPush(history, 'HANDOVER', HOLDS_PREPARE, at(60_000))).toEqual({ decision: 'dispatch' });
    });
  });

  describe('guard 5: a repeated action is a duplicate', () => {
    it.each(STATUS_PUSH_ACTIONS)('answers a repeated %s with the first statusUpdateId', (action) => {
      const history = historyOf(accepted('VERIFY', 0), accepted('PREPARE', 1000), accepted('HANDOVER', 2000), accepted(action, 3000));
      const first = history.accepted.find((update) => update.action === action)!;
      expect(evaluateStatusPush(history, action, NO_HOLD, at(4000))).toEqual({ decision: 'duplicate', of: first.statusUpdateId });
    });

    it('points at the earliest acceptance when the history holds the action twice', () => {
      const history = historyOf(accepted('PREPARE', 5000, { statusUpdateId: 'later' }), accepted('PREPARE', 1000, { statusUpdateId: 'earliest' }));
      expect(evaluateStatusPush(history, 'PREPARE', NO_HOLD, at(9000))).toEqual({ decision: 'duplicate', of: 'earliest' });
    });

    it('answers a repeated held PREPARE as a duplicate, not a second hold', () => {
      const history = historyOf(accepted('VERIFY', 0), accepted('PREPARE', 1000, { releaseAt: at(60_000) }));
      expect(evaluateStatusPush(history, 'PREPARE', HOLDS_PREPARE, at(2000))).toEqual({ decision: 'duplicate', of: 'su-PREPARE-1000' });
    });
  });

  describe('precedence', () => {
    it('duplicate wins over ALREADY_VERIFIED for a repeated VERIFY', () => {
      const history = { accepted: [accepted('VERIFY', 0)], approvedAt: at(0) };
      expect(evaluateStatusPush(history, 'VERIFY', NO_HOLD, at(1000))).toEqual({ decision: 'duplicate', of: 'su-VERIFY-0' });
    });

    it('duplicate wins over ORDER_CANCELED for a repeated CANCEL', () => {
      const history = historyOf(accepted('CANCEL', 0));
      expect(evaluateStatusPush(history, 'CANCEL', NO_HOLD, at(1000))).toEqual({ decision: 'duplicate', of: 'su-CANCEL-0' });
    });

    it('duplicate wins over ORDER_CANCELED for an action accepted before the cancellation', () => {
      const history = historyOf(accepted('VERIFY', 0), accepted('REJECT', 1000));
      expect(evaluateStatusPush(history, 'VERIFY', NO_HOLD, at(2000))).toEqual({ decision: 'duplicate', of: 'su-VERIFY-0' });
    });

    it('ORDER_CANCELED wins over ALREADY_VERIFIED', () => {
      expect(evaluateStatusPush({ accepted: [], approvedAt: at(0), orderStatus: 'CANCELED' }, 'VERIFY', NO_HOLD, at(1))).toEqual({
        decision: 'refuse',
        code: 'ORDER_CANCELED',
      });
    });

    it('ORDER_CANCELED wins over DELIVER_BEFORE_PREPARE', () => {
      expect(evaluateStatusPush(historyOf(accepted('CANCEL', 0)), 'DELIVER', NO_HOLD, at(1))).toEqual({
        decision: 'refuse',
        code: 'ORDER_CANCELED',
      });
    });

    it('REJECT after CANCEL is ORDER_CANCELED, not a duplicate: they are different actions', () => {
      expect(evaluateStatusPush(historyOf(accepted('CANCEL', 0)), 'REJECT', NO_HOLD, at(1))).toEqual({
        decision: 'refuse',
        code: 'ORDER_CANCELED',
      });
    });

    it('refusals win over the hold', () => {
      expect(evaluateStatusPush({ accepted: [accepted('VERIFY', 0)], orderStatus: 'CANCELED' }, 'PREPARE', HOLDS_PREPARE, at(1))).toEqual({
        decision: 'refuse',
        code: 'ORDER_CANCELED',
      });
    });

    it('the later of the two releases wins when PREPARE is held and also behind a held update', () => {
      const history = { accepted: [accepted('HANDOVER', 0, { releaseAt: at(90_000) })], approvedAt: at(0) };
      expect(evaluateStatusPush(history, 'PREPARE', HOLDS_PREPARE, at(1000))).toEqual({
        decision: 'hold',
        releaseAt: at(90_000),
        reason: 'BEHIND_HELD_UPDATE',
      });
    });
  });

  describe('properties', () => {
    const action = fc.constantFrom(...STATUS_PUSH_ACTIONS);
    const platform = fc.constantFrom<StatusPushRules>(HOLDS_PREPARE, NO_HOLD);
    const update = fc.record({
      statusUpdateId: fc.uuid(),
      action,
      acceptedAt: fc.integer({ min: 0, max: 300_000 }).map(at),
      releaseAt: fc.option(fc.integer({ min: 0, max: 300_000 }).map(at), { nil: undefined }),
    });
    const history = fc.record({
      accepted: fc.array(update, { maxLength: 8 }),
      approvedAt: fc.option(fc.integer({ min: 0, max: 300_000 }).map(at), { nil: undefined }),
      orderStatus: fc.option(fc.constantFrom('NEW', 'VALIDATED', 'PREPARED', 'ON_DELIVERY', 'DELIVERED', 'CANCELED' as const), { nil: undefined }),
    });
    const now = fc.integer({ min: 0, max: 400_000 }).map(at);

    it('an action already accepted is always a duplicate of an accepted update with that action', () => {
      fc.assert(
        fc.property(history, action, platform, now, (past, next, code, when) => {
          const decision = evaluateStatusPush(past, next, code, when);
          const sameAction = past.accepted.filter((entry) => entry.action === next);
          if (sameAction.length === 0) {
            expect(decision.decision).not.toBe('duplicate');
          } else {
            expect(decision.decision).toBe('duplicate');
            if (decision.decision === 'duplicate') expect(sameAction.map((entry) => entry.statusUpdateId)).toContain(decision.of);
          }
        }),
      );
    });

    it('a new action on a cancelled order is never dispatched or held', () => {
      fc.assert(
        fc.property(history, action, platform, now, (past, next, code, when) => {
          const canceled = past.orderStatus === 'CANCELED' || past.accepted.some((entry) => entry.action === 'CANCEL' || entry.action === 'REJECT');
          const repeated = past.accepted.some((entry) => entry.action === next);
          if (canceled && !repeated) expect(evaluateStatusPush(past, next, code, when)).toEqual({ decision: 'refuse', code: 'ORDER_CANCELED' });
        }),
      );
    });

    it('a hold always ends in the future and only where the rules hold PREPARE or behind a held update', () => {
      fc.assert(
        fc.property(history, action, platform, now, (past, next, code, when) => {
          const decision = evaluateStatusPush(past, next, code, when);
          if (decision.decision !== 'hold') return;
          expect(decision.releaseAt.getTime()).toBeGreaterThan(when.getTime());
          if (decision.reason === 'PREPARE_HOLD') expect([code, next]).toEqual([HOLDS_PREPARE, 'PREPARE']);
        }),
      );
    });
  });
});
