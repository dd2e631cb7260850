import { credentials, CreatedRestaurant, platformBodies, startTestApp, TestApp } from '../../test/harness';

jest.setTimeout(60_000);

const BASE = '/api/v1/my/integrations';

/**
 * PLATFORM_C's supplierId is sent in the User-Agent header of every platform call. A value a header
 * cannot carry (non-Latin-1, spaces, control characters) was accepted and then broke that
 * integration's polling (ERR_INVALID_CHAR): it is refused at create and at update, nothing stored.
 */
describe('PLATFORM_C supplierId must be header-safe (HTTP, real PostgreSQL)', () => {
  let t: TestApp;
  let owner: CreatedRestaurant;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.createRestaurant({ name: 'Trendyol restaurant' });
  });
  afterAll(() => t?.close());

  // Surrounding white space is trimmed (the suite's identifier rule), so the unsafe space is inside.
  const unsafe = ['İstanbul-1', 'sup plier', '104\u00a0523', '😀', 'a'.repeat(65)];

  it.each(unsafe)('refuses %j on create with 422 VALIDATION_ERROR naming supplierId, and stores nothing', async (supplierId) => {
    const body: Record<string, string> = { ...platformBodies().PLATFORM_C, supplierId };
    const response = await t.http.post(BASE).set(credentials(owner)).send(body);
    expect({ status: response.status, code: response.body.code }).toEqual({ status: 422, code: 'VALIDATION_ERROR' });
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body.errors).toEqual([{ field: 'supplierId', message: expect.any(String) }]);
    expect(await t.sql('SELECT id FROM integrations WHERE provider_restaurant_id = $1', [body.providerRestaurantId])).toEqual([]);
  });

  it('refuses it on PUT with 422 VALIDATION_ERROR and keeps the stored supplierId', async () => {
    const body = platformBodies().PLATFORM_C;
    const created = await t.http.post(BASE).set(credentials(owner)).send(body);
    expect(created.status).toBe(201);
    for (const supplierId of unsafe) {
      const response = await t.http.put(`${BASE}/${created.body.id}`).set(credentials(owner)).send({ supplierId });
      expect({ status: response.status, code: response.body.code }).toEqual({ status: 422, code: 'VALIDATION_ERROR' });
      expect(response.body.errors).toEqual([{ field: 'supplierId', message: expect.any(String) }]);
    }
    expect((await t.http.get(`${BASE}/${created.body.id}`).set(credentials(owner))).body).toMatchObject({ supplierId: body.supplierId });
    const fine = await t.http.put(`${BASE}/${created.body.id}`).set(credentials(owner)).send({ supplierId: '107385' });
    expect(fine).toMatchObject({ status: 200, body: { supplierId: '107385' } });
    const trimmed = await t.http.put(`${BASE}/${created.body.id}`).set(credentials(owner)).send({ supplierId: '\u00a0107386 ' });
    expect(trimmed).toMatchObject({ status: 200, body: { supplierId: '107386' } });
  });
});
