import { RoutingKey } from '@courier/contracts';
import { PlatformASimulator, PlatformDSimulator } from '@courier/platforms/simulators';
import { waitFor } from '@courier/testing';
import { credentials, startTestApp, TestApp } from '../../test/harness';

jest.setTimeout(60_000);

const APP_KEY = 'getir-app-secret-key-verify-1';
const BASE = '/api/v1/my/integrations';

/** Integrations are verified by their platform: the credential check bound to the restaurant, right after each change and periodically. */
describe('integration verification (against the simulators)', () => {
  const a = new PlatformASimulator({
    appSecretKey: APP_KEY,
    restaurants: [
      { restaurantId: 'getir-v-1', secretKey: 'getir-v-secret-1' },
      { restaurantId: 'getir-v-2', secretKey: 'getir-v-secret-2' },
      { restaurantId: 'getir-v-3', secretKey: 'getir-v-secret-3' },
      { restaurantId: 'getir-v-4', secretKey: 'getir-v-secret-4' },
    ],
  });
  const d = new PlatformDSimulator({
    stores: [
      { storeId: '23000000000011', storeGroupId: '611', apiKey: 'migros-v-key-1' },
      { storeId: '23000000000012', storeGroupId: '611', apiKey: 'migros-v-key-2' },
      { storeId: '23000000000013', storeGroupId: '611', apiKey: 'migros-v-key-3' },
    ],
  });
  let t: TestApp;
  let owner: Awaited<ReturnType<TestApp['createRestaurant']>>;

  beforeAll(async () => {
    await Promise.all([a.start(), d.start()]);
    t = await startTestApp({
      env: {
        PLATFORM_A_BASE_URL: a.baseUrl,
        PLATFORM_D_BASE_URL: d.baseUrl,
        PLATFORM_A_APP_SECRET_KEY: APP_KEY,
        PLATFORM_HTTP_TIMEOUT_MS: '2000',
        INTEGRATION_VERIFICATION_RETRY_MS: '1000',
      },
    });
    owner = await t.createRestaurant();
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([a.stop(), d.stop()]);
  });

  const get = async (id: string) => (await t.http.get(`${BASE}/${id}`).set(credentials(owner))).body;
  const create = async (body: Record<string, unknown>) => {
    const response = await t.http.post(BASE).set(credentials(owner)).send(body);
    if (response.status !== 201) throw new Error(`${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const verificationOf = async (id: string, state: string) => waitFor(`integration ${id} ${state}`, async () => ((await get(id)).verification.state === state ? (await get(id)).verification : undefined));
  const events = async (id: string) => (await t.outbox(RoutingKey.IntegrationUpserted)).filter((row) => row.payload.integrationId === id).map((row) => row.payload);

  it('a new integration is unverified, then verified once the platform accepts its credentials for its restaurant, with an event; Getir opens its POS', async () => {
    expect(a.posStatusOf('getir-v-1')).toBe(200);
    const record = await create({ platform: 'PLATFORM_A', providerRestaurantId: 'getir-v-1', secretKey: 'getir-v-secret-1' });
    expect(record.verification).toEqual({ state: 'unverified', verifiedAt: null, detail: expect.any(String), fingerprint: null });
    const verified = await verificationOf(record.id, 'verified');
    expect(verified).toEqual({ state: 'verified', verifiedAt: expect.any(String), detail: expect.stringContaining('getir-v-1'), fingerprint: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) });
    expect(JSON.stringify(verified)).not.toContain('getir-v-secret-1');
    expect((await events(record.id)).map((event) => [event.version, event.verification])).toEqual([
      [1, 'unverified'],
      [2, 'verified'],
    ]);
    // PUT /restaurants/pos-status { appSecretKey, restaurantSecretKey, posStatus: 100 }, no token.
    await waitFor('POS opened', () => a.posStatusOf('getir-v-1') === 100);
    const call = a.callsTo('PUT', '/restaurants/pos-status').at(-1)!;
    expect(call.body).toEqual({ appSecretKey: APP_KEY, restaurantSecretKey: 'getir-v-secret-1', posStatus: 100 });
    expect(call.headers.token).toBeUndefined();
  });

  it('activation of a verified integration opens the POS again', async () => {
    const record = await create({ platform: 'PLATFORM_A', providerRestaurantId: 'getir-v-4', secretKey: 'getir-v-secret-4' });
    await verificationOf(record.id, 'verified');
    await waitFor('POS opened', () => a.posStatusOf('getir-v-4') === 100);
    expect((await t.http.patch(`${BASE}/${record.id}/deactivate`).set(credentials(owner))).status).toBe(200);
    // Getir closes the POS meanwhile (as the restaurant panel or Getir itself may).
    const closed = await fetch(`${a.baseUrl}/restaurants/pos-status`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ appSecretKey: APP_KEY, restaurantSecretKey: 'getir-v-secret-4', posStatus: 200 }) });
    expect(closed.status).toBe(200);
    expect(a.posStatusOf('getir-v-4')).toBe(200);
    expect((await t.http.patch(`${BASE}/${record.id}/activate`).set(credentials(owner))).status).toBe(200);
    await waitFor('POS opened again', () => a.posStatusOf('getir-v-4') === 100);
  });

  it('credentials accepted for another restaurant fail the verification (wrong_restaurant), for Getir and Migros', async () => {
    const getir = await create({ platform: 'PLATFORM_A', providerRestaurantId: 'getir-v-999', secretKey: 'getir-v-secret-2' });
    const failed = await verificationOf(getir.id, 'failed');
    expect(failed).toMatchObject({ state: 'failed', verifiedAt: null, detail: expect.stringContaining('getir-v-2') });
    expect((await t.http.post(`${BASE}/${getir.id}/check`).set(credentials(owner))).body).toMatchObject({ result: 'wrong_restaurant', ok: false, verification: { state: 'failed' } });
    expect(a.posStatusOf('getir-v-2')).toBe(200);

    const migros = await create({ platform: 'PLATFORM_D', providerRestaurantId: '23000000000011', providerMerchantId: '611', apiKey: 'migros-v-key-2' });
    expect(await verificationOf(migros.id, 'failed')).toMatchObject({ detail: expect.stringContaining('23000000000012') });
    expect((await events(migros.id)).at(-1)).toMatchObject({ verification: 'failed', verifiedAt: null });
  });

  it('a change of credentials or providerRestaurantId makes it unverified again, then verified anew', async () => {
    const record = await create({ platform: 'PLATFORM_D', providerRestaurantId: '23000000000012', providerMerchantId: '611', apiKey: 'migros-v-key-2' });
    const first = await verificationOf(record.id, 'verified');
    // Activation changes no credential: still verified.
    expect((await t.http.put(`${BASE}/${record.id}`).set(credentials(owner)).send({ isActive: false })).body.verification).toMatchObject({ state: 'verified' });

    const changed = await t.http.put(`${BASE}/${record.id}`).set(credentials(owner)).send({ apiKey: 'migros-v-key-3' });
    expect(changed.status).toBe(200);
    expect(changed.body.verification).toEqual({ state: 'unverified', verifiedAt: null, detail: expect.stringContaining('changed'), fingerprint: null });
    expect((await events(record.id)).at(-1)).toMatchObject({ verification: 'unverified' });
    // The new key belongs to store ...13, not to ...12.
    await verificationOf(record.id, 'failed');

    const moved = await t.http.put(`${BASE}/${record.id}`).set(credentials(owner)).send({ providerRestaurantId: '23000000000013' });
    expect(moved.body.verification.state).toBe('unverified');
    const again = await verificationOf(record.id, 'verified');
    expect(again.fingerprint).not.toBe(first.fingerprint);
  });

  it('an integration the platform could not judge stays unverified and is verified by the periodic retry', async () => {
    a.setDown(true);
    let id: string;
    try {
      id = (await create({ platform: 'PLATFORM_A', providerRestaurantId: 'getir-v-3', secretKey: 'getir-v-secret-3' })).id;
      await waitFor('verification attempted', async () => /could not be reached/.test((await get(id)).verification.detail ?? ''));
      expect((await get(id)).verification.state).toBe('unverified');
    } finally {
      a.setDown(false);
    }
    await verificationOf(id, 'verified');
  });

  it('THIRD_PARTY needs no verification', async () => {
    expect((await get(owner.thirdParty.integrationId)).verification).toMatchObject({ state: 'verified' });
  });
});
