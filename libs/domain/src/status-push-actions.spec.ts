import { ORDER_STATUSES } from './order-status';
import { STATUS_PUSH_ACTIONS, STATUS_PUSH_TARGETS, StatusPushAction, isStatusPushAction, statusPushPath } from './status-push-actions';

describe('status push actions', () => {
  it('has the six actions of interface.md', () => {
    expect([...STATUS_PUSH_ACTIONS].sort()).toEqual(['CANCEL', 'DELIVER', 'HANDOVER', 'PREPARE', 'REJECT', 'VERIFY']);
  });

  it.each([
    ['VERIFY', 'VALIDATED'],
    ['PREPARE', 'PREPARED'],
    ['HANDOVER', 'ON_DELIVERY'],
    ['DELIVER', 'DELIVERED'],
    ['CANCEL', 'CANCELED'],
    ['REJECT', 'CANCELED'],
  ])('%s leads to %s', (action, status) => {
    expect(STATUS_PUSH_TARGETS[action as StatusPushAction]).toBe(status);
  });

  it('passes ON_DELIVERY when DELIVER comes straight from PREPARED', () => {
    expect(statusPushPath('DELIVER', 'PREPARED')).toEqual(['ON_DELIVERY', 'DELIVERED']);
  });

  it('goes straight to DELIVERED from ON_DELIVERY', () => {
    expect(statusPushPath('DELIVER', 'ON_DELIVERY')).toEqual(['DELIVERED']);
  });

  it('has a one-step path for every other action in every status', () => {
    const others: StatusPushAction[] = ['VERIFY', 'PREPARE', 'HANDOVER', 'CANCEL', 'REJECT'];
    for (const action of others) {
      for (const status of ORDER_STATUSES) expect(statusPushPath(action, status)).toEqual([STATUS_PUSH_TARGETS[action]]);
    }
  });

  it('recognises actions, exact case only', () => {
    expect(isStatusPushAction('HANDOVER')).toBe(true);
    expect(isStatusPushAction('handover')).toBe(false);
    expect(isStatusPushAction('PICK_UP')).toBe(false);
  });
});
