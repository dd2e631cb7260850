import { randomUUID } from 'node:crypto';
import { waitFor } from '@courier/testing';
import { credentialFingerprint, PlatformAdapters, SessionKey } from '@courier/platforms';
import { RecordedCall } from '@courier/platforms/simulators';
import { TestApp } from '../../test/harness';
import { PlatformCallBudgets } from './platform-call-budgets';
import { CREDENTIALS, fullestWindow, platformAOrder, Platforms, push, startPlatformApp, startPlatforms, statusUpdate, upsertIntegration, waitForState } from '../../test/platforms';

/**
 * Two status-dispatcher replicas (two apps on one database) with the simulated platforms, for the
 * describe block calling it, and a PLATFORM_A integration; `setup` adjusts the simulators first.
 */
function useReplicas(env: Record<string, string>, setup: (platforms: Platforms) => void = () => undefined): { platforms: Platforms; replicas: [TestApp, TestApp] } {
  const context = {} as { platforms: Platforms; replicas: [TestApp, TestApp] };
  beforeAll(async () => {
    context.platforms = await startPlatforms();
    setup(context.platforms);
    const first = await startPlatformApp(context.platforms, { env: { PLATFORM_A_PREPARE_HOLD_MS: '0', ...env } });
    const second = await startPlatformApp(context.platforms, { database: first.database, env: { PLATFORM_A_PREPARE_HOLD_MS: '0', ...env } }).catch(async (error: unknown) => {
      await first.close();
      throw error;
    });
    context.replicas = [first, second];
    await upsertIntegration(first, 'PLATFORM_A');
  });
  afterAll(async () => {
    await context.replicas?.[1].close({ keepDatabase: true });
    await context.replicas?.[0].close();
    await context.platforms?.stop();
  });
  return context;
}

const statusCalls = (platforms: Platforms): RecordedCall[] => platforms.a.calls.filter((call) => call.path.startsWith('/food-orders/'));

