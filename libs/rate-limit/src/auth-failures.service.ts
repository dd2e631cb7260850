import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { BaseConfig } from '@courier/config';
import { AuthFailureRefusal, ProblemException } from '@courier/http';
import { authAttemptRefusal, AuthFailureLimits, clientAddressKey, keyIdKey } from './auth-failures';
import { rateLimitExceeded, RateLimitPolicy } from './rate-limit-headers';
import { RateLimiter } from './rate-limiter';
import { RATE_LIMIT_WINDOW_MS, secondsLeftInWindow } from './rate-limit.store';

export const AUTH_FAILURE_THROTTLE_OPTIONS = Symbol('AUTH_FAILURE_THROTTLE_OPTIONS');
const SCOPE = 'auth-failures';

export interface AuthFailureThrottleOptions {
  /** Headers that name the presented key (e.g. x-api-key): its failures are counted too. */
  keyIdHeaders: string[];
}

/** The fields of the app's config this service reads (libs/config AuthThrottledConfig). */
interface AuthFailureLimitConfig extends BaseConfig {
  AUTH_FAILURE_LIMIT_PER_MINUTE: number;
  AUTH_FAILURE_KEY_LIMIT_PER_MINUTE: number;
}

/**
 * The one way a credential check of the app says no: every guard that finds credentials missing or
 * wrong calls `refuse`, which counts the failure per client address and per presented key id in
 * the shared store (the limit holds across replicas) and throws the guard's 401, or, once the
 * address or key is over its limit this minute, 429 RATE_LIMIT_EXCEEDED with Retry-After,
 * RateLimit and RateLimit-Policy. A request whose credentials are right never comes here, so a
 * broken client behind the same address (a NAT) cannot lock a working one out; the throttle only
 * slows guessing. The client address is `request.ip` (TRUST_PROXY decides whether
 * X-Forwarded-For counts). When the store fails, the 401 goes out uncounted (fail open).
 */
@Injectable()
export class AuthFailures implements AuthFailureRefusal {
  private readonly limits: AuthFailureLimits;
  private readonly policies: Record<'address' | 'key', RateLimitPolicy>;

  constructor(
    private readonly limiter: RateLimiter,
    @Inject(BaseConfig) config: AuthFailureLimitConfig,
    @Inject(AUTH_FAILURE_THROTTLE_OPTIONS) private readonly options: AuthFailureThrottleOptions,
  ) {
    this.limits = { perAddress: config.AUTH_FAILURE_LIMIT_PER_MINUTE, perKey: config.AUTH_FAILURE_KEY_LIMIT_PER_MINUTE };
    const windowSeconds = RATE_LIMIT_WINDOW_MS / 1000;
    this.policies = {
      address: { name: 'failures', quota: this.limits.perAddress, windowSeconds },
      key: { name: 'key-failures', quota: this.limits.perKey, windowSeconds },
    };
  }

  /** Refuses a request whose authentication failed: `unauthorized` (the guard's 401), or 429 past the limits. */
  async refuse(request: Request, unauthorized: ProblemException): Promise<never> {
    const keys = [`address:${clientAddressKey(request.ip ?? request.socket.remoteAddress)}`];
    const keyId = this.options.keyIdHeaders.map((name) => request.headers[name]).find((value): value is string => typeof value === 'string' && value !== '');
    if (keyId !== undefined) keys.push(`key:${keyIdKey(keyId)}`);

    const now = Date.now();
    const counts = await this.limiter.read(SCOPE, keys, now);
    const refusal = counts && authAttemptRefusal({ address: counts[0], key: counts[1] }, this.limits);
    if (refusal) {
      throw rateLimitExceeded(
        'Too many failed authentication attempts from this address or for this key; retry after the Retry-After seconds.',
        this.policies[refusal],
        secondsLeftInWindow(now),
      );
    }
    // Counted before the 401 leaves, so a client that waits for its answer has been counted.
    await Promise.all(keys.map((key) => this.limiter.hit(SCOPE, key, now)));
    throw unauthorized;
  }
}
