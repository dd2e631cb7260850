import { PlatformCSimulator } from '../trendyol-go/trendyol-go.simulator';
import { bookCallBudget, budgetScopesOf } from '../common/call-budget';
import { platformClientConfig } from '../platforms';
import type { IntegrationCredentials } from '../common/platform-adapter';
import type { StoreAvailabilityPlan } from '../common/platform-availability';
import { PlatformCAdapter } from './trendyol-go.adapter';

const credentials: IntegrationCredentials = {
  integrationId: 'int-c-1',
  providerRestaurantId: 'ty-r-1',
  settings: { supplierId: '104523', storeId: '88211' },
  secrets: { apiKey: 'ty-api-key', secretKey: 'ty-secret' },
};
const BASIC = `Basic ${Buffer.from('ty-api-key:ty-secret').toString('base64')}`;
type Send = Extract<StoreAvailabilityPlan, { kind: 'send' }>;

/** Polls a condition (never a fixed sleep): resolves once it holds, fails after a generous timeout. */
async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('PLATFORM_C availability against its simulator', () => {
  let sim: PlatformCSimulator;
  let adapter: PlatformCAdapter;
  // Many stores of the supplier: the read goes through pages of 50.
  const otherStores = Array.from({ length: 60 }, (_, index) => String(70_000 + index));

  beforeAll(async () => {
    sim = new PlatformCSimulator({
      suppliers: [{ supplierId: '104523', apiKey: 'ty-api-key', secretKey: 'ty-secret', storeIds: [...otherStores, '88211'] }],
      availability: { productChangeMs: 1_000 },
    });
    await sim.start();
    adapter = new PlatformCAdapter(
      platformClientConfig({
        PLATFORM_C_BASE_URL: sim.baseUrl,
        PLATFORM_C_INTEGRATOR_NAME: 'CourierSuite',
        PLATFORM_C_EXECUTOR_USER: 'ops@restaurant.example',
        PLATFORM_HTTP_TIMEOUT_MS: '2000',
      }),
    );
  });
  afterAll(() => sim.stop());
  beforeEach(() => {
    sim.clearFaults();
    sim.setDown(false);
  });

  const availability = () => adapter.availability;
  const now = new Date('2026-11-26T12:00:00Z');
  const plan = (request: Parameters<PlatformCAdapter['availability']['planStore']>[0]) =>
    availability().planStore(request, request.until ? now : new Date());

  it('plans OPEN and CLOSED; a close until a time is a close the suite ends (`instead`); BUSY is unsupported', () => {
    expect(plan({ state: 'OPEN' })).toEqual({ kind: 'send', state: 'OPEN', params: { status: 'OPEN' } });
    expect(plan({ state: 'CLOSED' })).toEqual({ kind: 'send', state: 'CLOSED', params: { status: 'CLOSED' } });
    expect(plan({ state: 'CLOSED', until: new Date(now.getTime() + 30 * 60_000) })).toMatchObject({
      kind: 'send',
      params: { status: 'CLOSED' },
      instead: { code: 'REOPENED_BY_SUITE' },
    });
    expect(plan({ state: 'BUSY', busyMinutes: 20 })).toMatchObject({ kind: 'unsupported', code: 'BUSY_MODE_UNSUPPORTED' });
    expect(plan({ state: 'CLOSED', until: new Date(now.getTime() - 1) })).toMatchObject({
      kind: 'unsupported',
      code: 'DURATION_UNSUPPORTED',
    });
    expect(
      availability().planProduct({ platformProductId: '319239', available: false, until: new Date(now.getTime() + 60_000) }, now),
    ).toEqual({ kind: 'send', params: { status: 'PASSIVE' } });
    expect(availability().planProduct({ platformProductId: '319239', available: true }, now)).toEqual({
      kind: 'send',
      params: { status: 'ACTIVE' },
    });
  });

  it('closes and opens the store with PUT .../stores/{storeId}/status and the mandatory headers, and reads it back from the store list', async () => {
    expect(await availability().setStore(credentials, plan({ state: 'CLOSED' }) as Send)).toMatchObject({
      kind: 'done',
      answer: { httpStatus: 200 },
    });
    expect(sim.availability.store('88211')).toMatchObject({ workingStatus: 'CLOSED', changedBy: 'INTEGRATOR' });
    const put = sim.callsTo('PUT', '/integrator/store/meal/suppliers/104523/stores/88211/status').at(-1)!;
    expect(put).toMatchObject({
      body: { status: 'CLOSED' },
      headers: {
        authorization: BASIC,
        'user-agent': '104523 - CourierSuite',
        'x-agentname': 'CourierSuite',
        'x-executor-user': 'ops@restaurant.example',
      },
    });
    expect(await availability().readStore!(credentials)).toMatchObject({
      kind: 'ok',
      state: 'CLOSED',
      answer: { httpStatus: 200, body: { id: 88211, workingStatus: 'CLOSED' } },
    });
    expect(
      sim
        .callsTo('GET', '/integrator/store/meal/suppliers/104523/stores')
        .slice(-2)
        .map((call) => call.query.get('page')),
    ).toEqual(['0', '1']);

    expect(await availability().setStore(credentials, plan({ state: 'OPEN' }) as Send)).toMatchObject({ kind: 'done' });
    expect(await availability().readStore!(credentials)).toMatchObject({ kind: 'ok', state: 'OPEN' });
  });

  it('sees a store the platform closed itself', async () => {
    await availability().setStore(credentials, plan({ state: 'OPEN' }) as Send);
    sim.availability.closeByPlatform('88211');
    expect(await availability().readStore!(credentials)).toMatchObject({ kind: 'ok', state: 'CLOSED' });
    expect(await availability().readStore!({ ...credentials, settings: { ...credentials.settings, storeId: '1' } })).toMatchObject({
      kind: 'failed',
      reason: expect.stringMatching(/store 1 is not in PLATFORM_C's store list/),
    });
  });

  it('switches a product PASSIVE and ACTIVE; a 409 (a concurrent change of the store) is retried, then goes through', async () => {
    const off = { platformProductId: '319239', available: false };
    const other = { platformProductId: '317823', available: false };
    const [first, second] = await Promise.all([
      availability().setProduct(credentials, off, { kind: 'send', params: { status: 'PASSIVE' } }),
      until(() => sim.availability.store('88211')!.busyUntil > 0).then(() =>
        availability().setProduct(credentials, other, { kind: 'send', params: { status: 'PASSIVE' } }),
      ),
    ]);
    expect(first).toMatchObject({ kind: 'done' });
    expect(second).toMatchObject({ kind: 'retry', answer: { httpStatus: 409 }, retryAfterMs: 1_000 });
    expect(await availability().setProduct(credentials, other, { kind: 'send', params: { status: 'PASSIVE' } })).toMatchObject({
      kind: 'done',
    });
    expect(Object.fromEntries(sim.availability.store('88211')!.products)).toMatchObject({ '319239': 'PASSIVE', '317823': 'PASSIVE' });
    expect(
      await availability().setProduct(credentials, { ...off, available: true }, { kind: 'send', params: { status: 'ACTIVE' } }),
    ).toMatchObject({ kind: 'done' });
    expect(sim.availability.store('88211')!.products.get('319239')).toBe('ACTIVE');
    expect(sim.callsTo('PUT', '/integrator/product/meal/suppliers/104523/stores/88211/products/319239/status').at(-1)!.body).toEqual({
      status: 'ACTIVE',
    });
  });

  it('a refusal (4xx) is final; 5xx, 429 and a network error are retried; unusable stored credentials fail without a call', async () => {
    expect(
      await availability().setProduct(
        credentials,
        { platformProductId: '999', available: false },
        { kind: 'send', params: { status: 'PASSIVE' } },
      ),
    ).toMatchObject({
      kind: 'failed',
      answer: { httpStatus: 404 },
      reason: expect.stringMatching(/HTTP 404: product 999 not found/),
    });
    expect(
      await availability().setStore(
        { ...credentials, secrets: { apiKey: 'ty-api-key', secretKey: 'wrong' } },
        plan({ state: 'OPEN' }) as Send,
      ),
    ).toMatchObject({ kind: 'failed', answer: { httpStatus: 401 } });
    sim.failNext({ status: 503, match: (request) => request.path.endsWith('/status') });
    expect(await availability().setStore(credentials, plan({ state: 'CLOSED' }) as Send)).toMatchObject({
      kind: 'retry',
      answer: { httpStatus: 503 },
    });
    sim.failNext({
      status: 429,
      body: { status: 429, message: 'too.many.requests' },
      match: (request) => request.path.endsWith('/stores'),
    });
    expect(await availability().readStore!(credentials)).toMatchObject({
      kind: 'retry',
      answer: { httpStatus: 429 },
      retryAfterMs: 10_000,
    });
    sim.setDown(true);
    expect(await availability().setStore(credentials, plan({ state: 'CLOSED' }) as Send)).toMatchObject({
      kind: 'retry',
      answer: { httpStatus: null },
    });
    expect(await availability().readStore!(credentials)).toMatchObject({ kind: 'retry', answer: { httpStatus: null } });
    sim.setDown(false);
    const before = sim.calls.length;
    const broken = { ...credentials, settings: { supplierId: 'bad id/', storeId: '88211' } };
    expect(await availability().setStore(broken, plan({ state: 'OPEN' }) as Send)).toMatchObject({
      kind: 'failed',
      reason: expect.stringMatching(/supplierId/),
    });
    expect(await availability().readStore!(broken)).toMatchObject({ kind: 'failed' });
    expect(sim.calls.length).toBe(before);
  });

  it("books each availability call in its endpoint's scope (50 requests / 10 s per endpoint, ours 40 / 11 s)", () => {
    for (const [call, name] of [
      ['availability:store', 'store-status'],
      ['availability:read', 'stores'],
      ['availability:product', 'product-status'],
    ] as const) {
      expect(budgetScopesOf(adapter.callBudget, call)).toEqual([
        { scope: expect.objectContaining({ name, limit: 40, windowMs: 11_000 }), count: 1 },
      ]);
    }
    const log = { limit: 40, windowMs: 11_000, calls: Array.from({ length: 40 }, () => 1_000), count: 1 };
    expect(bookCallBudget([log], 1_000).at).toBe(12_000);
  });
});
