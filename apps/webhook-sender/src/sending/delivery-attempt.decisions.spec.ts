import { nextStepAfterFailure, RetryPolicy } from './delivery-attempt.decisions';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DEFAULTS: RetryPolicy = { scheduleMs: [1 * MIN, 5 * MIN, 15 * MIN, 1 * HOUR, 4 * HOUR, 24 * HOUR], alertAfterMs: 24 * HOUR, maxAgeMs: 72 * HOUR };
const start = new Date('2026-11-21T00:00:00Z');
const at = (ms: number) => new Date(start.getTime() + ms);

/** Plays a receiver that never answers 2xx: the times of every attempt, and when alert and give-up happen. */
function playForever(policy: RetryPolicy) {
  const attempts = [0];
  let alertAt: number | undefined;
  for (let failures = 1; failures < 100; failures += 1) {
    const now = attempts[attempts.length - 1];
    const step = nextStepAfterFailure(policy, { cycleStartedAt: start, failures, alertRaised: alertAt !== undefined, now: at(now) });
    if (step.raiseAlert) alertAt = now;
    if (step.kind === 'give-up') return { attempts, alertAt, gaveUpAt: now };
    attempts.push(step.at.getTime() - start.getTime());
  }
  throw new Error('never gave up');
}

describe('nextStepAfterFailure', () => {
  it('follows 1m, 5m, 15m, 1h, 4h, then every 24h, with a try when the alert is due and one at the max age', () => {
    const { attempts, alertAt, gaveUpAt } = playForever(DEFAULTS);
    const first = [0, 1 * MIN, 6 * MIN, 21 * MIN, 81 * MIN, 321 * MIN];
    expect(attempts.slice(0, 6)).toEqual(first);
    // 5h21m + 24h would be past 24h: the 7th try is made at 24h, the alert raised when it fails.
    expect(attempts[6]).toBe(24 * HOUR);
    expect(alertAt).toBe(24 * HOUR);
    expect(attempts.slice(7)).toEqual([48 * HOUR, 72 * HOUR]);
    expect(gaveUpAt).toBe(72 * HOUR);
  });

  it('repeats the last delay of a scaled-down schedule', () => {
    const { attempts, alertAt, gaveUpAt } = playForever({ scheduleMs: [200, 400], alertAfterMs: 1_000, maxAgeMs: 2_000 });
    expect(attempts).toEqual([0, 200, 600, 1000, 1400, 1800, 2000]);
    expect(alertAt).toBe(1000);
    expect(gaveUpAt).toBe(2000);
  });

  it('raises the alert once, even when a failure comes late', () => {
    const late = nextStepAfterFailure(DEFAULTS, { cycleStartedAt: start, failures: 7, alertRaised: false, now: at(30 * HOUR) });
    expect(late).toEqual({ kind: 'retry', at: at(54 * HOUR), raiseAlert: true });
    const again = nextStepAfterFailure(DEFAULTS, { cycleStartedAt: start, failures: 8, alertRaised: true, now: at(54 * HOUR) });
    expect(again).toEqual({ kind: 'retry', at: at(72 * HOUR), raiseAlert: false });
  });

  it('gives up at the max age, raising the alert then if it was never raised', () => {
    expect(nextStepAfterFailure({ ...DEFAULTS, alertAfterMs: 72 * HOUR }, { cycleStartedAt: start, failures: 9, alertRaised: false, now: at(72 * HOUR) })).toEqual({
      kind: 'give-up',
      raiseAlert: true,
    });
    expect(nextStepAfterFailure(DEFAULTS, { cycleStartedAt: start, failures: 9, alertRaised: true, now: at(80 * HOUR) })).toEqual({ kind: 'give-up', raiseAlert: false });
  });
});
