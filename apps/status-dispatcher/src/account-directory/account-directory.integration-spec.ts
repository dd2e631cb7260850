import { randomUUID } from 'node:crypto';
import { AccountSnapshot, IntegrationUpsertedEvent, Queues, RoutingKey } from '@courier/contracts';
import { ProblemException } from '@courier/http';
import { InProcessBroker } from '@courier/messaging';
import { newRestaurantId, startTestApp, TestApp } from '../../test/harness';
import { IntegrationDirectory } from '../platform-sessions/integration-directory';

jest.setTimeout(60_000);

function account(restaurantId: string, version: number, changes: Partial<AccountSnapshot> = {}): AccountSnapshot {
  return {
    restaurantId,
    name: `Restaurant v${version}`,
    status: 'active',
    apiKeyHash: 'a'.repeat(64),
    apiSecretHash: 'b'.repeat(64),
    thirdParty: { integrationId: randomUUID(), providerRestaurantId: 'pos-1', isActive: true },
    webhooks: { statusUrl: 'https://pos.example.com/status', cancelUrl: null, signingSecretCiphertext: 'v1:k1:secret-ciphertext' },
    version,
    createdAt: '2025-01-01T00:00:00.000Z',
    occurredAt: new Date(Date.UTC(2025, 0, 1, 0, version)).toISOString(),
    ...changes,
  };
}

function integration(restaurantId: string, integrationId: string, version: number, changes: Partial<IntegrationUpsertedEvent> = {}): IntegrationUpsertedEvent {
  return {
    integrationId,
    restaurantId,
    platform: 'PLATFORM_B',
    providerRestaurantId: `b-${version}`,
    isActive: true,
    settings: { chainCode: 'chain', username: 'user' },
    secrets: { password: `v1:k1:ciphertext-${version}` },
    version,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    occurredAt: new Date(Date.UTC(2025, 0, 1, 0, version)).toISOString(),
    ...changes,
  };
}

