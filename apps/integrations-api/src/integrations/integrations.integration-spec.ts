import { RoutingKey } from '@courier/contracts';
import { admin, credentials, CreatedRestaurant, platformBodies, SECRET_FIELDS, startTestApp, TestApp } from '../../test/harness';

jest.setTimeout(60_000);

const BASE = '/api/v1/my/integrations';
const PLATFORMS = ['PLATFORM_A', 'PLATFORM_B', 'PLATFORM_C', 'PLATFORM_D'] as const;
const CLEAR_FIELDS: Record<string, string[]> = {
  PLATFORM_A: [],
  PLATFORM_B: ['chainCode', 'username'],
  PLATFORM_C: ['supplierId', 'storeId'],
  PLATFORM_D: ['providerMerchantId'],
};
const ALL_CREDENTIAL_FIELDS = ['secretKey', 'chainCode', 'username', 'password', 'supplierId', 'apiKey', 'storeId', 'providerMerchantId'];

const mask = (secret: string) => `****${secret.slice(-4)}`;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function expectProblem(response: { status: number; headers: Record<string, string>; body: any }, status: number, code: string) {
  expect({ status: response.status, code: response.body.code }).toEqual({ status, code });
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String), requestId: expect.any(String) });
}

describe('integrations API (HTTP, real PostgreSQL)', () => {
  let t: TestApp;
  let owner: CreatedRestaurant;
  let other: CreatedRestaurant;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.createRestaurant({ name: 'Owner', providerRestaurantId: 'owner-pos-1' });
    other = await t.createRestaurant({ name: 'Other' });
  });
  afterAll(() => t?.close());

  describe.each(PLATFORMS)('%s', (platform) => {
    const bodies = platformBodies();
    const body = bodies[platform];
    let id: string;

    it('POST creates: 201, Location, record with clear fields and masked secrets', async () => {
      const response = await t.http.post(BASE).set(credentials(owner)).send(body);
      expect(response.status).toBe(201);
      id = response.body.id;
      expect(id).toMatch(uuid);
      expect(response.headers.location).toBe(`${BASE}/${id}`);
      const expected: Record<string, unknown> = { id, platform, providerRestaurantId: body.providerRestaurantId, isActive: true };
      for (const field of CLEAR_FIELDS[platform]) expected[field] = body[field];
      for (const field of SECRET_FIELDS[platform]) expected[field] = mask(body[field]);
      expect(response.body).toEqual({
        ...expected,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        verification: { state: 'unverified', verifiedAt: null, detail: 'Verification with the platform pending.', fingerprint: null },
      });
      expect(new Date(response.body.createdAt).toISOString()).toBe(response.body.createdAt);
      for (const field of ALL_CREDENTIAL_FIELDS.filter((name) => !(name in body))) expect(response.body).not.toHaveProperty(field);
    });

    it('stores secrets encrypted, bound to the integration and field (v2:<keyId>:...) and the clear fields as sent', async () => {
      const [row] = await t.sql('SELECT * FROM integrations WHERE id = $1', [id]);
      expect(row.platform).toBe(platform);
      expect(Object.keys(row.secrets).sort()).toEqual([...SECRET_FIELDS[platform]].sort());
      for (const field of SECRET_FIELDS[platform]) expect(row.secrets[field]).toMatch(/^v2:k1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
      const raw = JSON.stringify(row);
      for (const field of SECRET_FIELDS[platform]) expect(raw).not.toContain(body[field]);
      expect(row.settings).toEqual(Object.fromEntries(CLEAR_FIELDS[platform].map((field) => [field, body[field]])));
    });

    it('publishes integration.upserted with the record and secret ciphertexts only', async () => {
      const events = (await t.outbox(RoutingKey.IntegrationUpserted)).filter((row) => row.payload.integrationId === id);
      expect(events).toHaveLength(1);
      const [row] = await t.sql('SELECT * FROM integrations WHERE id = $1', [id]);
      expect(events[0].payload).toEqual({
        integrationId: id,
        restaurantId: owner.restaurantId,
        platform,
        providerRestaurantId: body.providerRestaurantId,
        isActive: true,
        displaced: false,
        verification: 'unverified',
        verifiedAt: null,
        settings: row.settings,
        secrets: row.secrets,
        version: 1,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        occurredAt: expect.any(String),
      });
      for (const field of SECRET_FIELDS[platform]) expect(JSON.stringify(events[0].payload)).not.toContain(body[field]);
    });

    it('GET one returns the same record; another account gets 404', async () => {
      const mine = await t.http.get(`${BASE}/${id}`).set(credentials(owner));
      expect(mine.status).toBe(200);
      expect(mine.body).toMatchObject({ id, platform, isActive: true });
      expectProblem(await t.http.get(`${BASE}/${id}`).set(credentials(other)), 404, 'INTEGRATION_NOT_FOUND');
      expectProblem(await t.http.get(`${BASE}/${id.toUpperCase()}`).set(credentials(other)), 404, 'INTEGRATION_NOT_FOUND');
    });

    it('refuses a missing required field, a foreign field, an empty string and an unknown field with 422', async () => {
      for (const field of Object.keys(body).filter((name) => name !== 'platform')) {
        const { [field]: _omitted, ...rest }: Record<string, string> = { ...body, providerRestaurantId: `${body.providerRestaurantId}-x` };
        const response = await t.http.post(BASE).set(credentials(owner)).send(rest);
        expectProblem(response, 422, 'VALIDATION_ERROR');
        expect(response.body.errors).toContainEqual({ field, message: expect.any(String) });
      }
      const foreign = ALL_CREDENTIAL_FIELDS.find((name) => !(name in body))!;
      const foreignResponse = await t.http.post(BASE).set(credentials(owner)).send({ ...body, providerRestaurantId: 'other-x', [foreign]: 'value' });
      expectProblem(foreignResponse, 422, 'VALIDATION_ERROR');
      expect(foreignResponse.body.errors).toEqual([{ field: foreign, message: expect.stringContaining(`is not a field of ${platform}`) }]);
      const secret = SECRET_FIELDS[platform][0];
      const empty = await t.http.post(BASE).set(credentials(owner)).send({ ...body, providerRestaurantId: 'empty-x', [secret]: '' });
      expect(empty.body.errors).toEqual([{ field: secret, message: 'must not be empty' }]);
      const unknown = await t.http.post(BASE).set(credentials(owner)).send({ ...body, providerRestaurantId: 'unknown-x', colour: 'red' });
      expect(unknown.body.errors).toEqual([{ field: 'colour', message: 'is not allowed' }]);
      const masked = await t.http.post(BASE).set(credentials(owner)).send({ ...body, providerRestaurantId: 'mask-x', [secret]: '****abcd' });
      expectProblem(masked, 422, 'VALIDATION_ERROR');
    });

    it('refuses the same platform + providerRestaurantId twice with 409, from this account and from any other, with one answer naming no one', async () => {
      const own = await t.http.post(BASE).set(credentials(owner)).send(body);
      expectProblem(own, 409, 'INTEGRATION_EXISTS');
      expectProblem(await t.http.post(BASE).set(credentials(owner)).send({ ...body, isActive: false }), 409, 'INTEGRATION_EXISTS');
      const elsewhere = await t.http.post(BASE).set(credentials(other)).send(body);
      expectProblem(elsewhere, 409, 'INTEGRATION_EXISTS');
      const { requestId: ownRequest, ...ownAnswer } = own.body;
      const { requestId: otherRequest, ...otherAnswer } = elsewhere.body;
      expect(otherRequest).not.toBe(ownRequest);
      expect(otherAnswer).toEqual(ownAnswer);
      for (const revealing of [owner.restaurantId, id, 'Owner']) expect(JSON.stringify(elsewhere.body)).not.toContain(revealing);
      expect(await t.sql('SELECT restaurant_id FROM integrations WHERE platform = $1 AND provider_restaurant_id = $2', [platform, body.providerRestaurantId])).toEqual([
        { restaurant_id: owner.restaurantId },
      ]);
    });

    it('creates exactly one of concurrent identical requests; the others get 409', async () => {
      const racing = { ...body, providerRestaurantId: `${body.providerRestaurantId}-race` };
      const answers = await Promise.all(Array.from({ length: 6 }, () => t.http.post(BASE).set(credentials(owner)).send(racing)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      const rows = await t.sql('SELECT id FROM integrations WHERE provider_restaurant_id = $1', [racing.providerRestaurantId]);
      expect(rows).toHaveLength(1);
      const events = (await t.outbox(RoutingKey.IntegrationUpserted)).filter((row) => row.payload.providerRestaurantId === racing.providerRestaurantId);
      expect(events).toHaveLength(1);
    });

    it('PUT to a providerRestaurantId another integration of the same platform has, of this account or another: 409', async () => {
      const taken = `${body.providerRestaurantId}-race`;
      expectProblem(await t.http.put(`${BASE}/${id}`).set(credentials(owner)).send({ providerRestaurantId: taken }), 409, 'INTEGRATION_EXISTS');
      expect((await t.http.get(`${BASE}/${id}`).set(credentials(owner))).body.providerRestaurantId).toBe(body.providerRestaurantId);
      const others = await t.http.post(BASE).set(credentials(other)).send({ ...body, providerRestaurantId: `${body.providerRestaurantId}-others` });
      expect(others.status).toBe(201);
      expectProblem(await t.http.put(`${BASE}/${others.body.id}`).set(credentials(other)).send({ providerRestaurantId: taken }), 409, 'INTEGRATION_EXISTS');
      expectProblem(await t.http.put(`${BASE}/${others.body.id}`).set(credentials(other)).send({ providerRestaurantId: body.providerRestaurantId }), 409, 'INTEGRATION_EXISTS');
      expect((await t.http.get(`${BASE}/${others.body.id}`).set(credentials(other))).body.providerRestaurantId).toBe(`${body.providerRestaurantId}-others`);
    });

    it('PUT changes only the fields sent (one secret alone is a valid body)', async () => {
      const secret = SECRET_FIELDS[platform][0];
      const newValue = `rotated-${secret}-${platform}-zq81`;
      const response = await t.http.put(`${BASE}/${id}`).set(credentials(owner)).send({ [secret]: newValue });
      expect(response.status).toBe(200);
      expect(response.body[secret]).toBe(mask(newValue));
      for (const field of CLEAR_FIELDS[platform]) expect(response.body[field]).toBe(body[field]);
      for (const field of SECRET_FIELDS[platform].filter((name) => name !== secret)) expect(response.body[field]).toBe(mask(body[field]));
      expect(response.body.providerRestaurantId).toBe(body.providerRestaurantId);
      const events = (await t.outbox(RoutingKey.IntegrationUpserted)).filter((row) => row.payload.integrationId === id);
      expect(events.map((event) => event.payload.version)).toEqual([1, 2]);
      expect(JSON.stringify(events[1].payload)).not.toContain(newValue);
    });

    it('PUT with nothing new changes nothing and publishes nothing', async () => {
      const before = (await t.outbox(RoutingKey.IntegrationUpserted)).length;
      const secret = SECRET_FIELDS[platform][0];
      const same = await t.http.put(`${BASE}/${id}`).set(credentials(owner)).send({ [secret]: `rotated-${secret}-${platform}-zq81`, platform });
      expect(same.status).toBe(200);
      expect((await t.http.put(`${BASE}/${id}`).set(credentials(owner)).send({})).status).toBe(200);
      expect((await t.outbox(RoutingKey.IntegrationUpserted)).length).toBe(before);
    });

    it('PUT refuses a mask sent back, a foreign field, a platform change and bad types with 422', async () => {
      const secret = SECRET_FIELDS[platform][0];
      const current = await t.http.get(`${BASE}/${id}`).set(credentials(owner));
      const maskBack = await t.http.put(`${BASE}/${id}`).set(credentials(owner)).send(current.body);
      expectProblem(maskBack, 422, 'VALIDATION_ERROR');
      expect(maskBack.body.errors).toEqual(
        expect.arrayContaining([
          { field: 'id', message: 'is read-only' },
          { field: secret, message: expect.stringContaining('holds a mask') },
        ]),
      );
      expectProblem(await t.http.put(`${BASE}/${id}`).set(credentials(owner)).send({ [secret]: mask('whatever-1234') }), 422, 'VALIDATION_ERROR');
      const foreign = ALL_CREDENTIAL_FIELDS.find((name) => !(name in body))!;
      expectProblem(await t.http.put(`${BASE}/${id}`).set(credentials(owner)).send({ [foreign]: 'x' }), 422, 'VALIDATION_ERROR');
      const otherPlatform = PLATFORMS.find((code) => code !== platform)!;
      expectProblem(await t.http.put(`${BASE}/${id}`).set(credentials(owner)).send({ platform: otherPlatform }), 422, 'VALIDATION_ERROR');
      expectProblem(await t.http.put(`${BASE}/${id}`).set(credentials(owner)).send({ isActive: 'yes' }), 422, 'VALIDATION_ERROR');
      expectProblem(await t.http.put(`${BASE}/${id}`).set(credentials(owner)).send({ providerRestaurantId: '' }), 422, 'VALIDATION_ERROR');
      expectProblem(await t.http.put(`${BASE}/${id}`).set(credentials(owner)).send([1]), 422, 'VALIDATION_ERROR');
      expectProblem(await t.http.put(`${BASE}/${id}`).set(credentials(other)).send({ [secret]: 'new-value-1234' }), 404, 'INTEGRATION_NOT_FOUND');
    });

    it('PATCH deactivate / activate are idempotent 200s that publish only real changes', async () => {
      const count = async () => (await t.outbox(RoutingKey.IntegrationUpserted)).filter((row) => row.payload.integrationId === id).length;
      const before = await count();
      const off = await t.http.patch(`${BASE}/${id}/deactivate`).set(credentials(owner));
      expect(off.status).toBe(200);
      expect(off.body.isActive).toBe(false);
      expect((await t.http.patch(`${BASE}/${id}/deactivate`).set(credentials(owner))).body.isActive).toBe(false);
      expect(await count()).toBe(before + 1);
      const on = await t.http.patch(`${BASE}/${id}/activate`).set(credentials(owner));
      expect(on.status).toBe(200);
      expect(on.body.isActive).toBe(true);
      expect((await t.http.patch(`${BASE}/${id}/activate`).set(credentials(owner))).status).toBe(200);
      expect(await count()).toBe(before + 2);
      const events = (await t.outbox(RoutingKey.IntegrationUpserted)).filter((row) => row.payload.integrationId === id);
      expect(events.slice(-2).map((event) => event.payload.isActive)).toEqual([false, true]);
      expectProblem(await t.http.patch(`${BASE}/${id}/deactivate`).set(credentials(other)), 404, 'INTEGRATION_NOT_FOUND');
    });

    it('DELETE removes it completely: 204, then 404 everywhere; integration.deleted carries the next version', async () => {
      expectProblem(await t.http.delete(`${BASE}/${id}`).set(credentials(other)), 404, 'INTEGRATION_NOT_FOUND');
      const versionBefore = (await t.sql('SELECT version FROM integrations WHERE id = $1', [id]))[0].version;
      const response = await t.http.delete(`${BASE}/${id}`).set(credentials(owner));
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect(await t.sql('SELECT id FROM integrations WHERE id = $1', [id])).toEqual([]);
      expectProblem(await t.http.get(`${BASE}/${id}`).set(credentials(owner)), 404, 'INTEGRATION_NOT_FOUND');
      expectProblem(await t.http.put(`${BASE}/${id}`).set(credentials(owner)).send({}), 404, 'INTEGRATION_NOT_FOUND');
      expectProblem(await t.http.patch(`${BASE}/${id}/activate`).set(credentials(owner)), 404, 'INTEGRATION_NOT_FOUND');
      expectProblem(await t.http.delete(`${BASE}/${id}`).set(credentials(owner)), 404, 'INTEGRATION_NOT_FOUND');
      const [deleted] = (await t.outbox(RoutingKey.IntegrationDeleted)).filter((row) => row.payload.integrationId === id);
      expect(deleted.payload).toEqual({
        integrationId: id,
        restaurantId: owner.restaurantId,
        platform,
        providerRestaurantId: body.providerRestaurantId,
        version: versionBefore + 1,
        occurredAt: expect.any(String),
      });
    });

    it('takes isActive false on create', async () => {
      const response = await t.http.post(BASE).set(credentials(owner)).send({ ...body, providerRestaurantId: `${body.providerRestaurantId}-off`, isActive: false });
      expect(response.status).toBe(201);
      expect(response.body.isActive).toBe(false);
    });
  });

  describe('ids', () => {
    it.each(['not-a-uuid', '123', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', "1' OR '1'='1", '%00', '00000000-0000-0000-0000-000000000000', 'c04f3cb48773-4e3d-bef0-207944883efd'])(
      'answers 404 INTEGRATION_NOT_FOUND for %p on every id route',
      async (raw) => {
        const path = `${BASE}/${encodeURIComponent(raw)}`;
        expectProblem(await t.http.get(path).set(credentials(owner)), 404, 'INTEGRATION_NOT_FOUND');
        expectProblem(await t.http.put(path).set(credentials(owner)).send({ isActive: true }), 404, 'INTEGRATION_NOT_FOUND');
        expectProblem(await t.http.patch(`${path}/activate`).set(credentials(owner)), 404, 'INTEGRATION_NOT_FOUND');
        expectProblem(await t.http.patch(`${path}/deactivate`).set(credentials(owner)), 404, 'INTEGRATION_NOT_FOUND');
        expectProblem(await t.http.delete(path).set(credentials(owner)), 404, 'INTEGRATION_NOT_FOUND');
      },
    );
  });

  describe('authentication', () => {
    const routes: Array<[string, string]> = [
      ['post', BASE],
      ['get', BASE],
      ['get', `${BASE}/00000000-0000-4000-8000-000000000000`],
      ['put', `${BASE}/00000000-0000-4000-8000-000000000000`],
      ['patch', `${BASE}/00000000-0000-4000-8000-000000000000/activate`],
      ['patch', `${BASE}/00000000-0000-4000-8000-000000000000/deactivate`],
      ['delete', `${BASE}/00000000-0000-4000-8000-000000000000`],
      ['get', '/api/v1/my/webhooks'],
      ['put', '/api/v1/my/webhooks'],
      ['post', '/api/v1/my/webhooks/secret'],
      ['delete', '/api/v1/my/webhooks/secret'],
      ['get', '/api/v1/my/account'],
    ];

    it.each(routes)('%s %s answers 401 AUTHENTICATION_FAILED without a valid key pair', async (method, path) => {
      const call = () => (t.http as any)[method](path);
      const cases: Array<Record<string, string>> = [
        {},
        { 'X-API-Key': owner.apiKey },
        { 'X-API-Secret': owner.apiSecret },
        { 'X-API-Key': owner.apiKey, 'X-API-Secret': other.apiSecret },
        { 'X-API-Key': owner.apiKey, 'X-API-Secret': '' },
        { 'X-API-Key': 'cik_unknown', 'X-API-Secret': owner.apiSecret },
        { 'X-API-Key': owner.apiSecret, 'X-API-Secret': owner.apiKey },
      ];
      for (const headers of cases) expectProblem(await call().set(headers).send({}), 401, 'AUTHENTICATION_FAILED');
    });

    it('refuses a disabled account with 401 and accepts it again once enabled', async () => {
      const account = await t.createRestaurant({ name: 'Soon disabled' });
      expect((await t.http.get(BASE).set(credentials(account))).status).toBe(200);
      await t.http.post(`/admin/v1/restaurants/${account.restaurantId}/disable`).set(admin).expect(200);
      expectProblem(await t.http.get(BASE).set(credentials(account)), 401, 'AUTHENTICATION_FAILED');
      await t.http.post(`/admin/v1/restaurants/${account.restaurantId}/enable`).set(admin).expect(200);
      expect((await t.http.get(BASE).set(credentials(account))).status).toBe(200);
    });
  });

  describe('list', () => {
    let lister: CreatedRestaurant;
    const created: string[] = [];

    beforeAll(async () => {
      lister = await t.createRestaurant({ name: 'Lister' });
      for (let index = 0; index < 7; index += 1) {
        const bodies = platformBodies(`list${index}`);
        const platform = PLATFORMS[index % 4];
        const response = await t.http.post(BASE).set(credentials(lister)).send({ ...bodies[platform], isActive: index % 2 === 0 });
        created.push(response.body.id);
      }
    });

    it('lists all of mine (THIRD_PARTY included), oldest first, with nextCursor null on the last page', async () => {
      const response = await t.http.get(BASE).set(credentials(lister));
      expect(response.status).toBe(200);
      expect(response.body.nextCursor).toBeNull();
      expect(response.body.data.map((record: any) => record.id)).toEqual([lister.thirdParty.integrationId, ...created]);
      expect(response.body.data[0]).toEqual({
        id: lister.thirdParty.integrationId,
        platform: 'THIRD_PARTY',
        providerRestaurantId: lister.restaurantId,
        isActive: true,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        verification: { state: 'verified', verifiedAt: expect.any(String), detail: 'THIRD_PARTY needs no platform verification.', fingerprint: null },
      });
      expect(JSON.stringify(response.body)).not.toMatch(/plain[A-D]-/);
    });

    it('pages with limit and an opaque cursor without gaps or repeats', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const response: any = await t.http.get(BASE).query({ limit: 3, ...(cursor ? { cursor } : {}) }).set(credentials(lister));
        expect(response.status).toBe(200);
        expect(response.body.data.length).toBeLessThanOrEqual(3);
        seen.push(...response.body.data.map((record: any) => record.id));
        cursor = response.body.nextCursor;
        pages += 1;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual([lister.thirdParty.integrationId, ...created]);
    });

    it('filters by platform and isActive', async () => {
      const a = await t.http.get(BASE).query({ platform: 'PLATFORM_A' }).set(credentials(lister));
      expect(a.body.data.map((record: any) => record.platform)).toEqual(['PLATFORM_A', 'PLATFORM_A']);
      const inactive = await t.http.get(BASE).query({ isActive: 'false' }).set(credentials(lister));
      expect(inactive.body.data.map((record: any) => record.id)).toEqual(created.filter((_, index) => index % 2 === 1));
      const both = await t.http.get(BASE).query({ isActive: 'true', platform: 'THIRD_PARTY' }).set(credentials(lister));
      expect(both.body.data.map((record: any) => record.id)).toEqual([lister.thirdParty.integrationId]);
    });

    it('uses a default limit of 50 and accepts 200 at most', async () => {
      expect((await t.http.get(BASE).query({ limit: 200 }).set(credentials(lister))).status).toBe(200);
      expectProblem(await t.http.get(BASE).query({ limit: 201 }).set(credentials(lister)), 422, 'VALIDATION_ERROR');
    });

    it.each([
      [{ limit: '0' }, 'limit'],
      [{ limit: 'abc' }, 'limit'],
      [{ limit: '1.5' }, 'limit'],
      [{ cursor: 'garbage' }, 'cursor'],
      [{ cursor: Buffer.from('["2020-01-01T00:00:00.000Z","nope"]').toString('base64url') }, 'cursor'],
      [{ platform: 'PLATFORM_Z' }, 'platform'],
      [{ isActive: 'maybe' }, 'isActive'],
      [{ sort: 'name' }, 'sort'],
    ])('refuses the query %p with 422 naming %s', async (query, field) => {
      const response = await t.http.get(BASE).query(query).set(credentials(lister));
      expectProblem(response, 422, 'VALIDATION_ERROR');
      expect(response.body.errors.map((error: any) => error.field)).toContain(field);
    });

    it('never shows another account\'s integrations', async () => {
      const response = await t.http.get(BASE).set(credentials(other));
      expect(response.body.data.every((record: any) => !created.includes(record.id))).toBe(true);
    });
  });

  describe.each(PLATFORMS)('%s restaurant across accounts', (platform) => {
    const body = platformBodies()[platform];
    const create = (account: CreatedRestaurant, changes: Record<string, unknown> = {}) => t.http.post(BASE).set(credentials(account)).send({ ...body, ...changes });

    it('a paused integration still holds its restaurant; deleting it frees it for another account; the owner can re-create it', async () => {
      const first = await create(owner);
      expect(first.status).toBe(201);
      await t.http.patch(`${BASE}/${first.body.id}/deactivate`).set(credentials(owner)).expect(200);
      expectProblem(await create(other), 409, 'INTEGRATION_EXISTS');

      await t.http.delete(`${BASE}/${first.body.id}`).set(credentials(owner)).expect(204);
      const again = await create(owner);
      expect(again.status).toBe(201);
      expectProblem(await create(other), 409, 'INTEGRATION_EXISTS');

      await t.http.delete(`${BASE}/${again.body.id}`).set(credentials(owner)).expect(204);
      const taken = await create(other);
      expect(taken.status).toBe(201);
      expectProblem(await create(owner), 409, 'INTEGRATION_EXISTS');
      await t.http.delete(`${BASE}/${taken.body.id}`).set(credentials(other)).expect(204);
    });

    it('gives exactly one of concurrent creates from two accounts the restaurant; the others get 409', async () => {
      const racing = { providerRestaurantId: `${body.providerRestaurantId}-two-accounts` };
      const answers = await Promise.all(Array.from({ length: 6 }, (_, index) => create(index % 2 === 0 ? owner : other, racing)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      for (const refused of answers.filter((answer) => answer.status === 409)) expectProblem(refused, 409, 'INTEGRATION_EXISTS');
      expect(await t.sql('SELECT id FROM integrations WHERE platform = $1 AND provider_restaurant_id = $2', [platform, racing.providerRestaurantId])).toHaveLength(1);
    });

    it('gives exactly one of concurrent PUTs from two accounts onto a free restaurant the restaurant', async () => {
      const mine = await create(owner, { providerRestaurantId: `${body.providerRestaurantId}-mine` });
      const theirs = await create(other, { providerRestaurantId: `${body.providerRestaurantId}-theirs` });
      const target = `${body.providerRestaurantId}-disputed`;
      const answers = await Promise.all([
        t.http.put(`${BASE}/${mine.body.id}`).set(credentials(owner)).send({ providerRestaurantId: target }),
        t.http.put(`${BASE}/${theirs.body.id}`).set(credentials(other)).send({ providerRestaurantId: target }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(await t.sql('SELECT id FROM integrations WHERE platform = $1 AND provider_restaurant_id = $2', [platform, target])).toHaveLength(1);
    });
  });

  describe('THIRD_PARTY', () => {
    it('keeps providerRestaurantId per account: two accounts may use the same label', async () => {
      const first = await t.createRestaurant({ name: 'Label one', providerRestaurantId: 'shared-pos-label' });
      const second = await t.createRestaurant({ name: 'Label two', providerRestaurantId: 'shared-pos-label' });
      expect([first.thirdParty.providerRestaurantId, second.thirdParty.providerRestaurantId]).toEqual(['shared-pos-label', 'shared-pos-label']);
      const third = await t.createRestaurant({ name: 'Label three', providerRestaurantId: 'own-pos-label' });
      const moved = await t.http.put(`${BASE}/${third.thirdParty.integrationId}`).set(credentials(third)).send({ providerRestaurantId: 'shared-pos-label' });
      expect({ status: moved.status, providerRestaurantId: moved.body.providerRestaurantId }).toEqual({ status: 200, providerRestaurantId: 'shared-pos-label' });
    });

    it('exists from account creation, once per account, and its changes are account events too', async () => {
      const account = await t.createRestaurant({ name: 'Third party', providerRestaurantId: 'my-pos-77' });
      const thirdPartyId = account.thirdParty.integrationId;
      expectProblem(await t.http.post(BASE).set(credentials(account)).send({ platform: 'THIRD_PARTY', providerRestaurantId: 'second' }), 409, 'INTEGRATION_EXISTS');
      expectProblem(await t.http.post(BASE).set(credentials(account)).send({ platform: 'THIRD_PARTY', providerRestaurantId: 'x', secretKey: 'y' }), 422, 'VALIDATION_ERROR');

      const accountEvents = async () => (await t.outbox()).filter((row) => row.routing_key.startsWith('account.') && row.payload.restaurantId === account.restaurantId);
      expect((await accountEvents()).map((row) => [row.routing_key, row.payload.version])).toEqual([[RoutingKey.AccountCreated, 1]]);

      await t.http.patch(`${BASE}/${thirdPartyId}/deactivate`).set(credentials(account)).expect(200);
      let events = await accountEvents();
      expect(events[events.length - 1]).toMatchObject({
        routing_key: RoutingKey.AccountUpdated,
        payload: { version: 2, thirdParty: { integrationId: thirdPartyId, providerRestaurantId: 'my-pos-77', isActive: false } },
      });

      await t.http.put(`${BASE}/${thirdPartyId}`).set(credentials(account)).send({ providerRestaurantId: 'my-pos-78' }).expect(200);
      events = await accountEvents();
      expect(events[events.length - 1].payload).toMatchObject({ version: 3, thirdParty: { providerRestaurantId: 'my-pos-78', isActive: false } });

      await t.http.delete(`${BASE}/${thirdPartyId}`).set(credentials(account)).expect(204);
      events = await accountEvents();
      expect(events[events.length - 1].payload).toMatchObject({ version: 4, thirdParty: null });

      const again = await t.http.post(BASE).set(credentials(account)).send({ platform: 'THIRD_PARTY', providerRestaurantId: 'my-pos-79' });
      expect(again.status).toBe(201);
      events = await accountEvents();
      expect(events[events.length - 1].payload).toMatchObject({ version: 5, thirdParty: { integrationId: again.body.id, providerRestaurantId: 'my-pos-79', isActive: true } });
    });

    it('delivers account and integration events to the consuming apps\' queues', async () => {
      const account = await t.createRestaurant({ name: 'Delivered' });
      const received = () => t.delivered.filter((message) => (message.payload as any).restaurantId === account.restaurantId);
      await waitForDeliveries(() => received().length >= 5);
      const byQueue = (queue: string) => received().filter((message) => message.queue === queue).map((message) => message.routingKey).sort();
      expect(byQueue('intake-api.account-events')).toEqual([RoutingKey.AccountCreated, RoutingKey.IntegrationUpserted].sort());
      expect(byQueue('status-dispatcher.account-events')).toEqual([RoutingKey.AccountCreated, RoutingKey.IntegrationUpserted].sort());
      expect(byQueue('webhook-sender.account-events')).toEqual([RoutingKey.AccountCreated]);
    });
  });

  it('answers 400 INVALID_PAYLOAD to malformed JSON and 413 to a body over the limit', async () => {
    expectProblem(await t.http.post(BASE).set(credentials(owner)).set('Content-Type', 'application/json').send('{"platform":'), 400, 'INVALID_PAYLOAD');
    const huge = JSON.stringify({ ...platformBodies().PLATFORM_A, secretKey: 'x'.repeat(300 * 1024) });
    expectProblem(await t.http.post(BASE).set(credentials(owner)).set('Content-Type', 'application/json').send(huge), 413, 'PAYLOAD_TOO_LARGE');
  });
});

async function waitForDeliveries(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('events were not delivered');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
