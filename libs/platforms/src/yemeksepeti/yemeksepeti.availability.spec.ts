import { PlatformBSimulator } from '../yemeksepeti/yemeksepeti.simulator';
import { budgetScopesOf } from '../common/call-budget';
import { SessionCache } from '../common/session-cache';
import { platformClientConfig } from '../platforms';
import type { IntegrationCredentials } from '../common/platform-adapter';
import type { StoreAvailabilityPlan } from '../common/platform-availability';
import { PlatformBAdapter } from './yemeksepeti.adapter';
import { PLATFORM_B_CLOSING_MINUTES_INSTEAD } from './yemeksepeti.availability';

describe('PLATFORM_B availability against its simulator', () => {
  let sim: PlatformBSimulator;
  let adapter: PlatformBAdapter;
  let vendorNumber = 0;
  let credentials: IntegrationCredentials;
  const now = new Date();
  const send = (plan: StoreAvailabilityPlan) => {
    if (plan.kind !== 'send') throw new Error(`expected a plan to send, got ${plan.code}`);
    return plan;
  };
  const entry = () => sim.availability.vendor(credentials.providerRestaurantId).entries[0];

  beforeAll(async () => {
    sim = new PlatformBSimulator({ users: [{ username: 'pos-user', password: 'pos-password-1' }], availability: { platforms: [{ platformKey: 'YS_TR' }, { platformKey: 'FP_TR' }] } });
    await sim.start();
  });
  afterAll(() => sim.stop());
  beforeEach(() => {
    sim.clearFaults();
    vendorNumber += 1;
    credentials = { integrationId: `int-b-av-${vendorNumber}`, providerRestaurantId: `vendor-av-${vendorNumber}`, settings: { chainCode: 'chain-1', username: 'pos-user' }, secrets: { password: 'pos-password-1' } };
    adapter = new PlatformBAdapter(platformClientConfig({ PLATFORM_B_BASE_URL: sim.baseUrl, PLATFORM_HTTP_TIMEOUT_MS: '2000' }), new SessionCache(60_000));
  });

  it('closes and opens the vendor on every DH platform it is on: the GET, then a PUT per changeable entry with a listed closedReason', async () => {
    const availability = adapter.availability;
    expect(await availability.setStore(credentials, send(availability.planStore({ state: 'CLOSED' }, now)))).toMatchObject({ kind: 'done' });
    expect(sim.availability.vendor(credentials.providerRestaurantId).entries).toMatchObject([
      { platformKey: 'YS_TR', availabilityState: 'CLOSED', closedReason: 'CLOSED' },
      { platformKey: 'FP_TR', availabilityState: 'CLOSED', closedReason: 'CLOSED' },
    ]);
    expect(await availability.readStore!(credentials)).toMatchObject({ kind: 'ok', state: 'CLOSED', platformReason: 'CLOSED, CLOSED' });
    expect(await availability.setStore(credentials, send(availability.planStore({ state: 'OPEN' }, now)))).toMatchObject({ kind: 'done', answer: { httpStatus: 200 } });
    expect(await availability.readStore!(credentials)).toMatchObject({ kind: 'ok', state: 'OPEN' });
    const puts = sim.callsTo('PUT', `/v2/chains/chain-1/remoteVendors/${credentials.providerRestaurantId}/availability`);
    expect(puts.map((call) => call.body)).toEqual([
      { availabilityState: 'CLOSED', platformKey: 'YS_TR', platformRestaurantId: `ys-${credentials.providerRestaurantId}`, closedReason: 'CLOSED' },
      { availabilityState: 'CLOSED', platformKey: 'FP_TR', platformRestaurantId: `fp_tr-${credentials.providerRestaurantId}`, closedReason: 'CLOSED' },
      { availabilityState: 'OPEN', platformKey: 'YS_TR', platformRestaurantId: `ys-${credentials.providerRestaurantId}` },
      { availabilityState: 'OPEN', platformKey: 'FP_TR', platformRestaurantId: `fp_tr-${credentials.providerRestaurantId}` },
    ]);
  });

  it('closes until a time with CLOSED_UNTIL and the shortest listed closingMinutes covering it (the longest when none does), saying so in `instead`', async () => {
    const availability = adapter.availability;
    const plan = send(availability.planStore({ state: 'CLOSED', until: new Date(now.getTime() + 50 * 60_000) }, now));
    expect(plan).toMatchObject({ state: 'CLOSED', params: { availabilityState: 'CLOSED_UNTIL', closingMinutes: 50 }, instead: { code: PLATFORM_B_CLOSING_MINUTES_INSTEAD } });
    expect(await availability.setStore(credentials, plan)).toMatchObject({ kind: 'done' });
    expect(entry()).toMatchObject({ availabilityState: 'CLOSED_UNTIL', closedReason: 'CLOSED' });
    const read = await availability.readStore!(credentials);
    expect(read).toMatchObject({ kind: 'ok', state: 'CLOSED' });
    expect(read.kind === 'ok' && read.until!.getTime()).toBeGreaterThanOrEqual(now.getTime() + 60 * 60_000);
    expect(await availability.setStore(credentials, send(availability.planStore({ state: 'CLOSED', until: new Date(now.getTime() + 9 * 3_600_000) }, now)))).toMatchObject({ kind: 'done' });
    const puts = sim.callsTo('PUT', /\/remoteVendors\/vendor-av-\d+\/availability$/).filter((call) => call.path.includes(credentials.providerRestaurantId));
    expect(puts.map((call) => (call.body as { closingMinutes: number }).closingMinutes)).toEqual([60, 60, 240, 240]);
  });

  it('sends CLOSED where an entry does not take CLOSED_UNTIL', async () => {
    entry().availabilityStates = ['OPEN', 'CLOSED'];
    const availability = adapter.availability;
    expect(await availability.setStore(credentials, send(availability.planStore({ state: 'CLOSED', until: new Date(now.getTime() + 30 * 60_000) }, now)))).toMatchObject({ kind: 'done' });
    expect(sim.availability.vendor(credentials.providerRestaurantId).entries.map((one) => one.availabilityState)).toEqual(['CLOSED', 'CLOSED_UNTIL']);
  });

  it('closes and opens an entry that lists no states, reasons or minutes (DH\'s own GET sample): an empty list restricts nothing', async () => {
    for (const one of sim.availability.vendor(credentials.providerRestaurantId).entries) Object.assign(one, { availabilityStates: [], closingReasons: [], closingMinutes: [] });
    const availability = adapter.availability;
    expect(await availability.setStore(credentials, send(availability.planStore({ state: 'CLOSED', until: new Date(now.getTime() + 45 * 60_000) }, now)))).toMatchObject({ kind: 'done' });
    expect(entry()).toMatchObject({ availabilityState: 'CLOSED_UNTIL', closedReason: 'CLOSED' });
    expect(await availability.setStore(credentials, send(availability.planStore({ state: 'OPEN' }, now)))).toMatchObject({ kind: 'done' });
    expect(entry()).toMatchObject({ availabilityState: 'OPEN' });
    const puts = sim.callsTo('PUT', `/v2/chains/chain-1/remoteVendors/${credentials.providerRestaurantId}/availability`);
    expect(puts.map((call) => (call.body as { closingMinutes?: number }).closingMinutes)).toEqual([45, 45, undefined, undefined]);
  });

  it('reads the store from the entries DH knows, waiting only while every entry is UNKNOWN (DH\'s GET sample: one platform UNKNOWN and not changeable)', async () => {
    const entries = sim.availability.vendor(credentials.providerRestaurantId).entries;
    Object.assign(entries[1], { availabilityState: 'UNKNOWN', changeable: false });
    const availability = adapter.availability;
    expect(await availability.readStore!(credentials)).toMatchObject({ kind: 'ok', state: 'OPEN' });
    expect(await availability.setStore(credentials, send(availability.planStore({ state: 'CLOSED' }, now)))).toMatchObject({ kind: 'done' });
    expect(await availability.readStore!(credentials)).toMatchObject({ kind: 'ok', state: 'CLOSED', platformReason: 'CLOSED, CLOSED' });
    Object.assign(entries[0], { availabilityState: 'UNKNOWN' });
    expect(await availability.readStore!(credentials)).toMatchObject({ kind: 'retry', retryAfterMs: 5_000 });
  });

  it('answers BUSY and a close ending in the past as unsupported, sending nothing', async () => {
    const availability = adapter.availability;
    expect(availability.planStore({ state: 'BUSY', busyMinutes: 20 }, now)).toMatchObject({ kind: 'unsupported', code: 'BUSY_MODE_UNSUPPORTED' });
    expect(availability.planStore({ state: 'BUSY', until: new Date(now.getTime() + 60_000) }, now)).toMatchObject({ kind: 'unsupported', code: 'BUSY_MODE_UNSUPPORTED' });
    expect(availability.planStore({ state: 'CLOSED', until: new Date(now.getTime() - 60_000) }, now)).toMatchObject({ kind: 'unsupported', code: 'DURATION_UNSUPPORTED' });
  });

  it('fails for good when DH closed the vendor itself (not changeable: no PUT is sent) and when the PUT is refused', async () => {
    await sim.availability.closeByPlatform(credentials.providerRestaurantId, { reason: 'TOO_MANY_REJECTED_ORDERS' });
    const availability = adapter.availability;
    const outcome = await availability.setStore(credentials, send(availability.planStore({ state: 'OPEN' }, now)));
    expect(outcome).toMatchObject({ kind: 'failed', reason: expect.stringContaining('only Delivery Hero can') });
    expect(sim.callsTo('PUT', `/v2/chains/chain-1/remoteVendors/${credentials.providerRestaurantId}/availability`)).toHaveLength(0);
    expect(await availability.readStore!(credentials)).toMatchObject({ kind: 'ok', state: 'CLOSED', platformReason: 'CLOSED, TOO_MANY_REJECTED_ORDERS, only Delivery Hero can reopen it' });

    await sim.availability.openByPlatform(credentials.providerRestaurantId);
    sim.failNext({ status: 400, body: { code: 'INVALID_REQUEST', message: 'refused' }, match: (request) => request.method === 'PUT' });
    expect(await availability.setStore(credentials, send(availability.planStore({ state: 'CLOSED' }, now)))).toMatchObject({ kind: 'failed', answer: { httpStatus: 400 } });
  });

  it('retries on a transient failure, on a 204 (DH has no answer yet) and on a network error', async () => {
    const availability = adapter.availability;
    const plan = send(availability.planStore({ state: 'CLOSED' }, now));
    sim.failNext({ status: 503, match: (request) => request.method === 'GET' });
    expect(await availability.setStore(credentials, plan)).toMatchObject({ kind: 'retry', answer: { httpStatus: 503 } });
    sim.failNext({ status: 502, match: (request) => request.method === 'PUT' });
    expect(await availability.setStore(credentials, plan)).toMatchObject({ kind: 'retry', answer: { httpStatus: 502 } });
    sim.availability.vendor(credentials.providerRestaurantId).pendingReads = 2;
    expect(await availability.setStore(credentials, plan)).toMatchObject({ kind: 'retry', retryAfterMs: 5_000, answer: { httpStatus: 204 } });
    expect(await availability.readStore!(credentials)).toMatchObject({ kind: 'retry', retryAfterMs: 5_000 });
    expect(await availability.setStore(credentials, plan)).toMatchObject({ kind: 'done' });
    const down = new PlatformBAdapter(platformClientConfig({ PLATFORM_B_BASE_URL: 'http://127.0.0.1:9', PLATFORM_HTTP_TIMEOUT_MS: '500' }), new SessionCache(60_000));
    expect(await down.availability.setStore(credentials, plan)).toMatchObject({ kind: 'retry' });
    expect(await down.availability.readStore!(credentials)).toMatchObject({ kind: 'retry' });
  });

  it('fails for good on refused credentials', async () => {
    const wrong = { ...credentials, secrets: { password: 'wrong' } };
    expect(await adapter.availability.setStore(wrong, send(adapter.availability.planStore({ state: 'OPEN' }, now)))).toMatchObject({ kind: 'failed', reason: expect.stringContaining('login') });
  });

  it('switches a product off until a time (DH brings it back by itself then) and on again, once per platform of the vendor', async () => {
    const availability = adapter.availability;
    const until = new Date(now.getTime() + 2 * 3_600_000);
    const off = { platformProductId: 'iskender-1', available: false, until };
    const plan = availability.planProduct(off, now);
    expect(plan).toEqual({ kind: 'send', params: { isAvailable: false, willBeAvailable: 'AT_TIMESTAMP', atTimeStamp: until.toISOString() } });
    if (plan.kind !== 'send') throw new Error('unsupported');
    expect(await availability.setProduct(credentials, off, plan)).toMatchObject({ kind: 'done', answer: { httpStatus: 204 } });
    expect([...sim.availability.vendor(credentials.providerRestaurantId).unavailable.values()]).toEqual([
      { id: 'iskender-1', type: 'ITEM', globalEntityId: 'YS_TR', availableAt: until.toISOString() },
      { id: 'iskender-1', type: 'ITEM', globalEntityId: 'FP_TR', availableAt: until.toISOString() },
    ]);
    const on = { platformProductId: 'iskender-1', available: true };
    const back = availability.planProduct(on, now);
    if (back.kind !== 'send') throw new Error('unsupported');
    expect(await availability.setProduct(credentials, on, back)).toMatchObject({ kind: 'done' });
    expect(sim.availability.vendor(credentials.providerRestaurantId).unavailable.size).toBe(0);
    sim.failNext({ status: 200, body: { failedItems: ['iskender-1'] }, match: (request) => request.path.endsWith('/catalog/items/availability') });
    expect(await availability.setProduct(credentials, on, back)).toMatchObject({ kind: 'failed', answer: { httpStatus: 200 } });
    sim.failNext({ status: 500, match: (request) => request.path.endsWith('/catalog/items/availability') });
    expect(await availability.setProduct(credentials, on, back)).toMatchObject({ kind: 'retry' });
  });

  it('books its calls in the call budget', () => {
    expect(budgetScopesOf(adapter.callBudget, 'availability:store')).toMatchObject([{ scope: { name: 'credentials' }, count: 2 }]);
    expect(budgetScopesOf(adapter.callBudget, 'availability:product')).toMatchObject([{ count: 2 }]);
    expect(budgetScopesOf(adapter.callBudget, 'availability:read')).toMatchObject([{ count: 1 }]);
  });
});
