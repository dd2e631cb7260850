import http from 'node:http';

/**
 * What the sender decides around one attempt, as pure functions of the facts (no database, no
 * clock, no network): where a delivery goes, what the receiver's answer or a network error means,
 * and what follows the attempt (delivered, retried at what time, given up, alert raised).
 */

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

/** The facts of a delivery that decide where it goes. */
export interface DeliveryTargetFacts {
  event: string;
  /** The account is in the sender's read model (its events may lag behind the order's). */
  accountKnown: boolean;
  statusUrl: string | null;
  cancelUrl: string | null;
}

export type DeliveryTarget =
  /** Send to this URL. */
  | { kind: 'send'; url: string }
  /** Not sent now: counts as a failed attempt (retried on the schedule). */
  | { kind: 'fail'; error: string }
  /** Nothing to send to: recorded as skipped (a redelivery after setting a URL sends it). */
  | { kind: 'skip'; error: string };

/** Which of the account's URLs an event's webhook goes to: order.canceled to the cancel URL, every other event (restaurant ones too) to the status URL. */
export const receiverUrlOf = (event: string): 'status' | 'cancel' => (event === 'order.canceled' ? 'cancel' : 'status');

/** Where a delivery goes: the account's URL for its event, as the account is now. */
export function deliveryTarget(facts: DeliveryTargetFacts): DeliveryTarget {
  if (!facts.accountKnown) return { kind: 'fail', error: 'the account of this delivery is not known to the sender yet' };
  const target = receiverUrlOf(facts.event);
  const url = target === 'status' ? facts.statusUrl : facts.cancelUrl;
  if (!url) return { kind: 'skip', error: `no ${target} URL configured` };
  return { kind: 'send', url };
}

/** What a receiver's status code means: only 2xx is delivered; anything else (a redirect too) is a failure to retry. */
export function answerVerdict(statusCode: number): { ok: true; error: null } | { ok: false; error: string } {
  return statusCode >= 200 && statusCode < 300 ? { ok: true, error: null } : { ok: false, error: refusalReason(statusCode) };
}

/** `HTTP 503 Service Unavailable`: the code with its standard reason phrase (not the receiver's, which is never recorded). */
export function refusalReason(status: number): string {
  const phrase = http.STATUS_CODES[status];
  const line = `HTTP ${status}${phrase ? ` ${phrase}` : ''}`;
  return status >= 300 && status < 400 ? `${line} (redirect not followed)` : line;
}

const TLS_CERT_ERRORS = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS_CERT_ALTNAME_INVALID/;

/** What a network error means, as the attempt log shows it (a failure to retry). */
export function networkFailure(error: { code?: string; message: string }): string {
  const code = error.code ?? '';
  if (TLS_CERT_ERRORS.test(code)) return `TLS certificate refused (${code}): ${error.message}`;
  return `${code || 'error'}: ${error.message}`.slice(0, 500);
}

/** The facts of a delivery's current cycle, before the attempt just made. */
export interface CycleFacts {
  cycleStartedAt: Date;
  /** Failed attempts of the cycle before this one. */
  cycleFailures: number;
  alertRaised: boolean;
}

export type AttemptConclusion =
  | { status: 'delivered'; nextAttemptAt: null; raiseAlert: false }
  | { status: 'retrying'; nextAttemptAt: Date; raiseAlert: boolean }
  | { status: 'failed'; nextAttemptAt: null; raiseAlert: boolean };

/** Where a delivery stands after an attempt that ended `ok` (a 2xx) or not, at `now`. */
export function afterAttempt(policy: RetryPolicy, cycle: CycleFacts, ok: boolean, now: Date): AttemptConclusion {
  if (ok) return { status: 'delivered', nextAttemptAt: null, raiseAlert: false };
  const step = nextStepAfterFailure(policy, { cycleStartedAt: cycle.cycleStartedAt, failures: cycle.cycleFailures + 1, alertRaised: cycle.alertRaised, now });
  return step.kind === 'retry' ? { status: 'retrying', nextAttemptAt: step.at, raiseAlert: step.raiseAlert } : { status: 'failed', nextAttemptAt: null, raiseAlert: step.raiseAlert };
}
