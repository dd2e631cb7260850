import { PriceCallOutcome } from '@courier/platforms';
import { budgetedCallOf, decideAfterPriceAnswer, PriceCommandFacts } from './price-command.decisions';

describe('decideAfterPriceAnswer', () => {
  const acceptedAt = new Date('2026-11-26T12:00:00Z');
  const now = new Date('2026-11-26T12:00:10Z');
  const policy = { baseMs: 1_000, maxDelayMs: 60_000, maxAgeMs: 3_600_000 };
  const queued: PriceCommandFacts = { state: 'queued', attempts: 1, firstAttemptAt: now, acceptedAt };
  const checking: PriceCommandFacts = { ...queued, state: 'checking', attempts: 2 };
  const answer = { httpStatus: 200, body: { batchRequestId: 'b-1' } };

  it('a pending answer keeps the command checking, checked again after checkAfterMs with the platform\'s follow-up', () => {
    const decision = decideAfterPriceAnswer(queued, { kind: 'pending', answer, followUp: { batchRequestId: 'b-1' }, checkAfterMs: 5_000 }, now, policy, 0.5);
    expect(decision).toEqual({ kind: 'check', at: new Date(now.getTime() + 5_000), followUp: { batchRequestId: 'b-1' }, answer: { ...answer, outcome: 'pending', at: now.toISOString() } });
  });

  it('a pending answer is checked again no sooner than a second later (no hot loop on checkAfterMs 0)', () => {
    const decision = decideAfterPriceAnswer(checking, { kind: 'pending', answer, followUp: { batchRequestId: 'b-1' }, checkAfterMs: 0 }, now, policy, 0.5);
    expect(decision).toMatchObject({ kind: 'check', at: new Date(now.getTime() + 1_000) });
  });

  it('a request still pending past the age limit ends failed, saying the platform may still apply it', () => {
    const old = { ...checking, acceptedAt: new Date(now.getTime() - policy.maxAgeMs) };
    const decision = decideAfterPriceAnswer(old, { kind: 'pending', answer, followUp: { batchRequestId: 'b-1' }, checkAfterMs: 5_000 }, now, policy, 0.5);
    expect(decision).toMatchObject({ kind: 'end', state: 'failed', error: expect.stringContaining('may still apply it'), answer: { outcome: 'pending' } });
  });

  it('done ends sent, from the send or from a check', () => {
    const done: PriceCallOutcome = { kind: 'done', answer };
    expect(decideAfterPriceAnswer(queued, done, now, policy, 0.5)).toMatchObject({ kind: 'end', state: 'sent', error: null, answer: { outcome: 'done' } });
    expect(decideAfterPriceAnswer(checking, done, now, policy, 0.5)).toMatchObject({ kind: 'end', state: 'sent', error: null });
  });

  it('failed ends failed with the platform\'s reason (a batch item\'s)', () => {
    const failed: PriceCallOutcome = { kind: 'failed', answer: { httpStatus: 200, body: { items: [{ status: 'FAILED' }] } }, reason: 'item failed: price below the allowed minimum' };
    expect(decideAfterPriceAnswer(checking, failed, now, policy, 0.5)).toMatchObject({ kind: 'end', state: 'failed', error: 'item failed: price below the allowed minimum', answer: { outcome: 'failed', httpStatus: 200 } });
  });

  it('skipped ends failed: nothing was changed on the platform', () => {
    expect(decideAfterPriceAnswer(queued, { kind: 'skipped', reason: 'no price call' }, now, policy, 0.5)).toMatchObject({ kind: 'end', state: 'failed', error: 'no price call' });
  });

  it('retry before sending is another attempt with backoff (at least Retry-After); while checking it is another check, never a second send', () => {
    const retry: PriceCallOutcome = { kind: 'retry', answer: { httpStatus: 429, body: null }, retryAfterMs: 7_000 };
    expect(decideAfterPriceAnswer(queued, retry, now, policy, 0.5)).toEqual({ kind: 'retry', at: new Date(now.getTime() + 7_000), answer: { httpStatus: 429, body: null, outcome: 'retry', at: now.toISOString() } });
    const check = decideAfterPriceAnswer(checking, retry, now, policy, 0.5);
    expect(check).toEqual({ kind: 'check', at: new Date(now.getTime() + 7_000), answer: { httpStatus: 429, body: null, outcome: 'retry', at: now.toISOString() } });
    expect(check).not.toHaveProperty('followUp');
  });

  it('retry is given up past STATUS_PUSH_RETRY_MAX_AGE_MS, sending or checking', () => {
    const retry: PriceCallOutcome = { kind: 'retry', answer: { httpStatus: 503, body: null } };
    const old = { acceptedAt: new Date(now.getTime() - policy.maxAgeMs) };
    expect(decideAfterPriceAnswer({ ...queued, ...old }, retry, now, policy, 0.5)).toMatchObject({ kind: 'end', state: 'failed', error: expect.stringContaining('STATUS_PUSH_RETRY_MAX_AGE_MS') });
    expect(decideAfterPriceAnswer({ ...checking, ...old }, retry, now, policy, 0.5)).toMatchObject({ kind: 'end', state: 'failed' });
  });
});

describe('budgetedCallOf', () => {
  it.each([
    ['store', 'queued', 'availability:store'],
    ['product', 'retrying', 'availability:product'],
    ['price', 'queued', 'catalog:price'],
    ['price', 'retrying', 'catalog:price'],
    ['price', 'checking', 'catalog:check'],
  ] as const)('a %s command %s books %s', (kind, state, call) => {
    expect(budgetedCallOf({ kind, state })).toBe(call);
  });
});
