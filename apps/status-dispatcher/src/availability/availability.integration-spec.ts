import { randomUUID } from 'node:crypto';
import { RoutingKey } from '@courier/contracts';
import { waitFor } from '@courier/testing';
import { availabilityOf, createAccount, installAvailability, putAvailability, RecordingAvailability, TestAccount, waitForCommand } from '../../test/availability';
import { internal, startTestApp, TestApp } from '../../test/harness';
import { bPluginAuthorization, B_PLUGIN_SECRET, upsertIntegration } from '../../test/platforms';

jest.setTimeout(120_000);

/** The read-back runs every 200 ms here: a confirmation may come from our call or from the read that follows it. */
const CONFIRMED_BY = expect.stringMatching(/^(command|read_back)$/);

// The platform here is the port's RecordingAvailability: PLATFORM_A's configuration budget (Getir's 2 a minute) is lifted; the simulator tests keep it.
const ENV = { PLATFORM_CALL_BUDGETS: 'PLATFORM_A:configuration=1000/1000', AVAILABILITY_READ_INTERVAL_MS: '200', PLATFORM_B_PLUGIN_SECRET: B_PLUGIN_SECRET, STATUS_PUSH_RETRY_BASE_MS: '50', STATUS_PUSH_RETRY_MAX_DELAY_MS: '200' };

/**
 * The availability machinery of status-dispatcher over HTTP, a real database and the task runner,
 * with a platform's availability at the port (RecordingAvailability): what is asked, sent, confirmed,
 * superseded, retried, refused, reopened by the timers, read back and reported by the platform.
 */
