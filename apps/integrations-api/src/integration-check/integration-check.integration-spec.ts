import { randomUUID } from 'node:crypto';
import { PlatformASimulator, PlatformBSimulator, PlatformCSimulator, PlatformDSimulator } from '@courier/platforms/simulators';
import { waitFor } from '@courier/testing';
import { credentials, startTestApp, TestApp } from '../../test/harness';

jest.setTimeout(60_000);

const APP_KEY = 'getir-app-secret-key-check-1';

/** POST /api/v1/my/integrations/{id}/check against the simulator of each platform. */
describe('POST /api/v1/my/integrations/{id}/check', () => {
  const a = new PlatformASimulator({ appSecretKey: APP_KEY, restaurants: [{ restaurantId: 'getir-1', secretKey: 'getir-secret-good' }] });
  const b = new PlatformBSimulator({ users: [{ username: 'pos-user', password: 'pos-password-good' }] });
  const c = new PlatformCSimulator({ suppliers: [{ supplierId: '104523', apiKey: 'ty-key-good', secretKey: 'ty-secret-good', storeIds: ['88211'] }] });
  const d = new PlatformDSimulator({ stores: [{ storeId: '23000000000001', storeGroupId: '511', apiKey: 'migros-key-good' }] });
  let t: TestApp;
  let restaurant: Awaited<ReturnType<TestApp['createRestaurant']>>;

  beforeAll(async () => {
    await Promise.all([a.start(), b.start(), c.start(), d.start()]);
    t = await startTestApp({
      env: {
        PLATFORM_A_BASE_URL: a.baseUrl,
        PLATFORM_B_BASE_URL: b.baseUrl,
        PLATFORM_C_BASE_URL: c.baseUrl,
        PLATFORM_D_BASE_URL: d.baseUrl,
        PLATFORM_A_APP_SECRET_KEY: APP_KEY,
        PLATFORM_HTTP_TIMEOUT_MS: '2000',
      },
    });
    restaurant = await t.createRestaurant();
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([a.stop(), b.stop(), c.stop(), d.stop()]);
  });

  async function integration(body: Record<string, unknown>): Promise<string> {
    const response = await t.http.post('/api/v1/my/integrations').set(credentials(restaurant)).send(body);
    if (response.status !== 201) throw new Error(`${response.status} ${JSON.stringify(response.body)}`);
    return response.body.id;
  }
  const check = (id: string, who = restaurant) => t.http.post(`/api/v1/my/integrations/${id}/check`).set(credentials(who));

  it.each([
    ['PLATFORM_A', { providerRestaurantId: 'getir-1', secretKey: 'getir-secret-good' }, { providerRestaurantId: 'getir-2', secretKey: 'getir-secret-bad' }],
    ['PLATFORM_B', { providerRestaurantId: 'ys-1', chainCode: 'c1', username: 'pos-user', password: 'pos-password-good' }, { providerRestaurantId: 'ys-2', chainCode: 'c1', username: 'pos-user', password: 'pos-password-bad' }],
    [
      'PLATFORM_C',
      { providerRestaurantId: 'ty-1', supplierId: '104523', apiKey: 'ty-key-good', secretKey: 'ty-secret-good', storeId: '88211' },
      { providerRestaurantId: 'ty-2', supplierId: '104523', apiKey: 'ty-key-good', secretKey: 'ty-secret-bad', storeId: '88211' },
    ],
    ['PLATFORM_D', { providerRestaurantId: '23000000000001', providerMerchantId: '511', apiKey: 'migros-key-good' }, { providerRestaurantId: '23000000000002', providerMerchantId: '511', apiKey: 'migros-key-bad' }],
  ])('%s: ok for working credentials, rejected for wrong ones, and nothing secret in the answer', async (platform, good, bad) => {
    const okId = await integration({ platform, ...good });
    const ok = await check(okId);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      integrationId: okId,
      platform,
      result: 'ok',
      ok: true,
      detail: expect.any(String),
      httpStatus: 200,
      checkedAt: expect.any(String),
      verification: { state: 'verified', verifiedAt: expect.any(String), detail: expect.any(String), fingerprint: expect.any(String) },
    });
    const badId = await integration({ platform, ...bad });
    const refused = await check(badId);
    expect(refused.body).toMatchObject({ integrationId: badId, result: 'rejected', ok: false, httpStatus: expect.any(Number), verification: { state: 'failed', verifiedAt: null } });
    for (const secret of Object.values(bad)) if (/bad/.test(secret)) expect(JSON.stringify(refused.body)).not.toContain(secret);
    expect(t.logLines.join('\n')).not.toContain('pos-password-good');
  });

  it('reports an unreachable platform without a verdict', async () => {
    const id = await integration({ platform: 'PLATFORM_B', providerRestaurantId: 'ys-down', chainCode: 'c1', username: 'pos-user', password: 'pos-password-good' });
    await waitFor('verified', async () => (await t.http.get(`/api/v1/my/integrations/${id}`).set(credentials(restaurant))).body.verification.state === 'verified');
    b.setDown(true);
    try {
      // No verdict: the integration stays verified.
      expect((await check(id)).body).toMatchObject({ result: 'unreachable', ok: false, verification: { state: 'verified' } });
    } finally {
      b.setDown(false);
    }
    b.failNext({ status: 503 });
    expect((await check(id)).body).toMatchObject({ result: 'unreachable', httpStatus: 503 });
  });

  it('says not_applicable for THIRD_PARTY, and 404 for an unknown, malformed or another account\'s id; 401 without credentials', async () => {
    expect((await check(restaurant.thirdParty.integrationId)).body).toMatchObject({ result: 'not_applicable', ok: false, platform: 'THIRD_PARTY' });
    const id = await integration({ platform: 'PLATFORM_D', providerRestaurantId: 'migros-x', providerMerchantId: 'm-1', apiKey: 'migros-key-good' });
    const other = await t.createRestaurant({ name: 'Other' });
    for (const response of [await check(randomUUID()), await check('not-a-uuid'), await check(id, other)]) expect(response.body).toMatchObject({ status: 404, code: 'INTEGRATION_NOT_FOUND' });
    expect((await t.http.post(`/api/v1/my/integrations/${id}/check`)).status).toBe(401);
  });

  it('is documented in the OpenAPI document', async () => {
    const document = (await t.http.get('/docs-json')).body;
    const operation = document.paths['/api/v1/my/integrations/{id}/check'].post;
    expect(Object.keys(operation.responses).sort()).toEqual(expect.arrayContaining(['200', '401', '404', '500']));
    expect(document.components.schemas.IntegrationCheckDto.properties.result.enum).toEqual(['ok', 'wrong_restaurant', 'rejected', 'unreachable', 'not_configured', 'not_applicable']);
    expect(document.components.schemas.Integration.required).toContain('verification');
    expect(document.components.schemas.IntegrationVerification.properties.state.enum).toEqual(['unverified', 'verified', 'failed']);
  });
});