describe('platform sessions shared by two replicas', () => {
  const context = useReplicas({});

  it('logs in once for both replicas; a 401 drops the token on both and one new login follows; the token is stored sealed', async () => {
    const { platforms, replicas: [one, two] } = context;
    const orders = [await platformAOrder(platforms, one), await platformAOrder(platforms, one)];
    // One order's action pushed to each replica at once, until both are sent.
    const pushBoth = async (action: string) => {
      const responses = await Promise.all([one, two].map((replica, index) => push(replica, { providerOrderId: orders[index].simulated.id, platform: 'PLATFORM_A', action })));
      await Promise.all([one, two].map((replica, index) => waitForState(replica, responses[index].body.statusUpdateId, ['sent'])));
    };
    await pushBoth('VERIFY');
    expect(platforms.a.logins).toBe(1);

    const [stored] = await one.sql('SELECT token, token_digest, expires_at FROM platform_sessions WHERE token IS NOT NULL');
    const token = platforms.a.callsTo('POST', `/food-orders/${orders[0].simulated.id}/verify`)[0].headers.token as string;
    // Sealed and bound to the integration (v2: a copy in another integration's row does not open).
    expect(stored.token).toMatch(/^v2:/);
    expect(stored.token).not.toContain(token);
    expect([...one.logLines, ...two.logLines].some((line) => line.includes(token))).toBe(false);

    // The platform forgets the token: each replica's next call is refused once.
    platforms.a.expireTokens();
    await pushBoth('PREPARE');
    expect(platforms.a.logins).toBe(2);
    for (const order of orders) {
      expect(platforms.a.callsTo('POST', `/food-orders/${order.simulated.id}/prepare`).map((call) => call.status)).toEqual([401, 200]);
    }
  });

  it('the stored token is dropped only by the token it holds (compare-and-delete), and a dead replica\'s login lease is taken over once it runs out', async () => {
    const { replicas: [one, two] } = context;
    const [integration] = await one.sql('SELECT integration_id AS id FROM integrations WHERE platform = $1', ['PLATFORM_A']);
    const key: SessionKey = { integrationId: integration.id, fingerprint: credentialFingerprint({ integrationId: integration.id, ...CREDENTIALS.PLATFORM_A, secrets: { ...CREDENTIALS.PLATFORM_A.secrets } }) };
    const store = one.app.get(PlatformAdapters).sessions.store;
    const current = await store.read(key);
    expect(current?.token).toEqual(expect.any(String));
    await two.app.get(PlatformAdapters).sessions.store.drop(key, 'a-token-refused-earlier');
    expect((await store.read(key))?.token).toBe(current!.token);
    await store.drop(key, current!.token);
    expect(await store.read(key)).toBeUndefined();

    // A replica took the login lease and died: the others wait until it runs out, then one logs in.
    await one.sql(`UPDATE platform_sessions SET login_lease = 'dead-replica', login_until = now() + interval '700 milliseconds' WHERE integration_id = $1`, [integration.id]);
    const leaseEnd = Date.now() + 700;
    const login = jest.fn(async () => ({ token: 'token-after-takeover', expiresAt: Date.now() + 3_600_000 }));
    const sessions = await Promise.all([store.loginOnce(key, Date.now(), login), two.app.get(PlatformAdapters).sessions.store.loginOnce(key, Date.now(), login)]);
    expect(sessions.map((session) => session.token)).toEqual(['token-after-takeover', 'token-after-takeover']);
    expect(login).toHaveBeenCalledTimes(1);
    expect(Date.now()).toBeGreaterThanOrEqual(leaseEnd - 50);
  });

  it('a changed secret starts a new session (a new login), kept apart from the old one', async () => {
    const { platforms, replicas: [one] } = context;
    const before = platforms.a.logins;
    platforms.a.options.restaurants.push({ restaurantId: CREDENTIALS.PLATFORM_A.providerRestaurantId, secretKey: 'getir-restaurant-secret-rotated' });
    const [integration] = await one.sql('SELECT integration_id AS id FROM integrations WHERE platform = $1', ['PLATFORM_A']);
    await upsertIntegration(one, 'PLATFORM_A', { integrationId: integration.id, secrets: { secretKey: 'getir-restaurant-secret-rotated' } });
    const order = await platformAOrder(platforms, one);
    const verify = await push(one, { providerOrderId: order.simulated.id, platform: 'PLATFORM_A', action: 'VERIFY' });
    await waitForState(one, verify.body.statusUpdateId, ['sent']);
    expect(platforms.a.logins).toBe(before + 1);
    expect(await one.sql('SELECT count(*)::int AS n FROM platform_sessions WHERE integration_id = $1', [integration.id])).toEqual([{ n: 2 }]);
  });

  it('concurrent bookings of the call budget with room for all each get a slot at their own booking time (none waits)', async () => {
    const { replicas } = context;
    // PLATFORM_B's budget: 60 calls a minute per credentials; 40 bookings fit.
    const credentials = { integrationId: randomUUID(), ...CREDENTIALS.PLATFORM_B };
    const bookings = await Promise.all(
      Array.from({ length: 40 }, (_, index) => replicas[index % 2].app.get(PlatformCallBudgets).book('PLATFORM_B', credentials, 'PREPARE')),
    );
    // The time is read under the scope's lock: a booking that waited for another never finds that
    // one's call later than its own time (which would put its slot ahead and send it to the task runner).
    expect(bookings.filter((booking) => booking!.slot !== booking!.bookedAt)).toEqual([]);
    const [row] = await replicas[0].sql("SELECT cardinality(calls) AS n FROM platform_call_budgets WHERE scope LIKE 'PLATFORM_B:credentials:' || $1 || ':%'", [credentials.integrationId]);
    expect(row.n).toBe(40);
  });
});

describe('platform sessions refreshed before expiry', () => {
  // A token is usable for 2 s after its login (PLATFORM_A tokens live 3600 s), then renewed.
  const usableMs = 2_000;
  const context = useReplicas({ PLATFORM_SESSION_REFRESH_MARGIN_MS: String(3_600_000 - usableMs) });

  it('renews the token once it is inside the refresh margin (before the platform expires it), once for both replicas', async () => {
    const { platforms, replicas: [one, two] } = context;
    const orders = [await platformAOrder(platforms, one), await platformAOrder(platforms, one), await platformAOrder(platforms, one)];
    const first = await push(one, { providerOrderId: orders[0].simulated.id, platform: 'PLATFORM_A', action: 'VERIFY' });
    await waitForState(one, first.body.statusUpdateId, ['sent']);
    expect(platforms.a.logins).toBe(1);
    const [stored] = await one.sql('SELECT expires_at FROM platform_sessions WHERE token IS NOT NULL');
    // Wait until the stored token is inside the margin (a state of the clock, not a guess at speed).
    await waitFor('token inside the refresh margin', async () => Date.now() > new Date(stored.expires_at).getTime() - (3_600_000 - usableMs), 10_000, 50);

    const second = await push(two, { providerOrderId: orders[1].simulated.id, platform: 'PLATFORM_A', action: 'VERIFY' });
    await waitForState(two, second.body.statusUpdateId, ['sent']);
    const third = await push(one, { providerOrderId: orders[2].simulated.id, platform: 'PLATFORM_A', action: 'VERIFY' });
    await waitForState(one, third.body.statusUpdateId, ['sent']);
    // Unless the new token is itself inside the margin by now (a very slow run), replica one took it from the store.
    const [renewed] = await one.sql('SELECT expires_at FROM platform_sessions WHERE token IS NOT NULL');
    const newTokenStillUsable = Date.now() < new Date(renewed.expires_at).getTime() - (3_600_000 - usableMs);
    if (newTokenStillUsable) expect(platforms.a.logins).toBe(2);
    else expect(platforms.a.logins).toBeGreaterThanOrEqual(2);
    // Renewed before the platform refused anything.
    expect(statusCalls(platforms).map((call) => call.status)).toEqual([200, 200, 200]);
    const tokens = statusCalls(platforms).map((call) => call.headers.token);
    expect(tokens[1]).not.toBe(tokens[0]);
  });
});

