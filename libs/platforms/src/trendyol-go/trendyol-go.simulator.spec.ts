import { platformRequest } from '../common/platform-http';
import { PlatformCSimulator } from './trendyol-go.simulator';

/** The simulator's own rules, by plain HTTP (no adapter): what Trendyol Go's documents say it does. */
describe('PlatformCSimulator', () => {
  let sim: PlatformCSimulator;
  const root = '/integrator/order/meal/suppliers/104523/packages';
  const headers = { Authorization: `Basic ${Buffer.from('key:secret').toString('base64')}`, 'User-Agent': '104523 - SelfIntegration', 'x-agentname': 'SelfIntegration', 'x-executor-user': 'kasa@example.test' };

  beforeAll(async () => {
    sim = new PlatformCSimulator({ suppliers: [{ supplierId: '104523', apiKey: 'key', secretKey: 'secret', storeIds: ['153'] }, { supplierId: '200', apiKey: 'k2', secretKey: 's2', storeIds: ['9'] }] });
    await sim.start();
  });
  afterAll(() => sim.stop());

  function call(method: 'GET' | 'PUT' | 'POST', path: string, json?: unknown, extra: Record<string, string> = headers) {
    return platformRequest({ method, url: `${sim.baseUrl}${path}`, headers: extra, json, timeoutMs: 2000 });
  }

  it('answers 401 ClientApiAuthenticationException to wrong credentials and 403 without the User-Agent or with a malformed one', async () => {
    expect(await call('GET', root, undefined, { ...headers, Authorization: `Basic ${Buffer.from('key:nope').toString('base64')}` })).toMatchObject({ status: 401, body: { exception: 'ClientApiAuthenticationException' } });
    expect(await call('GET', '/integrator/order/meal/suppliers/200/packages')).toMatchObject({ status: 401 });
    const { 'User-Agent': _omitted, ...withoutAgent } = headers;
    expect(await call('GET', root, undefined, withoutAgent)).toMatchObject({ status: 403 });
    for (const agent of ['200 - SelfIntegration', '104523 - Self Integration', `104523 - ${'A'.repeat(31)}`, '104523']) expect(await call('GET', root, undefined, { ...headers, 'User-Agent': agent })).toMatchObject({ status: 403 });
  });

  it('lists the packages of a store and modification window in pages of at most 50, filtered by status', async () => {
    const start = Date.now();
    const store = Array.from({ length: 51 }, () => sim.addPackage('104523', '153'));
    sim.addPackage('104523', '154');
    sim.cancelPackage(store[0].id);
    const end = Date.now() + 1;
    const page = (query: string) => call('GET', `${root}?storeId=153&packageModificationStartDate=${start}&packageModificationEndDate=${end}&${query}`);
    const first = await page('page=0&size=50');
    expect(first).toMatchObject({ status: 200, body: { page: 0, size: 50, totalPages: 2, totalCount: 51 } });
    type Page = { content: Array<{ id: string; storeId: number; packageStatus: string; packageModificationDate: number }> };
    const listed = [...(first.body as Page).content, ...((await page('page=1&size=50')).body as Page).content];
    expect(listed.map((pkg) => pkg.id).sort()).toEqual(store.map((pkg) => pkg.id).sort());
    expect(listed.map((pkg) => pkg.packageModificationDate)).toEqual([...listed.map((pkg) => pkg.packageModificationDate)].sort((a, b) => a - b));
    expect(listed.find((pkg) => pkg.id === store[0].id)).toMatchObject({ storeId: 153, packageStatus: 'Cancelled' });
    expect((await page('page=0&size=50&packageStatuses=Cancelled,UnSupplied')).body).toMatchObject({ totalCount: 1 });
    expect(await page('page=0&size=51')).toMatchObject({ status: 400 });
    expect(await page('page=0&size=10&packageStatuses=Picked')).toMatchObject({ status: 400 });
    expect((await call('GET', `${root}?storeId=153&packageModificationStartDate=${end + 1}&page=0&size=50`)).body).toMatchObject({ totalCount: 0, content: [] });
    const view = (first.body as { content: Array<Record<string, unknown>> }).content[0];
    expect(view.id).toMatch(/^[0-9a-f]{64}$/);
    expect(view.lines).toEqual([expect.objectContaining({ price: 95, unitSellingPrice: 95, items: [expect.objectContaining({ packageItemId: expect.any(String), isCancelled: false }), expect.anything()] }), expect.anything()]);
  });

  it('moves a package Created -> Picking -> Invoiced -> Shipped -> Delivered in order; manual steps for STORE only', async () => {
    const own = sim.addPackage('104523', '153', { deliveryType: 'STORE' });
    // Out of order: 409 (platforms.md Round 2).
    expect(await call('PUT', `${root}/invoiced`, { packageId: own.id })).toMatchObject({ status: 409, body: { status: 409, errors: [{ message: 'package is Created: invoiced needs Picking' }] } });
    expect(await call('PUT', `${root}/picked`, { packageId: own.id })).toMatchObject({ status: 400 });
    expect(await call('PUT', `${root}/picked`, { packageId: own.id, preparationTime: 15 })).toMatchObject({ status: 200 });
    expect(sim.packages.get(own.id)).toMatchObject({ packageStatus: 'Picking', preparationTime: 15 });
    expect(await call('PUT', `${root}/picked`, { packageId: own.id, preparationTime: 15 })).toMatchObject({ status: 200 });
    expect(await call('PUT', `${root}/${own.id}/manual-shipped`, {})).toMatchObject({ status: 409 });
    expect(await call('PUT', `${root}/invoiced`, { packageId: own.id })).toMatchObject({ status: 200 });
    expect(await call('PUT', `${root}/${own.id}/manual-shipped`, {})).toMatchObject({ status: 200 });
    expect(await call('PUT', `${root}/${own.id}/manual-delivered`, {})).toMatchObject({ status: 200 });
    expect(sim.packages.get(own.id)!.packageStatus).toBe('Delivered');

    const go = sim.addPackage('104523', '153', { deliveryType: 'GO', packageStatus: 'Invoiced' });
    expect(await call('PUT', `${root}/${go.id}/manual-shipped`, {})).toMatchObject({ status: 400 });
    expect(await call('PUT', `${root}/picked`, { packageId: 'f'.repeat(64), preparationTime: 10 })).toMatchObject({ status: 404, body: { errors: [{ message: expect.stringContaining('DomainNotFound') }] } });
    const foreign = sim.addPackage('200', '9');
    expect(await call('PUT', `${root}/picked`, { packageId: foreign.id, preparationTime: 10 })).toMatchObject({ status: 400, body: { errors: [{ message: expect.stringContaining('supplierID') }] } });
    const cancelled = sim.addPackage('104523', '153');
    sim.cancelPackage(cancelled.id);
    expect(await call('PUT', `${root}/picked`, { packageId: cancelled.id, preparationTime: 10 })).toMatchObject({ status: 400 });
  });

  it('takes unsupplied only with packageItemIds of that package and a restaurant reason; all of them cancel the package', async () => {
    const pkg = sim.addPackage('104523', '153');
    const other = sim.addPackage('104523', '153');
    const ids = pkg.lines.flatMap((line) => line.items.map((item) => item.packageItemId));
    const unsupplied = (body: Record<string, unknown>) => call('PUT', `${root}/unsupplied`, { packageId: pkg.id, ...body });
    expect(await unsupplied({ itemIdList: ids, reasonId: 601 })).toMatchObject({ status: 400 });
    expect(await unsupplied({ itemIdList: [], reasonId: 621 })).toMatchObject({ status: 400 });
    expect(await unsupplied({ itemIdList: [other.lines[0].items[0].packageItemId], reasonId: 621 })).toMatchObject({ status: 400 });
    expect(await unsupplied({ itemIdList: ids.map(Number), reasonId: 621 })).toMatchObject({ status: 400 });
    expect(await unsupplied({ itemIdList: [ids[0]], reasonId: 623 })).toMatchObject({ status: 200 });
    expect(sim.packages.get(pkg.id)!.packageStatus).toBe('Created');
    expect(await unsupplied({ itemIdList: ids.slice(1), reasonId: 622 })).toMatchObject({ status: 200 });
    expect(sim.packages.get(pkg.id)).toMatchObject({ packageStatus: 'UnSupplied', unsuppliedReason: 622 });
    expect(await unsupplied({ itemIdList: ids, reasonId: 622 })).toMatchObject({ status: 400 });
  });

  it('keeps each call\'s headers for tests, and drives packages over its admin routes', async () => {
    await call('GET', `${root}?storeId=153&page=0&size=1`);
    expect(sim.calls.at(-1)!.headers).toMatchObject({ 'x-agentname': 'SelfIntegration', 'x-executor-user': 'kasa@example.test' });
    const created = await call('POST', '/_simulator/packages', { deliveryType: 'GO' }, {});
    expect(created).toMatchObject({ status: 201, body: { storeId: 153, deliveryType: 'GO', packageStatus: 'Created' } });
    const id = (created.body as { id: string }).id;
    expect(await call('POST', `/_simulator/packages/${id}/cancel`, {}, {})).toMatchObject({ status: 200, body: { id, packageStatus: 'Cancelled' } });
    expect(await call('POST', '/_simulator/packages/nope/cancel', {}, {})).toMatchObject({ status: 404 });
    expect((await call('GET', '/_simulator/calls?method=GET', undefined, {})).body).toEqual(expect.arrayContaining([expect.objectContaining({ method: 'GET', path: root })]));
  });
  it('serves a test package, a store pickup and a model 2 package as Trendyol Go does; a pickup has no courier steps', async () => {
    const test = sim.addPackage('104523', '153', { testPackage: true });
    const pickup = sim.addPackage('104523', '153', { storePickupSelected: true, packageStatus: 'Invoiced' });
    const go = sim.addPackage('104523', '153', { deliveryType: 'GO' });
    expect(sim.packageView(test)).toMatchObject({ testPackage: true, storePickupSelected: false });
    expect(sim.packageView(pickup)).toMatchObject({ testPackage: false, storePickupSelected: true });
    expect(sim.packageView(go)).toMatchObject({ deliveryType: 'GO', address: { address1: 'Trendyol Yemek', district: 'Trendyol Yemek', phone: '08502221212' }, callCenterPhone: '08502221212' });
    expect(await call('PUT', `${root}/${pickup.id}/manual-shipped`)).toMatchObject({ status: 400, body: { errors: [{ message: expect.stringContaining('storePickupSelected') }] } });
    expect(await call('POST', '/_simulator/packages', { testPackage: true, storePickupSelected: true }, {})).toMatchObject({ status: 201, body: { testPackage: true, storePickupSelected: true } });
  });

  it('answers 429 over its rate limit when one is set: per endpoint (the route, not the package), in a sliding window', async () => {
    sim.options.rateLimit = { limit: 2, windowMs: 60_000 };
    try {
      const packages = [sim.addPackage('104523', '153'), sim.addPackage('104523', '153'), sim.addPackage('104523', '153')];
      const picked = (pkg: { id: string }) => call('PUT', `${root}/picked`, { packageId: pkg.id, preparationTime: 15 });
      expect((await Promise.all(packages.map(picked))).map((answer) => answer.status).sort()).toEqual([200, 200, 429]);
      // Another endpoint has its own count; the manual steps count per route, whatever the package.
      expect(await call('PUT', `${root}/invoiced`, { packageId: packages[0].id })).toMatchObject({ status: 200 });
      expect(await call('PUT', `${root}/${packages[0].id}/manual-shipped`)).toMatchObject({ status: 200 });
      expect(await call('PUT', `${root}/${packages[1].id}/manual-shipped`)).toMatchObject({ status: 409 });
      // KB Authorization.md's body, exactly.
      expect(await call('PUT', `${root}/${packages[2].id}/manual-shipped`)).toMatchObject({ status: 429, body: { status: 429, message: 'too.many.requests' } });
      expect((await call('PUT', `${root}/${packages[2].id}/manual-shipped`)).body).toEqual({ status: 429, message: 'too.many.requests' });
    } finally {
      sim.options.rateLimit = undefined;
    }
  });
});
