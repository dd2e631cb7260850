import { randomUUID } from 'node:crypto';
import { awayFromWindowEdge } from '@courier/testing';
import { internal, startTestApp, TestApp } from '../../test/harness';
import { B_PLUGIN_SECRET, bPluginAuthorization } from '../../test/platforms';

const PER_ADDRESS = 6;
const PLATFORM_A_KEY = 'platform-a-webhook-key-0123456789';

/**
 * Failed authentication on the dispatcher, whatever refuses it: the internal key guard and a
 * platform callback alike, in one count per address (AuthFailures); a right key always passes. TRUST_PROXY is left at
 * its default: X-Forwarded-For is not believed, so a client cannot dodge the limit by forging it.
 */
describe('failed-authentication throttle (status-dispatcher)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { AUTH_FAILURE_LIMIT_PER_MINUTE: String(PER_ADDRESS), PLATFORM_A_WEBHOOK_API_KEY: PLATFORM_A_KEY, PLATFORM_B_PLUGIN_SECRET: B_PLUGIN_SECRET } });
  });
  afterAll(() => t?.close());

  it('counts wrong internal keys and wrong platform callback keys per address; then 429 with Retry-After and RateLimit headers for a wrong key, never for a right one', async () => {
    await awayFromWindowEdge(20_000);
    const statusUpdate = `/internal/status-updates/${randomUUID()}`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      statuses.push((await t.http.get(statusUpdate).set({ ...internal(`wrong-internal-key-${attempt}`), 'X-Forwarded-For': `192.0.2.${attempt}` })).status);
      statuses.push((await t.http.post('/platforms/platform-a/orders').set({ 'x-api-key': `wrong-platform-key-${attempt}` }).send({})).status);
    }
    expect(statuses).toEqual(Array(PER_ADDRESS).fill(401));
    // The right keys from the same address go on to the routes' own answers.
    const passed = await t.http.get(statusUpdate).set({ ...internal(), 'X-Forwarded-For': '192.0.2.99' });
    expect(passed.status).toBe(404);
    expect(passed.body).not.toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    expect((await t.http.post('/platforms/platform-a/orders').set({ 'x-api-key': PLATFORM_A_KEY }).send({})).status).toBe(422);
    const refused = await t.http.get(statusUpdate).set({ ...internal('wrong-internal-key-again'), 'X-Forwarded-For': '192.0.2.99' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.headers['ratelimit-policy']).toBe(`"failures";q=${PER_ADDRESS};w=60`);
    expect(refused.headers['ratelimit']).toBe(`"failures";r=0;t=${retryAfter}`);
    expect((await t.http.post('/platforms/platform-a/orders').set({ 'x-api-key': 'wrong-platform-key-again' }).send({})).status).toBe(429);
    expect((await t.http.get('/health')).status).toBe(200);
  });

  it('answers PLATFORM_B\'s middleware the same way through its plugin answers: a wrong JWT 429 (retried) with the headers, a right one passes', async () => {
    await awayFromWindowEdge(20_000);
    const wrong = bPluginAuthorization({}, { secret: 'not-the-plugin-secret-0000000' });
    const statuses: number[] = [];
    // Counted for the loopback (X-Forwarded-For is not trusted), which the first test may have filled this minute already.
    for (let attempt = 0; attempt < PER_ADDRESS + 1; attempt += 1) statuses.push((await t.http.get('/platforms/platform-b/').set({ Authorization: wrong })).status);
    expect(statuses.at(-1)).toBe(429);
    const refused = await t.http.get('/platforms/platform-b/').set({ Authorization: wrong });
    expect(refused.body).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED', reason: 'TECHNICAL_PROBLEM' });
    expect(refused.headers['ratelimit-policy']).toBe(`"failures";q=${PER_ADDRESS};w=60`);
    expect(refused.headers['ratelimit']).toBe(`"failures";r=0;t=${refused.headers['retry-after']}`);
    expect(await t.http.get('/platforms/platform-b/').set({ Authorization: bPluginAuthorization() })).toMatchObject({ status: 200, body: { status: 'ok' } });
  });
});
