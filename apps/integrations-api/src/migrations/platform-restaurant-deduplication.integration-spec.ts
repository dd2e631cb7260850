import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Queues, RoutingKey } from '@courier/contracts';
import { hashCredential, SecretBox } from '@courier/crypto';
import { appDataSourceOptions, runMigrationsLocked } from '@courier/persistence';
import { createTestDatabase, TestDatabase, waitFor } from '@courier/testing';
import { credentials, KEY_1, startTestApp, TestApp } from '../../test/harness';
import { PERSISTENCE } from '../app/persistence';
import { DEDUPLICATION_OPERATOR } from './1764300600000-OnePlatformRestaurantOneIntegration';

jest.setTimeout(60_000);

const BASE = '/api/v1/my/integrations';
const box = SecretBox.fromKeyList(KEY_1);

/**
 * A database from before the platform restaurant became unique across accounts, holding
 * duplicates of one, migrated by the app's start.
 */
describe('migration 1764300600000: existing duplicates of a platform restaurant', () => {
  let database: TestDatabase;
  let t: TestApp;
  const accounts = Array.from({ length: 3 }, () => ({ id: `rest_${randomBytes(16).toString('base64url')}`, apiKey: randomBytes(24).toString('hex'), apiSecret: randomBytes(24).toString('hex') }));
  const ids = { victimB: randomUUID(), attackerB: randomUUID(), thirdB: randomUUID(), victimA: randomUUID(), attackerA: randomUUID(), singleC: randomUUID() };

  beforeAll(async () => {
    database = await createTestDatabase('integrations_api_dedup');
    const before = await new DataSource(
      appDataSourceOptions({ schema: PERSISTENCE.schema, url: database.url, entities: PERSISTENCE.entities, migrations: (PERSISTENCE.migrations as Function[]).slice(0, 3) }),
    ).initialize();
    try {
      await runMigrationsLocked(before, PERSISTENCE.schema);
      for (const [index, account] of accounts.entries()) {
        await before.query(`INSERT INTO restaurants (id, name, status, api_key_hash, api_secret_hash) VALUES ($1, $2, 'active', $3, $4)`, [account.id, `Account ${index}`, hashCredential(account.apiKey), hashCredential(account.apiSecret)]);
        // THIRD_PARTY labels are the customers' own: the same one in every account stays.
        await before.query(`INSERT INTO integrations (id, restaurant_id, platform, provider_restaurant_id) VALUES ($1, $2, 'THIRD_PARTY', 'same-pos-label')`, [randomUUID(), account.id]);
      }
      const integration = (id: string, account: number, platform: string, vendor: string, createdAt: string, isActive = true) =>
        before.query(
          `INSERT INTO integrations (id, restaurant_id, platform, provider_restaurant_id, is_active, settings, secrets, version, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 2, $8, $8)`,
          [id, accounts[account].id, platform, vendor, isActive, JSON.stringify({ chainCode: `chain-${account}` }), JSON.stringify({ password: box.encrypt(`password-${account}-1234`) }), createdAt],
        );
      // The victim registered first and paused; the attacker's copies are younger.
      await integration(ids.victimB, 0, 'PLATFORM_B', 'demo-ys-vendor', '2025-01-01T00:00:00Z', false);
      await integration(ids.attackerB, 1, 'PLATFORM_B', 'demo-ys-vendor', '2025-02-01T00:00:00Z');
      await integration(ids.thirdB, 2, 'PLATFORM_B', 'demo-ys-vendor', '2025-03-01T00:00:00Z');
      await integration(ids.victimA, 0, 'PLATFORM_A', 'getir-1', '2025-01-01T00:00:00Z');
      await integration(ids.attackerA, 1, 'PLATFORM_A', 'getir-1', '2025-01-05T00:00:00Z');
      await integration(ids.singleC, 2, 'PLATFORM_C', 'ty-1', '2025-01-01T00:00:00Z');
    } finally {
      await before.destroy();
    }
    t = await startTestApp({ database });
  });
  afterAll(() => t?.close());

  const row = async (id: string) => (await t.sql('SELECT is_active, displaced_at, version FROM integrations WHERE id = $1', [id]))[0];

  it('keeps the oldest holder of each platform restaurant and deactivates and displaces the others', async () => {
    expect(await row(ids.victimB)).toEqual({ is_active: false, displaced_at: null, version: 2 });
    expect(await row(ids.victimA)).toEqual({ is_active: true, displaced_at: null, version: 2 });
    expect(await row(ids.singleC)).toEqual({ is_active: true, displaced_at: null, version: 2 });
    for (const id of [ids.attackerB, ids.thirdB, ids.attackerA]) expect(await row(id)).toEqual({ is_active: false, displaced_at: expect.any(Date), version: 3 });
    expect(await t.sql(`SELECT count(*)::int AS n FROM integrations WHERE platform = 'THIRD_PARTY' AND provider_restaurant_id = 'same-pos-label' AND displaced_at IS NULL`)).toEqual([{ n: 3 }]);
  });

  it('records each displacement in the audit table and the log', async () => {
    const audit = await t.sql('SELECT action, platform, provider_restaurant_id, integration_id, previous_integration_id, operator FROM platform_restaurant_audit ORDER BY id');
    expect(audit).toEqual([
      { action: 'deduplicate', platform: 'PLATFORM_A', provider_restaurant_id: 'getir-1', integration_id: ids.victimA, previous_integration_id: ids.attackerA, operator: DEDUPLICATION_OPERATOR },
      { action: 'deduplicate', platform: 'PLATFORM_B', provider_restaurant_id: 'demo-ys-vendor', integration_id: ids.victimB, previous_integration_id: ids.attackerB, operator: DEDUPLICATION_OPERATOR },
      { action: 'deduplicate', platform: 'PLATFORM_B', provider_restaurant_id: 'demo-ys-vendor', integration_id: ids.victimB, previous_integration_id: ids.thirdB, operator: DEDUPLICATION_OPERATOR },
    ]);
    const warnings = t.logLines.filter((line) => line.includes('duplicate platform restaurant'));
    expect(warnings).toHaveLength(3);
    expect(warnings.some((line) => line.includes(ids.attackerB) && line.includes(ids.victimB))).toBe(true);
  });

  it('announces each displacement to the dispatcher (integration.upserted, inactive, displaced, next version)', async () => {
    const events = (await t.outbox(RoutingKey.IntegrationUpserted)).map((event) => event.payload);
    expect(events).toHaveLength(3);
    expect(events.find((event) => event.integrationId === ids.attackerB)).toEqual({
      integrationId: ids.attackerB,
      restaurantId: accounts[1].id,
      platform: 'PLATFORM_B',
      providerRestaurantId: 'demo-ys-vendor',
      isActive: false,
      displaced: true,
      settings: { chainCode: 'chain-1' },
      secrets: { password: expect.stringMatching(/^v1:k1:/) },
      version: 3,
      createdAt: '2025-02-01T00:00:00.000Z',
      updatedAt: expect.any(String),
      occurredAt: expect.any(String),
    });
    const toDispatcher = () => t.delivered.filter((message) => message.queue === Queues.dispatcherAccountEvents.name && (message.payload as any).displaced === true);
    await waitFor('the displacements published to the dispatcher', () => toDispatcher().length === 3, 10_000);
  });

  it('enforces one holder from now on: a displaced integration claims its restaurant again only once the holder is gone', async () => {
    const attacker = accounts[1];
    expect((await t.http.patch(`${BASE}/${ids.attackerB}/activate`).set(credentials(attacker))).body.code).toBe('INTEGRATION_EXISTS');
    const again = await t.http.post(BASE).set(credentials(attacker)).send({ platform: 'PLATFORM_B', providerRestaurantId: 'demo-ys-vendor', chainCode: 'c', username: 'u', password: 'p-123456' });
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 409, code: 'INTEGRATION_EXISTS' });

    await t.http.delete(`${BASE}/${ids.victimA}`).set(credentials(accounts[0])).expect(204);
    const reclaimed = await t.http.patch(`${BASE}/${ids.attackerA}/activate`).set(credentials(attacker));
    expect({ status: reclaimed.status, isActive: reclaimed.body.isActive }).toEqual({ status: 200, isActive: true });
    expect(await row(ids.attackerA)).toEqual({ is_active: true, displaced_at: null, version: 4 });
    const last = (await t.outbox(RoutingKey.IntegrationUpserted)).filter((event) => event.payload.integrationId === ids.attackerA).pop();
    expect(last?.payload).toMatchObject({ isActive: true, displaced: false, version: 4 });
  });
});
