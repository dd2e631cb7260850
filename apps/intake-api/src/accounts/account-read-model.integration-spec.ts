import { randomBytes, randomUUID } from 'node:crypto';
import { RoutingKey } from '@courier/contracts';
import { hashCredential } from '@courier/crypto';
import { sleep } from '@courier/testing';
import { IntakeTestApp, keyHeader, newAccountSnapshot, startIntakeApp, validOrder } from '../../test/harness';

const ORDER = '/webhook/third-party/order';

describe('account read model (account.* events)', () => {
  let t: IntakeTestApp;
  beforeAll(async () => {
    t = await startIntakeApp();
  });
  afterAll(() => t?.close());

  const post = (restaurantId: string, headers: Record<string, string>) => t.http.post(ORDER).set(headers).send(validOrder(restaurantId));

  it('keeps only the newest version, whatever the arrival order', async () => {
    const { snapshot } = newAccountSnapshot();
    await t.publishAccount({ ...snapshot, version: 3, name: 'v3' }, RoutingKey.AccountUpdated);
    await t.transport.publish([
      { messageId: randomUUID(), routingKey: RoutingKey.AccountCreated, payload: { ...snapshot, version: 1, status: 'disabled' } },
      { messageId: randomUUID(), routingKey: RoutingKey.AccountUpdated, payload: { ...snapshot, version: 2, status: 'disabled' } },
    ]);
    const [row] = await t.sql('SELECT status, version FROM accounts WHERE restaurant_id = $1', [snapshot.restaurantId]);
    expect(row).toEqual({ status: 'active', version: 3 });
  });

  it('enforces a deactivation of the THIRD_PARTY integration within one second of the event', async () => {
    const account = await t.createAccount();
    expect((await post(account.restaurantId, keyHeader(account))).status).toBe(202);
    const published = Date.now();
    await t.transport.publish([
      {
        messageId: randomUUID(),
        routingKey: RoutingKey.AccountUpdated,
        payload: { ...account.snapshot, version: 2, thirdParty: { ...account.snapshot.thirdParty!, isActive: false } },
      },
    ]);
    let status = 0;
    while (Date.now() - published < 1000) {
      status = (await post(account.restaurantId, keyHeader(account))).status;
      if (status === 403) break;
      await sleep(20);
    }
    expect(status).toBe(403);
    expect(Date.now() - published).toBeLessThan(1000);
  });

  it('enforces it within one second on a replica that did not consume the event (cache of 250 ms)', async () => {
    const replica = await startIntakeApp({ database: t.database });
    try {
      const account = await t.createAccount();
      // The replica caches the account by key...
      expect((await replica.http.post(ORDER).set(keyHeader(account)).send(validOrder(account.restaurantId))).status).toBe(202);
      // ...and the change reaches only the database (another replica consumed it).
      await t.sql('UPDATE accounts SET third_party_active = false, version = version + 1 WHERE restaurant_id = $1', [account.restaurantId]);
      const changed = Date.now();
      let status = 0;
      while (Date.now() - changed < 1000) {
        status = (await replica.http.post(ORDER).set(keyHeader(account)).send(validOrder(account.restaurantId))).status;
        if (status === 403) break;
        await sleep(20);
      }
      expect(status).toBe(403);
      expect(Date.now() - changed).toBeLessThan(1000);
    } finally {
      await replica.close({ keepDatabase: true });
    }
  });

  it('refuses a disabled account\'s key with 401, and takes it back when re-enabled', async () => {
    let account = await t.createAccount();
    account = await t.updateAccount(account, { status: 'disabled' }, RoutingKey.AccountDisabled);
    expect((await post(account.restaurantId, keyHeader(account))).status).toBe(401);
    account = await t.updateAccount(account, { status: 'active' });
    expect((await post(account.restaurantId, keyHeader(account))).status).toBe(202);
  });

  it('follows a key rotation: the old key stops, the new one works', async () => {
    const account = await t.createAccount();
    const apiKey = `cik_${randomBytes(32).toString('base64url')}`;
    const apiSecret = `cis_${randomBytes(32).toString('base64url')}`;
    await t.updateAccount(account, { apiKeyHash: hashCredential(apiKey), apiSecretHash: hashCredential(apiSecret) }, RoutingKey.AccountKeysRotated);
    expect((await post(account.restaurantId, keyHeader(account))).status).toBe(401);
    expect((await post(account.restaurantId, { 'X-API-Key': apiKey })).status).toBe(202);
  });

  it('ignores integration.* events and dead-letters malformed snapshots instead of applying them', async () => {
    const account = await t.createAccount();
    await t.transport.publish([
      { messageId: randomUUID(), routingKey: RoutingKey.IntegrationUpserted, payload: { integrationId: randomUUID(), restaurantId: account.restaurantId, platform: 'PLATFORM_A', isActive: false, version: 9 } },
    ]);
    const malformed = t.transport.publish([{ messageId: randomUUID(), routingKey: RoutingKey.AccountUpdated, payload: { ...account.snapshot, version: 5, apiKeyHash: 'not-a-hash' } }]);
    await malformed; // in-process: resolves once dead-lettered after the delivery limit
    const [row] = await t.sql('SELECT version, api_key_hash FROM accounts WHERE restaurant_id = $1', [account.restaurantId]);
    expect(row).toEqual({ version: 1, api_key_hash: account.snapshot.apiKeyHash });
    expect((await post(account.restaurantId, keyHeader(account))).status).toBe(202);
  });
});
