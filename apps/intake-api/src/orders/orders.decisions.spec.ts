import { takenOrderIdDecision } from './orders.decisions';

describe('takenOrderIdDecision', () => {
  it('reads again when the order is gone, accepts a FAILED one again whatever its payload', () => {
    expect(takenOrderIdDecision(undefined, 'h')).toBe('read-again');
    expect(takenOrderIdDecision({ state: 'FAILED', payloadHash: 'h' }, 'h')).toBe('accept-again');
    expect(takenOrderIdDecision({ state: 'FAILED', payloadHash: 'other' }, 'h')).toBe('accept-again');
  });

  it('replays the same payload and refuses a different one, ACCEPTED or PROCESSED alike', () => {
    for (const state of ['ACCEPTED', 'PROCESSED'] as const) {
      expect(takenOrderIdDecision({ state, payloadHash: 'h' }, 'h')).toBe('replay');
      expect(takenOrderIdDecision({ state, payloadHash: 'other' }, 'h')).toBe('conflict');
    }
  });
});
