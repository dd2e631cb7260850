import { RoutingKey } from '@courier/contracts';
import { waitFor } from '@courier/testing';
import { availabilityOf, createAccount, putAvailability, TestAccount, waitForCommand } from '../../test/availability';
import { TestApp } from '../../test/harness';
import { CREDENTIALS, fullestWindow, PlatformCode, Platforms, startPlatformApp, startPlatforms, upsertIntegration } from '../../test/platforms';

jest.setTimeout(180_000);

/** Getir's configuration budget, ten times faster: the simulator's 2 / 6 s (30 s block -> 3 s) and ours 2 / 6.5 s (Getir's 60 s and our 65 s). */
const GETIR_WINDOW_MS = 6_000;
const OUR_GETIR_WINDOW_MS = 6_500;
const SIMULATED = { a: { configurationRateLimit: { limit: 2, windowMs: GETIR_WINDOW_MS, blockMs: 3_000 } } };
const ENV = {
  PLATFORM_CALL_BUDGETS: `PLATFORM_A:configuration=2/${OUR_GETIR_WINDOW_MS}`,
  // No read-back here unless a test asks (a Getir read spends a configuration call).
  AVAILABILITY_READ_INTERVAL_MS: '600000',
};

const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();

/** Getir's configuration calls the simulator answered (the budget's family). */
const getirConfigurationCalls = (platforms: Platforms) =>
  platforms.a.calls.filter((call) => ['PUT /restaurants/status/open', 'PUT /restaurants/status/close', 'PUT /restaurants/delivery-duration/busyness', 'GET /restaurants'].includes(`${call.method} ${call.path}`));

/**
 * Restaurant availability end to end: the dispatcher's commands through each platform's adapter to
 * its simulator, which applies them with the platform's rules (Getir's configuration budget and
 * close durations, DH's changeable entries, Trendyol's store status, Migros' encrypted calls).
 */
