import { Redis } from 'ioredis';
import type { Logger } from '@nestjs/common';
import { RATE_LIMIT_WINDOW_MS, RateLimitStore } from './rate-limit.store';

/** How long a counter call may take before the request goes on without it (fail open). */
export const REDIS_COMMAND_TIMEOUT_MS = 250;

/** INCR, and PEXPIRE when the counter is new, atomically (the window is in the key; the expiry only frees memory). */
const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

type CountingRedis = Redis & { countHit(key: string, expiryMs: number): Promise<number> };

/**
 * Counters in Redis: one script call per request (INCR + PEXPIRE, atomic), auto-pipelined so that
 * concurrent requests share one write. Commands fail at once while disconnected (no offline
 * queue) and after REDIS_COMMAND_TIMEOUT_MS when Redis hangs, so an unhealthy Redis costs a
 * request at most that long; the client reconnects in the background.
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly kind = 'redis' as const;
  private readonly client: CountingRedis;

  /** `service` names the app: its keys are `<service>:rate-limit:<scope>:<key>:<window>`. */
  constructor(
    url: string,
    logger: Logger,
    private readonly service: string,
  ) {
    const client = new Redis(url, {
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      maxRetriesPerRequest: 0,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      connectTimeout: 2_000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 5_000),
      connectionName: `${service}-rate-limit`,
    });
    client.defineCommand('countHit', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
    // Without a listener an 'error' event would crash the process; the guard logs failed counts.
    client.on('error', (error) => logger.debug({ err: error }, 'redis connection error'));
    this.client = client as CountingRedis;
  }

  async increment(scope: string, key: string, windowStart: number, windowMs = RATE_LIMIT_WINDOW_MS): Promise<number> {
    // A window of slack on the expiry covers replicas whose clocks disagree a little.
    return Number(await this.client.countHit(this.keyOf(scope, key, windowStart), 2 * windowMs));
  }

  async read(scope: string, keys: string[], windowStart: number): Promise<number[]> {
    if (keys.length === 0) return [];
    const counts = await this.client.mget(keys.map((key) => this.keyOf(scope, key, windowStart)));
    return counts.map((count) => Number(count ?? 0));
  }

  private keyOf(scope: string, key: string, windowStart: number): string {
    return `${this.service}:rate-limit:${scope}:${key}:${windowStart}`;
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}
