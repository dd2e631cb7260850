import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { RATE_LIMIT_STORE, RATE_LIMIT_WINDOW_MS, RateLimitStore, windowStartOf } from './rate-limit.store';

const FAILURE_LOG_INTERVAL_MS = 10_000;

/**
 * Fixed-minute counters over the shared store. When the store fails, the call answers `undefined`
 * and the caller lets the request through (fail open): a limit protects capacity, not data, and
 * refusing every request while Redis is down would turn a cache outage into an API outage. A
 * warning says so (at most one every 10 s).
 */
@Injectable()
export class RateLimiter implements OnModuleDestroy {
  private readonly logger = new Logger('RateLimiter');
  private lastFailureLog = 0;
  private failuresSinceLog = 0;

  constructor(@Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore) {}

  /**
   * Counts one hit of `key` in the fixed window of `windowMs` (a whole number of minutes; default
   * one) that `now` falls in; the window's count including it, or undefined when the store failed.
   */
  async hit(scope: string, key: string, now = Date.now(), windowMs = RATE_LIMIT_WINDOW_MS): Promise<number | undefined> {
    try {
      return await this.store.increment(scope, key, windowStartOf(now, windowMs), windowMs);
    } catch (error) {
      this.logFailure(error);
      return undefined;
    }
  }

  /** The window's counts of `keys` without counting; undefined when the store failed. */
  async read(scope: string, keys: string[], now = Date.now(), windowMs = RATE_LIMIT_WINDOW_MS): Promise<number[] | undefined> {
    try {
      return await this.store.read(scope, keys, windowStartOf(now, windowMs), windowMs);
    } catch (error) {
      this.logFailure(error);
      return undefined;
    }
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
