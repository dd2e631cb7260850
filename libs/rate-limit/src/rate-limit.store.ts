/**
 * Where fixed-window counters live, shared by every replica of an app: Redis when REDIS_URL is set,
 * else the app's UNLOGGED table rate_limit_counters (each app creates its own with
 * createRateLimitCountersTable in one of its migrations).
 */
export interface RateLimitStore {
  readonly kind: 'redis' | 'postgres';
  /**
   * Counts one hit of `key` in the window starting at `windowStart` (epoch ms) and lasting
   * `windowMs` (default a minute); returns the window's count.
   */
  increment(scope: string, key: string, windowStart: number, windowMs?: number): Promise<number>;
  /** The window's counts of these keys without counting (0 for a key never hit), in the same order. */
  read(scope: string, keys: string[], windowStart: number, windowMs?: number): Promise<number[]>;
  /** Deletes the counters of past windows (RateLimitSweep, once a window); absent where counters expire by themselves. */
  purge?(now?: number): Promise<void>;
  close(): Promise<void>;
}

export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

/** Limits count in a fixed minute unless they say otherwise (decisions.md: "wait 1 minute", Retry-After: 60). */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/** A fixed hour, for limits of rare and costly calls (the integration check's per-account limit). */
export const RATE_LIMIT_HOUR_MS = 3_600_000;

/** Start of the window of `windowMs` (a whole number of minutes) that `now` falls in. */
export function windowStartOf(now: number, windowMs = RATE_LIMIT_WINDOW_MS): number {
  return Math.floor(now / windowMs) * windowMs;
}

/** Whole seconds until the window `now` falls in ends (at least 1): the Retry-After of a refusal. */
export function secondsLeftInWindow(now: number, windowMs = RATE_LIMIT_WINDOW_MS): number {
  return Math.max(1, Math.ceil((windowStartOf(now, windowMs) + windowMs - now) / 1000));
}
