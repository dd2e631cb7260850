import { validateConfig } from '@courier/config';
import { PlatformCSimulator } from '../../simulators/platform-c/platform-c.simulator';
import { PlatformClientConfig } from '../platform-client.config';
import type { IntegrationCredentials, PlatformOrderRef } from '../platform-adapter';
import { PlatformCAdapter } from './platform-c.adapter';
import { parsePlatformCPackage } from './platform-c.orders';

const credentials: IntegrationCredentials = { integrationId: 'int-c-1', providerRestaurantId: 'ty-r-1', settings: { supplierId: '104523', storeId: '88211' }, secrets: { apiKey: 'ty-api-key', secretKey: 'ty-secret' } };

describe('PLATFORM_C adapter against its simulator', () => {
  let sim: PlatformCSimulator;
  let adapter: PlatformCAdapter;

  beforeAll(async () => {
    sim = new PlatformCSimulator({ suppliers: [{ supplierId: '104523', apiKey: 'ty-api-key', secretKey: 'ty-secret', storeIds: ['88211'] }] });
    await sim.start();
    adapter = new PlatformCAdapter(validateConfig(PlatformClientConfig, { PLATFORM_C_BASE_URL: sim.baseUrl, PLATFORM_C_INTEGRATOR_NAME: 'CourierSuite', PLATFORM_HTTP_TIMEOUT_MS: '2000' }));
  });
  afterAll(() => sim.stop());
  beforeEach(() => sim.clearFaults());

  function order(deliveryType: 'GO' | 'STORE' = 'STORE'): PlatformOrderRef {
    const pkg = sim.addPackage('104523', '88211', { deliveryType });
    const parsed = parsePlatformCPackage(sim.packageView(pkg));
    if (!parsed.ok) throw new Error('unparsable');
    return { platformOrderId: String(pkg.id), yemekKuryeOrderId: '9d1e2f3a-3333-4444-8555-666677778888', platformData: parsed.order.platformData };
  }

  it('takes a STORE package through picked, invoiced, manual-shipped and manual-delivered, with Basic auth and the User-Agent', async () => {
    const ref = order('STORE');
    for (const action of ['VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER'] as const) expect(await adapter.sendStatus(credentials, ref, action)).toMatchObject({ kind: 'done', answer: { httpStatus: 200 } });
    expect(sim.packages.get(Number(ref.platformOrderId))).toMatchObject({ packageStatus: 'Delivered', preparationTime: 20 });
    const calls = sim.calls.filter((call) => call.method === 'PUT' && (call.path.includes(ref.platformOrderId) || JSON.stringify(call.body ?? '').includes(ref.platformOrderId)));
    expect(calls.map((call) => call.path.split('/').pop())).toEqual(['picked', 'invoiced', 'manual-shipped', 'manual-delivered']);
    expect(calls[0].body).toEqual({ packageId: Number(ref.platformOrderId), preparationTime: 20 });
    expect(calls[0].headers.authorization).toBe(`Basic ${Buffer.from('ty-api-key:ty-secret').toString('base64')}`);
    expect(calls[0].headers['user-agent']).toBe('104523 - CourierSuite');
  });

  it('skips HANDOVER and DELIVER of a GO package (the platform\'s courier)', async () => {
    const ref = order('GO');
    expect(await adapter.sendStatus(credentials, ref, 'HANDOVER')).toMatchObject({ kind: 'skipped' });
    expect(await adapter.sendStatus(credentials, ref, 'DELIVER')).toMatchObject({ kind: 'skipped' });
  });

  it('cancels with every item id and a documented reason (the push\'s code, else 621)', async () => {
    const ref = order();
    expect(await adapter.sendStatus(credentials, ref, 'CANCEL', '627')).toMatchObject({ kind: 'done' });
    const pkg = sim.packages.get(Number(ref.platformOrderId))!;
    expect(pkg).toMatchObject({ packageStatus: 'UnSupplied', unsuppliedReason: 627 });
    expect(sim.callsTo('PUT', /\/packages\/unsupplied$/).pop()!.body).toEqual({ packageId: pkg.id, itemIdList: pkg.itemIds, reasonId: 627 });
    const other = order();
    expect(await adapter.sendStatus(credentials, other, 'REJECT', 'closed')).toMatchObject({ kind: 'done' });
    expect(sim.packages.get(Number(other.platformOrderId))!.unsuppliedReason).toBe(621);
  });

  it('fails a step the platform refuses (400) and wrong credentials (401); retries 5xx and 429', async () => {
    const ref = order();
    expect(await adapter.sendStatus(credentials, ref, 'PREPARE')).toMatchObject({ kind: 'failed', answer: { httpStatus: 400 } });
    expect(await adapter.sendStatus({ ...credentials, secrets: { apiKey: 'ty-api-key', secretKey: 'wrong' } }, ref, 'VERIFY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 401 } });
    sim.failNext({ status: 500 });
    expect(await adapter.sendStatus(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'retry' });
    sim.failNext({ status: 429 });
    expect(await adapter.sendStatus(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'retry' });
  });

  it('refuses without the User-Agent (403), as the platform does', async () => {
    const blank = new PlatformCAdapter({ ...validateConfig(PlatformClientConfig, { PLATFORM_C_BASE_URL: sim.baseUrl }), PLATFORM_C_INTEGRATOR_NAME: '' });
    expect(await blank.checkCredentials(credentials)).toMatchObject({ result: 'rejected', httpStatus: 403 });
  });

  it('polls the packages of a window, across pages, and parses them', async () => {
    const start = Date.now() - 1;
    const added = Array.from({ length: 120 }, () => sim.addPackage('104523', '88211'));
    const result = await adapter.pollOrders!(credentials, start, Date.now() + 1);
    expect(result.kind).toBe('ok');
    if (result.kind !== 'ok') return;
    const ids = result.orders.map((parsed) => (parsed.ok ? parsed.order.platformOrderId : 'bad'));
    expect(ids).toEqual(added.map((pkg) => String(pkg.id)));
    expect(result.orders[0]).toMatchObject({ ok: true, order: { providerRestaurantId: '88211', state: 'new', details: { customerName: 'Zeynep Kaya', deliveryAddress: expect.stringContaining('Ankara') } } });
    expect(sim.callsTo('GET', /\/packages$/).slice(-3).map((call) => call.query.get('page'))).toEqual(['0', '1', '2']);
    sim.failNext({ status: 503 });
    expect(await adapter.pollOrders!(credentials, start, Date.now())).toMatchObject({ kind: 'retry' });
    expect(await adapter.pollOrders!({ ...credentials, secrets: { apiKey: 'x', secretKey: 'y' } }, start, Date.now())).toMatchObject({ kind: 'failed', answer: { httpStatus: 401 } });
  });

  it('checks credentials with a one-package read', async () => {
    expect(await adapter.checkCredentials(credentials)).toMatchObject({ result: 'ok' });
    expect(await adapter.checkCredentials({ ...credentials, secrets: { apiKey: 'ty-api-key', secretKey: 'wrong' } })).toMatchObject({ result: 'rejected', httpStatus: 401 });
  });
});
