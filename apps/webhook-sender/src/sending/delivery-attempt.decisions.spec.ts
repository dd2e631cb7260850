import { afterAttempt, answerVerdict, deliveryTarget, networkFailure, nextStepAfterFailure, refusalReason, RetryPolicy } from './delivery-attempt.decisions';

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

describe('deliveryTarget', () => {
  const account = { accountKnown: true, statusUrl: 'https://pos.example/status', cancelUrl: 'https://pos.example/cancel' };

  it('sends each event to its own URL of the account as it is now', () => {
    expect(deliveryTarget({ ...account, event: 'order.status_changed' })).toEqual({ kind: 'send', url: 'https://pos.example/status' });
    expect(deliveryTarget({ ...account, event: 'order.canceled' })).toEqual({ kind: 'send', url: 'https://pos.example/cancel' });
    expect(deliveryTarget({ ...account, event: 'restaurant.availability_changed' })).toEqual({ kind: 'send', url: 'https://pos.example/status' });
    expect(deliveryTarget({ ...account, event: 'catalog.drift_detected' })).toEqual({ kind: 'send', url: 'https://pos.example/status' });
  });

  it('skips an event whose URL is not configured, naming which one', () => {
    expect(deliveryTarget({ ...account, statusUrl: null, event: 'order.status_changed' })).toEqual({ kind: 'skip', error: 'no status URL configured' });
    expect(deliveryTarget({ ...account, cancelUrl: null, event: 'order.canceled' })).toEqual({ kind: 'skip', error: 'no cancel URL configured' });
    expect(deliveryTarget({ ...account, statusUrl: null, event: 'restaurant.availability_changed' })).toEqual({ kind: 'skip', error: 'no status URL configured' });
    expect(deliveryTarget({ ...account, cancelUrl: null, event: 'restaurant.availability_changed' })).toEqual({ kind: 'send', url: 'https://pos.example/status' });
    expect(deliveryTarget({ ...account, statusUrl: null, event: 'catalog.drift_detected' })).toEqual({ kind: 'skip', error: 'no status URL configured' });
  });

  it('fails (to retry) a delivery whose account the sender does not know yet, even without URLs', () => {
    const expected = { kind: 'fail', error: 'the account of this delivery is not known to the sender yet' };
    expect(deliveryTarget({ ...account, accountKnown: false, event: 'order.status_changed' })).toEqual(expected);
    expect(deliveryTarget({ accountKnown: false, statusUrl: null, cancelUrl: null, event: 'order.canceled' })).toEqual(expected);
  });
});

describe('answerVerdict', () => {
  it('is delivered for every 2xx and nothing else', () => {
    for (const status of [200, 201, 202, 204, 299]) expect(answerVerdict(status)).toEqual({ ok: true, error: null });
    for (const status of [100, 199, 300, 301, 304, 400, 404, 410, 429, 500, 503]) expect(answerVerdict(status).ok).toBe(false);
  });

  it('records only the status line with its standard phrase, a redirect marked as not followed', () => {
    expect(answerVerdict(503)).toEqual({ ok: false, error: 'HTTP 503 Service Unavailable' });
    expect(answerVerdict(302)).toEqual({ ok: false, error: 'HTTP 302 Found (redirect not followed)' });
    expect(refusalReason(599)).toBe('HTTP 599');
  });
});

describe('networkFailure', () => {
  it('names a refused TLS certificate as such', () => {
    expect(networkFailure({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT', message: 'self-signed certificate' })).toBe('TLS certificate refused (DEPTH_ZERO_SELF_SIGNED_CERT): self-signed certificate');
    expect(networkFailure({ code: 'ERR_TLS_CERT_ALTNAME_INVALID', message: 'bad name' })).toBe('TLS certificate refused (ERR_TLS_CERT_ALTNAME_INVALID): bad name');
  });

  it('gives other errors with their code, bounded in length', () => {
    expect(networkFailure({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 10.0.0.1:443' })).toBe('ECONNREFUSED: connect ECONNREFUSED 10.0.0.1:443');
    expect(networkFailure({ message: 'socket hang up' })).toBe('error: socket hang up');
    expect(networkFailure({ code: 'EPIPE', message: 'x'.repeat(1_000) })).toHaveLength(500);
  });
});

describe('afterAttempt', () => {
  const policy: RetryPolicy = { scheduleMs: [200, 400], alertAfterMs: 1_000, maxAgeMs: 2_000 };
  const cycle = { cycleStartedAt: start, cycleFailures: 0, alertRaised: false };

  it('is delivered after a 2xx, whatever the cycle', () => {
    expect(afterAttempt(policy, { ...cycle, cycleFailures: 5, alertRaised: true }, true, at(5_000))).toEqual({ status: 'delivered', nextAttemptAt: null, raiseAlert: false });
  });

  it('retries a failure on the schedule, counting the failure just made', () => {
    expect(afterAttempt(policy, cycle, false, at(0))).toEqual({ status: 'retrying', nextAttemptAt: at(200), raiseAlert: false });
    expect(afterAttempt(policy, { ...cycle, cycleFailures: 1 }, false, at(200))).toEqual({ status: 'retrying', nextAttemptAt: at(600), raiseAlert: false });
  });

  it('raises the alert once the failures last WEBHOOK_ALERT_AFTER, and gives up at the max age', () => {
    expect(afterAttempt(policy, { ...cycle, cycleFailures: 3 }, false, at(1_000))).toEqual({ status: 'retrying', nextAttemptAt: at(1_400), raiseAlert: true });
    expect(afterAttempt(policy, { ...cycle, cycleFailures: 6, alertRaised: true }, false, at(2_000))).toEqual({ status: 'failed', nextAttemptAt: null, raiseAlert: false });
  });
});