/** The dispatcher's copy of accounts and integrations, from integrations-api's events. */
describe('account directory (status-dispatcher.account-events)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const storedAccount = async (restaurantId: string) => (await t.sql('SELECT name, status, third_party, version FROM restaurant_accounts WHERE restaurant_id = $1', [restaurantId]))[0];
  const storedIntegration = async (integrationId: string) =>
    (await t.sql('SELECT provider_restaurant_id, is_active, settings, secrets, version, deleted_at FROM integrations WHERE integration_id = $1', [integrationId]))[0];

  it('keeps the newest account snapshot, whatever the order of arrival; only what the dispatcher needs', async () => {
    const restaurantId = newRestaurantId();
    const created = account(restaurantId, 1);
    await t.deliver(RoutingKey.AccountCreated, created);
    await t.deliver(RoutingKey.AccountDisabled, account(restaurantId, 3, { status: 'disabled', thirdParty: created.thirdParty }));
    // Late and duplicate snapshots change nothing.
    await t.deliver(RoutingKey.AccountUpdated, account(restaurantId, 2, { name: 'stale' }));
    await t.deliver(RoutingKey.AccountCreated, created);
    expect(await storedAccount(restaurantId)).toEqual({ name: 'Restaurant v3', status: 'disabled', third_party: created.thirdParty, version: 3 });
    // Only what the dispatcher needs: the key pair's hashes for its management API (availability), never webhook settings or secrets.
    const columns = await t.sql(`SELECT column_name FROM information_schema.columns WHERE table_schema = 'dispatcher' AND table_name = 'restaurant_accounts'`);
    expect(columns.map((column) => column.column_name).sort()).toEqual(['api_key_hash', 'api_secret_hash', 'name', 'occurred_at', 'restaurant_id', 'status', 'third_party', 'updated_at', 'version']);
    expect(await t.sql('SELECT api_key_hash, api_secret_hash FROM restaurant_accounts WHERE restaurant_id = $1', [restaurantId])).toEqual([{ api_key_hash: created.apiKeyHash, api_secret_hash: created.apiSecretHash }]);
  });

  it('keeps integrations with secret ciphertexts, newest version wins, deletes leave a tombstone', async () => {
    const restaurantId = newRestaurantId();
    const integrationId = randomUUID();
    await t.deliver(RoutingKey.IntegrationUpserted, integration(restaurantId, integrationId, 1));
    await t.deliver(RoutingKey.IntegrationUpserted, integration(restaurantId, integrationId, 2, { isActive: false }));
    expect(await storedIntegration(integrationId)).toEqual({
      provider_restaurant_id: 'b-2',
      is_active: false,
      settings: { chainCode: 'chain', username: 'user' },
      secrets: { password: 'v1:k1:ciphertext-2' },
      version: 2,
      deleted_at: null,
    });

    await t.deliver(RoutingKey.IntegrationDeleted, { integrationId, restaurantId, platform: 'PLATFORM_B', providerRestaurantId: 'b-2', version: 3, occurredAt: '2025-01-01T00:03:00.000Z' });
    // An upsert that arrives after the delete, with an older version, does not bring it back.
    await t.deliver(RoutingKey.IntegrationUpserted, integration(restaurantId, integrationId, 2));
    expect(await storedIntegration(integrationId)).toEqual({
      provider_restaurant_id: 'b-2',
      is_active: false,
      settings: {},
      secrets: {},
      version: 3,
      deleted_at: new Date('2025-01-01T00:03:00.000Z'),
    });
  });

  it('a delete that arrives first is kept as a tombstone too', async () => {
    const restaurantId = newRestaurantId();
    const integrationId = randomUUID();
    await t.deliver(RoutingKey.IntegrationDeleted, { integrationId, restaurantId, platform: 'PLATFORM_A', providerRestaurantId: 'a-1', version: 2, occurredAt: '2025-01-01T00:02:00.000Z' });
    await t.deliver(RoutingKey.IntegrationUpserted, integration(restaurantId, integrationId, 1, { platform: 'PLATFORM_A' }));
    expect(await storedIntegration(integrationId)).toMatchObject({ version: 2, is_active: false, secrets: {} });
  });

  describe('routing by platform restaurant', () => {
    const holderOf = (providerRestaurantId: string) => t.app.get(IntegrationDirectory).forPlatformRestaurant('PLATFORM_B', providerRestaurantId);
    const refusal = async (providerRestaurantId: string) => {
      const error = await holderOf(providerRestaurantId).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(ProblemException);
      const problem = error as ProblemException;
      return { status: problem.getStatus(), code: problem.code, retryAfter: problem.headers['Retry-After'] };
    };
    const metric = async () => {
      const text: string = (await t.http.get('/metrics')).text;
      return Number(/^platform_restaurant_ambiguous_total\{[^}]*platform="PLATFORM_B"[^}]*\} (\d+)/m.exec(text)?.[1] ?? 0);
    };

    it('returns the one live integration, paused or not; a displaced or deleted one does not count', async () => {
      const vendor = `vendor-${randomUUID()}`;
      const holder = randomUUID();
      const restaurantId = newRestaurantId();
      await t.deliver(RoutingKey.IntegrationUpserted, integration(restaurantId, holder, 1, { providerRestaurantId: vendor, isActive: false }));
      expect(await holderOf(vendor)).toMatchObject({ integrationId: holder, restaurantId, isActive: false });

      const displaced = randomUUID();
      await t.deliver(RoutingKey.IntegrationUpserted, integration(newRestaurantId(), displaced, 2, { providerRestaurantId: vendor, isActive: false, displaced: true }));
      const deleted = randomUUID();
      await t.deliver(RoutingKey.IntegrationDeleted, { integrationId: deleted, restaurantId: newRestaurantId(), platform: 'PLATFORM_B', providerRestaurantId: vendor, version: 2, occurredAt: '2025-01-01T00:02:00.000Z' });
      expect(await holderOf(vendor)).toMatchObject({ integrationId: holder });
      expect((await t.sql('SELECT displaced FROM integrations WHERE integration_id = $1', [displaced]))[0]).toEqual({ displaced: true });
      expect(await holderOf(`unknown-${vendor}`)).toBeUndefined();
    });

    it('refuses (503, Retry-After, logged and counted) while two live integrations hold a restaurant, whichever order a transfer\'s events come in', async () => {
      for (const newHolderFirst of [true, false]) {
        const vendor = `vendor-${randomUUID()}`;
        const [oldHolder, newHolder] = [randomUUID(), randomUUID()];
        const [oldAccount, newAccount] = [newRestaurantId(), newRestaurantId()];
        await t.deliver(RoutingKey.IntegrationUpserted, integration(oldAccount, oldHolder, 1, { providerRestaurantId: vendor }));
        await t.deliver(RoutingKey.IntegrationUpserted, integration(newAccount, newHolder, 1, { providerRestaurantId: `provisional-${vendor}` }));
        expect(await holderOf(vendor)).toMatchObject({ integrationId: oldHolder });

        // The transfer: the old holder displaced, the new one given the restaurant (two events, two integrations).
        const displaceOld = () => t.deliver(RoutingKey.IntegrationUpserted, integration(oldAccount, oldHolder, 2, { providerRestaurantId: vendor, isActive: false, displaced: true }));
        const giveNew = () => t.deliver(RoutingKey.IntegrationUpserted, integration(newAccount, newHolder, 2, { providerRestaurantId: vendor }));
        if (newHolderFirst) {
          await giveNew();
          const before = await metric();
          expect(await refusal(vendor)).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: '30' });
          expect(await metric()).toBe(before + 1);
          expect(t.logLines.some((line) => line.includes('several live integrations hold this platform restaurant') && line.includes(oldHolder) && line.includes(newHolder))).toBe(true);
          await displaceOld();
        } else {
          await displaceOld();
          expect(await holderOf(vendor)).toBeUndefined();
          await giveNew();
        }
        expect(await holderOf(vendor)).toMatchObject({ integrationId: newHolder, restaurantId: newAccount, isActive: true });
      }
    });
  });

  it('dead-letters a malformed account event after the delivery limit', async () => {
    const broker = InProcessBroker.shared();
    const before = broker.deadLetters(Queues.dispatcherAccountEvents.name).length;
    const restaurantId = newRestaurantId();
    await t.deliver(RoutingKey.AccountUpdated, { ...account(restaurantId, 1), version: 0 });
    expect(broker.deadLetters(Queues.dispatcherAccountEvents.name).length - before).toBe(1);
    expect(await storedAccount(restaurantId)).toBeUndefined();
  });
});
