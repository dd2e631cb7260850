/** The retry rules of decisions.md ("Webhooks"), in milliseconds (WEBHOOK_RETRY_SCHEDULE, _ALERT_AFTER, _MAX_AGE). */
export interface RetryPolicy {
  /** Delay after the 1st, 2nd, ... failure of a cycle; the last one repeats. */
  scheduleMs: number[];
  alertAfterMs: number;
  maxAgeMs: number;
}

export interface FailedCycle {
  /** When the cycle began: the delivery's creation or its last redelivery. */
  cycleStartedAt: Date;
  /** Failed attempts of the cycle, the one just made included (>= 1). */
  failures: number;
  alertRaised: boolean;
  now: Date;
}

export type NextStep = { kind: 'retry'; at: Date; raiseAlert: boolean } | { kind: 'give-up'; raiseAlert: boolean };

/**
 * What follows a failed attempt. The next try comes after the schedule's delay, but never later than
 * the moment the alert is due (so the alert is raised after exactly WEBHOOK_ALERT_AFTER of failures,
 * by a last try that fails) nor than the max age (the last try is made then; if it fails too, the
 * delivery is failed).
 */
export function nextStepAfterFailure(policy: RetryPolicy, cycle: FailedCycle): NextStep {
  const now = cycle.now.getTime();
  const started = cycle.cycleStartedAt.getTime();
  const age = now - started;
  const raiseAlert = !cycle.alertRaised && age >= policy.alertAfterMs;
  if (age >= policy.maxAgeMs) return { kind: 'give-up', raiseAlert };
  const delay = policy.scheduleMs[Math.min(Math.max(cycle.failures, 1), policy.scheduleMs.length) - 1];
  let at = now + delay;
  const alertAt = started + policy.alertAfterMs;
  if (!cycle.alertRaised && !raiseAlert && alertAt > now) at = Math.min(at, alertAt);
  at = Math.min(at, started + policy.maxAgeMs);
  return { kind: 'retry', at: new Date(at), raiseAlert };
}
