import { platformRequest } from '../../adapters/common/platform-http';
import { PlatformCSimulator } from './platform-c.simulator';

/** Polls a condition (never a fixed sleep): resolves once it holds, fails after a generous timeout. */
async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Trendyol Go's availability calls as the clients show them, by plain HTTP (the adapter's view is in platform-c.availability.spec.ts). */
describe('PlatformCSimulator availability', () => {
  let sim: PlatformCSimulator;
  const headers = {
    Authorization: `Basic ${Buffer.from('key:secret').toString('base64')}`,
    'User-Agent': '104523 - SelfIntegration',
    'x-agentname': 'SelfIntegration',
    'x-executor-user': 'kasa@example.test',
  };
  const store = '/integrator/store/meal/suppliers/104523/stores';
  const product = (storeId: string, productId: string) =>
    `/integrator/product/meal/suppliers/104523/stores/${storeId}/products/${productId}/status`;

  beforeAll(async () => {
    sim = new PlatformCSimulator({
      suppliers: [
        { supplierId: '104523', apiKey: 'key', secretKey: 'secret', storeIds: ['153', '154'] },
        { supplierId: '200', apiKey: 'k2', secretKey: 's2', storeIds: ['9'] },
      ],
      availability: { productChangeMs: 1_000, products: { '154': ['777'] } },
    });
    await sim.start();
  });
  afterAll(() => sim.stop());

  function call(method: 'GET' | 'PUT' | 'POST', path: string, json?: unknown, extra: Record<string, string> = headers) {
    return platformRequest({ method, url: `${sim.baseUrl}${path}`, headers: extra, json, timeoutMs: 2000 });
  }
  const admin = (method: 'GET' | 'POST', path: string) =>
    platformRequest({ method, url: `${sim.baseUrl}/_simulator${path}`, timeoutMs: 2000 });

  it("opens and closes a store with OPEN / CLOSED only, and lists the supplier's stores with their workingStatus", async () => {
    expect(await call('PUT', `${store}/153/status`, { status: 'CLOSED' })).toMatchObject({ status: 200 });
    expect(await call('GET', `${store}?page=0&size=10`)).toMatchObject({
      status: 200,
      body: {
        restaurants: [
          { id: 153, workingStatus: 'CLOSED' },
          { id: 154, workingStatus: 'OPEN' },
        ],
        totalCount: 2,
      },
    });
    // No timed close and no busy mode.
    for (const status of ['BUSY', 'CLOSED_UNTIL', 'closed'])
      expect(await call('PUT', `${store}/154/status`, { status, closingMinutes: 30 })).toMatchObject({
        status: 400,
        body: { errors: [{ message: expect.stringMatching(/OPEN, CLOSED/) }] },
      });
    expect((await admin('GET', '/stores/154')).body).toMatchObject({ workingStatus: 'OPEN', changedBy: null });
    expect((await admin('GET', '/stores/153')).body).toMatchObject({ workingStatus: 'CLOSED', changedBy: 'INTEGRATOR' });
  });

  it('authenticates and rate-limits the availability endpoints like the package calls (401, 403, 429 per endpoint)', async () => {
    expect(
      await call('GET', store, undefined, { ...headers, Authorization: `Basic ${Buffer.from('key:nope').toString('base64')}` }),
    ).toMatchObject({ status: 401, body: { exception: 'ClientApiAuthenticationException' } });
    const { 'User-Agent': _omitted, ...withoutAgent } = headers;
    expect(await call('PUT', `${store}/153/status`, { status: 'OPEN' }, withoutAgent)).toMatchObject({ status: 403 });
    // Another supplier's store is not found for this one.
    expect(await call('PUT', '/integrator/store/meal/suppliers/104523/stores/9/status', { status: 'OPEN' })).toMatchObject({ status: 404 });
    const limited = new PlatformCSimulator({
      suppliers: [{ supplierId: '104523', apiKey: 'key', secretKey: 'secret', storeIds: ['153'] }],
      rateLimit: { limit: 2, windowMs: 60_000 },
    });
    const url = await limited.start();
    try {
      const put = () =>
        platformRequest({ method: 'PUT', url: `${url}${store}/153/status`, headers, json: { status: 'OPEN' }, timeoutMs: 2000 });
      for (let index = 0; index < 2; index += 1) expect(await put()).toMatchObject({ status: 200 });
      expect(await put()).toMatchObject({ status: 429, body: { status: 429, message: 'too.many.requests' } });
      // Per endpoint: the store list has its own count.
      expect(await platformRequest({ method: 'GET', url: `${url}${store}`, headers, timeoutMs: 2000 })).toMatchObject({ status: 200 });
    } finally {
      await limited.stop();
    }
  });

  it('switches a product ACTIVE / PASSIVE, answers 409 to a second change of the same store while one is under way, 404 to a product not on the menu', async () => {
    const [first, second] = await Promise.all([
      call('PUT', product('153', '319239'), { status: 'PASSIVE' }),
      until(() => sim.availability.store('153')!.busyUntil > 0).then(() => call('PUT', product('153', '317823'), { status: 'PASSIVE' })),
    ]);
    expect(first).toMatchObject({ status: 200 });
    expect(second).toMatchObject({ status: 409, body: { status: 409, errors: [{ message: expect.any(String) }] } });
    expect((await admin('GET', '/stores/153')).body).toMatchObject({ products: { '319239': 'PASSIVE', '317823': 'ACTIVE' } });
    expect(await call('PUT', product('154', '777'), { status: 'SOLD_OUT' })).toMatchObject({ status: 400 });
    expect(await call('PUT', product('154', '319239'), { status: 'PASSIVE' })).toMatchObject({ status: 404 });
    expect(await call('PUT', product('154', '777'), { status: 'PASSIVE' })).toMatchObject({ status: 200 });
    expect((await admin('GET', '/stores/154')).body).toMatchObject({ products: { '777': 'PASSIVE' } });
  });

  it('closes a store by the platform itself through the admin route, seen in the store list', async () => {
    expect(await admin('POST', '/stores/154/close')).toMatchObject({
      status: 200,
      body: { workingStatus: 'CLOSED', changedBy: 'PLATFORM' },
    });
    const listed = await call('GET', `${store}?page=0&size=1`);
    expect(listed).toMatchObject({ status: 200, body: { totalPages: 2, restaurants: [{ id: 153 }] } });
    expect(await call('GET', `${store}?page=1&size=1`)).toMatchObject({ body: { restaurants: [{ id: 154, workingStatus: 'CLOSED' }] } });
    expect(await admin('POST', '/stores/999/close')).toMatchObject({ status: 404 });
  });
});
