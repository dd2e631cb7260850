import { Inject, Injectable } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { RATE_LIMIT_STORE, RATE_LIMIT_WINDOW_MS, RateLimitStore } from './rate-limit.store';

/**
 * Deletes the counters of past windows once a window, where the store keeps them (PostgreSQL;
 * Redis keys expire by themselves). Runs only in an app that imports ScheduleModule.forRoot().
 */
@Injectable()
export class RateLimitSweep {
  constructor(@Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore) {}

  @Interval('rate-limit-sweep', RATE_LIMIT_WINDOW_MS)
  async sweep(): Promise<void> {
    // A failed sweep is retried by the next one; the counters it left are only older windows.
    await this.store.purge?.().catch(() => undefined);
  }
}
