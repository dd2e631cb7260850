import { platformRequest } from '../../adapters/common/platform-http';
import { PlatformDSimulator } from './platform-d.simulator';

/** Migros' store and product availability rules by plain HTTP (no adapter): encrypted bodies, envelope answers. */
describe('PlatformDSimulator availability', () => {
  const store = { storeId: '23000000101833', storeGroupId: '511', apiKey: 'migros-store-key-0001', warehouseId: 7001 };
  let sim: PlatformDSimulator;

  beforeAll(async () => {
    sim = new PlatformDSimulator({ stores: [store, { storeId: '23000000101834', storeGroupId: '511', apiKey: 'migros-store-key-0002' }], availability: { shiftStartsAt: '11:00' } });
    await sim.start();
  });
  afterAll(() => sim.stop());

  /** The JSON layout Migros' .NET side reads (a space after each `:` and `,`), for bodies without such characters in strings. */
  const spaced = (body: Record<string, unknown>) => JSON.stringify(body).replace(/":/g, '": ').replace(/,"/g, ', "');
  const post = (path: string, body: Record<string, unknown>, key = store.apiKey) =>
    platformRequest({ method: 'POST', url: `${sim.baseUrl}${path}`, headers: { XApiKey: key }, json: { value: sim.encrypt(spaced(body), key) }, timeoutMs: 2000 });
  const view = async () => ((await post('/Store/GetStoreViewStatus', { storeId: Number(store.storeId) })).body as { data: { status: string; openingTime: number | null } }).data;
  const detail = async () => ((await platformRequest({ method: 'GET', url: `${sim.baseUrl}/Store/GetStoreDetail`, headers: { XApiKey: store.apiKey }, timeoutMs: 2000 })).body as { data: { active: boolean } }).data;

  beforeEach(() => sim.availability.stores.clear());

  it('deactivates and activates the store with its own warehouseId (GetStoreDetail shows it)', async () => {
    expect(await post('/Store/DeActivateStore', { storeId: Number(store.storeId), warehouseId: 1 })).toMatchObject({ status: 400, body: { success: false, errorMessage: { errorCode: 'WAREHOUSE_MISMATCH' } } });
    expect(await post('/Store/DeActivateStore', { storeId: Number(store.storeId), warehouseId: store.warehouseId })).toMatchObject({ status: 200, body: { data: null, success: true } });
    expect(await detail()).toMatchObject({ active: false });
    expect(await view()).toEqual({ status: 'CLOSED', openingTime: null });
    expect(await post('/Store/ActivateStore', { storeId: Number(store.storeId), warehouseId: store.warehouseId })).toMatchObject({ status: 200, body: { success: true } });
    expect(await detail()).toMatchObject({ active: true });
    expect(await view()).toEqual({ status: 'OPEN', openingTime: null });
  });

  it('closes for ONE_HOUR, FOUR_HOUR or until the next shift, opens again on RemoveStoreOffDate, and refuses another option', async () => {
    const ids = { storeId: Number(store.storeId), storeGroupId: Number(store.storeGroupId) };
    const before = Math.floor(Date.now() / 1000);
    expect(await post('/Store/AddStoreOffDate', { ...ids, storeOffDateOption: 'ONE_HOUR' })).toMatchObject({ status: 200, body: { success: true } });
    const hour = await view();
    expect(hour.status).toBe('CLOSED');
    expect(hour.openingTime! - before).toBeGreaterThanOrEqual(3599);
    expect(hour.openingTime! - before).toBeLessThanOrEqual(3601);
    expect(await post('/Store/AddStoreOffDate', { ...ids, storeOffDateOption: 'FOUR_HOUR' })).toMatchObject({ status: 200 });
    expect((await view()).openingTime! - before).toBeGreaterThanOrEqual(4 * 3600 - 1);
    expect(await post('/Store/AddStoreOffDate', { ...ids, storeOffDateOption: 'NEXT_SHIFT_START' })).toMatchObject({ status: 200 });
    const shift = new Date((await view()).openingTime! * 1000);
    expect(shift.getUTCHours() * 60 + shift.getUTCMinutes()).toBe(8 * 60);
    expect(shift.getTime()).toBeGreaterThan(Date.now());
    expect(await post('/Store/AddStoreOffDate', { ...ids, storeOffDateOption: 'TWO_HOUR' })).toMatchObject({ status: 400, body: { errorMessage: { errorCode: 'INVALID_STORE_OFF_DATE_OPTION' } } });
    expect(await post('/Store/AddStoreOffDate', { storeId: ids.storeId, storeGroupId: 9, storeOffDateOption: 'ONE_HOUR' })).toMatchObject({ status: 400, body: { errorMessage: { errorCode: 'STORE_GROUP_MISMATCH' } } });
    expect(await post('/Store/RemoveStoreOffDate', ids)).toMatchObject({ status: 200, body: { success: true } });
    expect(await view()).toEqual({ status: 'OPEN', openingTime: null });
  });

  it('ends an off date by itself when its time has come', async () => {
    await post('/Store/AddStoreOffDate', { storeId: Number(store.storeId), storeGroupId: Number(store.storeGroupId), storeOffDateOption: 'ONE_HOUR' });
    sim.availability.stores.get(store.storeId)!.offUntil = Date.now() - 1;
    expect(await view()).toEqual({ status: 'OPEN', openingTime: null });
  });

  it('sets a product PASSIVE and ACTIVE; refuses another status, another store, a plain or wrongly encrypted body', async () => {
    expect(await post('/Menu/UpdateProductStatusByStoreId', { storeId: Number(store.storeId), productId: 55001, status: 'PASSIVE' })).toMatchObject({ status: 200, body: { success: true } });
    expect(sim.availability.view(store.storeId)).toMatchObject({ passiveProducts: ['55001'] });
    expect(await post('/Menu/UpdateProductStatusByStoreId', { storeId: Number(store.storeId), productId: 55001, status: 'ACTIVE' })).toMatchObject({ status: 200 });
    expect(sim.availability.view(store.storeId)).toMatchObject({ passiveProducts: [] });
    expect(await post('/Menu/UpdateProductStatusByStoreId', { storeId: Number(store.storeId), productId: 55001, status: 'OFF' })).toMatchObject({ status: 400, body: { errorMessage: { errorCode: 'INVALID_PRODUCT_STATUS' } } });
    expect(await post('/Menu/UpdateProductStatusByStoreId', { storeId: 23000000101834, productId: 55001, status: 'PASSIVE' })).toMatchObject({ status: 400, body: { errorMessage: { errorCode: 'STORE_MISMATCH' } } });
    const plain = await platformRequest({ method: 'POST', url: `${sim.baseUrl}/Menu/UpdateProductStatusByStoreId`, headers: { XApiKey: store.apiKey }, json: { storeId: Number(store.storeId), productId: 1, status: 'PASSIVE' }, timeoutMs: 2000 });
    expect(plain).toMatchObject({ status: 400, body: { success: false } });
    const otherKey = await platformRequest({ method: 'POST', url: `${sim.baseUrl}/Store/DeActivateStore`, headers: { XApiKey: store.apiKey }, json: { value: sim.encrypt(spaced({ storeId: 1 }), 'another-key-entirely') }, timeoutMs: 2000 });
    expect(otherKey).toMatchObject({ status: 400, body: { errorMessage: { errorCode: 'DECRYPTION_FAILED' } } });
    expect(await platformRequest({ method: 'GET', url: `${sim.baseUrl}/Store/ActivateStore`, headers: { XApiKey: store.apiKey }, timeoutMs: 2000 })).toMatchObject({ status: 405 });
    expect(sim.availability.view(store.storeId)).toMatchObject({ active: true });
  });

  it('lets Migros close and open a store itself over /_simulator, and shows the states', async () => {
    const admin = (path: string, json?: unknown) => platformRequest({ method: 'POST', url: `${sim.baseUrl}${path}`, json, timeoutMs: 2000 });
    expect(await admin(`/_simulator/availability/stores/${store.storeId}/close`, { option: 'FOUR_HOUR' })).toMatchObject({ status: 200, body: { open: false, offOption: 'FOUR_HOUR' } });
    expect((await view()).status).toBe('CLOSED');
    expect(await admin(`/_simulator/availability/stores/${store.storeId}/close`)).toMatchObject({ status: 200, body: { open: false, active: false } });
    expect(await admin(`/_simulator/availability/stores/${store.storeId}/open`)).toMatchObject({ status: 200, body: { open: true, active: true, offUntil: null } });
    expect(await admin('/_simulator/availability/stores/999/close')).toMatchObject({ status: 404 });
    expect(await admin(`/_simulator/availability/stores/${store.storeId}/close`, { option: 'SOON' })).toMatchObject({ status: 422 });
    const all = await platformRequest({ method: 'GET', url: `${sim.baseUrl}/_simulator/availability`, timeoutMs: 2000 });
    expect(all).toMatchObject({ status: 200, body: [{ storeId: store.storeId, open: true }] });
  });
});