describe('restaurant availability (status-dispatcher)', () => {
  let t: TestApp;
  const withBusy = new RecordingAvailability();
  const withoutBusy = new RecordingAvailability({ busy: false });
  const unreadable = new RecordingAvailability({ readable: false });

  beforeAll(async () => {
    t = await startTestApp({ env: ENV });
    installAvailability(t, 'PLATFORM_A', withBusy);
    installAvailability(t, 'PLATFORM_C', withoutBusy);
    installAvailability(t, 'PLATFORM_B', unreadable);
  });
  afterAll(() => t?.close());

  /** An account with one verified integration on PLATFORM_A (unique store ids: tests share the app). */
  async function accountWith(platforms: Array<'PLATFORM_A' | 'PLATFORM_B' | 'PLATFORM_C'> = ['PLATFORM_A'], verification: 'verified' | 'unverified' = 'verified') {
    const account = await createAccount(t);
    const ids: string[] = [];
    for (const platform of platforms) {
      ids.push((await upsertIntegration(t, platform, { restaurantId: account.restaurantId, providerRestaurantId: `store-${randomUUID()}`, verification })).integrationId);
    }
    return { account, ids };
  }

  it('closes the store on every verified platform integration: queued, sent once, confirmed, and visible', async () => {
    const { account, ids } = await accountWith(['PLATFORM_A', 'PLATFORM_C']);
    const unverified = (await upsertIntegration(t, 'PLATFORM_A', { restaurantId: account.restaurantId, providerRestaurantId: `store-${randomUUID()}`, verification: 'unverified' })).integrationId;
    const answer = await putAvailability(t, account, { state: 'CLOSED', reason: 'staff meeting' });
    expect(answer.status).toBe(202);
    expect(answer.body.integrations.map((entry: any) => [entry.integrationId, entry.state]).sort()).toEqual(ids.map((id) => [id, 'queued']).sort());
    for (const id of ids) {
      const view = await waitForCommand(t, account, id, ['sent']);
      expect(view).toMatchObject({
        asked: { state: 'CLOSED', by: 'restaurant', reason: 'staff meeting', changeId: answer.body.changeId, until: null },
        confirmed: { state: 'CLOSED', by: CONFIRMED_BY },
        pending: null,
        lastCommand: { state: 'sent', attempts: 1, requestedBy: 'restaurant' },
        lastAnswer: { outcome: 'done', httpStatus: 200 },
      });
    }
    expect(withBusy.storeCalls(ids[0])).toEqual(['CLOSED']);
    expect(withoutBusy.storeCalls(ids[1])).toEqual(['CLOSED']);
    expect(withBusy.storeCalls(unverified)).toEqual([]);
    expect((await availabilityOf(t, account, unverified)).asked).toBeNull();
  });

  it('answers busy per integration: queued where the platform has a busy mode, unsupported (nothing sent) where not', async () => {
    const { account, ids } = await accountWith(['PLATFORM_A', 'PLATFORM_C']);
    const answer = await putAvailability(t, account, { state: 'BUSY', busyMinutes: 20 });
    expect(answer.status).toBe(202);
    const byId = Object.fromEntries(answer.body.integrations.map((entry: any) => [entry.integrationId, entry]));
    expect(byId[ids[0]]).toMatchObject({ platform: 'PLATFORM_A', state: 'queued' });
    expect(byId[ids[1]]).toEqual({ integrationId: ids[1], platform: 'PLATFORM_C', state: 'unsupported', code: 'BUSY_MODE_UNSUPPORTED', message: 'no busy mode on this platform' });
    await waitForCommand(t, account, ids[0], ['sent']);
    expect(withBusy.calls.filter((call) => call.integrationId === ids[0])).toEqual([expect.objectContaining({ state: 'BUSY', params: { busyMinutes: 20 } })]);
    expect(withoutBusy.storeCalls(ids[1])).toEqual([]);
    expect((await availabilityOf(t, account, ids[1])).lastCommand).toBeNull();
  });

  it('refuses bad input with problem JSON and a code, never a 500', async () => {
    const { account, ids } = await accountWith(['PLATFORM_A']);
    const other = await accountWith(['PLATFORM_A']);
    const unverified = (await upsertIntegration(t, 'PLATFORM_A', { restaurantId: account.restaurantId, providerRestaurantId: `store-${randomUUID()}`, verification: 'unverified' })).integrationId;
    const inactive = (await upsertIntegration(t, 'PLATFORM_A', { restaurantId: account.restaurantId, providerRestaurantId: `store-${randomUUID()}`, isActive: false })).integrationId;
    const cases: Array<[string, Record<string, unknown>, number, string, string?]> = [
      ['BUSY without busyMinutes', { state: 'BUSY' }, 422, 'VALIDATION_ERROR', 'busyMinutes'],
      ['busyMinutes for CLOSED', { state: 'CLOSED', busyMinutes: 10 }, 422, 'VALIDATION_ERROR', 'busyMinutes'],
      ['busyMinutes out of range', { state: 'BUSY', busyMinutes: 500 }, 422, 'VALIDATION_ERROR', 'busyMinutes'],
      ['until in the past', { state: 'CLOSED', until: new Date(Date.now() - 60_000).toISOString() }, 422, 'UNTIL_IN_PAST', 'until'],
      ['until with OPEN', { state: 'OPEN', until: new Date(Date.now() + 60_000).toISOString() }, 422, 'VALIDATION_ERROR', 'until'],
      ['until too far', { state: 'CLOSED', until: new Date(Date.now() + 40 * 24 * 3_600_000).toISOString() }, 422, 'VALIDATION_ERROR', 'until'],
      ['until not a date', { state: 'CLOSED', until: 'tomorrow' }, 422, 'VALIDATION_ERROR', 'until'],
      ['unknown state', { state: 'PAUSED' }, 422, 'VALIDATION_ERROR', 'state'],
      ['unknown field', { state: 'OPEN', mood: 'sad' }, 422, 'VALIDATION_ERROR'],
      ['unknown integration', { state: 'CLOSED', integrationIds: [randomUUID()] }, 404, 'INTEGRATION_NOT_FOUND'],
      ['another account\'s integration', { state: 'CLOSED', integrationIds: [other.ids[0]] }, 404, 'INTEGRATION_NOT_FOUND'],
      ['unverified integration', { state: 'CLOSED', integrationIds: [unverified] }, 409, 'INTEGRATION_NOT_VERIFIED'],
      ['inactive integration', { state: 'CLOSED', integrationIds: [inactive] }, 409, 'INTEGRATION_DISABLED'],
      ['empty integrationIds', { state: 'CLOSED', integrationIds: [] }, 422, 'VALIDATION_ERROR', 'integrationIds'],
    ];
    for (const [name, body, status, code, field] of cases) {
      const answer = await putAvailability(t, account, body);
      expect({ name, status: answer.status, code: answer.body.code, type: answer.headers['content-type'] }).toEqual({ name, status, code, type: expect.stringContaining('application/problem+json') });
      if (field) expect({ name, fields: answer.body.errors.map((error: any) => error.field) }).toEqual({ name, fields: expect.arrayContaining([expect.stringContaining(field)]) });
    }
    expect((await t.http.put('/api/v1/my/availability').send({ state: 'OPEN' })).status).toBe(401);
    expect((await t.http.put('/api/v1/my/availability').set({ ...account.headers, 'X-API-Secret': 'wrong' }).send({ state: 'OPEN' })).body.code).toBe('AUTHENTICATION_FAILED');
    expect((await t.http.get('/api/v1/my/availability').set({ 'X-API-Key': account.headers['X-API-Key'] })).status).toBe(401);
    const disabled = await createAccount(t, { status: 'disabled' });
    expect((await putAvailability(t, disabled, { state: 'OPEN' })).status).toBe(401);
    expect(withBusy.storeCalls(ids[0])).toEqual([]);
  });

  it('a close until a time opens again by itself at that time (the timer\'s OPEN), and says when it ends', async () => {
    const { account, ids } = await accountWith(['PLATFORM_A']);
    const until = new Date(Date.now() + 2_500).toISOString();
    expect((await putAvailability(t, account, { state: 'CLOSED', until })).status).toBe(202);
    const closed = await waitForCommand(t, account, ids[0], ['sent'], 'CLOSED');
    expect(closed).toMatchObject({ asked: { state: 'CLOSED', until }, endsAt: until, confirmed: { state: 'CLOSED', until } });
    const opened = await waitForCommand(t, account, ids[0], ['sent'], 'OPEN');
    expect(opened).toMatchObject({ asked: { state: 'OPEN', by: 'timer', until: null }, confirmed: { state: 'OPEN', by: CONFIRMED_BY }, endsAt: null, lastCommand: { requestedBy: 'timer' } });
    expect(withBusy.storeCalls(ids[0])).toEqual(['CLOSED', 'OPEN']);
    expect(withBusy.calls.find((call) => call.integrationId === ids[0] && call.state === 'OPEN')!.at).toBeGreaterThanOrEqual(Date.parse(until));
  });

  it('a later change cancels the timer of an earlier timed close (last request wins)', async () => {
    const { account, ids } = await accountWith(['PLATFORM_A']);
    const until = new Date(Date.now() + 1_500).toISOString();
    expect((await putAvailability(t, account, { state: 'CLOSED', until })).status).toBe(202);
    await waitForCommand(t, account, ids[0], ['sent'], 'CLOSED');
    expect((await putAvailability(t, account, { state: 'BUSY', busyMinutes: 15 })).status).toBe(202);
    await waitForCommand(t, account, ids[0], ['sent'], 'BUSY');
    // The old timer has come and gone without effect once its task row is gone.
    await waitFor('the timed close\'s timer ran', async () => (await t.sql(`SELECT 1 FROM scheduled_tasks WHERE kind = 'availability.reopen' AND payload->>'integrationId' = $1`, [ids[0]])).length === 0, 20_000);
    expect(withBusy.storeCalls(ids[0])).toEqual(['CLOSED', 'BUSY']);
    expect((await availabilityOf(t, account, ids[0])).asked).toMatchObject({ state: 'BUSY', by: 'restaurant' });
  });

  it('a platform refusal ends the command failed, tried once; a transient failure is retried until sent', async () => {
    const { account, ids } = await accountWith(['PLATFORM_A']);
    withBusy.answerNext({ kind: 'failed', answer: { httpStatus: 400, body: { message: 'store cannot be closed now' } }, reason: 'HTTP 400: store cannot be closed now' });
    await putAvailability(t, account, { state: 'CLOSED' });
    const refused = await waitForCommand(t, account, ids[0], ['failed']);
    expect(refused).toMatchObject({ lastCommand: { state: 'failed', attempts: 1, lastError: 'HTTP 400: store cannot be closed now' }, lastAnswer: { outcome: 'failed', httpStatus: 400 }, confirmed: null, pending: null });
    expect(withBusy.storeCalls(ids[0])).toEqual(['CLOSED']);

    withBusy.answerNext({ kind: 'retry', answer: { httpStatus: 503, body: 'unavailable' } }, { kind: 'retry', answer: { httpStatus: null, body: null, error: 'ECONNRESET' } });
    await putAvailability(t, account, { state: 'OPEN' });
    const sent = await waitForCommand(t, account, ids[0], ['sent'], 'OPEN');
    expect(sent).toMatchObject({ lastCommand: { state: 'sent', attempts: 3 }, confirmed: { state: 'OPEN' } });
    expect(withBusy.storeCalls(ids[0])).toEqual(['CLOSED', 'OPEN', 'OPEN', 'OPEN']);
  });

  it('a change superseded before it was sent is never sent; the one being sent finishes first, then the last one asked', async () => {
    const { account, ids } = await accountWith(['PLATFORM_A']);
    withBusy.hold();
    try {
      await putAvailability(t, account, { state: 'CLOSED' });
      await waitFor('the first call under way', () => withBusy.storeCalls(ids[0]).length === 1);
      const superseded = await putAvailability(t, account, { state: 'BUSY', busyMinutes: 30 });
      const last = await putAvailability(t, account, { state: 'OPEN' });
      const rows = await t.sql('SELECT id, state FROM availability_commands WHERE integration_id = $1 ORDER BY accepted_at, id', [ids[0]]);
      expect(rows.find((row) => row.id === superseded.body.integrations[0].commandId)?.state).toBe('superseded');
      expect(rows.find((row) => row.id === last.body.integrations[0].commandId)?.state).toBe('queued');
    } finally {
      withBusy.release();
    }
    await waitForCommand(t, account, ids[0], ['sent'], 'OPEN');
    expect(withBusy.storeCalls(ids[0])).toEqual(['CLOSED', 'OPEN']);
    expect((await t.sql('SELECT state FROM availability_commands WHERE integration_id = $1 ORDER BY accepted_at, id', [ids[0]])).map((row) => row.state)).toEqual(['sent', 'superseded', 'sent']);
  });

  it('a product sold out until a time comes back by itself; the list shows it while it is off', async () => {
    const { account, ids } = await accountWith(['PLATFORM_A']);
    const path = (product: string) => `/api/v1/my/integrations/${ids[0]}/products/${product}/availability`;
    const until = new Date(Date.now() + 2_500).toISOString();
    const off = await t.http.put(path('lahmacun-2')).set(account.headers).send({ available: false, until });
    expect(off.status).toBe(202);
    expect(off.body).toMatchObject({ integrationId: ids[0], platform: 'PLATFORM_A', platformProductId: 'lahmacun-2', state: 'queued' });
    const list = () => t.http.get(`/api/v1/my/integrations/${ids[0]}/products/availability`).set(account.headers);
    await waitFor('the product switched off on the platform', async () => (await list()).body.products?.[0]?.confirmedAvailable === false);
    expect((await list()).body).toMatchObject({ integrationId: ids[0], products: [{ platformProductId: 'lahmacun-2', available: false, until, lastCommand: { state: 'sent' } }] });
    await waitFor('the product back on', async () => (await list()).body.products?.length === 0, 20_000);
    const calls = withBusy.calls.filter((call) => call.kind === 'product' && call.integrationId === ids[0]);
    expect(calls.map((call) => [call.product!.available, call.params.status])).toEqual([[false, 'PASSIVE'], [true, 'ACTIVE']]);
    expect(calls[1].at).toBeGreaterThanOrEqual(Date.parse(until));
    // Bad input and a foreign integration.
    expect((await t.http.put(path('x')).set(account.headers).send({ available: true, until })).body.code).toBe('VALIDATION_ERROR');
    expect((await t.http.put(path('x')).set(account.headers).send({ available: false, until: new Date(Date.now() - 1000).toISOString() })).body.code).toBe('UNTIL_IN_PAST');
    expect((await t.http.put(path('x')).set(account.headers).send({})).body.code).toBe('VALIDATION_ERROR');
    const other = await createAccount(t);
    expect((await t.http.put(path('x')).set(other.headers).send({ available: false })).body.code).toBe('INTEGRATION_NOT_FOUND');
    expect((await t.http.get(`/api/v1/my/integrations/${ids[0]}/products/availability`).set(other.headers)).status).toBe(404);
  });

  it('the courier core makes a restaurant busy through the internal API, recorded as its own', async () => {
    const { account, ids } = await accountWith(['PLATFORM_A']);
    const answer = await t.http.put(`/internal/restaurants/${account.restaurantId}/availability`).set(internal()).send({ state: 'BUSY', busyMinutes: 25, reason: 'couriers short' });
    expect(answer.status).toBe(202);
    expect(await waitForCommand(t, account, ids[0], ['sent'], 'BUSY')).toMatchObject({ asked: { by: 'courier_core', busyMinutes: 25, reason: 'couriers short' }, lastCommand: { requestedBy: 'courier_core' } });
    expect((await t.http.put(`/internal/restaurants/${account.restaurantId}/availability`).send({ state: 'OPEN' })).status).toBe(401);
    expect((await t.http.put('/internal/restaurants/rest_nobodyHasThisRestaurantId/availability').set(internal()).send({ state: 'OPEN' })).body.code).toBe('RESTAURANT_NOT_FOUND');
    expect((await t.http.put(`/internal/restaurants/${account.restaurantId}/availability`).set(internal()).send({ state: 'BUSY' })).body.code).toBe('VALIDATION_ERROR');
  });

  it('a store the platform closed by itself (read back) is published once, counted, and shown; back as asked, nothing more', async () => {
    const { account, ids } = await accountWith(['PLATFORM_A']);
    await putAvailability(t, account, { state: 'OPEN' });
    await waitFor('the read-back confirmed OPEN', async () => (await availabilityOf(t, account, ids[0]))?.confirmed?.by === 'read_back', 20_000);
    withBusy.stores.set(ids[0], 'CLOSED');
    const events = () => t.outbox(RoutingKey.RestaurantAvailabilityChanged).then((rows) => rows.filter((row) => row.payload.integrationId === ids[0]));
    await waitFor('the change published', async () => (await events()).length === 1, 20_000);
    expect((await events())[0].payload).toMatchObject({ restaurantId: account.restaurantId, provider: 'PLATFORM_A', state: 'CLOSED', expectedState: 'OPEN', detectedBy: 'read_back', platformReason: 'closed by the platform' });
    // Further reads of the same state publish nothing more.
    const reads = async () => Number((await t.http.get('/metrics')).text.match(/platform_store_reads_total\{platform="PLATFORM_A",outcome="ok"[^}]*\} (\d+)/)?.[1] ?? 0);
    const before = await reads();
    await waitFor('three more reads', async () => (await reads()) >= before + 3, 20_000);
    expect(await events()).toHaveLength(1);
    expect((await t.http.get('/metrics')).text).toMatch(/platform_store_closed_by_platform_total\{platform="PLATFORM_A"[^}]*\} [1-9]/);
    expect(await availabilityOf(t, account, ids[0])).toMatchObject({ asked: { state: 'OPEN' }, platformReported: { state: 'CLOSED', reason: 'closed by the platform' } });
    withBusy.stores.set(ids[0], 'OPEN');
    await waitFor('the store open again as asked', async () => (await t.sql('SELECT reported_state FROM store_availability WHERE integration_id = $1', [ids[0]]))[0].reported_state === null, 20_000);
    expect(await events()).toHaveLength(1);
  });

  it('PLATFORM_B\'s inbound availability call: recorded, and a close the restaurant did not ask for published once', async () => {
    const { account, ids } = await accountWith(['PLATFORM_B']);
    const remoteId = (await t.sql('SELECT provider_restaurant_id FROM integrations WHERE integration_id = $1', [ids[0]]))[0].provider_restaurant_id;
    await putAvailability(t, account, { state: 'OPEN' });
    await waitForCommand(t, account, ids[0], ['sent'], 'OPEN');
    const closures = [{ reason: 'TOO_MANY_REJECTED_ORDERS', start: new Date(Date.now() - 60_000).toISOString(), end: new Date(Date.now() + 3_600_000).toISOString(), changeable: false }];
    const call = () => t.http.put(`/platforms/platform-b/remoteId/${remoteId}/availability`).set({ Authorization: bPluginAuthorization() }).send({ timestamp: new Date().toISOString(), closures });
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(200);
    const events = (await t.outbox(RoutingKey.RestaurantAvailabilityChanged)).filter((row) => row.payload.integrationId === ids[0]);
    expect(events.map((row) => row.payload)).toEqual([
      expect.objectContaining({ state: 'CLOSED', expectedState: 'OPEN', detectedBy: 'platform_call', platformReason: 'TOO_MANY_REJECTED_ORDERS', until: closures[0].end, providerRestaurantId: remoteId }),
    ]);
    expect(await t.sql('SELECT is_open FROM platform_vendor_availability WHERE provider_restaurant_id = $1', [remoteId])).toEqual([{ is_open: false }]);
    expect(await availabilityOf(t, account, ids[0])).toMatchObject({ platformReported: { state: 'CLOSED', reason: 'TOO_MANY_REJECTED_ORDERS' } });
    // Open again (as asked): nothing published.
    expect((await t.http.put(`/platforms/platform-b/remoteId/${remoteId}/availability`).set({ Authorization: bPluginAuthorization() }).send({ timestamp: new Date().toISOString(), closures: [] })).status).toBe(200);
    expect((await t.outbox(RoutingKey.RestaurantAvailabilityChanged)).filter((row) => row.payload.integrationId === ids[0])).toHaveLength(1);
    expect((await t.http.put(`/platforms/platform-b/remoteId/${remoteId}/availability`).send({ closures: [] })).status).toBe(401);
  });
});

