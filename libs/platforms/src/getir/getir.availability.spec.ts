import type { PlatformAAvailabilityOptions } from '../getir/getir.availability-routes';
import { GETIR_MENU_PRODUCT_IDS } from '../getir/getir.availability-routes';
import { PlatformASimulator } from '../getir/getir.simulator';
import { bookCallBudget, budgetScopesOf } from '../common/call-budget';
import { SessionCache } from '../common/session-cache';
import { platformClientConfig } from '../platforms';
import type { IntegrationCredentials } from '../common/platform-adapter';
import type { StoreAvailabilityPlan } from '../common/platform-availability';
import { PlatformAAdapter } from './getir.adapter';

const APP_KEY = 'app-secret-key-0001';
const MINUTE = 60_000;
const credentials: IntegrationCredentials = {
  integrationId: 'int-a-1',
  providerRestaurantId: 'getir-r-1',
  settings: {},
  secrets: { secretKey: 'restaurant-secret-1' },
};
const UNLIMITED = { limit: 1_000, windowMs: 60_000, blockMs: 30_000 };

type Send = Extract<StoreAvailabilityPlan, { kind: 'send' }>;

describe('PLATFORM_A availability against its simulator', () => {
  let sim: PlatformASimulator;
  let adapter: PlatformAAdapter;
  let clock = Date.now();
  const simOptions: PlatformAAvailabilityOptions = { configurationRateLimit: UNLIMITED, now: () => clock };

  beforeAll(async () => {
    sim = new PlatformASimulator({
      appSecretKey: APP_KEY,
      restaurants: [{ restaurantId: 'getir-r-1', secretKey: 'restaurant-secret-1' }],
      availability: simOptions,
    });
    await sim.start();
  });
  afterAll(() => sim.stop());
  beforeEach(() => {
    sim.clearFaults();
    sim.setDown(false);
    simOptions.configurationRateLimit = UNLIMITED;
    adapter = new PlatformAAdapter(
      platformClientConfig({
        PLATFORM_A_BASE_URL: sim.baseUrl,
        PLATFORM_A_APP_SECRET_KEY: APP_KEY,
        PLATFORM_HTTP_TIMEOUT_MS: '2000',
      }),
      new SessionCache(60_000),
    );
  });

  const availability = () => adapter.availability;
  const plan = (request: Parameters<PlatformAAdapter['availability']['planStore']>[0], now = new Date(clock)) =>
    availability().planStore(request, now);
  const state = () => sim.availability.adminView('getir-r-1');

  describe('planStore (what Getir can do with a request)', () => {
    const now = new Date('2026-11-26T12:00:00Z');
    const after = (minutes: number) => new Date(now.getTime() + minutes * MINUTE);

    it('opens (ending busy mode), closes until an open, and closes for 15, 30 or 45 minutes when `until` is that far', () => {
      expect(plan({ state: 'OPEN' }, now)).toEqual({
        kind: 'send',
        state: 'OPEN',
        params: { action: 'open', timeOffAmount: null, busynessDifferenceDuration: null },
      });
      expect(plan({ state: 'CLOSED' }, now)).toMatchObject({
        kind: 'send',
        state: 'CLOSED',
        params: { action: 'close', timeOffAmount: null },
      });
      for (const minutes of [15, 30, 45])
        expect(plan({ state: 'CLOSED', until: after(minutes) }, now)).toEqual({
          kind: 'send',
          state: 'CLOSED',
          params: { action: 'close', timeOffAmount: minutes, busynessDifferenceDuration: null },
        });
      // A request that took a few seconds to arrive still counts as 30 minutes.
      expect(plan({ state: 'CLOSED', until: new Date(after(30).getTime() - 20_000) }, now)).not.toHaveProperty('instead');
    });

    it('chooses the nearest allowed close not shorter than asked and says so in `instead`; longer than 45 minutes closes until the suite opens it', () => {
      expect(plan({ state: 'CLOSED', until: after(20) }, now)).toMatchObject({
        kind: 'send',
        params: { timeOffAmount: 30 },
        instead: { code: 'CLOSE_DURATION_ROUNDED_UP', message: expect.stringMatching(/30 minutes .* 20 asked/) },
      });
      expect(plan({ state: 'CLOSED', until: after(5) }, now)).toMatchObject({
        params: { timeOffAmount: 15 },
        instead: { code: 'CLOSE_DURATION_ROUNDED_UP' },
      });
      // A little longer than an allowed duration is still rounded up: Getir must not reopen before `until`.
      expect(plan({ state: 'CLOSED', until: new Date(after(15).getTime() + 30_000) }, now)).toMatchObject({
        params: { timeOffAmount: 30 },
        instead: { code: 'CLOSE_DURATION_ROUNDED_UP' },
      });
      expect(plan({ state: 'CLOSED', until: new Date(after(45).getTime() + 30_000) }, now)).toMatchObject({
        params: { timeOffAmount: null },
        instead: { code: 'REOPENED_BY_SUITE' },
      });
      expect(plan({ state: 'CLOSED', until: after(120) }, now)).toEqual({
        kind: 'send',
        state: 'CLOSED',
        params: { action: 'close', timeOffAmount: null, busynessDifferenceDuration: null },
        instead: { code: 'REOPENED_BY_SUITE', message: expect.stringMatching(/opened again by this suite at `until`/) },
      });
    });

    it('busy mode takes 15, 30 or 45 extra minutes (15 by default), rounding up or capping with `instead`', () => {
      expect(plan({ state: 'BUSY' }, now)).toEqual({
        kind: 'send',
        state: 'BUSY',
        params: { action: 'busy', timeOffAmount: null, busynessDifferenceDuration: 15 },
      });
      expect(plan({ state: 'BUSY', busyMinutes: 45, until: after(90) }, now)).toMatchObject({ params: { busynessDifferenceDuration: 45 } });
      expect(plan({ state: 'BUSY', busyMinutes: 20 }, now)).toMatchObject({
        params: { busynessDifferenceDuration: 30 },
        instead: { code: 'BUSY_MINUTES_ROUNDED_UP' },
      });
      expect(plan({ state: 'BUSY', busyMinutes: 90 }, now)).toMatchObject({
        params: { busynessDifferenceDuration: 45 },
        instead: { code: 'BUSY_MINUTES_CAPPED' },
      });
    });

    it('answers a request it cannot express with an unsupported code', () => {
      expect(plan({ state: 'CLOSED', until: after(-1) }, now)).toMatchObject({ kind: 'unsupported', code: 'DURATION_UNSUPPORTED' });
      expect(plan({ state: 'BUSY', busyMinutes: 0 }, now)).toMatchObject({ kind: 'unsupported', code: 'DURATION_UNSUPPORTED' });
      expect(availability().planProduct({ platformProductId: 'p', available: false, until: after(-5) }, now)).toMatchObject({
        kind: 'unsupported',
        code: 'DURATION_UNSUPPORTED',
      });
    });
  });

  it('closes for 30 minutes, reopens with busy mode off, goes busy (open + 30 extra minutes): the calls Getir documents, with the token header', async () => {
    expect(
      await availability().setStore(credentials, plan({ state: 'CLOSED', until: new Date(clock + 30 * MINUTE) }) as Send),
    ).toMatchObject({ kind: 'done', answer: { httpStatus: 200 } });
    expect(state()).toMatchObject({ status: 200, closedSource: 1, closedUntil: new Date(clock + 30 * MINUTE).toISOString() });
    expect(sim.callsTo('PUT', '/restaurants/status/close').at(-1)).toMatchObject({
      body: { timeOffAmount: 30 },
      headers: { token: expect.any(String) },
    });

    expect(await availability().setStore(credentials, plan({ state: 'BUSY', busyMinutes: 30 }) as Send)).toMatchObject({ kind: 'done' });
    expect(state()).toMatchObject({ status: 100, isBusy: true, busynessDifferenceDuration: 30 });

    expect(await availability().setStore(credentials, plan({ state: 'OPEN' }) as Send)).toMatchObject({ kind: 'done' });
    expect(state()).toMatchObject({ status: 100, isBusy: false });
    expect(
      sim
        .callsTo('PUT', '/restaurants/delivery-duration/busyness')
        .slice(-2)
        .map((call) => call.body),
    ).toEqual([{ isBusy: true, busynessDifferenceDuration: 30 }, { isBusy: false }]);

    // A close with no duration sends no body: closed until an open.
    expect(await availability().setStore(credentials, plan({ state: 'CLOSED' }) as Send)).toMatchObject({ kind: 'done' });
    expect(sim.callsTo('PUT', '/restaurants/status/close').at(-1)!.body).toBeUndefined();
    expect(state()).toMatchObject({ status: 200, closedUntil: null });
  });

  it('reads the store back: open, closed by the restaurant, closed by Getir itself (platformReason)', async () => {
    await availability().setStore(credentials, plan({ state: 'OPEN' }) as Send);
    expect(await availability().readStore!(credentials)).toMatchObject({
      kind: 'ok',
      state: 'OPEN',
      answer: { httpStatus: 200, body: { id: 'getir-r-1', status: 100 } },
    });
    await availability().setStore(credentials, plan({ state: 'CLOSED' }) as Send);
    const closed = await availability().readStore!(credentials);
    expect(closed).toMatchObject({ kind: 'ok', state: 'CLOSED' });
    expect(closed).not.toHaveProperty('platformReason');
    sim.availability.closeByPlatform('getir-r-1');
    expect(await availability().readStore!(credentials)).toMatchObject({
      kind: 'ok',
      state: 'CLOSED',
      platformReason: expect.stringMatching(/closed by PLATFORM_A itself \(closedSource 2\)/),
    });
    sim.failNext({ status: 200, body: { id: 'getir-r-1', status: 777 }, match: (request) => request.path === '/restaurants' });
    expect(await availability().readStore!(credentials)).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/777/) });
  });

  it('switches a product off (200), off for the day (400) and back on (100); a product not of the restaurant is a final refusal (code 40)', async () => {
    const productId = GETIR_MENU_PRODUCT_IDS[0];
    const now = new Date(clock);
    const off = { platformProductId: productId, available: false };
    const send = async (change: typeof off & { until?: Date }) => {
      const planned = availability().planProduct(change, now);
      if (planned.kind !== 'send') throw new Error('unsupported');
      return availability().setProduct(credentials, change, planned);
    };
    expect(await send(off)).toMatchObject({ kind: 'done' });
    expect(sim.availability.productStatus('getir-r-1', productId)).toBe(200);
    const noon = new Date('2026-11-26T12:00:00Z');
    // 15:00 in Turkey: sold out for an hour is "inactive for the day"; until 01:00 tomorrow (22:00 UTC) is plain inactive.
    expect(availability().planProduct({ ...off, until: new Date('2026-11-26T13:00:00Z') }, noon)).toEqual({
      kind: 'send',
      params: { status: 400 },
    });
    expect(availability().planProduct({ ...off, until: new Date('2026-11-26T20:59:00Z') }, noon)).toEqual({
      kind: 'send',
      params: { status: 400 },
    });
    expect(availability().planProduct({ ...off, until: new Date('2026-11-26T22:00:00Z') }, noon)).toEqual({
      kind: 'send',
      params: { status: 200 },
    });
    expect(await availability().setProduct(credentials, off, { kind: 'send', params: { status: 400 } })).toMatchObject({ kind: 'done' });
    expect(sim.availability.productStatus('getir-r-1', productId)).toBe(400);
    expect(await send({ platformProductId: productId, available: true } as typeof off)).toMatchObject({ kind: 'done' });
    expect(sim.availability.productStatus('getir-r-1', productId)).toBe(100);
    expect(await send({ ...off, platformProductId: '5f9a1b2c3d4e5f6a7b8c9dff' })).toMatchObject({
      kind: 'failed',
      answer: { httpStatus: 400, body: { code: 40 } },
      reason: expect.stringMatching(/code 40 ProductNotBelongsToRestaurantError/),
    });
  });

  it('a refusal (4xx) is final; 5xx, 429 (the 30 s block) and a network error are retried', async () => {
    const close = plan({ state: 'CLOSED' }) as Send;
    sim.failNext({
      status: 400,
      body: { code: -2, error: 'ValidationError', message: 'bad', source: 'body' },
      match: (request) => request.path === '/restaurants/status/close',
    });
    expect(await availability().setStore(credentials, close)).toMatchObject({
      kind: 'failed',
      answer: { httpStatus: 400 },
      reason: expect.stringMatching(/code -2 ValidationError/),
    });
    sim.failNext({ status: 503, match: (request) => request.path === '/restaurants/status/open' });
    expect(await availability().setStore(credentials, plan({ state: 'OPEN' }) as Send)).toMatchObject({
      kind: 'retry',
      answer: { httpStatus: 503 },
    });
    // The open went through but busyness did not: the whole change is retried (both calls are idempotent).
    sim.failNext({ status: 429, body: { code: 429 }, match: (request) => request.path === '/restaurants/delivery-duration/busyness' });
    expect(await availability().setStore(credentials, plan({ state: 'BUSY' }) as Send)).toEqual({
      kind: 'retry',
      answer: { httpStatus: 429, body: { code: 429 } },
      retryAfterMs: 30_000,
    });
    sim.failNext({ status: 502, match: (request) => request.path === '/restaurants' });
    expect(await availability().readStore!(credentials)).toMatchObject({ kind: 'retry', answer: { httpStatus: 502 } });
    sim.setDown(true);
    expect(await availability().setStore(credentials, close)).toMatchObject({ kind: 'retry', answer: { httpStatus: null } });
    expect(await availability().readStore!(credentials)).toMatchObject({ kind: 'retry', answer: { httpStatus: null } });
    sim.setDown(false);
    sim.failNext({ status: 500, match: (request) => request.path.startsWith('/products/') });
    const product = { platformProductId: GETIR_MENU_PRODUCT_IDS[2], available: false };
    expect(await availability().setProduct(credentials, product, { kind: 'send', params: { status: 200 } })).toMatchObject({
      kind: 'retry',
      answer: { httpStatus: 500 },
    });
  });

  it("keeps within Getir's 2 configuration calls a minute: booked in callBudget, a burst of changes never meets the 429 Getir answers past it", async () => {
    simOptions.configurationRateLimit = { limit: 2, windowMs: 60_000, blockMs: 30_000 };
    // Unbooked, a second change within the minute is refused with the block.
    expect(await availability().setStore(credentials, plan({ state: 'BUSY' }) as Send)).toMatchObject({ kind: 'done' });
    expect(await availability().setStore(credentials, plan({ state: 'CLOSED' }) as Send)).toMatchObject({
      kind: 'retry',
      answer: { httpStatus: 429 },
      retryAfterMs: 30_000,
    });
    clock += 31_000;

    // Booked, every change waits for its slot: six alternating changes, all done, none refused.
    expect(budgetScopesOf(adapter.callBudget, 'availability:store')).toEqual(
      expect.arrayContaining([expect.objectContaining({ scope: expect.objectContaining({ name: 'configuration', limit: 2 }), count: 2 })]),
    );
    expect(budgetScopesOf(adapter.callBudget, 'availability:read')).toEqual(
      expect.arrayContaining([expect.objectContaining({ scope: expect.objectContaining({ name: 'configuration' }), count: 1 })]),
    );
    const logs = new Map<string, number[]>();
    const refusedBefore = sim.calls.filter((call) => call.status === 429).length;
    const start = clock;
    const book = (call: 'availability:store' | 'availability:read') => {
      const scopes = budgetScopesOf(adapter.callBudget, call);
      const booking = bookCallBudget(
        scopes.map(({ scope, count }) => ({ limit: scope.limit, windowMs: scope.windowMs, calls: logs.get(scope.name) ?? [], count })),
        clock,
      );
      scopes.forEach(({ scope }, at) => logs.set(scope.name, booking.calls[at]));
      clock = booking.at;
    };
    const requests = [
      { state: 'CLOSED' as const },
      { state: 'OPEN' as const },
      { state: 'BUSY' as const, busyMinutes: 45 },
      { state: 'CLOSED' as const },
      { state: 'OPEN' as const },
    ];
    for (const [index, request] of requests.entries()) {
      book('availability:store');
      expect(await availability().setStore(credentials, plan(request) as Send)).toMatchObject({ kind: 'done' });
      if (index === 2) {
        book('availability:read');
        expect(await availability().readStore!(credentials)).toMatchObject({ kind: 'ok', state: 'OPEN' });
      }
    }
    expect(sim.calls.filter((call) => call.status === 429).length).toBe(refusedBefore);
    expect(state()).toMatchObject({ status: 100, isBusy: false });
    // Five store changes (two requests each) and a read in a budget of 2 per 65 s: the last starts 5 windows in.
    expect(clock - start).toBeGreaterThanOrEqual(5 * 65_000);
  });
});
