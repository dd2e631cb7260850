import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { BaseConfig } from '@courier/config';
import { authAttemptRefused, AuthFailureLimits, clientAddressKey, keyIdKey } from './auth-failures';
import { RateLimiter, rateLimitExceeded } from './rate-limiter';
import { secondsLeftInWindow } from './rate-limit.store';

export const AUTH_FAILURE_THROTTLE_OPTIONS = Symbol('AUTH_FAILURE_THROTTLE_OPTIONS');
const SCOPE = 'auth-failures';

export interface AuthFailureThrottleOptions {
  /** Headers that name the presented key (e.g. x-api-key): its failures are counted too. */
  keyIdHeaders: string[];
}

/** The fields of the app's config this guard reads (libs/config AuthThrottledConfig). */
interface AuthFailureLimitConfig extends BaseConfig {
  AUTH_FAILURE_LIMIT_PER_MINUTE: number;
  AUTH_FAILURE_KEY_LIMIT_PER_MINUTE: number;
}

/** Not authenticated anywhere, and probes must pass whatever an address did. */
const UNAUTHENTICATED_PATHS = /^\/(health|metrics|docs)(\/|-json|$)/;

/**
 * Throttles failed authentication on every route of the app, whatever checks the credentials (a
 * guard, a controller, a platform callback): an app-wide guard that runs before every other one,
 * refuses with 429 RATE_LIMIT_EXCEEDED (Retry-After: the rest of the minute) an address or key id
 * over its limit, and counts every 401 the app answers, before the 401 leaves (so a client that
 * waits for its answer has been counted). Counters are in the shared store: the limit holds across
 * replicas. The client address is `request.ip` (TRUST_PROXY decides whether X-Forwarded-For counts).
 */
@Injectable()
export class AuthFailureThrottleGuard implements CanActivate {
  private readonly limits: AuthFailureLimits;

  constructor(
    private readonly limiter: RateLimiter,
    @Inject(BaseConfig) config: AuthFailureLimitConfig,
    @Inject(AUTH_FAILURE_THROTTLE_OPTIONS) private readonly options: AuthFailureThrottleOptions,
  ) {
    this.limits = { perAddress: config.AUTH_FAILURE_LIMIT_PER_MINUTE, perKey: config.AUTH_FAILURE_KEY_LIMIT_PER_MINUTE };
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    if (UNAUTHENTICATED_PATHS.test(request.path)) return true;
    const keys = [`address:${clientAddressKey(request.ip ?? request.socket.remoteAddress)}`];
    const keyId = this.options.keyIdHeaders.map((name) => request.headers[name]).find((value): value is string => typeof value === 'string' && value !== '');
    if (keyId !== undefined) keys.push(`key:${keyIdKey(keyId)}`);

    const now = Date.now();
    const counts = await this.limiter.read(SCOPE, keys, now);
    if (counts && authAttemptRefused({ address: counts[0], key: counts[1] }, this.limits)) {
      throw rateLimitExceeded('Too many failed authentication attempts from this address or for this key; retry after the Retry-After seconds.', secondsLeftInWindow(now));
    }
    countBeforeUnauthorizedReply(response, () => Promise.all(keys.map((key) => this.limiter.hit(SCOPE, key))));
    return true;
  }
}

/** Holds a 401 answer back until `count` has run; every other answer goes out untouched. */
function countBeforeUnauthorizedReply(response: Response, count: () => Promise<unknown>): void {
  const end = response.end;
  response.end = function endAfterCounting(this: Response, ...args: unknown[]) {
    response.end = end;
    if (response.statusCode !== 401) return end.apply(this, args as Parameters<Response['end']>);
    void count()
      .catch(() => undefined)
      .finally(() => end.apply(this, args as Parameters<Response['end']>));
    return this;
  } as Response['end'];
}
