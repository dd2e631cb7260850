import type { CredentialCheck, PlatformAnswer, PlatformCallOutcome, PollResult } from './platform-adapter';
import { PlatformNetworkError, PlatformResponse, retryAfterMs, UnsendableRequestError } from './platform-http';

/** The answer as stored: status and body. */
export function answerOf(response: PlatformResponse): PlatformAnswer {
  return { httpStatus: response.status, body: response.body };
}

export function networkAnswer(error: unknown): PlatformAnswer {
  return { httpStatus: null, body: null, error: error instanceof Error ? error.message : String(error) };
}

/** Whether an HTTP status is worth another attempt: 408, 429 and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * The common reading of a status call's answer: 2xx done; the platform's "already done" answer
 * done; 408/429/5xx retry (Retry-After respected); anything else final. Platform rules that differ
 * are applied by the adapter before calling this.
 */
export function classifyResponse(response: PlatformResponse, alreadyDone?: (response: PlatformResponse) => boolean): PlatformCallOutcome {
  const answer = answerOf(response);
  if (response.status >= 200 && response.status < 300) return { kind: 'done', answer };
  if (alreadyDone?.(response)) return { kind: 'done', answer, alreadyDone: true };
  if (isRetryableStatus(response.status)) return { kind: 'retry', answer, retryAfterMs: retryAfterMs(response.headers) };
  return { kind: 'failed', answer, reason: `the platform refused the call (HTTP ${response.status})` };
}

/** Errors on the way to a call (login, configuration) as outcomes; anything else is a programming error. */
export function outcomeOfError(error: unknown): PlatformCallOutcome {
  if (error instanceof PlatformNetworkError) return { kind: 'retry', answer: networkAnswer(error) };
  if (error instanceof LoginUnavailableError) return { kind: 'retry', answer: error.answer, retryAfterMs: error.retryAfterMs };
  if (error instanceof LoginRejectedError) return { kind: 'failed', answer: error.answer, reason: 'the platform refused the login: the stored credentials do not work' };
  if (error instanceof PlatformNotConfiguredError) return { kind: 'failed', answer: { httpStatus: null, body: null, error: error.message }, reason: error.message };
  if (error instanceof UnsendableRequestError) return { kind: 'failed', answer: { httpStatus: null, body: null, error: error.message }, reason: unsendableReason(error) };
  throw error;
}

/** Errors on the way to a poll's calls as its result (retry or failed); anything else is a programming error. */
export function pollResultOfError(error: unknown): PollResult {
  const outcome = outcomeOfError(error);
  if (outcome.kind === 'retry') return { kind: 'retry', answer: outcome.answer, retryAfterMs: outcome.retryAfterMs };
  if (outcome.kind === 'failed') return { kind: 'failed', answer: outcome.answer, reason: outcome.reason };
  throw error;
}

/** Why a call that could not be sent ended: final, nothing reached the platform. */
export function unsendableReason(error: UnsendableRequestError): string {
  return `the call cannot be sent: ${error.message}; a stored credential the platform needs in that header must be corrected (PUT)`;
}

/** The platform refused the credentials (4xx on login): final until someone fixes them. */
export class LoginRejectedError extends Error {
  constructor(readonly answer: PlatformAnswer) {
    super(`login refused (HTTP ${answer.httpStatus})`);
    this.name = 'LoginRejectedError';
  }
}

/** The login failed for a passing reason (429, 5xx, an answer without a token): retry later. */
export class LoginUnavailableError extends Error {
  constructor(
    readonly answer: PlatformAnswer,
    readonly retryAfterMs?: number,
  ) {
    super(`login unavailable (HTTP ${answer.httpStatus})`);
    this.name = 'LoginUnavailableError';
  }
}

/** A setting the platform needs is missing (an app key, a base URL). */
export class PlatformNotConfiguredError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlatformNotConfiguredError';
  }
}

/** A login failure as the credential check reports it. */
export function checkOfError(error: unknown): CredentialCheck {
  if (error instanceof LoginRejectedError) return { result: 'rejected', detail: 'The platform refused the stored credentials.', httpStatus: error.answer.httpStatus ?? undefined };
  if (error instanceof LoginUnavailableError) return { result: 'unreachable', detail: `The platform did not complete the login (HTTP ${error.answer.httpStatus}); try again later.`, httpStatus: error.answer.httpStatus ?? undefined };
  if (error instanceof PlatformNetworkError) return { result: 'unreachable', detail: `The platform could not be reached: ${error.message}.` };
  if (error instanceof PlatformNotConfiguredError) return { result: 'not_configured', detail: error.message };
  if (error instanceof UnsendableRequestError) return { result: 'rejected', detail: `The stored credentials cannot be sent to the platform: ${error.message}. Send them again with PUT.` };
  throw error;
}

/**
 * A login answer as a session: 2xx with a token, else LoginRejectedError for a final 4xx (the
 * credentials) or LoginUnavailableError for anything worth retrying.
 */
export function sessionFromLogin(response: PlatformResponse, token: string | undefined, expiresAt: () => number): { token: string; expiresAt: number } {
  if (response.status >= 200 && response.status < 300 && token) return { token, expiresAt: expiresAt() };
  // A login's answer holds no secret of ours; its body is kept for the operator.
  if (response.status >= 400 && response.status < 500 && !isRetryableStatus(response.status)) throw new LoginRejectedError(answerOf(response));
  throw new LoginUnavailableError(answerOf(response), retryAfterMs(response.headers));
}
