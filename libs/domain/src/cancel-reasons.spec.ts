import {
  CANCEL_REASONS,
  CANCEL_REASON_IDS,
  CANCELING_PARTIES,
  CancelReasonId,
  CanceledBy,
  PROCESSING_FAILURE_CANCELLATION,
  isCancelReasonId,
  isCanceledBy,
  isCanceledByAllowed,
  resolveCancellation,
} from './cancel-reasons';

/** interface.md's table, plus System for OTHER (a failed third-party order is cancelled as OTHER / System). */
const EXPECTED_PARTIES: Record<string, string[]> = {
  CUSTOMER_REQUEST: ['Restaurant'],
  OUT_OF_STOCK: ['Restaurant'],
  WRONG_ADDRESS: ['Courier'],
  CUSTOMER_NOT_AVAILABLE: ['Courier'],
  COURIER_NOT_AVAILABLE: ['System'],
  RESTAURANT_CLOSED: ['System'],
  OTHER: ['Restaurant', 'Courier', 'System'],
};

const REASONS = Object.keys(EXPECTED_PARTIES) as CancelReasonId[];
const PARTIES: CanceledBy[] = ['Restaurant', 'Courier', 'System'];
const pairs = REASONS.flatMap((reason) => PARTIES.map((party) => [reason, party, EXPECTED_PARTIES[reason].includes(party)] as const));

describe('cancel reasons', () => {
  it('has the reason ids and parties of interface.md', () => {
    expect([...CANCEL_REASON_IDS].sort()).toEqual([...REASONS].sort());
    expect([...CANCELING_PARTIES].sort()).toEqual([...PARTIES].sort());
    for (const reason of REASONS) expect(CANCEL_REASONS[reason].id).toBe(reason);
  });

  it.each(pairs)('%s by %s allowed: %p', (reason, party, allowed) => {
    expect(isCanceledByAllowed(reason, party)).toBe(allowed);
    const result = resolveCancellation({ cancelReasonId: reason, canceledBy: party });
    if (allowed) expect(result).toEqual({ ok: true, cancelReasonId: reason, canceledBy: party });
    else expect(result).toEqual({ ok: false, errors: [{ field: 'canceledBy', message: expect.stringContaining(reason) }] });
  });

  it('allows the processing-failure cancellation', () => {
    expect(PROCESSING_FAILURE_CANCELLATION).toEqual({ cancelReasonId: 'OTHER', canceledBy: 'System' });
    expect(resolveCancellation(PROCESSING_FAILURE_CANCELLATION)).toEqual({ ok: true, cancelReasonId: 'OTHER', canceledBy: 'System' });
  });

  describe('defaults', () => {
    it('uses OTHER by System when nothing is given', () => {
      expect(resolveCancellation({})).toEqual({ ok: true, cancelReasonId: 'OTHER', canceledBy: 'System' });
      expect(resolveCancellation({ cancelReasonId: null, canceledBy: null })).toEqual({ ok: true, cancelReasonId: 'OTHER', canceledBy: 'System' });
    });

    it.each([
      ['CUSTOMER_REQUEST', 'Restaurant'],
      ['OUT_OF_STOCK', 'Restaurant'],
      ['WRONG_ADDRESS', 'Courier'],
      ['CUSTOMER_NOT_AVAILABLE', 'Courier'],
      ['COURIER_NOT_AVAILABLE', 'System'],
      ['RESTAURANT_CLOSED', 'System'],
      ['OTHER', 'System'],
    ])('fills in the party of %s as %s', (reason, party) => {
      expect(resolveCancellation({ cancelReasonId: reason })).toEqual({ ok: true, cancelReasonId: reason, canceledBy: party });
    });

    it('uses OTHER when only the party is given', () => {
      expect(resolveCancellation({ canceledBy: 'Courier' })).toEqual({ ok: true, cancelReasonId: 'OTHER', canceledBy: 'Courier' });
    });
  });

  describe('unknown values', () => {
    it('refuses an unknown reason id, exact case only', () => {
      expect(resolveCancellation({ cancelReasonId: 'customer_request' })).toEqual({
        ok: false,
        errors: [{ field: 'cancelReasonId', message: expect.stringContaining('CUSTOMER_REQUEST') }],
      });
    });

    it('refuses an unknown party, exact case only', () => {
      expect(resolveCancellation({ cancelReasonId: 'OTHER', canceledBy: 'system' })).toEqual({
        ok: false,
        errors: [{ field: 'canceledBy', message: expect.stringContaining('Restaurant') }],
      });
    });

    it('reports both fields at once', () => {
      const result = resolveCancellation({ cancelReasonId: 'LATE', canceledBy: 'Customer' });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors.map((error) => error.field)).toEqual(['cancelReasonId', 'canceledBy']);
    });

    it('recognises ids and parties', () => {
      expect(isCancelReasonId('WRONG_ADDRESS')).toBe(true);
      expect(isCancelReasonId('WRONG ADDRESS')).toBe(false);
      expect(isCancelReasonId(undefined)).toBe(false);
      expect(isCanceledBy('Courier')).toBe(true);
      expect(isCanceledBy('COURIER')).toBe(false);
    });
  });
});
