/**
 * Where fixed-window counters live, shared by every replica of an app: Redis when REDIS_URL is set,
 * else the app's UNLOGGED table rate_limit_counters (each app creates its own with
 * createRateLimitCountersTable in one of its migrations).
 */
export interface RateLimitStore {
  readonly kind: 'redis' | 'postgres';
  /** Counts one hit of `key` in the window starting at `windowStart` (epoch ms); returns the window's count. */
  increment(scope: string, key: string, windowStart: number): Promise<number>;
  /** The window's counts of these keys without counting (0 for a key never hit), in the same order. */
  read(scope: string, keys: string[], windowStart: number): Promise<number[]>;
  /** Deletes the counters of past windows (RateLimitSweep, once a window); absent where counters expire by themselves. */
  purge?(now?: number): Promise<void>;
  close(): Promise<void>;
}

export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

/** Every limit counts in a fixed minute (decisions.md: "wait 1 minute", Retry-After: 60). */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/** Start of the window `now` falls in. */
export function windowStartOf(now: number): number {
  return Math.floor(now / RATE_LIMIT_WINDOW_MS) * RATE_LIMIT_WINDOW_MS;
}

/** Whole seconds until the window `now` falls in ends (at least 1): the Retry-After of a refusal. */
export function secondsLeftInWindow(now: number): number {
  return Math.max(1, Math.ceil((windowStartOf(now) + RATE_LIMIT_WINDOW_MS - now) / 1000));
}