describe('restaurant availability on the simulated platforms', () => {
  let platforms: Platforms;
  let t: TestApp;
  let account: TestAccount;
  const ids = {} as Record<PlatformCode, string>;

  beforeAll(async () => {
    platforms = await startPlatforms({ availability: SIMULATED });
    t = await startPlatformApp(platforms, { env: ENV });
    account = await createAccount(t);
    for (const platform of Object.keys(CREDENTIALS) as PlatformCode[]) ids[platform] = (await upsertIntegration(t, platform, { restaurantId: account.restaurantId })).integrationId;
  });
  afterAll(async () => {
    await t?.close();
    await platforms?.stop();
  });

  /** What each simulator holds for our store: OPEN, CLOSED or BUSY. */
  const onPlatform = {
    PLATFORM_A: () => {
      const store = platforms.a.availability.store(CREDENTIALS.PLATFORM_A.providerRestaurantId);
      return store.status === 200 ? 'CLOSED' : store.isBusy ? 'BUSY' : 'OPEN';
    },
    PLATFORM_B: () => {
      const entries = platforms.b.availability.vendor(CREDENTIALS.PLATFORM_B.providerRestaurantId, CREDENTIALS.PLATFORM_B.settings.chainCode).entries;
      return entries.every((entry) => entry.availabilityState === 'OPEN') ? 'OPEN' : 'CLOSED';
    },
    PLATFORM_C: () => platforms.c.availability.store(CREDENTIALS.PLATFORM_C.settings.storeId)!.workingStatus,
    PLATFORM_D: () => (platforms.d.availability.isOpen(CREDENTIALS.PLATFORM_D.providerRestaurantId) ? 'OPEN' : 'CLOSED'),
  } as Record<PlatformCode, () => string>;

  /** Waits until every integration's last command is sent asking `state`, and the platforms hold `state`. */
  async function settle(platformCodes: PlatformCode[], state: string, timeoutMs = 30_000): Promise<Record<string, any>> {
    const views: Record<string, any> = {};
    for (const platform of platformCodes) {
      views[platform] = await waitForCommand(t, account, ids[platform], ['sent'], state, timeoutMs);
      await waitFor(`${platform} holding ${state}`, () => onPlatform[platform]() === state, timeoutMs);
    }
    return views;
  }

  it('opens and closes the store on every platform from one call, and says what each platform does', async () => {
    const closed = await putAvailability(t, account, { state: 'CLOSED', reason: 'closing early' });
    expect(closed.status).toBe(202);
    expect(closed.body.integrations.map((entry: any) => [entry.platform, entry.state]).sort()).toEqual([
      ['PLATFORM_A', 'queued'],
      ['PLATFORM_B', 'queued'],
      ['PLATFORM_C', 'queued'],
      ['PLATFORM_D', 'queued'],
    ]);
    const views = await settle(['PLATFORM_A', 'PLATFORM_B', 'PLATFORM_C', 'PLATFORM_D'], 'CLOSED');
    for (const view of Object.values(views)) expect(view).toMatchObject({ confirmed: { state: 'CLOSED' }, asked: { reason: 'closing early', by: 'restaurant' } });
    expect((await putAvailability(t, account, { state: 'OPEN' })).status).toBe(202);
    await settle(['PLATFORM_A', 'PLATFORM_B', 'PLATFORM_C', 'PLATFORM_D'], 'OPEN');
  });

  it('busy where the platform has a busy mode (Getir), unsupported with its code elsewhere (nothing sent)', async () => {
    const before = { b: platforms.b.calls.length, c: platforms.c.calls.length, d: platforms.d.calls.length };
    const busy = await putAvailability(t, account, { state: 'BUSY', busyMinutes: 20 });
    const byPlatform = Object.fromEntries(busy.body.integrations.map((entry: any) => [entry.platform, entry]));
    expect(byPlatform.PLATFORM_A).toMatchObject({ state: 'queued', code: 'BUSY_MINUTES_ROUNDED_UP' });
    for (const platform of ['PLATFORM_B', 'PLATFORM_C', 'PLATFORM_D']) expect(byPlatform[platform]).toMatchObject({ state: 'unsupported', code: 'BUSY_MODE_UNSUPPORTED', message: expect.any(String) });
    await settle(['PLATFORM_A'], 'BUSY');
    expect(platforms.a.availability.store(CREDENTIALS.PLATFORM_A.providerRestaurantId)).toMatchObject({ isBusy: true, busynessDifferenceDuration: 30 });
    expect({ b: platforms.b.calls.length, c: platforms.c.calls.length, d: platforms.d.calls.length }).toEqual(before);
    expect((await putAvailability(t, account, { state: 'OPEN', integrationIds: [ids.PLATFORM_A] })).status).toBe(202);
    await settle(['PLATFORM_A'], 'OPEN');
    expect(platforms.a.availability.store(CREDENTIALS.PLATFORM_A.providerRestaurantId).isBusy).toBe(false);
  });

  it('a close until a time: each platform closes its own way (instead says how) and the store opens again by itself at that time', async () => {
    // Getir's close needs its whole configuration window: it goes at once, its reopen after the window.
    await waitFor('Getir\'s configuration window empty', () => getirConfigurationCalls(platforms).every((call) => call.at < Date.now() - OUR_GETIR_WINDOW_MS), 30_000);
    const until = inFuture(5_000);
    const answer = await putAvailability(t, account, { state: 'CLOSED', until });
    const byPlatform = Object.fromEntries(answer.body.integrations.map((entry: any) => [entry.platform, entry]));
    expect(byPlatform.PLATFORM_A).toMatchObject({ state: 'queued', code: 'CLOSE_DURATION_ROUNDED_UP' });
    expect(byPlatform.PLATFORM_B).toMatchObject({ state: 'queued', code: expect.any(String) });
    expect(byPlatform.PLATFORM_C).toMatchObject({ state: 'queued', code: 'REOPENED_BY_SUITE' });
    expect(byPlatform.PLATFORM_D).toMatchObject({ state: 'queued', code: expect.any(String) });
    const closed = await settle(['PLATFORM_A', 'PLATFORM_B', 'PLATFORM_C', 'PLATFORM_D'], 'CLOSED');
    for (const view of Object.values(closed)) expect(view).toMatchObject({ asked: { until }, endsAt: until });
    const opened = await settle(['PLATFORM_A', 'PLATFORM_B', 'PLATFORM_C', 'PLATFORM_D'], 'OPEN');
    for (const view of Object.values(opened)) expect(view).toMatchObject({ asked: { by: 'timer', state: 'OPEN' }, endsAt: null });
    const reopen = platforms.c.calls.filter((call) => call.method === 'PUT' && call.path.endsWith('/status') && (call.body as any)?.status === 'OPEN').pop()!;
    expect(reopen.at).toBeGreaterThanOrEqual(Date.parse(until));
  });

  it('a product sold out, then back at a set time by itself (Getir and Trendyol)', async () => {
    const getirProduct = '5f9a1b2c3d4e5f6a7b8c9d21';
    const trendyolProduct = '319239';
    const until = inFuture(3_000);
    const put = (platform: PlatformCode, product: string) => t.http.put(`/api/v1/my/integrations/${ids[platform]}/products/${product}/availability`).set(account.headers).send({ available: false, until });
    expect((await put('PLATFORM_A', getirProduct)).body).toMatchObject({ state: 'queued' });
    expect((await put('PLATFORM_C', trendyolProduct)).body).toMatchObject({ state: 'queued' });
    await waitFor('the products switched off', () => platforms.a.availability.productStatus(CREDENTIALS.PLATFORM_A.providerRestaurantId, getirProduct) !== 100 && platforms.c.availability.store(CREDENTIALS.PLATFORM_C.settings.storeId)!.products.get(trendyolProduct) === 'PASSIVE');
    const list = await t.http.get(`/api/v1/my/integrations/${ids.PLATFORM_C}/products/availability`).set(account.headers);
    expect(list.body.products).toEqual([expect.objectContaining({ platformProductId: trendyolProduct, available: false, until })]);
    await waitFor('the products back on', () => platforms.a.availability.productStatus(CREDENTIALS.PLATFORM_A.providerRestaurantId, getirProduct) === 100 && platforms.c.availability.store(CREDENTIALS.PLATFORM_C.settings.storeId)!.products.get(trendyolProduct) === 'ACTIVE', 30_000);
    const back = platforms.c.calls.filter((call) => call.path.endsWith(`/products/${trendyolProduct}/status`) && (call.body as any)?.status === 'ACTIVE').pop()!;
    expect(back.at).toBeGreaterThanOrEqual(Date.parse(until));
    await waitFor('the list empty', async () => (await t.http.get(`/api/v1/my/integrations/${ids.PLATFORM_C}/products/availability`).set(account.headers)).body.products.length === 0);
  });

  it('a platform refusal ends the change failed, tried once; a transient failure is retried until the platform takes it', async () => {
    const storeStatus = (request: any) => request.method === 'PUT' && request.path.endsWith(`/stores/${CREDENTIALS.PLATFORM_C.settings.storeId}/status`);
    const sent = () => platforms.c.calls.filter(storeStatus).length;
    const before = sent();
    platforms.c.failNext({ status: 400, body: { status: 400, errors: [{ message: 'store.status.invalid' }] }, match: storeStatus });
    await putAvailability(t, account, { state: 'CLOSED', integrationIds: [ids.PLATFORM_C] });
    const refused = await waitForCommand(t, account, ids.PLATFORM_C, ['failed'], 'CLOSED');
    expect(refused).toMatchObject({ lastCommand: { state: 'failed', attempts: 1 }, lastAnswer: { httpStatus: 400 } });
    expect(sent()).toBe(before + 1);
    expect(onPlatform.PLATFORM_C()).toBe('OPEN');

    platforms.c.failNext({ status: 503, body: 'unavailable', match: storeStatus, times: 2 });
    await putAvailability(t, account, { state: 'CLOSED', integrationIds: [ids.PLATFORM_C] });
    const taken = await settle(['PLATFORM_C'], 'CLOSED');
    expect(taken.PLATFORM_C).toMatchObject({ lastCommand: { state: 'sent', attempts: 3 } });
    expect(sent()).toBe(before + 4);
    await putAvailability(t, account, { state: 'OPEN', integrationIds: [ids.PLATFORM_C] });
    await settle(['PLATFORM_C'], 'OPEN');
  });

  it('a change superseded while another is being sent is never sent: the platform gets the one under way, then the last one asked', async () => {
    const storeStatus = (call: any) => call.method === 'PUT' && call.path.endsWith(`/stores/${CREDENTIALS.PLATFORM_C.settings.storeId}/status`);
    const before = platforms.c.calls.filter(storeStatus).length;
    platforms.c.latencyMs = 1_500;
    try {
      const first = await putAvailability(t, account, { state: 'CLOSED', integrationIds: [ids.PLATFORM_C] });
      await waitFor('the first call under way', async () => (await t.sql('SELECT attempts FROM availability_commands WHERE id = $1', [first.body.integrations[0].commandId]))[0].attempts === 1);
      const superseded = await putAvailability(t, account, { state: 'OPEN', integrationIds: [ids.PLATFORM_C] });
      await putAvailability(t, account, { state: 'CLOSED', integrationIds: [ids.PLATFORM_C], reason: 'last' });
      await settle(['PLATFORM_C'], 'CLOSED');
      await waitFor('the last change sent', async () => (await availabilityOf(t, account, ids.PLATFORM_C)).asked.reason === 'last' && (await availabilityOf(t, account, ids.PLATFORM_C)).lastCommand.state === 'sent');
      expect((await t.sql('SELECT state, attempts FROM availability_commands WHERE id = $1', [superseded.body.integrations[0].commandId]))[0]).toEqual({ state: 'superseded', attempts: 0 });
    } finally {
      platforms.c.latencyMs = 0;
    }
    expect(platforms.c.calls.filter(storeStatus).slice(before).map((call) => (call.body as any).status)).toEqual(['CLOSED', 'CLOSED']);
    await putAvailability(t, account, { state: 'OPEN', integrationIds: [ids.PLATFORM_C] });
    await settle(['PLATFORM_C'], 'OPEN');
  });

  it('a burst of 20 changes within Getir\'s configuration budget ends in the last state asked, never over the budget, without a 429', async () => {
    await waitFor('Getir\'s configuration window empty', () => getirConfigurationCalls(platforms).every((call) => call.at < Date.now() - OUR_GETIR_WINDOW_MS), 30_000);
    const before = getirConfigurationCalls(platforms).length;
    const burstStart = new Date();
    // CLOSED, OPEN, BUSY, CLOSED, ... : the 20th (index 19) asks OPEN.
    const states = ['CLOSED', 'OPEN', 'BUSY'];
    for (let index = 0; index < 20; index += 1) {
      const state = states[index % 3];
      const body = state === 'BUSY' ? { state, busyMinutes: 15, integrationIds: [ids.PLATFORM_A] } : { state, integrationIds: [ids.PLATFORM_A] };
      expect((await putAvailability(t, account, body)).status).toBe(202);
    }
    const burstMs = Date.now() - burstStart.getTime();
    let view: any;
    try {
      await waitFor('the last change taken by Getir', async () => {
        view = await availabilityOf(t, account, ids.PLATFORM_A);
        return view.pending === null && view.lastCommand.state === 'sent' && view.asked.state === 'OPEN';
      }, 60_000);
    } catch (error) {
      const rows = await t.sql(`SELECT state, attempts, not_before, budget_slot_at, sending_until, request->>'state' AS asked, last_error FROM availability_commands WHERE integration_id = $1 ORDER BY accepted_at DESC LIMIT 4`, [ids.PLATFORM_A]);
      const tasks = await t.sql(`SELECT kind, due_at, lease_until, attempts, last_error FROM scheduled_tasks WHERE kind = 'availability.command'`);
      throw new Error(`${(error as Error).message}; view ${JSON.stringify(view)}; commands ${JSON.stringify(rows)}; tasks ${JSON.stringify(tasks)}`);
    }
    expect(onPlatform.PLATFORM_A()).toBe('OPEN');
    const calls = getirConfigurationCalls(platforms).slice(before);
    expect(calls.filter((call) => call.status !== 200).map((call) => `${call.status} ${call.method} ${call.path}`)).toEqual([]);
    expect(fullestWindow(calls, GETIR_WINDOW_MS)).toBeLessThanOrEqual(2);
    const commands = await t.sql(`SELECT state, count(*)::int AS n FROM availability_commands WHERE integration_id = $1 AND accepted_at >= $2 GROUP BY state ORDER BY state`, [ids.PLATFORM_A, burstStart]);
    const byState = Object.fromEntries(commands.map((row) => [row.state, row.n]));
    // The first change took the window; the others waited, each superseding the one before, and only the
    // last was sent (one more per window the burst itself lasted, on a slow machine).
    expect(byState.sent + byState.superseded).toBe(20);
    expect(byState.sent).toBeGreaterThanOrEqual(2);
    expect(byState.sent).toBeLessThanOrEqual(2 + Math.floor(burstMs / OUR_GETIR_WINDOW_MS));
  });
});

