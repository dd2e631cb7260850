import { randomInt } from 'node:crypto';
import { awayFromWindowEdge, isPortOpen } from '@courier/testing';
import { ADMIN_TOKEN, credentials, startTestApp, TestApp } from '../../test/harness';

const PER_ADDRESS = 5;
const PER_KEY = 4;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// Addresses of this run only: a Redis shared with other test runs never mixes their counts with ours.
const run = `10.${randomInt(256)}.${randomInt(256)}`;
const address = (host: number) => `${run}.${host}`;
const from = (host: number) => ({ 'X-Forwarded-For': address(host) });

/**
 * Failed authentication is throttled per client address and per presented X-API-Key, in counters
 * shared by the replicas; correct credentials always pass, whatever failed before from their address (two apps on one database here); TRUST_PROXY=loopback lets the test speak
 * from several addresses through X-Forwarded-For.
 */
describe.each([
  ['PostgreSQL counters', '', async () => true],
  [`Redis counters at ${REDIS_URL}`, REDIS_URL, () => isPortOpen(new URL(REDIS_URL).hostname, Number(new URL(REDIS_URL).port || 6379))],
])('failed-authentication throttle (integrations-api, two replicas, %s)', (store, redisUrl, available) => {
  let replicas: TestApp[] = [];
  let skip = false;

  beforeAll(async () => {
    skip = !(await available());
    if (skip) {
      console.warn(`${store}: not reachable, tests skipped`);
      return;
    }
    const env = { AUTH_FAILURE_LIMIT_PER_MINUTE: String(PER_ADDRESS), AUTH_FAILURE_KEY_LIMIT_PER_MINUTE: String(PER_KEY), TRUST_PROXY: 'loopback', REDIS_URL: redisUrl };
    const first = await startTestApp({ env });
    replicas = [first, await startTestApp({ env, database: first.database })];
  });
  afterAll(async () => {
    await replicas[1]?.close({ keepDatabase: true });
    await replicas[0]?.close();
  });

  it('answers an address past its limit of wrong secrets 429 with Retry-After and RateLimit headers, on every replica; its right credentials still get in', async () => {
    if (skip) return;
    await awayFromWindowEdge(20_000);
    const owner = await replicas[0].createRestaurant();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 30; attempt += 1) {
      // A new key id each time: only the address is over its limit.
      const wrong = { 'X-API-Key': `key_guess_${run}_${attempt}`, 'X-API-Secret': 'not-the-secret' };
      statuses.push((await replicas[attempt % 2].http.get('/api/v1/my/integrations').set({ ...wrong, ...from(1) })).status);
    }
    // Each replica saw 15 wrong secrets; only a shared count stops the address after 5.
    expect(statuses).toEqual([...Array(PER_ADDRESS).fill(401), ...Array(30 - PER_ADDRESS).fill(429)]);
    // A working client behind the same address (a NAT) is not locked out by a broken one.
    expect((await replicas[1].http.get('/api/v1/my/integrations').set({ ...credentials(owner), ...from(1) })).status).toBe(200);
    expect((await replicas[0].http.get('/api/v1/my/integrations').set({ ...credentials(owner), ...from(1) })).status).toBe(200);
    const refused = await replicas[1].http.get('/api/v1/my/integrations').set({ 'X-API-Key': owner.apiKey, 'X-API-Secret': 'not-the-secret', ...from(1) });
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED' });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers['ratelimit-policy']).toBe(`"failures";q=${PER_ADDRESS};w=60`);
    expect(refused.headers['ratelimit']).toBe(`"failures";r=0;t=${retryAfter}`);
    // No credentials at all is a failure too.
    expect((await replicas[0].http.get('/api/v1/my/integrations').set(from(1))).status).toBe(429);
    expect((await replicas[0].http.get('/api/v1/my/integrations').set({ ...credentials(owner), ...from(2) })).status).toBe(200);
    // Probes are never throttled.
    expect((await replicas[0].http.get('/health').set(from(1))).status).toBe(200);
  });

  it('throttles wrong admin tokens the same way, never the right one', async () => {
    if (skip) return;
    await awayFromWindowEdge(20_000);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt += 1) {
      statuses.push((await replicas[attempt % 2].http.get('/admin/v1/restaurants').set({ 'X-Admin-Token': `wrong-token-${attempt}-0123456789`, ...from(3) })).status);
    }
    expect(statuses).toEqual([...Array(PER_ADDRESS).fill(401), ...Array(12 - PER_ADDRESS).fill(429)]);
    expect((await replicas[0].http.get('/admin/v1/restaurants').set({ 'X-Admin-Token': ADMIN_TOKEN, ...from(3) })).status).toBe(200);
    expect((await replicas[0].http.get('/admin/v1/restaurants').set({ 'X-Admin-Token': ADMIN_TOKEN, ...from(4) })).status).toBe(200);
  });

  it('closes a key attacked from many addresses to wrong guesses from the addresses that failed, never to its right secret', async () => {
    if (skip) return;
    await awayFromWindowEdge(20_000);
    const owner = await replicas[0].createRestaurant();
    const wrong = { 'X-API-Key': owner.apiKey, 'X-API-Secret': 'guess' };
    for (let index = 1; index <= PER_KEY; index += 1) {
      expect((await replicas[index % 2].http.get('/api/v1/my/integrations').set({ ...wrong, ...from(100 + index) })).status).toBe(401);
    }
    // Each of those addresses is far under its own limit, but the key has had its share of failures.
    const refused = await replicas[0].http.get('/api/v1/my/integrations').set({ ...wrong, ...from(101) });
    expect(refused.status).toBe(429);
    expect(refused.headers['ratelimit-policy']).toBe(`"key-failures";q=${PER_KEY};w=60`);
    expect(refused.headers['ratelimit']).toBe(`"key-failures";r=0;t=${refused.headers['retry-after']}`);
    expect((await replicas[1].http.get('/api/v1/my/integrations').set({ ...credentials(owner), ...from(102) })).status).toBe(200);
    // Another key from those addresses is not affected, nor the owner from a clean address.
    const other = await replicas[0].createRestaurant();
    expect((await replicas[1].http.get('/api/v1/my/integrations').set({ ...credentials(other), ...from(101) })).status).toBe(200);
    expect((await replicas[0].http.get('/api/v1/my/integrations').set({ ...credentials(owner), ...from(200) })).status).toBe(200);
  });
});
