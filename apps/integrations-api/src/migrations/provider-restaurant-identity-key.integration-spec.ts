import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { hashCredential, SecretBox } from '@courier/crypto';
import { appDataSourceOptions, runMigrationsLocked } from '@courier/persistence';
import { createTestDatabase, TestDatabase } from '@courier/testing';
import { credentials, KEY_1, platformBodies, startTestApp, TestApp } from '../../test/harness';
import { PERSISTENCE } from '../app/persistence';

jest.setTimeout(60_000);

const BASE = '/api/v1/my/integrations';
const box = SecretBox.fromKeyList(KEY_1);

/** providerRestaurantIds differing only by case, width or surrounding space are one platform restaurant. */
describe('providerRestaurantId identity (migration 1764401100000 and the API)', () => {
  let database: TestDatabase;
  let t: TestApp;
  const accounts = Array.from({ length: 2 }, () => ({ id: `rest_${randomBytes(16).toString('base64url')}`, apiKey: randomBytes(24).toString('hex'), apiSecret: randomBytes(24).toString('hex') }));
  const older = randomUUID();
  const younger = randomUUID();

  beforeAll(async () => {
    database = await createTestDatabase('integrations_api_identity');
    const migrations = PERSISTENCE.migrations as Function[];
    const before = await new DataSource(
      appDataSourceOptions({ schema: PERSISTENCE.schema, url: database.url, entities: PERSISTENCE.entities, migrations: migrations.slice(0, migrations.length - 1) }),
    ).initialize();
    try {
      await runMigrationsLocked(before, PERSISTENCE.schema);
      for (const [index, account] of accounts.entries()) {
        await before.query(`INSERT INTO restaurants (id, name, status, api_key_hash, api_secret_hash) VALUES ($1, $2, 'active', $3, $4)`, [account.id, `Account ${index}`, hashCredential(account.apiKey), hashCredential(account.apiSecret)]);
      }
      // Two live integrations of one Getir restaurant, written before ids were compared by identity.
      for (const [id, account, vendor, createdAt] of [[older, 0, 'GETIR-7', '2025-01-01T00:00:00Z'], [younger, 1, 'getir-7', '2025-02-01T00:00:00Z']] as const) {
        await before.query(
          `INSERT INTO integrations (id, restaurant_id, platform, provider_restaurant_id, is_active, settings, secrets, version, created_at, updated_at)
           VALUES ($1, $2, 'PLATFORM_A', $3, true, '{}', $4, 1, $5, $5)`,
          [id, accounts[account].id, vendor, JSON.stringify({ secretKey: box.encrypt(`secret-${account}-1234`) }), createdAt],
        );
      }
    } finally {
      await before.destroy();
    }
    t = await startTestApp({ database });
  });
  afterAll(() => t?.close());

  it('migrates a database holding two ids that differ only by case: the older gets the key, the younger is kept and logged', async () => {
    const rows = await t.sql('SELECT id, provider_restaurant_id, provider_restaurant_key FROM integrations ORDER BY created_at');
    expect(rows).toEqual([
      { id: older, provider_restaurant_id: 'GETIR-7', provider_restaurant_key: 'getir-7' },
      { id: younger, provider_restaurant_id: 'getir-7', provider_restaurant_key: null },
    ]);
    expect(t.logLines.some((line) => line.includes(younger) && line.includes('differs only by case'))).toBe(true);
    // The kept one still works: it can be paused and resumed.
    expect((await t.http.patch(`${BASE}/${younger}/deactivate`).set(credentials(accounts[1]))).status).toBe(200);
  });

  it("refuses 'abc' after 'ABC' (and full-width or spaced forms) with 409 INTEGRATION_EXISTS, in the same account and across accounts", async () => {
    const owner = await t.createRestaurant({ name: 'Identity owner' });
    const other = await t.createRestaurant({ name: 'Identity other' });
    const body = platformBodies().PLATFORM_B;
    const first = await t.http.post(BASE).set(credentials(owner)).send({ ...body, providerRestaurantId: ' ABC-Vendor ' });
    expect({ status: first.status, providerRestaurantId: first.body.providerRestaurantId }).toEqual({ status: 201, providerRestaurantId: 'ABC-Vendor' });
    for (const [account, id] of [[other, 'abc-vendor'], [owner, 'abc-vendor'], [other, '\uff21\uff22\uff23-VENDOR'], [other, '\u3000Abc-Vendor']] as const) {
      const again = await t.http.post(BASE).set(credentials(account)).send({ ...body, providerRestaurantId: id });
      expect({ id, status: again.status, code: again.body.code }).toEqual({ id, status: 409, code: 'INTEGRATION_EXISTS' });
    }
    // Renaming another integration onto it is the same conflict.
    const elsewhere = await t.http.post(BASE).set(credentials(other)).send({ ...platformBodies().PLATFORM_B });
    const renamed = await t.http.put(`${BASE}/${elsewhere.body.id}`).set(credentials(other)).send({ providerRestaurantId: 'aBc-vEnDoR' });
    expect({ status: renamed.status, code: renamed.body.code }).toEqual({ status: 409, code: 'INTEGRATION_EXISTS' });
    // Getir's old pair: a new spelling of it is taken too.
    const getir = await t.http.post(BASE).set(credentials(other)).send({ ...platformBodies().PLATFORM_A, providerRestaurantId: 'Getir-7' });
    expect({ status: getir.status, code: getir.body.code }).toEqual({ status: 409, code: 'INTEGRATION_EXISTS' });
  });

  it('refuses bidi, zero-width and C1 characters in providerRestaurantId and the credential ids with 422 naming the field', async () => {
    const owner = await t.createRestaurant({ name: 'Identity chars' });
    const body = platformBodies().PLATFORM_C;
    for (const [field, value] of [['providerRestaurantId', 'c-\u202eevil'], ['supplierId', 'sup\u200b-1'], ['storeId', 'store\u0085'], ['providerRestaurantId', '\ufeffc-1']] as const) {
      const refused = await t.http.post(BASE).set(credentials(owner)).send({ ...body, [field]: value });
      expect({ status: refused.status, code: refused.body.code, fields: refused.body.errors?.map((error: { field: string }) => error.field) }).toEqual({ status: 422, code: 'VALIDATION_ERROR', fields: [field] });
    }
  });
});
