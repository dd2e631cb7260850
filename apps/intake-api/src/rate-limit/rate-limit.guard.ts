import { CanActivate, ExecutionContext, Inject, Injectable, Logger, OnModuleDestroy, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode } from '@courier/contracts';
import { ProblemException } from '@courier/http';
import { IntakeConfig } from '../app/intake-api.config';
import { IntakeRequest } from '../accounts/intake-auth.guard';
import { RATE_LIMIT_STORE, RATE_LIMIT_WINDOW_MS, RateLimitStore } from './rate-limit.store';

export type RateLimitScope = 'intake' | 'read';
const SCOPE_KEY = 'intake:rate-limit-scope';

/** Which counter a route uses: order intake and status reads have separate windows. */
export const RateLimitScope = (scope: RateLimitScope) => SetMetadata(SCOPE_KEY, scope);

const FAILURE_LOG_INTERVAL_MS = 10_000;

/**
 * Step 2 of the check order (after IntakeAuthGuard): INTAKE_RATE_LIMIT_PER_MINUTE requests per
 * API key in a fixed minute, counted in the shared store. 429 with Retry-After: 60.
 *
 * When the store fails the request is let through (fail open): the limit protects capacity, not
 * data, and refusing every order while Redis is down would turn a cache outage into a full
 * intake outage although PostgreSQL can still take the orders. A warning says so (throttled).
 */
@Injectable()
export class RateLimitGuard implements CanActivate, OnModuleDestroy {
  private readonly logger = new Logger('RateLimitGuard');
  private lastFailureLog = 0;
  private failuresSinceLog = 0;

  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    private readonly config: IntakeConfig,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<IntakeRequest>();
    const caller = request.intakeCaller;
    if (!caller) return true; // IntakeAuthGuard runs first and refuses unauthenticated calls
    const scope = this.reflector.get<RateLimitScope | undefined>(SCOPE_KEY, context.getHandler()) ?? 'intake';
    const windowStart = Math.floor(Date.now() / RATE_LIMIT_WINDOW_MS) * RATE_LIMIT_WINDOW_MS;
    let count: number;
    try {
      count = await this.store.increment(scope, caller.apiKeyHash, windowStart);
    } catch (error) {
      this.logFailure(error);
      return true;
    }
    if (count > this.config.INTAKE_RATE_LIMIT_PER_MINUTE) {
      throw new ProblemException(
        429,
        ErrorCode.RateLimitExceeded,
        `More than ${this.config.INTAKE_RATE_LIMIT_PER_MINUTE} requests a minute for this API key; retry after 60 seconds.`,
        undefined,
        {},
        { 'Retry-After': '60' },
      );
    }
    return true;
  }

  async onModuleDestroy(): Promise<void> {
    await this.store.close();
  }

  private logFailure(error: unknown): void {
    this.failuresSinceLog += 1;
    const now = Date.now();
    if (now - this.lastFailureLog < FAILURE_LOG_INTERVAL_MS) return;
    this.logger.warn(
      { err: error, store: this.store.kind, failures: this.failuresSinceLog },
      'rate-limit store unavailable: requests are let through without a limit (fail open)',
    );
    this.lastFailureLog = now;
    this.failuresSinceLog = 0;
  }
}