describe('availability timers on two replicas', () => {
  let first: TestApp;
  let second: TestApp;
  const platform = new RecordingAvailability();

  beforeAll(async () => {
    first = await startTestApp({ env: ENV });
    second = await startTestApp({ database: first.database, env: ENV });
    installAvailability(first, 'PLATFORM_A', platform);
    installAvailability(second, 'PLATFORM_A', platform);
  });
  afterAll(async () => {
    await second?.close({ keepDatabase: true });
    await first?.close();
  });

  it('send one reopen at `until`, not two, whichever replica runs the timer', async () => {
    const accounts: Array<{ account: TestAccount; integrationId: string }> = [];
    for (let index = 0; index < 4; index += 1) {
      const account = await createAccount(first);
      const { integrationId } = await upsertIntegration(first, 'PLATFORM_A', { restaurantId: account.restaurantId, providerRestaurantId: `store-${randomUUID()}` });
      accounts.push({ account, integrationId });
    }
    const until = new Date(Date.now() + 2_000).toISOString();
    for (const [index, { account }] of accounts.entries()) expect((await putAvailability(index % 2 ? second : first, account, { state: 'CLOSED', until })).status).toBe(202);
    for (const { account, integrationId } of accounts) await waitForCommand(first, account, integrationId, ['sent'], 'OPEN');
    for (const { integrationId } of accounts) {
      expect(platform.storeCalls(integrationId)).toEqual(['CLOSED', 'OPEN']);
      expect((await first.sql(`SELECT count(*)::int AS n FROM availability_commands WHERE integration_id = $1 AND requested_by = 'timer'`, [integrationId]))[0].n).toBe(1);
    }
  });
});
