import { randomUUID } from 'node:crypto';
import { awayFromWindowEdge } from '@courier/testing';
import { internal, startTestApp, TestApp } from '../../test/harness';

const PER_ADDRESS = 6;
const PLATFORM_A_KEY = 'platform-a-webhook-key-0123456789';

/**
 * Failed authentication on the dispatcher, whatever refuses it: the internal key guard and a
 * platform callback alike (counted from the 401 answers, not per controller). TRUST_PROXY is left at
 * its default: X-Forwarded-For is not believed, so a client cannot dodge the limit by forging it.
 */
describe('failed-authentication throttle (status-dispatcher)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { AUTH_FAILURE_LIMIT_PER_MINUTE: String(PER_ADDRESS), PLATFORM_A_WEBHOOK_API_KEY: PLATFORM_A_KEY } });
  });
  afterAll(() => t?.close());

  it('counts wrong internal keys and wrong platform callback keys per address; then 429 with Retry-After, even for a right key', async () => {
    await awayFromWindowEdge(20_000);
    const statusUpdate = `/internal/status-updates/${randomUUID()}`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      statuses.push((await t.http.get(statusUpdate).set({ ...internal(`wrong-internal-key-${attempt}`), 'X-Forwarded-For': `192.0.2.${attempt}` })).status);
      statuses.push((await t.http.post('/platforms/platform-a/orders').set({ 'x-api-key': `wrong-platform-key-${attempt}` }).send({})).status);
    }
    expect(statuses).toEqual(Array(PER_ADDRESS).fill(401));
    const refused = await t.http.get(statusUpdate).set({ ...internal(), 'X-Forwarded-For': '192.0.2.99' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await t.http.post('/platforms/platform-a/orders').set({ 'x-api-key': PLATFORM_A_KEY }).send({})).status).toBe(429);
    expect((await t.http.get('/health')).status).toBe(200);
  });
});
