/** Where the per-key request counters live; shared by every replica of intake-api. */
export interface RateLimitStore {
  readonly kind: 'redis' | 'postgres';
  /** Counts one request of `keyHash` in the window starting at `windowStart` (epoch ms); returns the window's count. */
  increment(scope: string, keyHash: string, windowStart: number): Promise<number>;
  close(): Promise<void>;
}

export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

/** The window of decisions.md: a fixed minute ("wait 1 minute", Retry-After: 60). */
export const RATE_LIMIT_WINDOW_MS = 60_000;
