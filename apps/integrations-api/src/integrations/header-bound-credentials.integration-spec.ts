import { SecretBox, secretBinding } from '@courier/crypto';
import { PlatformDSimulator } from '@courier/platforms/simulators';
import { waitFor } from '@courier/testing';
import { credentials, CreatedRestaurant, KEY_1, platformBodies, startTestApp, TestApp } from '../../test/harness';

jest.setTimeout(60_000);

const BASE = '/api/v1/my/integrations';
const UNSAFE = 'anahtar-şifre-ğüç';

/**
 * A credential the adapter puts into an HTTP header as it is (PLATFORM_D's apiKey in XApiKey) must
 * be visible ASCII: `ş`/`ğ` made every call of the integration throw before it was sent (the check
 * answered 500, its status updates were retried forever). Refused at create and update, nothing
 * stored, the value never echoed. Values the adapter encodes first are still free.
 */
describe('header-bound credentials must be header-safe (HTTP, real PostgreSQL)', () => {
  const d = new PlatformDSimulator({ stores: [{ storeId: '23000000000077', storeGroupId: '511', apiKey: 'migros-key-good' }] });
  let t: TestApp;
  let owner: CreatedRestaurant;

  beforeAll(async () => {
    await d.start();
    t = await startTestApp({ env: { PLATFORM_D_BASE_URL: d.baseUrl, PLATFORM_HTTP_TIMEOUT_MS: '2000' } });
    owner = await t.createRestaurant({ name: 'Migros restaurant' });
  });
  afterAll(async () => {
    await t?.close();
    await d.stop();
  });

  it('POST: a PLATFORM_D apiKey a header cannot carry is 422 VALIDATION_ERROR naming apiKey, and nothing is stored', async () => {
    const body: Record<string, string> = { ...platformBodies().PLATFORM_D, apiKey: UNSAFE };
    const response = await t.http.post(BASE).set(credentials(owner)).send(body);
    expect({ status: response.status, code: response.body.code }).toEqual({ status: 422, code: 'VALIDATION_ERROR' });
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body.errors).toEqual([{ field: 'apiKey', message: expect.stringContaining('XApiKey') }]);
    expect(JSON.stringify(response.body)).not.toContain(UNSAFE);
    expect(await t.sql('SELECT id FROM integrations WHERE provider_restaurant_id = $1', [body.providerRestaurantId])).toEqual([]);
  });

  it('PUT: refused with 422 and the stored apiKey kept; a visible-ASCII key with spaces inside is taken', async () => {
    const body = platformBodies().PLATFORM_D;
    const created = await t.http.post(BASE).set(credentials(owner)).send(body);
    expect(created.status).toBe(201);
    // The verification started by the create ends first (the simulator knows no such store: failed).
    await waitFor('verification', async () => (await t.http.get(`${BASE}/${created.body.id}`).set(credentials(owner))).body.verification.state === 'failed');
    const before = await t.sql('SELECT secrets, updated_at FROM integrations WHERE id = $1', [created.body.id]);
    const events = (await t.outbox()).length;

    const response = await t.http.put(`${BASE}/${created.body.id}`).set(credentials(owner)).send({ apiKey: UNSAFE });
    expect({ status: response.status, code: response.body.code }).toEqual({ status: 422, code: 'VALIDATION_ERROR' });
    expect(response.body.errors).toEqual([{ field: 'apiKey', message: expect.stringContaining('XApiKey') }]);
    expect(await t.sql('SELECT secrets, updated_at FROM integrations WHERE id = $1', [created.body.id])).toEqual(before);
    expect(await t.outbox()).toHaveLength(events);

    const fine = await t.http.put(`${BASE}/${created.body.id}`).set(credentials(owner)).send({ apiKey: 'migros key 7~x!' });
    expect(fine).toMatchObject({ status: 200, body: { apiKey: '****7~x!' } });
  });

  it('PLATFORM_C apiKey and secretKey (base64 of UTF-8 in Basic) take any character', async () => {
    const response = await t.http.post(BASE).set(credentials(owner)).send({ ...platformBodies().PLATFORM_C, apiKey: UNSAFE, secretKey: UNSAFE });
    expect(response.status).toBe(201);
  });

  it('check: a key stored before the rule answers 200 rejected naming XApiKey (not 500), and nothing reaches the platform', async () => {
    const created = await t.http.post(BASE).set(credentials(owner)).send({ platform: 'PLATFORM_D', providerRestaurantId: '23000000000077', providerMerchantId: '511', apiKey: 'migros-key-good' });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    // The verification the create starts (with the good key) calls the platform: let it end first.
    await waitFor('verification', async () => (await t.http.get(`${BASE}/${id}`).set(credentials(owner))).body.verification.state !== 'unverified');
    const sealed = SecretBox.fromKeyList(KEY_1).encrypt(UNSAFE, secretBinding.integrationSecret(id, 'apiKey'));
    await t.sql('UPDATE integrations SET secrets = $2 WHERE id = $1', [id, JSON.stringify({ apiKey: sealed })]);
    const calls = d.calls.length;

    const check = await t.http.post(`${BASE}/${id}/check`).set(credentials(owner));
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ integrationId: id, result: 'rejected', ok: false, detail: expect.stringContaining('XApiKey') });
    expect(JSON.stringify(check.body)).not.toContain(UNSAFE);
    expect(d.calls.length).toBe(calls);
  });
});
