import { Logger } from '@nestjs/common';
import type { Request } from 'express';
import { BaseConfig } from '@courier/config';
import { ProblemException } from '@courier/http';
import { AuthFailures } from './auth-failures.service';
import { RateLimiter } from './rate-limiter';
import { RateLimitStore } from './rate-limit.store';

/** Counters in a map, as the shared stores keep them (one per scope, key and window). */
class MapStore implements RateLimitStore {
  readonly kind = 'postgres' as const;
  readonly counts = new Map<string, number>();
  failing = false;

  async increment(scope: string, key: string, windowStart: number): Promise<number> {
    if (this.failing) throw new Error('store down');
    const id = `${scope}|${key}|${windowStart}`;
    this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
    return this.counts.get(id)!;
  }

  async read(scope: string, keys: string[], windowStart: number): Promise<number[]> {
    if (this.failing) throw new Error('store down');
    return keys.map((key) => this.counts.get(`${scope}|${key}|${windowStart}`) ?? 0);
  }

  async close(): Promise<void> {}
}

const unauthorized = () => new ProblemException(401, 'AUTHENTICATION_FAILED', 'Wrong.');
const request = (ip: string, apiKey?: string) => ({ ip, headers: apiKey ? { 'x-api-key': apiKey } : {}, socket: {} }) as unknown as Request;

describe('AuthFailures', () => {
  let store: MapStore;
  let failures: AuthFailures;

  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    store = new MapStore();
    const config = { AUTH_FAILURE_LIMIT_PER_MINUTE: 3, AUTH_FAILURE_KEY_LIMIT_PER_MINUTE: 5 } as unknown as BaseConfig & { AUTH_FAILURE_LIMIT_PER_MINUTE: number; AUTH_FAILURE_KEY_LIMIT_PER_MINUTE: number };
    failures = new AuthFailures(new RateLimiter(store), config, { keyIdHeaders: ['x-api-key'] });
  });
  afterEach(() => jest.restoreAllMocks());

  const statusOf = async (req: Request) => ((await failures.refuse(req, unauthorized()).catch((error: unknown) => error)) as ProblemException).getStatus();

  it('throws the guard\'s 401 and counts it, until the address is over its limit; then 429 with the headers', async () => {
    const statuses = [];
    for (let attempt = 0; attempt < 5; attempt += 1) statuses.push(await statusOf(request('203.0.113.9')));
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const refused = (await failures.refuse(request('203.0.113.9'), unauthorized()).catch((error: unknown) => error)) as ProblemException;
    expect(refused.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(refused.headers['RateLimit-Policy']).toBe('"failures";q=3;w=60');
    expect(refused.headers.RateLimit).toBe(`"failures";r=0;t=${refused.headers['Retry-After']}`);
    // Another address is not affected.
    expect(await statusOf(request('203.0.113.10'))).toBe(401);
  });

  it('refuses a key over its limit only from addresses that failed, under the "key-failures" policy', async () => {
    for (let host = 1; host <= 5; host += 1) expect(await statusOf(request(`198.51.100.${host}`, 'key_attacked'))).toBe(401);
    const refused = (await failures.refuse(request('198.51.100.1', 'key_attacked'), unauthorized()).catch((error: unknown) => error)) as ProblemException;
    expect(refused.getStatus()).toBe(429);
    expect(refused.headers['RateLimit-Policy']).toBe('"key-failures";q=5;w=60');
    expect(await statusOf(request('198.51.100.77', 'key_attacked'))).toBe(401);
  });

  it('answers 401 uncounted when the store is down (fail open)', async () => {
    store.failing = true;
    for (let attempt = 0; attempt < 5; attempt += 1) expect(await statusOf(request('203.0.113.9'))).toBe(401);
    expect(store.counts.size).toBe(0);
  });
});
