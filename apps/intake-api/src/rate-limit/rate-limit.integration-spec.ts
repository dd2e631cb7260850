import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { awayFromWindowEdge, createTestDatabase, isPortOpen, TestDatabase, waitFor } from '@courier/testing';
import { IntakeTestApp, keyHeader, startIntakeApp, TestAccount, validOrder } from '../../test/harness';

const ORDER = '/webhook/third-party/order';
const LIMIT = 10;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const redisAvailable = (): Promise<boolean> => isPortOpen(new URL(REDIS_URL).hostname, Number(new URL(REDIS_URL).port || 6379));

/** Two replicas of intake-api on one database: each alone stays under the limit, together they pass it. */
function describeTwoReplicas(store: string, env: () => Record<string, string>, available: () => Promise<boolean> = async () => true) {
  describe(`with two replicas (${store})`, () => {
    let database: TestDatabase;
    let replicas: IntakeTestApp[];
    let account: TestAccount;
    let skip = false;

    beforeAll(async () => {
      skip = !(await available());
      if (skip) {
        console.warn(`${store}: not reachable, tests skipped`);
        return;
      }
      database = await createTestDatabase('intake_api_rl');
      replicas = [];
      for (let index = 0; index < 2; index += 1) {
        replicas.push(await startIntakeApp({ database, env: { INTAKE_RATE_LIMIT_PER_MINUTE: String(LIMIT), ...env() } }));
      }
      account = await replicas[0].createAccount();
    });
    afterAll(async () => {
      for (const replica of replicas ?? []) await replica.close({ keepDatabase: true });
      await database?.drop();
    });

    it('shares one limit per API key: 429 RATE_LIMIT_EXCEEDED with Retry-After: 60 and RateLimit headers', async () => {
      if (skip) return;
      await awayFromWindowEdge();
      const send = (replica: IntakeTestApp) => replica.http.post(ORDER).set(keyHeader(account)).send(validOrder(account.restaurantId));
      const responses = await Promise.all(Array.from({ length: 14 }, (_, index) => send(replicas[index % 2])));
      const statuses = responses.map((response) => response.status).sort();
      // Each replica saw 7 requests (under 10 alone): only a shared count refuses any.
      expect(statuses).toEqual([...Array(LIMIT).fill(202), ...Array(14 - LIMIT).fill(429)]);
      const refused = responses.find((response) => response.status === 429)!;
      expect(refused.headers['retry-after']).toBe('60');
      expect(refused.headers['ratelimit-policy']).toBe(`"orders";q=${LIMIT};w=60`);
      expect(refused.headers['ratelimit']).toBe('"orders";r=0;t=60');
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.body).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED' });
      // Refused requests store nothing.
      const [{ n }] = await replicas[0].sql('SELECT count(*)::int AS n FROM orders WHERE restaurant_id = $1', [account.restaurantId]);
      expect(n).toBe(LIMIT);
      // Status reads have their own window, and other keys their own counters.
      expect((await replicas[1].http.get('/api/v1/orders/unknown').set(keyHeader(account))).status).toBe(404);
      const other = await replicas[1].createAccount();
      expect((await replicas[1].http.post(ORDER).set(keyHeader(other)).send(validOrder(other.restaurantId))).status).toBe(202);
    });

    it('counts after authentication: unknown keys get 401, not 429', async () => {
      if (skip) return;
      const response = await replicas[0].http.post(ORDER).set({ 'X-API-Key': 'unknown' }).send(validOrder(account.restaurantId));
      expect(response.status).toBe(401);
    });
  });
}

describeTwoReplicas('PostgreSQL counters', () => ({ REDIS_URL: '' }));

describeTwoReplicas(`Redis counters at ${REDIS_URL}`, () => ({ REDIS_URL }), redisAvailable);

describe('when Redis is unreachable', () => {
  let t: IntakeTestApp;
  beforeAll(async () => {
    t = await startIntakeApp({ env: { INTAKE_RATE_LIMIT_PER_MINUTE: '1', REDIS_URL: 'redis://127.0.0.1:1' } });
  });
  afterAll(() => t?.close());

  it('lets requests through (fail open) and logs a warning, without waiting long', async () => {
    const account = await t.createAccount();
    const started = Date.now();
    for (let index = 0; index < 3; index += 1) {
      expect((await t.http.post(ORDER).set(keyHeader(account)).send(validOrder(account.restaurantId))).status).toBe(202);
    }
    expect(Date.now() - started).toBeLessThan(3_000);
    await waitFor('warning', () => t.logLines.some((line) => line.includes('rate-limit store unavailable') && line.includes('"level":40')));
  });
});

describe('Redis counter keys', () => {
  it('expire, so a window leaves no key behind', async () => {
    if (!(await redisAvailable())) return;
    const t = await startIntakeApp({ env: { REDIS_URL } });
    const redis = new Redis(REDIS_URL);
    try {
      const account = await t.createAccount();
      await t.http.post(ORDER).set(keyHeader(account)).send(validOrder(account.restaurantId, { orderId: randomUUID() }));
      const keys = await redis.keys('intake:rate-limit:intake:*');
      const ttls = await Promise.all(keys.map((key) => redis.pttl(key)));
      expect(ttls.length).toBeGreaterThan(0);
      for (const ttl of ttls) expect(ttl).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
      await t.close();
    }
  });
});