describe('the platform call budget across two replicas', () => {
  // The platform's limit (simulated: 30 calls / 1 s per token, then 2 s blocked) and ours under it:
  // 20 calls per 1.5 s (the window longer by more than PLATFORM_CALL_BUDGET_LATE_MS plus a call's way
  // there; the limit lower, as in production, for calls a loaded machine sends later than that).
  const platformLimit = { limit: 30, windowMs: 1_000, blockMs: 2_000 };
  const context = useReplicas({ PLATFORM_CALL_BUDGETS: 'PLATFORM_A:token=20/1500', PLATFORM_CALL_BUDGET_LATE_MS: '300' }, (platforms) => {
    platforms.a.options.rateLimit = platformLimit;
  });

  it('a burst of pushes on both replicas stays under the platform limit, waits visibly, keeps each order in order, and loses none', async () => {
    const { platforms, replicas: [one, two] } = context;
    // 180 calls: nine times the budget.
    const orderCount = 60;
    const actions = ['VERIFY', 'PREPARE', 'DELIVER'];
    const orders = [];
    for (let index = 0; index < orderCount; index += 1) orders.push(await platformAOrder(platforms, one));
    const started = statusCalls(platforms).length;

    // Each order's pushes in order (DELIVER needs PREPARE first), the orders at once, half on each replica.
    const ids: string[] = [];
    await Promise.all(
      orders.map(async (order, index) => {
        const replica = index % 2 === 0 ? one : two;
        for (const action of actions) {
          const response = await push(replica, { providerOrderId: order.simulated.id, platform: 'PLATFORM_A', action });
          expect(response.status).toBe(202);
          ids.push(response.body.statusUpdateId);
        }
      }),
    );

    // What waits for the budget is visible as queued, with its reason and when it will be tried.
    let waiting: any;
    await waitFor(
      'an update waiting for the call budget, seen through the API',
      async () => {
        const [row] = await one.sql(`SELECT id FROM status_updates WHERE hold_reason = 'PLATFORM_CALL_BUDGET' AND state = 'queued' AND not_before > now() + interval '200 milliseconds' LIMIT 1`);
        if (!row) return false;
        waiting = (await statusUpdate(two, row.id)).body;
        return waiting.waitReason === 'PLATFORM_CALL_BUDGET';
      },
      30_000,
      25,
    );
    expect(waiting).toMatchObject({ state: 'queued', waitReason: 'PLATFORM_CALL_BUDGET', nextAttemptAt: expect.any(String) });
    expect(new Date(waiting.nextAttemptAt).getTime()).toBeGreaterThan(Date.now() - 5_000);

    await waitFor(
      'every update ended',
      async () => {
        const [row] = await one.sql(`SELECT count(*)::int AS n FROM status_updates WHERE state IN ('queued', 'held', 'retrying')`);
        return row.n === 0;
      },
      120_000,
      200,
    );
    const states = await one.sql(`SELECT state, count(*)::int AS n FROM status_updates GROUP BY state`);
    expect(states).toEqual([{ state: 'sent', n: orderCount * actions.length }]);
    expect(new Set(ids).size).toBe(orderCount * actions.length);

    const calls = statusCalls(platforms).slice(started);
    // No refusal: neither the rate limit (429) nor anything else; and never more than the platform allows in a window.
    expect(calls.filter((call) => call.status !== 200).map((call) => `${call.status} ${call.path}`)).toEqual([]);
    expect(calls).toHaveLength(orderCount * actions.length);
    expect(fullestWindow(calls, platformLimit.windowMs)).toBeLessThanOrEqual(platformLimit.limit);
    // The burst had to wait: many times the budget.
    expect(calls[calls.length - 1].at - calls[0].at).toBeGreaterThan(1_500 * (calls.length / 20 - 2));
    // Each order's steps reached the platform in order.
    for (const order of orders) {
      expect(platforms.a.orders.get(order.simulated.id)!.steps.map((step) => step.step)).toEqual(['verify', 'prepare', 'deliver']);
    }
  }, 180_000);
});
