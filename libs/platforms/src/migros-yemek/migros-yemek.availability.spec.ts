import { PlatformDSimulator } from '../migros-yemek/migros-yemek.simulator';
import { budgetScopesOf } from '../common/call-budget';
import { platformRequest } from '../common/platform-http';
import { platformClientConfig } from '../platforms';
import type { IntegrationCredentials } from '../common/platform-adapter';
import type { ProductAvailabilityPlan, StoreAvailabilityPlan } from '../common/platform-availability';
import { PlatformDAdapter } from './migros-yemek.adapter';
import { PLATFORM_D_OFF_DATE_INSTEAD } from './migros-yemek.availability';

const STORE = { storeId: '23000000101833', storeGroupId: '511', apiKey: 'migros-store-key-0001', warehouseId: 7001 };
const credentials: IntegrationCredentials = { integrationId: 'int-d-av', providerRestaurantId: STORE.storeId, settings: { providerMerchantId: STORE.storeGroupId }, secrets: { apiKey: STORE.apiKey } };

describe('PLATFORM_D availability against its simulator', () => {
  let sim: PlatformDSimulator;
  let adapter: PlatformDAdapter;
  const now = new Date();
  const send = <T extends StoreAvailabilityPlan | ProductAvailabilityPlan>(plan: T): Extract<T, { kind: 'send' }> => {
    if (plan.kind !== 'send') throw new Error(`expected a plan to send, got ${plan.code}`);
    return plan as Extract<T, { kind: 'send' }>;
  };
  const state = () => sim.availability.view(STORE.storeId);
  const paths = () => sim.calls.filter((call) => call.path.startsWith('/Store/') || call.path.startsWith('/Menu/')).map((call) => `${call.method} ${call.path}`);

  beforeAll(async () => {
    sim = new PlatformDSimulator({ stores: [STORE] });
    await sim.start();
  });
  afterAll(() => sim.stop());
  beforeEach(() => {
    sim.clearFaults();
    sim.calls.length = 0;
    sim.availability.stores.clear();
    adapter = new PlatformDAdapter(platformClientConfig({ PLATFORM_D_BASE_URL: sim.baseUrl, PLATFORM_HTTP_TIMEOUT_MS: '2000' }));
  });

  it('closes without an end by DeActivateStore (warehouseId from GetStoreDetail) and opens again, reading the state back', async () => {
    const availability = adapter.availability;
    expect(await availability.setStore(credentials, send(availability.planStore({ state: 'CLOSED' }, now)))).toMatchObject({ kind: 'done' });
    expect(state()).toMatchObject({ active: false, open: false });
    expect(await availability.readStore!(credentials)).toMatchObject({ kind: 'ok', state: 'CLOSED', platformReason: expect.stringContaining('deactivated') });
    expect(await availability.setStore(credentials, send(availability.planStore({ state: 'OPEN' }, now)))).toMatchObject({ kind: 'done' });
    expect(state()).toMatchObject({ active: true, open: true });
    expect(await availability.readStore!(credentials)).toMatchObject({ kind: 'ok', state: 'OPEN' });
    expect(paths()).toEqual([
      'GET /Store/GetStoreDetail', 'POST /Store/DeActivateStore',
      'GET /Store/GetStoreDetail',
      'GET /Store/GetStoreDetail', 'POST /Store/ActivateStore', 'POST /Store/RemoveStoreOffDate',
      'GET /Store/GetStoreDetail', 'POST /Store/GetStoreViewStatus',
    ]);
    // Migros understood the encrypted bodies: the simulator only records what it could decrypt.
    expect(sim.availability.stores.get(STORE.storeId)!.changes.map((change) => [change.path, change.body])).toEqual([
      ['/Store/DeActivateStore', { storeId: 23000000101833, warehouseId: 7001 }],
      ['/Store/ActivateStore', { storeId: 23000000101833, warehouseId: 7001 }],
      ['/Store/RemoveStoreOffDate', { storeId: 23000000101833, storeGroupId: 511 }],
    ]);
  });

  it('closes until a time with the shortest off date covering it (ONE_HOUR, FOUR_HOUR, else NEXT_SHIFT_START), saying so in `instead` unless exact', async () => {
    const availability = adapter.availability;
    const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
    expect(availability.planStore({ state: 'CLOSED', until: at(60) }, now)).toEqual({ kind: 'send', state: 'CLOSED', params: { operation: 'offDate', storeOffDateOption: 'ONE_HOUR' } });
    expect(availability.planStore({ state: 'CLOSED', until: at(25) }, now)).toMatchObject({ params: { storeOffDateOption: 'ONE_HOUR' }, instead: { code: PLATFORM_D_OFF_DATE_INSTEAD } });
    expect(availability.planStore({ state: 'CLOSED', until: at(90) }, now)).toMatchObject({ params: { storeOffDateOption: 'FOUR_HOUR' }, instead: { code: PLATFORM_D_OFF_DATE_INSTEAD } });
    const long = send(availability.planStore({ state: 'CLOSED', until: at(600) }, now));
    expect(long).toMatchObject({ params: { storeOffDateOption: 'NEXT_SHIFT_START' }, instead: { code: PLATFORM_D_OFF_DATE_INSTEAD, message: expect.stringContaining('next shift') } });
    const plan = send(availability.planStore({ state: 'CLOSED', until: at(90) }, now));
    expect(await availability.setStore(credentials, plan)).toMatchObject({ kind: 'done' });
    expect(state()).toMatchObject({ open: false, active: true, offOption: 'FOUR_HOUR' });
    const read = await availability.readStore!(credentials);
    expect(read).toMatchObject({ kind: 'ok', state: 'CLOSED', platformReason: expect.stringContaining('off date') });
    expect(read.kind === 'ok' && read.until!.getTime()).toBeGreaterThanOrEqual(now.getTime() + 4 * 3_600_000 - 1000);
    expect(await availability.setStore(credentials, long)).toMatchObject({ kind: 'done' });
    expect(state()).toMatchObject({ offOption: 'NEXT_SHIFT_START' });
    expect(await availability.setStore(credentials, send(availability.planStore({ state: 'OPEN' }, now)))).toMatchObject({ kind: 'done' });
    expect(state()).toMatchObject({ open: true, offUntil: null });
    // The store was active: opening removed the off date and did not activate it again.
    expect(paths().filter((path) => path.endsWith('ActivateStore'))).toEqual([]);
  });

  it('opens a store with nothing to remove even when Migros refuses RemoveStoreOffDate, but not a store it still shows closed', async () => {
    const availability = adapter.availability;
    const open = send(availability.planStore({ state: 'OPEN' }, now));
    const refuseRemove = () => sim.failNext({ status: 400, body: { data: null, success: false, errorMessage: { errorCode: 'NO_OFF_DATE' } }, match: (request) => request.path === '/Store/RemoveStoreOffDate' });
    refuseRemove();
    expect(await availability.setStore(credentials, open)).toMatchObject({ kind: 'done', answer: { body: { data: { status: 'OPEN' } } } });
    await availability.setStore(credentials, send(availability.planStore({ state: 'CLOSED', until: new Date(now.getTime() + 60 * 60_000) }, now)));
    refuseRemove();
    expect(await availability.setStore(credentials, open)).toMatchObject({ kind: 'failed', reason: expect.stringContaining('NO_OFF_DATE') });
    expect(await availability.setStore(credentials, open)).toMatchObject({ kind: 'done' });
    expect(state()).toMatchObject({ open: true });
  });

  it('answers BUSY and a close ending in the past as unsupported', () => {
    expect(adapter.availability.planStore({ state: 'BUSY', busyMinutes: 15 }, now)).toMatchObject({ kind: 'unsupported', code: 'BUSY_MODE_UNSUPPORTED' });
    expect(adapter.availability.planStore({ state: 'CLOSED', until: new Date(now.getTime() - 1) }, now)).toMatchObject({ kind: 'unsupported', code: 'DURATION_UNSUPPORTED' });
  });

  it('fails for good on a refusal (the envelope with success false, a refused key) and retries a transient failure or a network error', async () => {
    const availability = adapter.availability;
    const close = send(availability.planStore({ state: 'CLOSED', until: new Date(now.getTime() + 60 * 60_000) }, now));
    sim.failNext({ status: 400, body: { data: null, success: false, errorMessage: { errorCode: 'STORE_CLOSED_BY_MIGROS', errorDetail: 'no' } }, match: (request) => request.path === '/Store/AddStoreOffDate' });
    expect(await availability.setStore(credentials, close)).toMatchObject({ kind: 'failed', reason: expect.stringContaining('STORE_CLOSED_BY_MIGROS') });
    sim.failNext({ status: 200, body: { data: null, success: false, errorMessage: { errorCode: 'REFUSED' } }, match: (request) => request.path === '/Store/AddStoreOffDate' });
    expect(await availability.setStore(credentials, close)).toMatchObject({ kind: 'failed' });
    expect(await availability.setStore({ ...credentials, secrets: { apiKey: 'not-a-key' } }, close)).toMatchObject({ kind: 'failed', reason: expect.stringContaining('API key') });
    sim.failNext({ status: 503, match: (request) => request.path === '/Store/AddStoreOffDate' });
    expect(await availability.setStore(credentials, close)).toMatchObject({ kind: 'retry', answer: { httpStatus: 503 } });
    sim.failNext({ status: 429, headers: { 'Retry-After': '7' }, match: (request) => request.path === '/Store/GetStoreDetail' });
    expect(await availability.readStore!(credentials)).toMatchObject({ kind: 'retry', retryAfterMs: 7_000 });
    expect(state()).toMatchObject({ open: true });
    const down = new PlatformDAdapter(platformClientConfig({ PLATFORM_D_BASE_URL: 'http://127.0.0.1:9', PLATFORM_HTTP_TIMEOUT_MS: '500' }));
    expect(await down.availability.setStore(credentials, close)).toMatchObject({ kind: 'retry' });
    expect(await down.availability.readStore!(credentials)).toMatchObject({ kind: 'retry' });
    expect(await availability.setStore(credentials, close)).toMatchObject({ kind: 'done' });
  });

  it('switches a product PASSIVE and ACTIVE (encrypted like every POST)', async () => {
    const availability = adapter.availability;
    const off = { platformProductId: '55001', available: false, until: new Date(now.getTime() + 3_600_000) };
    expect(availability.planProduct(off, now)).toEqual({ kind: 'send', params: { status: 'PASSIVE' } });
    expect(await availability.setProduct(credentials, off, send(availability.planProduct(off, now)))).toMatchObject({ kind: 'done' });
    expect(state()).toMatchObject({ passiveProducts: ['55001'] });
    const on = { platformProductId: '55001', available: true };
    expect(await availability.setProduct(credentials, on, send(availability.planProduct(on, now)))).toMatchObject({ kind: 'done' });
    expect(state()).toMatchObject({ passiveProducts: [] });
    expect(sim.availability.stores.get(STORE.storeId)!.changes.map((change) => change.body)).toEqual([
      { storeId: 23000000101833, productId: 55001, status: 'PASSIVE' },
      { storeId: 23000000101833, productId: 55001, status: 'ACTIVE' },
    ]);
    const [call] = sim.callsTo('POST', '/Menu/UpdateProductStatusByStoreId');
    expect(Object.keys(call.body as object)).toEqual(['value']);
  });

  it('reads a store Migros closed itself', async () => {
    expect(await platformRequest({ method: 'POST', url: `${sim.baseUrl}/_simulator/availability/stores/${STORE.storeId}/close`, json: { option: 'ONE_HOUR' }, timeoutMs: 2000 })).toMatchObject({ status: 200 });
    expect(await adapter.availability.readStore!(credentials)).toMatchObject({ kind: 'ok', state: 'CLOSED', until: expect.any(Date) });
  });

  it('books its calls in the call budget', () => {
    expect(budgetScopesOf(adapter.callBudget, 'availability:store')).toMatchObject([{ scope: { name: 'credentials' }, count: 4 }]);
    expect(budgetScopesOf(adapter.callBudget, 'availability:product')).toMatchObject([{ count: 1 }]);
    expect(budgetScopesOf(adapter.callBudget, 'availability:read')).toMatchObject([{ count: 2 }]);
  });
});