describe('what the platforms do on their own', () => {
  let platforms: Platforms;
  let t: TestApp;
  let account: TestAccount;
  const ids = {} as Record<PlatformCode, string>;

  beforeAll(async () => {
    platforms = await startPlatforms({ availability: SIMULATED });
    t = await startPlatformApp(platforms, { env: { ...ENV, AVAILABILITY_READ_INTERVAL_MS: '300' } });
    account = await createAccount(t);
    for (const platform of ['PLATFORM_A', 'PLATFORM_B', 'PLATFORM_C'] as PlatformCode[]) ids[platform] = (await upsertIntegration(t, platform, { restaurantId: account.restaurantId })).integrationId;
  });
  afterAll(async () => {
    await t?.close();
    await platforms?.stop();
  });

  const events = async (integrationId: string) => (await t.outbox(RoutingKey.RestaurantAvailabilityChanged)).filter((row) => row.payload.integrationId === integrationId).map((row) => row.payload);

  it('a store the platform closed by itself is read back and published once (Getir, Trendyol)', async () => {
    await putAvailability(t, account, { state: 'OPEN', integrationIds: [ids.PLATFORM_A, ids.PLATFORM_C] });
    for (const platform of ['PLATFORM_A', 'PLATFORM_C'] as PlatformCode[]) {
      await waitFor(`${platform} read back as asked`, async () => (await availabilityOf(t, account, ids[platform]))?.platformReported?.state === 'OPEN', 30_000);
    }
    platforms.a.availability.closeByPlatform(CREDENTIALS.PLATFORM_A.providerRestaurantId);
    platforms.c.availability.closeByPlatform(CREDENTIALS.PLATFORM_C.settings.storeId);
    for (const platform of ['PLATFORM_A', 'PLATFORM_C'] as PlatformCode[]) {
      await waitFor(`${platform}'s close published`, async () => (await events(ids[platform])).length === 1, 30_000);
      expect((await events(ids[platform]))[0]).toMatchObject({ provider: platform, state: 'CLOSED', expectedState: 'OPEN', detectedBy: 'read_back', restaurantId: account.restaurantId });
    }
    // Later reads of the same closed store publish nothing more.
    const seen = async () => new Date((await availabilityOf(t, account, ids.PLATFORM_C)).platformReported.seenAt).getTime();
    const first = await seen();
    await waitFor('two more reads of PLATFORM_C', async () => (await seen()) > first + 300, 30_000);
    expect(await events(ids.PLATFORM_C)).toHaveLength(1);
    expect(await events(ids.PLATFORM_A)).toHaveLength(1);
    expect((await t.http.get('/metrics')).text).toMatch(/platform_store_closed_by_platform_total\{platform="PLATFORM_C"[^}]*\} 1/);
  });

  it('DH\'s own close reaches the plugin and is published once; its reopen publishes nothing', async () => {
    await putAvailability(t, account, { state: 'OPEN', integrationIds: [ids.PLATFORM_B] });
    await waitForCommand(t, account, ids.PLATFORM_B, ['sent'], 'OPEN', 30_000);
    const told = await platforms.b.availability.closeByPlatform(CREDENTIALS.PLATFORM_B.providerRestaurantId, { reason: 'TOO_MANY_REJECTED_ORDERS' });
    expect(told?.status).toBe(200);
    await waitFor('DH\'s close published', async () => (await events(ids.PLATFORM_B)).length >= 1, 30_000);
    expect(await events(ids.PLATFORM_B)).toEqual([expect.objectContaining({ provider: 'PLATFORM_B', state: 'CLOSED', expectedState: 'OPEN', detectedBy: expect.stringMatching(/^(platform_call|read_back)$/), providerRestaurantId: CREDENTIALS.PLATFORM_B.providerRestaurantId })]);
    expect((await platforms.b.availability.openByPlatform(CREDENTIALS.PLATFORM_B.providerRestaurantId))?.status).toBe(200);
    await waitFor('the reopen recorded', async () => (await availabilityOf(t, account, ids.PLATFORM_B)).platformReported?.state === 'OPEN', 30_000);
    expect(await events(ids.PLATFORM_B)).toHaveLength(1);
  });
});

