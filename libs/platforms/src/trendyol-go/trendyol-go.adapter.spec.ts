import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PlatformCSimulator } from './trendyol-go.simulator';
import { platformClientConfig } from '../platforms';
import type { IntegrationCredentials, PlatformOrderRef } from '../common/platform-adapter';
import { PlatformCAdapter } from './trendyol-go.adapter';
import { parsePlatformCPackage } from './trendyol-go.orders';

const credentials: IntegrationCredentials = { integrationId: 'int-c-1', providerRestaurantId: 'ty-r-1', settings: { supplierId: '104523', storeId: '88211' }, secrets: { apiKey: 'ty-api-key', secretKey: 'ty-secret' } };
const BASIC = `Basic ${Buffer.from('ty-api-key:ty-secret').toString('base64')}`;

function example(name: string): { body: Record<string, unknown> } {
  return JSON.parse(readFileSync(join(__dirname, 'examples', name), 'utf8'));
}

describe('PLATFORM_C adapter against its simulator', () => {
  let sim: PlatformCSimulator;
  let adapter: PlatformCAdapter;

  beforeAll(async () => {
    sim = new PlatformCSimulator({ suppliers: [{ supplierId: '104523', apiKey: 'ty-api-key', secretKey: 'ty-secret', storeIds: ['88211'] }] });
    await sim.start();
    adapter = new PlatformCAdapter(
      platformClientConfig({ PLATFORM_C_BASE_URL: sim.baseUrl, PLATFORM_C_INTEGRATOR_NAME: 'CourierSuite', PLATFORM_C_EXECUTOR_USER: 'ops@restaurant.example', PLATFORM_HTTP_TIMEOUT_MS: '2000' }),
    );
  });
  afterAll(() => sim.stop());
  beforeEach(() => {
    sim.clearFaults();
    sim.setDown(false);
  });

  function order(overrides: Parameters<PlatformCSimulator['addPackage']>[2] = {}): PlatformOrderRef {
    const pkg = sim.addPackage('104523', '88211', overrides);
    const parsed = parsePlatformCPackage(sim.packageView(pkg));
    if (!parsed.ok) throw new Error(`unparsable: ${JSON.stringify(parsed.errors)}`);
    return { platformOrderId: pkg.id, yemekKuryeOrderId: '9d1e2f3a-3333-4444-8555-666677778888', platformData: parsed.order.platformData };
  }

  /** The simulator's record of calls about one package (in the path or as the body's packageId). */
  function callsOf(packageId: string) {
    return sim.calls.filter((call) => call.method === 'PUT' && (call.path.includes(packageId) || (call.body as { packageId?: string } | undefined)?.packageId === packageId));
  }

  it('takes a STORE package through picked (Picking), invoiced, manual-shipped and manual-delivered', async () => {
    const ref = order({ deliveryType: 'STORE', preparationTime: 35 });
    for (const action of ['VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER'] as const) expect(await adapter.status.send(credentials, ref, action)).toMatchObject({ kind: 'done', answer: { httpStatus: 200 } });
    expect(sim.packages.get(ref.platformOrderId)).toMatchObject({ packageStatus: 'Delivered', preparationTime: 35 });
    const calls = callsOf(ref.platformOrderId);
    expect(calls.map((call) => call.path.replace(/^.*\/packages/, ''))).toEqual(['/picked', '/invoiced', `/${ref.platformOrderId}/manual-shipped`, `/${ref.platformOrderId}/manual-delivered`]);
    expect(calls[0].body).toEqual({ packageId: ref.platformOrderId, preparationTime: 35 });
    expect(calls[1].body).toEqual({ packageId: ref.platformOrderId });
  });

  it('sends Basic auth, the User-Agent, x-agentname and x-executor-user on every call', async () => {
    const ref = order({ deliveryType: 'STORE' });
    await adapter.status.send(credentials, ref, 'VERIFY');
    await adapter.status.send(credentials, ref, 'CANCEL', '622');
    await adapter.pollOrders!(credentials, Date.now() - 1000, Date.now());
    await adapter.checkCredentials(credentials);
    const calls = [...callsOf(ref.platformOrderId), ...sim.callsTo('GET', /\/packages$/).slice(-2)];
    expect(calls).toHaveLength(4);
    for (const call of calls) {
      expect(call.headers).toMatchObject({ authorization: BASIC, 'user-agent': '104523 - CourierSuite', 'x-agentname': 'CourierSuite', 'x-executor-user': 'ops@restaurant.example' });
    }
  });

  it('accepts with the documented default preparation time when the package carries none', async () => {
    const ref = order();
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done' });
    expect(callsOf(ref.platformOrderId)[0].body).toEqual({ packageId: ref.platformOrderId, preparationTime: 20 });
    expect(sim.packages.get(ref.platformOrderId)!.packageStatus).toBe('Picking');
  });

  it('skips HANDOVER and DELIVER of a GO package (the platform\'s courier) without calling', async () => {
    const ref = order({ deliveryType: 'GO' });
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done' });
    expect(await adapter.status.send(credentials, ref, 'PREPARE')).toMatchObject({ kind: 'done' });
    expect(await adapter.status.send(credentials, ref, 'HANDOVER')).toMatchObject({ kind: 'skipped', reason: expect.stringContaining('GO') });
    expect(await adapter.status.send(credentials, ref, 'DELIVER')).toMatchObject({ kind: 'skipped' });
    expect(callsOf(ref.platformOrderId).map((call) => call.path.split('/').pop())).toEqual(['picked', 'invoiced']);
    expect(sim.packages.get(ref.platformOrderId)!.packageStatus).toBe('Invoiced');
  });

  it('skips HANDOVER and DELIVER of a store pickup (storePickupSelected): nobody ships it', async () => {
    const ref = order({ deliveryType: 'STORE', storePickupSelected: true });
    expect(ref.platformData).toMatchObject({ storePickup: true });
    for (const action of ['VERIFY', 'PREPARE'] as const) expect(await adapter.status.send(credentials, ref, action)).toMatchObject({ kind: 'done' });
    expect(await adapter.status.send(credentials, ref, 'HANDOVER')).toEqual({ kind: 'skipped', reason: expect.stringMatching(/customer collects this package.*storePickupSelected.*manual-shipped/) });
    expect(await adapter.status.send(credentials, ref, 'DELIVER')).toEqual({ kind: 'skipped', reason: expect.stringMatching(/customer collects.*manual-delivered/) });
    expect(callsOf(ref.platformOrderId).map((call) => call.path.split('/').pop())).toEqual(['picked', 'invoiced']);
  });

  it('cancels with every packageItemId of the package and the push\'s documented reason, else 621', async () => {
    const ref = order({ lines: [{ name: 'Mantı', price: 95, quantity: 2 }, { name: 'Ayran', price: 20, quantity: 1 }] });
    expect(await adapter.status.send(credentials, ref, 'CANCEL', '627')).toMatchObject({ kind: 'done' });
    const pkg = sim.packages.get(ref.platformOrderId)!;
    const itemIds = pkg.lines.flatMap((line) => line.items.map((item) => item.packageItemId));
    expect(itemIds).toHaveLength(3);
    expect(sim.callsTo('PUT', /\/packages\/unsupplied$/).pop()!.body).toEqual({ packageId: pkg.id, itemIdList: itemIds, reasonId: 627 });
    expect(pkg).toMatchObject({ packageStatus: 'UnSupplied', unsuppliedReason: 627 });

    const other = order();
    expect(await adapter.status.send(credentials, other, 'REJECT', 'kitchen closed')).toMatchObject({ kind: 'done' });
    expect(sim.packages.get(other.platformOrderId)!.unsuppliedReason).toBe(621);
  });

  it('cancels only the items not already cancelled (the example package) in the example request\'s shape', async () => {
    const page = example('packages-page-go-partly-cancelled.json').body;
    sim.failNext({ status: 200, body: { ...page, page: 0, totalPages: 1 }, match: (request) => request.method === 'GET' });
    const polled = await adapter.pollOrders!(credentials, 1783520000000, 1783520400000);
    if (polled.kind !== 'ok' || !polled.orders[0].ok) throw new Error(`poll: ${JSON.stringify(polled)}`);
    const parsed = polled.orders[0].order;
    sim.failNext({ status: 200, match: (request) => request.path.endsWith('/unsupplied') });
    expect(await adapter.status.send(credentials, { platformOrderId: parsed.platformOrderId, yemekKuryeOrderId: 'x', platformData: parsed.platformData }, 'CANCEL', '622')).toMatchObject({ kind: 'done' });
    expect(sim.callsTo('PUT', /\/packages\/unsupplied$/).pop()!.body).toEqual(example('unsupplied-request.json').body);
  });

  it('fails a cancel of an order without packageItemIds without calling the platform', async () => {
    const before = sim.calls.length;
    expect(await adapter.status.send(credentials, { platformOrderId: 'p'.repeat(64), yemekKuryeOrderId: 'x', platformData: { deliveryType: 'GO' } }, 'CANCEL')).toMatchObject({ kind: 'failed', reason: expect.stringContaining('packageItemId') });
    expect(sim.calls.length).toBe(before);
  });

  it('maps every answer: 400, 401, 403, 404, 409 (out of order) final; 429 (Retry-After, else the 10 s window) and 5xx retry; the platform down retry', async () => {
    const ref = order();
    expect(await adapter.status.send(credentials, ref, 'PREPARE')).toMatchObject({ kind: 'failed', answer: { httpStatus: 409 }, reason: expect.stringMatching(/PREPARE as out of order \(HTTP 409\)/) });
    sim.failNext({ status: 400, body: { timestamp: 1, status: 400, exception: 'ClientApiException', errors: [{ message: 'bad' }] } });
    expect(await adapter.status.send(credentials, order(), 'VERIFY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 400 } });
    expect(await adapter.status.send({ ...credentials, secrets: { apiKey: 'ty-api-key', secretKey: 'wrong' } }, ref, 'VERIFY')).toMatchObject({
      kind: 'failed',
      answer: { httpStatus: 401, body: { exception: 'ClientApiAuthenticationException' } },
    });
    const nameless = new PlatformCAdapter({ ...platformClientConfig({ PLATFORM_C_BASE_URL: sim.baseUrl }), PLATFORM_C_INTEGRATOR_NAME: '' });
    expect(await nameless.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 403 } });
    expect(await adapter.status.send(credentials, { ...ref, platformOrderId: 'f'.repeat(64) }, 'VERIFY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 404 } });
    sim.failNext({ status: 429, headers: { 'Retry-After': '7' } });
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'retry', answer: { httpStatus: 429 }, retryAfterMs: 7000 });
    sim.options.rateLimit = { limit: 1, windowMs: 60_000 };
    try {
      await adapter.status.send(credentials, order(), 'VERIFY');
      expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'retry', answer: { httpStatus: 429, body: { status: 429, message: 'too.many.requests' } }, retryAfterMs: 10_000 });
    } finally {
      sim.options.rateLimit = undefined;
    }
    sim.failNext({ status: 503 });
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'retry', answer: { httpStatus: 503 } });
    sim.setDown(true);
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'retry', answer: { httpStatus: null } });
    sim.setDown(false);
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done' });
  });

  it('polls the store\'s packages of a window in pages of 50, with the documented query', async () => {
    const start = Date.now() - 1;
    const store = { ...credentials, settings: { ...credentials.settings, storeId: '55501' } };
    const added = Array.from({ length: 120 }, () => sim.addPackage('104523', '55501'));
    sim.addPackage('104523', '88211');
    const result = await adapter.pollOrders!(store, start, Date.now() + 1);
    if (result.kind !== 'ok') throw new Error(`poll: ${JSON.stringify(result)}`);
    const ids = result.orders.map((parsed) => (parsed.ok ? parsed.order.platformOrderId : 'bad'));
    expect([...ids].sort()).toEqual(added.map((pkg) => pkg.id).sort());
    expect(result.orders[0]).toMatchObject({ ok: true, order: { providerRestaurantId: '55501', state: 'new', details: { customerName: 'Zeynep Kaya', deliveryAddress: expect.stringContaining('Ankara') } } });
    const pages = sim.callsTo('GET', /\/packages$/).slice(-3);
    expect(pages.map((call) => Object.fromEntries(call.query))).toEqual(
      ['0', '1', '2'].map((page) => ({ storeId: '55501', packageModificationStartDate: String(start), packageModificationEndDate: expect.stringMatching(/^\d+$/), page, size: '50' })),
    );
  });

  it('keeps a package listed on two pages once, in its latest version, and reads a cancellation', async () => {
    const moved = sim.addPackage('104523', '88211');
    const stale = sim.packageView(moved);
    sim.cancelPackage(moved.id, { reasonCode: 601, reason: 'Adres yanlış' });
    const others = Array.from({ length: 3 }, () => sim.packageView(sim.addPackage('104523', '88211')));
    // The package was modified while page 0 was read: page 1 lists it again, newer.
    sim.failNext({ status: 200, body: { page: 0, size: 50, totalPages: 2, totalCount: 51, content: [stale, ...others] }, match: (request) => request.query.get('page') === '0' });
    sim.failNext({ status: 200, body: { page: 1, size: 50, totalPages: 2, totalCount: 51, content: [sim.packageView(moved)] }, match: (request) => request.query.get('page') === '1' });
    const result = await adapter.pollOrders!(credentials, Date.now() - 60_000, Date.now());
    if (result.kind !== 'ok') throw new Error(`poll: ${JSON.stringify(result)}`);
    const copies = result.orders.filter((parsed) => parsed.ok && parsed.order.platformOrderId === moved.id);
    expect(copies).toEqual([expect.objectContaining({ ok: true, order: expect.objectContaining({ state: 'canceled', cancelNote: 'package Cancelled on the platform (601 Adres yanlış)' }) })]);
    expect(result.orders).toHaveLength(4);
  });

  it('moves the cursor only to the last modification read when the window holds more pages than one poll reads', async () => {
    const store = { ...credentials, settings: { ...credentials.settings, storeId: '55502' } };
    const base = Date.now() - 10_000;
    for (let index = 0; index < 2010; index += 1) sim.addPackage('104523', '55502', { packageModificationDate: base + index });
    const result = await adapter.pollOrders!(store, base - 1, Date.now());
    if (result.kind !== 'ok') throw new Error(`poll: ${JSON.stringify(result)}`);
    expect(result.orders).toHaveLength(2000);
    expect(result.cursorMs).toBe(base + 1999);
    const rest = await adapter.pollOrders!(store, result.cursorMs, Date.now());
    expect(rest).toMatchObject({ kind: 'ok', orders: { length: 11 } });
  });

  it('answers a refused or failing poll as the poller expects', async () => {
    sim.failNext({ status: 503 });
    expect(await adapter.pollOrders!(credentials, Date.now() - 1000, Date.now())).toMatchObject({ kind: 'retry', answer: { httpStatus: 503 } });
    sim.failNext({ status: 429, headers: { 'Retry-After': '3' } });
    expect(await adapter.pollOrders!(credentials, Date.now() - 1000, Date.now())).toMatchObject({ kind: 'retry', retryAfterMs: 3_000 });
    // KB's 429 carries no Retry-After: the documented 10 s window.
    sim.failNext({ status: 429, body: { status: 429, message: 'too.many.requests' } });
    expect(await adapter.pollOrders!(credentials, Date.now() - 1000, Date.now())).toMatchObject({ kind: 'retry', retryAfterMs: 10_000, answer: { body: { message: 'too.many.requests' } } });
    expect(await adapter.pollOrders!({ ...credentials, secrets: { apiKey: 'x', secretKey: 'y' } }, Date.now() - 1000, Date.now())).toMatchObject({ kind: 'failed', answer: { httpStatus: 401 } });
    sim.setDown(true);
    expect(await adapter.pollOrders!(credentials, Date.now() - 1000, Date.now())).toMatchObject({ kind: 'retry', answer: { httpStatus: null } });
  });

  it('fails each call cleanly, without sending it, when the stored supplierId cannot go into a header', async () => {
    const ref = order();
    const before = sim.calls.length;
    for (const supplierId of ['İstanbul', '104523\n', '']) {
      const bad = { ...credentials, settings: { ...credentials.settings, supplierId } };
      expect(await adapter.status.send(bad, ref, 'VERIFY')).toMatchObject({ kind: 'failed', reason: expect.stringContaining('supplierId') });
      expect(await adapter.pollOrders!(bad, Date.now() - 1000, Date.now())).toMatchObject({ kind: 'failed', reason: expect.stringContaining('supplierId') });
      expect(await adapter.checkCredentials(bad)).toMatchObject({ result: 'rejected', detail: expect.stringContaining('supplierId') });
    }
    expect(sim.calls.length).toBe(before);
  });

  it('checks credentials with a one-package read', async () => {
    expect(await adapter.checkCredentials(credentials)).toMatchObject({ result: 'ok' });
    expect(sim.callsTo('GET', /\/packages$/).pop()!.query.get('size')).toBe('1');
    expect(await adapter.checkCredentials({ ...credentials, secrets: { apiKey: 'ty-api-key', secretKey: 'wrong' } })).toMatchObject({ result: 'rejected', httpStatus: 401 });
    sim.failNext({ status: 503 });
    expect(await adapter.checkCredentials(credentials)).toMatchObject({ result: 'unreachable', httpStatus: 503 });
  });
});
