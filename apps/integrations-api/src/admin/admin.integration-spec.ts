import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RoutingKey } from '@courier/contracts';
import { hashCredential } from '@courier/crypto';
import { admin, ADMIN_TOKEN, credentials, startTestApp, TestApp } from '../../test/harness';
import { runAdminCli } from '../cli/admin-cli';

jest.setTimeout(60_000);

const ADMIN = '/admin/v1/restaurants';

describe('admin API (HTTP, real PostgreSQL)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  describe('X-Admin-Token', () => {
    const routes: Array<[string, string]> = [
      ['post', ADMIN],
      ['get', ADMIN],
      ['get', `${ADMIN}/rest_aaaaaaaaaaaaaaaaaaaaaaaa`],
      ['post', `${ADMIN}/rest_aaaaaaaaaaaaaaaaaaaaaaaa/disable`],
      ['post', `${ADMIN}/rest_aaaaaaaaaaaaaaaaaaaaaaaa/enable`],
      ['post', `${ADMIN}/rest_aaaaaaaaaaaaaaaaaaaaaaaa/rotate-keys`],
      ['post', '/admin/v1/secrets/reencrypt'],
    ];
    it.each(routes)('%s %s answers 401 without the right token', async (method, route) => {
      for (const headers of [{}, { 'X-Admin-Token': 'wrong' }, { 'X-Admin-Token': `${ADMIN_TOKEN}x` }, { 'X-Admin-Token': ADMIN_TOKEN.slice(0, -1) }]) {
        const response = await (t.http as any)[method](route).set(headers).send({ name: 'x' });
        expect(response.status).toBe(401);
        expect(response.body.code).toBe('AUTHENTICATION_FAILED');
      }
    });
  });

  describe('POST /admin/v1/restaurants', () => {
    it('creates an active account with a key pair shown once, stored only as hashes, and its THIRD_PARTY integration', async () => {
      const response = await t.http.post(ADMIN).set(admin).send({ name: 'Kebab House', providerRestaurantId: 'pos-17' });
      expect(response.status).toBe(201);
      const body = response.body;
      expect(response.headers.location).toBe(`${ADMIN}/${body.restaurantId}`);
      expect(body).toEqual({
        restaurantId: expect.stringMatching(/^rest_[A-Za-z0-9_-]{24}$/),
        name: 'Kebab House',
        status: 'active',
        thirdParty: { integrationId: expect.any(String), providerRestaurantId: 'pos-17', isActive: true },
        webhooks: { statusUrl: null, cancelUrl: null, signingEnabled: false },
        version: 1,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        apiKey: expect.stringMatching(/^cik_[A-Za-z0-9_-]{43}$/),
        apiSecret: expect.stringMatching(/^cis_[A-Za-z0-9_-]{43}$/),
      });
      const [row] = await t.sql('SELECT * FROM restaurants WHERE id = $1', [body.restaurantId]);
      expect(row.api_key_hash).toBe(hashCredential(body.apiKey));
      expect(row.api_secret_hash).toBe(hashCredential(body.apiSecret));
      const everything = JSON.stringify(await t.sql('SELECT * FROM restaurants')) + JSON.stringify(await t.sql('SELECT payload FROM outbox_messages'));
      expect(everything).not.toContain(body.apiKey);
      expect(everything).not.toContain(body.apiSecret);

      const integrations = await t.http.get('/api/v1/my/integrations').set(credentials(body));
      expect(integrations.body.data).toEqual([expect.objectContaining({ id: body.thirdParty.integrationId, platform: 'THIRD_PARTY', providerRestaurantId: 'pos-17', isActive: true })]);

      const read = await t.http.get(ADMIN + '/' + body.restaurantId).set(admin);
      expect(read.body).not.toHaveProperty('apiKey');
      expect(read.body).not.toHaveProperty('apiSecret');
      const mine = await t.http.get('/api/v1/my/account').set(credentials(body));
      expect(mine.body).toEqual({ restaurantId: body.restaurantId, name: 'Kebab House', status: 'active', thirdParty: body.thirdParty, createdAt: body.createdAt });
    });

    it('publishes account.created and integration.upserted with what consumers need', async () => {
      const created = await t.createRestaurant({ name: 'Evented' });
      const [account] = (await t.outbox(RoutingKey.AccountCreated)).filter((row) => row.payload.restaurantId === created.restaurantId);
      expect(account.payload).toEqual({
        restaurantId: created.restaurantId,
        name: 'Evented',
        status: 'active',
        apiKeyHash: hashCredential(created.apiKey),
        apiSecretHash: hashCredential(created.apiSecret),
        thirdParty: { integrationId: created.thirdParty.integrationId, providerRestaurantId: created.restaurantId, isActive: true },
        webhooks: { statusUrl: null, cancelUrl: null, signingSecretCiphertext: null, previousSigningSecretCiphertext: null, previousSigningSecretValidUntil: null },
        version: 1,
        createdAt: created.createdAt,
        occurredAt: expect.any(String),
      });
      const [integration] = (await t.outbox(RoutingKey.IntegrationUpserted)).filter((row) => row.payload.restaurantId === created.restaurantId);
      expect(integration.payload).toMatchObject({ integrationId: created.thirdParty.integrationId, platform: 'THIRD_PARTY', isActive: true, version: 1, secrets: {}, settings: {} });
    });

    it('sets webhook URLs and a signing secret at creation (for the one-machine launcher)', async () => {
      const response = await t.http
        .post(ADMIN)
        .set(admin)
        .send({ name: 'With hooks', statusUrl: 'https://93.184.216.34/status', cancelUrl: 'https://93.184.216.34/cancel', generateSigningSecret: true });
      expect(response.status).toBe(201);
      expect(response.body.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(response.body.webhooks).toEqual({ statusUrl: 'https://93.184.216.34/status', cancelUrl: 'https://93.184.216.34/cancel', signingEnabled: true });
      const settings = await t.http.get('/api/v1/my/webhooks').set(credentials(response.body));
      expect(settings.body.signingSecret).toBe(`****${response.body.signingSecret.slice(-4)}`);
      const [event] = (await t.outbox(RoutingKey.AccountCreated)).filter((row) => row.payload.restaurantId === response.body.restaurantId);
      expect(event.payload.webhooks.signingSecretCiphertext).toMatch(/^v2:k1:/);
      expect(JSON.stringify(event.payload)).not.toContain(response.body.signingSecret);
    });

    it.each([
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'a\u0000b' }, 'name'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ name: 42 }, 'name'],
      [{ name: 'ok', colour: 'red' }, 'colour'],
      [{ name: 'ok', providerRestaurantId: '' }, 'providerRestaurantId'],
      [{ name: 'ok', statusUrl: 'http://93.184.216.34/x' }, 'statusUrl'],
      [{ name: 'ok', cancelUrl: 'https://127.0.0.1/x' }, 'cancelUrl'],
      [{ name: 'ok', statusUrl: 'https://user:pw@93.184.216.34/x' }, 'statusUrl'],
      [{ name: 'ok', generateSigningSecret: 'yes' }, 'generateSigningSecret'],
    ])('refuses %p with 422 naming %s', async (body, field) => {
      const response = await t.http.post(ADMIN).set(admin).send(body);
      expect(response.status).toBe(422);
      expect(response.body.code).toBe('VALIDATION_ERROR');
      expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    });
  });

  describe('list and read', () => {
    it('pages through every account, oldest first, and filters by status', async () => {
      for (let index = 0; index < 4; index += 1) await t.createRestaurant({ name: `Paged ${index}` });
      const all = (await t.http.get(ADMIN).query({ limit: 200 }).set(admin)).body.data.map((row: { restaurantId: string }) => row.restaurantId);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: any = await t.http.get(ADMIN).query({ limit: 2, ...(cursor ? { cursor } : {}) }).set(admin);
        expect(page.status).toBe(200);
        seen.push(...page.body.data.map((row: { restaurantId: string }) => row.restaurantId));
        cursor = page.body.nextCursor;
      } while (cursor);
      expect(seen).toEqual(all);
      expect(new Set(seen).size).toBe(seen.length);

      const target = all[0];
      await t.http.post(`${ADMIN}/${target}/disable`).set(admin).expect(200);
      const disabled = await t.http.get(ADMIN).query({ status: 'disabled' }).set(admin);
      expect(disabled.body.data.map((row: { restaurantId: string }) => row.restaurantId)).toEqual([target]);
      await t.http.post(`${ADMIN}/${target}/enable`).set(admin).expect(200);
    });

    it.each([{ limit: 0 }, { limit: 201 }, { cursor: 'nope' }, { status: 'gone' }, { other: 1 }])('refuses the query %p with 422', async (query) => {
      const response = await t.http.get(ADMIN).query(query).set(admin);
      expect(response.status).toBe(422);
    });

    // A NUL in an id ('%00') is refused before any route, by the check of every app (input-handling.integration-spec.ts): 422.
    it.each(['rest_doesnotexistdoesnotexist', 'nope', 'rest_', 'rest_aaaaaaaaaaaaaaaaaaaaaaaa%27'])('answers 404 RESTAURANT_NOT_FOUND for %p', async (id) => {
      for (const [method, suffix] of [['get', ''], ['post', '/disable'], ['post', '/enable'], ['post', '/rotate-keys']]) {
        const response = await (t.http as any)[method](`${ADMIN}/${id}${suffix}`).set(admin);
        expect(response.status).toBe(404);
        expect(response.body.code).toBe('RESTAURANT_NOT_FOUND');
      }
    });
  });

  describe('disable, enable, rotate keys', () => {
    it('disables (keys stop working), idempotently, and publishes account.disabled once', async () => {
      const account = await t.createRestaurant({ name: 'To disable' });
      const first = await t.http.post(`${ADMIN}/${account.restaurantId}/disable`).set(admin);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ status: 'disabled', version: 2 });
      const second = await t.http.post(`${ADMIN}/${account.restaurantId}/disable`).set(admin);
      expect(second.body).toMatchObject({ status: 'disabled', version: 2 });
      expect((await t.http.get('/api/v1/my/integrations').set(credentials(account))).status).toBe(401);
      const events = (await t.outbox(RoutingKey.AccountDisabled)).filter((row) => row.payload.restaurantId === account.restaurantId);
      expect(events.map((row) => [row.payload.status, row.payload.version])).toEqual([['disabled', 2]]);

      const enabled = await t.http.post(`${ADMIN}/${account.restaurantId}/enable`).set(admin);
      expect(enabled.body).toMatchObject({ status: 'active', version: 3 });
      expect((await t.http.get('/api/v1/my/integrations').set(credentials(account))).status).toBe(200);
      const updates = (await t.outbox(RoutingKey.AccountUpdated)).filter((row) => row.payload.restaurantId === account.restaurantId);
      expect(updates.map((row) => [row.payload.status, row.payload.version])).toEqual([['active', 3]]);
    });

    it('rotates keys: the new pair works, the old one does not, and consumers get the new hashes', async () => {
      const account = await t.createRestaurant({ name: 'To rotate' });
      const response = await t.http.post(`${ADMIN}/${account.restaurantId}/rotate-keys`).set(admin);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ restaurantId: account.restaurantId, apiKey: expect.stringMatching(/^cik_/), apiSecret: expect.stringMatching(/^cis_/), rotatedAt: expect.any(String) });
      expect(response.body.apiKey).not.toBe(account.apiKey);
      expect((await t.http.get('/api/v1/my/integrations').set(credentials(account))).status).toBe(401);
      expect((await t.http.get('/api/v1/my/integrations').set(credentials({ apiKey: account.apiKey, apiSecret: response.body.apiSecret }))).status).toBe(401);
      expect((await t.http.get('/api/v1/my/integrations').set(credentials(response.body))).status).toBe(200);
      const [event] = (await t.outbox(RoutingKey.AccountKeysRotated)).filter((row) => row.payload.restaurantId === account.restaurantId);
      expect(event.payload).toMatchObject({ apiKeyHash: hashCredential(response.body.apiKey), apiSecretHash: hashCredential(response.body.apiSecret), version: 2 });
    });
  });

  describe('CLI (npm run admin -- ...)', () => {
    let url: string;
    beforeAll(async () => {
      await t.app.listen(0, '127.0.0.1');
      url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    });

    async function cli(args: string[], env: NodeJS.ProcessEnv = {}, cwd = process.cwd()) {
      let stdout = '';
      let stderr = '';
      const code = await runAdminCli(args, { POS_URL: url, ADMIN_TOKEN, ...env }, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), cwd });
      return { code, stdout, stderr, json: () => JSON.parse(stdout) };
    }

    it('creates, lists, reads, disables, enables and rotates, printing JSON', async () => {
      const created = await cli(['create-restaurant', '--name', 'From the CLI', '--provider-restaurant-id', 'cli-pos-1']);
      expect(created.code).toBe(0);
      const account = created.json();
      expect(account).toMatchObject({ name: 'From the CLI', apiKey: expect.stringMatching(/^cik_/), apiSecret: expect.stringMatching(/^cis_/), thirdParty: { providerRestaurantId: 'cli-pos-1' } });

      const listed = await cli(['list-restaurants', '--all', '--limit', '2']);
      expect(listed.code).toBe(0);
      expect(listed.json().data.map((row: { restaurantId: string }) => row.restaurantId)).toContain(account.restaurantId);
      expect(listed.json().nextCursor).toBeNull();

      expect((await cli(['get-restaurant', account.restaurantId])).json()).toMatchObject({ restaurantId: account.restaurantId, status: 'active' });
      expect((await cli(['disable-restaurant', account.restaurantId])).json()).toMatchObject({ status: 'disabled' });
      expect((await cli(['enable-restaurant', account.restaurantId])).json()).toMatchObject({ status: 'active' });
      const rotated = await cli(['rotate-keys', account.restaurantId]);
      expect(rotated.json()).toMatchObject({ restaurantId: account.restaurantId, apiKey: expect.stringMatching(/^cik_/) });
      expect((await cli(['reencrypt-secrets'])).json()).toMatchObject({ currentKeyId: 'k1', integrations: 0 });

      const withHooks = await cli(['create-restaurant', '--name', 'Hooks', '--status-url', 'https://93.184.216.34/s', '--cancel-url', 'https://93.184.216.34/c', '--signing-secret']);
      expect(withHooks.json()).toMatchObject({ webhooks: { statusUrl: 'https://93.184.216.34/s', signingEnabled: true }, signingSecret: expect.stringMatching(/^whsec_/) });
    });

    it('prints the problem JSON to stderr and exits 1 when the API refuses', async () => {
      const missing = await cli(['disable-restaurant', 'rest_doesnotexistdoesnotexist']);
      expect(missing.code).toBe(1);
      expect(JSON.parse(missing.stderr)).toMatchObject({ status: 404, code: 'RESTAURANT_NOT_FOUND' });
      const wrongToken = await cli(['list-restaurants', '--token', 'wrong-token']);
      expect(wrongToken.code).toBe(1);
      expect(JSON.parse(wrongToken.stderr)).toMatchObject({ status: 401 });
      const unreachable = await cli(['list-restaurants', '--url', 'http://127.0.0.1:9']);
      expect(unreachable.code).toBe(1);
      expect(JSON.parse(unreachable.stderr)).toMatchObject({ error: 'request failed' });
    });

    it('exits 2 with usage on a bad command line', async () => {
      for (const args of [[], ['fly'], ['create-restaurant'], ['disable-restaurant'], ['rotate-keys', 'a', 'b'], ['list-restaurants', '--bogus']]) {
        const result = await cli(args);
        expect(result.code).toBe(2);
        expect(result.stderr).toContain('Usage: npm run admin');
      }
      expect((await cli(['--help'])).code).toBe(0);
    });

    it('reads the admin token from .local/demo.json when none is given', async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'admin-cli-'));
      mkdirSync(path.join(dir, '.local'));
      writeFileSync(path.join(dir, '.local', 'demo.json'), JSON.stringify({ adminToken: ADMIN_TOKEN }));
      const result = await cli(['list-restaurants', '--limit', '1'], { ADMIN_TOKEN: '' }, dir);
      expect(result.code).toBe(0);
      expect(result.json().data).toHaveLength(1);
      const none = await cli(['list-restaurants'], { ADMIN_TOKEN: '' }, tmpdir());
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('No admin token');
    });
  });
});