describe('availability timers on two replicas against a platform', () => {
  let platforms: Platforms;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    platforms = await startPlatforms({ availability: SIMULATED });
    first = await startPlatformApp(platforms, { env: ENV });
    second = await startPlatformApp(platforms, { database: first.database, env: ENV });
  });
  afterAll(async () => {
    await second?.close({ keepDatabase: true });
    await first?.close();
    await platforms?.stop();
  });

  it('one reopen at until, not two', async () => {
    const account = await createAccount(first);
    const { integrationId } = await upsertIntegration(first, 'PLATFORM_C', { restaurantId: account.restaurantId });
    const storeStatus = (call: any) => call.method === 'PUT' && call.path.endsWith(`/stores/${CREDENTIALS.PLATFORM_C.settings.storeId}/status`);
    const until = inFuture(2_500);
    expect((await putAvailability(second, account, { state: 'CLOSED', until })).status).toBe(202);
    await waitForCommand(first, account, integrationId, ['sent'], 'OPEN', 30_000);
    expect(platforms.c.calls.filter(storeStatus).map((call) => (call.body as any).status)).toEqual(['CLOSED', 'OPEN']);
    expect(platforms.c.availability.store(CREDENTIALS.PLATFORM_C.settings.storeId)!.workingStatus).toBe('OPEN');
    expect((await first.sql(`SELECT count(*)::int AS n FROM availability_commands WHERE integration_id = $1 AND requested_by = 'timer'`, [integrationId]))[0].n).toBe(1);
  });
});
