import { isAcceptanceOverdue } from '../orders/order.presenter';
import { acceptanceWarningSkipReason } from './order-acceptance.scheduler';

const acceptBy = new Date('2026-11-26T10:05:00.000Z');
const unanswered = { acceptBy, acceptanceWarnedAt: null, answered: false, status: 'NEW' as const };

describe('the acceptance warning decision', () => {
  it('warns an unanswered, unfinished, unwarned order with an accept-by time', () => {
    expect(acceptanceWarningSkipReason(unanswered)).toBeNull();
    expect(acceptanceWarningSkipReason({ ...unanswered, status: 'VALIDATED' })).toBeNull();
  });

  it.each([
    ['unknown order', undefined],
    ['no accept-by time', { ...unanswered, acceptBy: null }],
    ['already warned', { ...unanswered, acceptanceWarnedAt: new Date() }],
    ['order finished', { ...unanswered, status: 'CANCELED' as const }],
    ['order finished', { ...unanswered, status: 'DELIVERED' as const }],
    ['answered on the platform', { ...unanswered, answered: true }],
  ])('skips: %s', (reason, order) => {
    expect(acceptanceWarningSkipReason(order)).toBe(reason);
  });
});

describe('acceptanceOverdue', () => {
  const after = new Date(acceptBy.getTime() + 1);
  it('is true past acceptBy for an unanswered, unfinished order only', () => {
    expect(isAcceptanceOverdue({ status: 'NEW' }, { acceptBy, answered: false }, after)).toBe(true);
    expect(isAcceptanceOverdue({ status: 'NEW' }, { acceptBy, answered: false }, new Date(acceptBy.getTime() - 1))).toBe(false);
    expect(isAcceptanceOverdue({ status: 'NEW' }, { acceptBy, answered: true }, after)).toBe(false);
    expect(isAcceptanceOverdue({ status: 'CANCELED' }, { acceptBy, answered: false }, after)).toBe(false);
    expect(isAcceptanceOverdue({ status: 'NEW' }, { acceptBy: null, answered: false }, after)).toBe(false);
  });
});
