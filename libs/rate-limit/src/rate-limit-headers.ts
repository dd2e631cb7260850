import { ErrorCode } from '@courier/contracts';
import { ProblemException } from '@courier/http';

/** One quota policy of a limit, as the RateLimit-Policy field names it. */
export interface RateLimitPolicy {
  /** The policy's name: lower-case letters, digits and hyphens (a structured-field string, no escaping needed). */
  name: string;
  /** Requests (or failures) the window allows. */
  quota: number;
  windowSeconds: number;
}

const POLICY_NAME = /^[a-z0-9-]+$/;

/**
 * The headers of a limited answer: `RateLimit-Policy` and `RateLimit` in the structured-field form of
 * the IETF httpapi draft (draft-ietf-httpapi-ratelimit-headers-10: `"name";q=<quota>;w=<window>` and
 * `"name";r=<remaining>;t=<seconds until reset>`), and `Retry-After` with the same seconds.
 */
export function rateLimitHeaders(policy: RateLimitPolicy, resetSeconds: number, remaining = 0): Record<string, string> {
  if (!POLICY_NAME.test(policy.name)) throw new Error(`rate-limit policy name must match ${POLICY_NAME}: ${policy.name}`);
  const seconds = Math.max(1, Math.ceil(resetSeconds));
  return {
    'RateLimit-Policy': `"${policy.name}";q=${policy.quota};w=${policy.windowSeconds}`,
    RateLimit: `"${policy.name}";r=${Math.max(0, remaining)};t=${seconds}`,
    'Retry-After': String(seconds),
  };
}

/** 429 RATE_LIMIT_EXCEEDED with Retry-After, RateLimit and RateLimit-Policy (rateLimitHeaders). */
export function rateLimitExceeded(detail: string, policy: RateLimitPolicy, retryAfterSeconds: number): ProblemException {
  return new ProblemException(429, ErrorCode.RateLimitExceeded, detail, undefined, {}, rateLimitHeaders(policy, retryAfterSeconds));
}
