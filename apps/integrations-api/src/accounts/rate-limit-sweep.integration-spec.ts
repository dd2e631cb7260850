import { SchedulerRegistry } from '@nestjs/schedule';
import { RATE_LIMIT_WINDOW_MS, RateLimitSweep, windowStartOf } from '@courier/rate-limit';
import { startTestApp, TestApp } from '../../test/harness';

/** The PostgreSQL counters of past windows are deleted by the app's scheduler, not left to grow. */
describe('rate-limit sweep (integrations-api, PostgreSQL counters)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { REDIS_URL: '' } });
  });
  afterAll(() => t?.close());

  it('is scheduled on the app\'s scheduler and deletes the counters of windows before the previous one', async () => {
    expect(t.app.get(SchedulerRegistry).getInterval('rate-limit-sweep')).toBeDefined();
    const current = windowStartOf(Date.now());
    const windows = [current - 3 * RATE_LIMIT_WINDOW_MS, current - RATE_LIMIT_WINDOW_MS, current];
    for (const windowStart of windows) {
      await t.sql('INSERT INTO rate_limit_counters (scope, key_hash, window_start, count) VALUES ($1, $2, $3, 1)', ['sweep-test', 'k', windowStart]);
    }
    await t.app.get(RateLimitSweep).sweep();
    const left = await t.sql<{ window_start: string }>('SELECT window_start FROM rate_limit_counters WHERE scope = $1 ORDER BY window_start', ['sweep-test']);
    expect(left.map((row) => Number(row.window_start))).toEqual(windows.slice(1));
  });
});
