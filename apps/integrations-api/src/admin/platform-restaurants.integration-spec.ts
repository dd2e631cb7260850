import { AddressInfo } from 'node:net';
import { RoutingKey } from '@courier/contracts';
import { admin, ADMIN_TOKEN, credentials, CreatedRestaurant, platformBodies, startTestApp, TestApp } from '../../test/harness';
import { runAdminCli } from '../cli/admin-cli';

jest.setTimeout(60_000);

const ROUTE = '/admin/v1/platform-restaurants';
const BASE = '/api/v1/my/integrations';

/** The operator finds who holds a platform restaurant, verifies the holder, and hands the restaurant over. */
describe('admin API: claimed platform restaurants (HTTP, real PostgreSQL)', () => {
  let t: TestApp;
  let victim: CreatedRestaurant;
  let claimant: CreatedRestaurant;
  const vendor = `ys-vendor-${Date.now().toString(36)}`;
  const body = { ...platformBodies().PLATFORM_B, providerRestaurantId: vendor };
  let victimIntegration: string;
  let claimantIntegration: string;

  beforeAll(async () => {
    t = await startTestApp();
    victim = await t.createRestaurant({ name: 'Victim Kebab' });
    claimant = await t.createRestaurant({ name: 'Claimant Kebab' });
    victimIntegration = (await t.http.post(BASE).set(credentials(victim)).send({ ...body, providerRestaurantId: `provisional-${vendor}` })).body.id;
    // The victim's integration got the vendor first (here by a PUT, as good as a create).
    await t.http.put(`${BASE}/${victimIntegration}`).set(credentials(victim)).send({ providerRestaurantId: vendor }).expect(200);
    expect((await t.http.post(BASE).set(credentials(claimant)).send(body)).status).toBe(409);
    const provisional = await t.http.post(BASE).set(credentials(claimant)).send({ ...body, providerRestaurantId: `claim-${vendor}` });
    expect(provisional.status).toBe(201);
    claimantIntegration = provisional.body.id;
  });
  afterAll(() => t?.close());

  const audit = () => t.sql('SELECT action, platform, provider_restaurant_id, integration_id, previous_integration_id, operator, note FROM platform_restaurant_audit ORDER BY id');

  it.each([
    ['get', `${ROUTE}?platform=PLATFORM_B&providerRestaurantId=x`],
    ['post', `${ROUTE}/verify`],
    ['post', `${ROUTE}/transfer`],
  ])('%s %s answers 401 without the admin token', async (method, route) => {
    for (const headers of [{}, { 'X-Admin-Token': 'wrong' }]) {
      const response = await (t.http as any)[method](route).set(headers).send({});
      expect({ status: response.status, code: response.body.code }).toEqual({ status: 401, code: 'AUTHENTICATION_FAILED' });
    }
  });

  it('looks up who holds a platform restaurant, and records the lookup', async () => {
    const response = await t.http.get(ROUTE).query({ platform: 'PLATFORM_B', providerRestaurantId: vendor, operator: 'ops:ayse' }).set(admin);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      platform: 'PLATFORM_B',
      providerRestaurantId: vendor,
      holder: {
        integrationId: victimIntegration,
        restaurantId: victim.restaurantId,
        restaurantName: 'Victim Kebab',
        accountStatus: 'active',
        isActive: true,
        displacedAt: null,
        verifiedAt: null,
        verifiedBy: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
      displaced: [],
      history: [],
    });
    expect((await audit()).pop()).toEqual({ action: 'lookup', platform: 'PLATFORM_B', provider_restaurant_id: vendor, integration_id: victimIntegration, previous_integration_id: null, operator: 'ops:ayse', note: null });
    expect((await t.http.get(ROUTE).query({ platform: 'PLATFORM_B', providerRestaurantId: 'nobody-has-it' }).set(admin)).body).toMatchObject({ holder: null, displaced: [] });
  });

  it('refuses THIRD_PARTY, unknown platforms and missing fields with 422', async () => {
    for (const query of [{ platform: 'THIRD_PARTY', providerRestaurantId: 'x' }, { platform: 'PLATFORM_Z', providerRestaurantId: 'x' }, { platform: 'PLATFORM_B' }]) {
      const response = await t.http.get(ROUTE).query(query).set(admin);
      expect({ status: response.status, code: response.body.code }).toEqual({ status: 422, code: 'VALIDATION_ERROR' });
    }
    const noOperator = await t.http.post(`${ROUTE}/verify`).set(admin).send({ platform: 'PLATFORM_B', providerRestaurantId: vendor, integrationId: victimIntegration });
    expect({ status: noOperator.status, code: noOperator.body.code }).toEqual({ status: 422, code: 'VALIDATION_ERROR' });
  });

  it('verifies the holder only (409 CONFLICT for another integration), recording who verified', async () => {
    const wrong = await t.http.post(`${ROUTE}/verify`).set(admin).send({ platform: 'PLATFORM_B', providerRestaurantId: vendor, integrationId: claimantIntegration, operator: 'ops:ayse' });
    expect({ status: wrong.status, code: wrong.body.code }).toEqual({ status: 409, code: 'CONFLICT' });

    const verified = await t.http.post(`${ROUTE}/verify`).set(admin).send({ platform: 'PLATFORM_B', providerRestaurantId: vendor, integrationId: victimIntegration, operator: 'ops:ayse', note: 'ticket 12' });
    expect(verified.status).toBe(200);
    expect(verified.body.holder).toMatchObject({ integrationId: victimIntegration, verifiedBy: 'ops:ayse', verifiedAt: expect.any(String) });
    expect(verified.body.history).toEqual([{ action: 'verify', integrationId: victimIntegration, previousIntegrationId: null, operator: 'ops:ayse', note: 'ticket 12', occurredAt: expect.any(String) }]);
    expect(await t.sql('SELECT verified_by FROM integrations WHERE id = $1', [victimIntegration])).toEqual([{ verified_by: 'ops:ayse' }]);
    expect(t.logLines.some((line) => line.includes('platform restaurant holder verified') && line.includes(victimIntegration))).toBe(true);
  });

  it('refuses a transfer to an unknown integration (404) or one of another platform (422), changing nothing', async () => {
    const transfer = (toIntegrationId: string) => t.http.post(`${ROUTE}/transfer`).set(admin).send({ platform: 'PLATFORM_B', providerRestaurantId: vendor, toIntegrationId, operator: 'ops:ayse' });
    expect((await transfer('00000000-0000-4000-8000-000000000000')).body.code).toBe('INTEGRATION_NOT_FOUND');
    expect((await transfer('not-a-uuid')).body.code).toBe('INTEGRATION_NOT_FOUND');
    const otherPlatform = await t.http.post(BASE).set(credentials(claimant)).send(platformBodies().PLATFORM_A);
    const refused = await transfer(otherPlatform.body.id);
    expect({ status: refused.status, field: refused.body.errors?.[0]?.field }).toEqual({ status: 422, field: 'toIntegrationId' });
    expect(await t.sql('SELECT restaurant_id FROM integrations WHERE platform = $1 AND provider_restaurant_id = $2 AND displaced_at IS NULL', ['PLATFORM_B', vendor])).toEqual([
      { restaurant_id: victim.restaurantId },
    ]);
  });

  it('transfers the restaurant atomically: the holder deactivated and displaced, the claimant\'s integration takes the id, both announced', async () => {
    const upsertsBefore = (await t.outbox(RoutingKey.IntegrationUpserted)).length;
    const response = await t.http
      .post(`${ROUTE}/transfer`)
      .set(admin)
      .send({ platform: 'PLATFORM_B', providerRestaurantId: vendor, toIntegrationId: claimantIntegration, operator: 'ops:mehmet', note: 'contract checked' });
    expect(response.status).toBe(200);
    expect(response.body.holder).toMatchObject({ integrationId: claimantIntegration, restaurantId: claimant.restaurantId, isActive: true, verifiedBy: 'ops:mehmet', displacedAt: null });
    expect(response.body.displaced).toEqual([expect.objectContaining({ integrationId: victimIntegration, isActive: false, displacedAt: expect.any(String), verifiedBy: null })]);
    expect(response.body.history[0]).toMatchObject({ action: 'transfer', integrationId: claimantIntegration, previousIntegrationId: victimIntegration, operator: 'ops:mehmet', note: 'contract checked' });

    // One transaction: one created_at, so the outbox's order between the two is its ids'.
    const events = (await t.outbox(RoutingKey.IntegrationUpserted)).slice(upsertsBefore).map((row) => row.payload);
    expect(events.map((event) => [event.integrationId, event.providerRestaurantId, event.isActive, event.displaced])).toEqual(
      expect.arrayContaining([
        [victimIntegration, vendor, false, true],
        [claimantIntegration, vendor, true, false],
      ]),
    );
    expect(events).toHaveLength(2);

    expect((await t.http.get(`${BASE}/${claimantIntegration}`).set(credentials(claimant))).body.providerRestaurantId).toBe(vendor);
    expect((await t.http.get(`${BASE}/${victimIntegration}`).set(credentials(victim))).body).toMatchObject({ providerRestaurantId: vendor, isActive: false });
    // The displaced one cannot take the restaurant back by itself, and the claimant's provisional id is free again.
    expect((await t.http.patch(`${BASE}/${victimIntegration}/activate`).set(credentials(victim))).body.code).toBe('INTEGRATION_EXISTS');
    expect((await t.http.post(BASE).set(credentials(victim)).send({ ...body, providerRestaurantId: `claim-${vendor}` })).status).toBe(201);
    expect(t.logLines.some((line) => line.includes('platform restaurant transferred') && line.includes(victimIntegration) && line.includes(claimantIntegration))).toBe(true);
  });

  it('a transfer to the holder only marks it verified; a transfer back displaces the new holder in turn', async () => {
    const again = await t.http.post(`${ROUTE}/transfer`).set(admin).send({ platform: 'PLATFORM_B', providerRestaurantId: vendor, toIntegrationId: claimantIntegration, operator: 'ops:zeynep' });
    expect(again.body.holder).toMatchObject({ integrationId: claimantIntegration, verifiedBy: 'ops:zeynep' });
    expect(again.body.displaced.map((entry: { integrationId: string }) => entry.integrationId)).toEqual([victimIntegration]);

    const back = await t.http.post(`${ROUTE}/transfer`).set(admin).send({ platform: 'PLATFORM_B', providerRestaurantId: vendor, toIntegrationId: victimIntegration, operator: 'ops:zeynep' });
    expect(back.status).toBe(200);
    expect(back.body.holder).toMatchObject({ integrationId: victimIntegration, isActive: false, displacedAt: null });
    expect(back.body.displaced.map((entry: { integrationId: string }) => entry.integrationId)).toEqual([claimantIntegration]);
    expect((await t.http.patch(`${BASE}/${victimIntegration}/activate`).set(credentials(victim))).status).toBe(200);
  });

  it('leaves exactly one holder when transfers to different integrations race (each 200 or 409, never a 500)', async () => {
    const contested = `${vendor}-contested`;
    const bidders = [];
    for (const account of [victim, claimant, await t.createRestaurant({ name: 'Third bidder' })]) {
      bidders.push((await t.http.post(BASE).set(credentials(account)).send({ ...body, providerRestaurantId: `bid-${account.restaurantId}` })).body.id as string);
    }
    const transferTo = (toIntegrationId: string) =>
      t.http.post(`${ROUTE}/transfer`).set(admin).send({ platform: 'PLATFORM_B', providerRestaurantId: contested, toIntegrationId, operator: 'ops:race' });
    const answers = await Promise.all([...bidders, ...bidders].map(transferTo));
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    expect(answers.some((answer) => answer.status === 200)).toBe(true);
    const holders = await t.sql('SELECT id FROM integrations WHERE platform = $1 AND provider_restaurant_id = $2 AND displaced_at IS NULL', ['PLATFORM_B', contested]);
    expect(holders).toHaveLength(1);
  });

  it('the CLI looks up, verifies and transfers through the API, with the operator recorded', async () => {
    await t.app.listen(0, '127.0.0.1');
    const url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const cli = async (args: string[]) => {
      let stdout = '';
      const code = await runAdminCli(args, { POS_URL: url, ADMIN_TOKEN, ADMIN_OPERATOR: 'ops:cli' }, { stdout: (text) => (stdout += text), stderr: () => undefined });
      return { code, json: () => JSON.parse(stdout) };
    };
    const where = ['--platform', 'PLATFORM_B', '--provider-restaurant-id', vendor];
    const looked = await cli(['lookup-platform-restaurant', ...where]);
    expect(looked.code).toBe(0);
    expect(looked.json().holder.integrationId).toBe(victimIntegration);
    expect((await cli(['verify-platform-restaurant', ...where, '--integration-id', victimIntegration])).json().holder.verifiedBy).toBe('ops:cli');
    const moved = await cli(['transfer-platform-restaurant', ...where, '--to-integration-id', claimantIntegration, '--note', 'from the CLI']);
    expect(moved.json().holder.integrationId).toBe(claimantIntegration);
    expect((await audit()).slice(-3).map((row) => [row.action, row.operator])).toEqual([
      ['lookup', 'ops:cli'],
      ['verify', 'ops:cli'],
      ['transfer', 'ops:cli'],
    ]);
  });
});
