import { RoutingKey } from '@courier/contracts';
import { SecretBox, secretBinding } from '@courier/crypto';
import { createTestDatabase, TestDatabase } from '@courier/testing';
import { main as reencryptCommand } from '../cli/reencrypt-secrets';
import { admin, ADMIN_TOKEN, credentials, KEY_1, KEY_2, platformBodies, SECRET_FIELDS, startTestApp, TestApp } from '../../test/harness';

jest.setTimeout(120_000);

const BASE = '/api/v1/my/integrations';
const mask = (secret: string) => `****${secret.slice(-4)}`;

/** Every text the database holds in the integrations schema (all tables, all rows). */
async function databaseText(t: TestApp): Promise<string> {
  const tables = await t.sql<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'integrations'`);
  let text = '';
  for (const { table_name } of tables) {
    const rows = await t.sql(`SELECT row_to_json(t)::text AS row FROM "${table_name}" t`);
    text += rows.map((row) => row.row).join('\n');
  }
  return text;
}

describe('secrets at rest and in logs', () => {
  let t: TestApp;
  const secrets: string[] = [];
  const captured: string[] = [];
  const restores: Array<() => void> = [];

  beforeAll(async () => {
    // Everything written anywhere during these requests: pino lines, console, stdout, stderr.
    for (const stream of [process.stdout, process.stderr]) {
      const original = stream.write.bind(stream);
      stream.write = ((chunk: unknown, ...rest: unknown[]) => {
        captured.push(String(chunk));
        return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write;
      restores.push(() => (stream.write = original));
    }
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      const spy = jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        captured.push(args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' '));
      });
      restores.push(() => spy.mockRestore());
    }
    t = await startTestApp({ env: { LOG_LEVEL: 'trace' } });
  });

  afterAll(async () => {
    await t?.close();
    restores.forEach((restore) => restore());
  });

  it('requests carrying secrets, successful or refused, leave no secret in the logs or the database', async () => {
    const created = await t.http.post('/admin/v1/restaurants').set(admin).send({ name: 'Secretive', generateSigningSecret: true });
    expect(created.status).toBe(201);
    const account = created.body;
    secrets.push(account.apiKey, account.apiSecret, account.signingSecret, ADMIN_TOKEN);

    const bodies = platformBodies('logs');
    for (const [platform, body] of Object.entries(bodies)) {
      for (const field of SECRET_FIELDS[platform]) secrets.push(body[field]);
      expect((await t.http.post(BASE).set(credentials(account)).send(body)).status).toBe(201);
      expect((await t.http.post(BASE).set(credentials(account)).send(body)).status).toBe(409);
      const refused = { ...body, providerRestaurantId: '', colour: 'x' };
      expect((await t.http.post(BASE).set(credentials(account)).send(refused)).status).toBe(422);
      const wrongKey = `wrong-secret-${platform}-never-logged`;
      secrets.push(wrongKey);
      expect((await t.http.post(BASE).set({ 'X-API-Key': account.apiKey, 'X-API-Secret': wrongKey }).send(body)).status).toBe(401);
    }
    const list = await t.http.get(BASE).set(credentials(account));
    for (const record of list.body.data.filter((row: { platform: string }) => row.platform !== 'THIRD_PARTY')) {
      const field = SECRET_FIELDS[record.platform][0];
      const replacement = `replaced-${record.platform}-${field}-value`;
      secrets.push(replacement);
      expect((await t.http.put(`${BASE}/${record.id}`).set(credentials(account)).send({ [field]: replacement })).status).toBe(200);
      expect((await t.http.put(`${BASE}/${record.id}`).set(credentials(account)).send({ [field]: replacement, colour: 1 })).status).toBe(422);
    }
    const rotatedSecret = await t.http.post('/api/v1/my/webhooks/secret').set(credentials(account));
    secrets.push(rotatedSecret.body.signingSecret);
    const rotatedKeys = await t.http.post(`/admin/v1/restaurants/${account.restaurantId}/rotate-keys`).set(admin);
    secrets.push(rotatedKeys.body.apiKey, rotatedKeys.body.apiSecret);
    expect((await t.http.get(BASE).set(credentials(account))).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(t.logLines.length).toBeGreaterThan(10);
    expect(t.logLines.some((line) => line.includes('"url":"/api/v1/my/integrations"'))).toBe(true);
    const logs = [...t.logLines, ...captured].join('\n');
    // Refusals are answers, not failures: no failed query is logged for a 409.
    expect(captured.join('\n')).not.toContain('query failed');
    const stored = await databaseText(t);
    expect(stored).toContain('v2:k1:');
    for (const secret of secrets) {
      expect(typeof secret === 'string' && secret.length > 8).toBe(true);
      expect(logs.includes(secret)).toBe(false);
      if (secret !== ADMIN_TOKEN) expect(stored.includes(secret)).toBe(false);
    }
  });
});

describe('rotation of the encryption keys', () => {
  let database: TestDatabase;
  let t: TestApp | undefined;
  const bodies = platformBodies('rot');
  let account: { apiKey: string; apiSecret: string; restaurantId: string; signingSecret: string };
  let expectedMasks: Record<string, Record<string, string>>;

  beforeAll(async () => {
    database = await createTestDatabase('integrations_rotation');
  });
  afterAll(async () => {
    await t?.close({ keepDatabase: true });
    await database.drop();
  });

  async function restart(keys: string) {
    await t?.close({ keepDatabase: true });
    t = await startTestApp({ database, keys });
    return t;
  }

  async function currentMasks(app: TestApp): Promise<Record<string, Record<string, string>>> {
    const list = await app.http.get(`${BASE}?limit=200`).set(credentials(account));
    expect(list.status).toBe(200);
    const masks: Record<string, Record<string, string>> = {};
    for (const record of list.body.data) {
      if (record.platform === 'THIRD_PARTY') continue;
      masks[record.platform] = Object.fromEntries(SECRET_FIELDS[record.platform].map((field) => [field, record[field]]));
    }
    return masks;
  }

  const keyIds = async (app: TestApp) => {
    const integrations = await app.sql<{ secrets: Record<string, string> }>(`SELECT secrets FROM integrations WHERE secrets <> '{}'`);
    const restaurants = await app.sql<{ webhook_signing_secret: string; webhook_previous_signing_secret: string | null }>(
      'SELECT webhook_signing_secret, webhook_previous_signing_secret FROM restaurants WHERE webhook_signing_secret IS NOT NULL',
    );
    const signing = restaurants.flatMap((row) => [row.webhook_signing_secret, row.webhook_previous_signing_secret ?? []].flat());
    return [...integrations.flatMap((row) => Object.values(row.secrets)), ...signing].map((ciphertext) => ciphertext.split(':')[1]);
  };

  it('writes everything under k1 first', async () => {
    const app = await restart(KEY_1);
    account = await app.createRestaurant({ name: 'Rotating', generateSigningSecret: true }) as typeof account;
    // A rotation in its grace period: the previous secret is re-encrypted like the current one.
    account.signingSecret = (await app.http.post('/api/v1/my/webhooks/secret').set(credentials(account)).expect(200)).body.signingSecret;
    expect((await app.sql('SELECT webhook_previous_signing_secret AS previous FROM restaurants WHERE id = $1', [account.restaurantId]))[0].previous).toMatch(/^v2:k1:/);
    for (const body of Object.values(bodies)) expect((await app.http.post(BASE).set(credentials(account)).send(body)).status).toBe(201);
    expectedMasks = Object.fromEntries(Object.entries(bodies).map(([platform, body]) => [platform, Object.fromEntries(SECRET_FIELDS[platform].map((field) => [field, mask(body[field])]))]));
    expect(await currentMasks(app)).toEqual(expectedMasks);
    expect(new Set(await keyIds(app))).toEqual(new Set(['k1']));
  });

  it('a keyring without the old key cannot open old records, but still answers (bare masks, no 500)', async () => {
    const app = await restart(KEY_2);
    const masks = await currentMasks(app);
    for (const fields of Object.values(masks)) for (const value of Object.values(fields)) expect(value).toBe('****');
    expect((await app.http.get('/api/v1/my/webhooks').set(credentials(account))).body.signingSecret).toBe('****');
    const report = await app.http.post('/admin/v1/secrets/reencrypt').set(admin);
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ currentKeyId: 'k2', integrations: 0, signingSecrets: 0 });
    expect(report.body.failures).toHaveLength(5);
    expect(report.body.failures[0].reason).toContain('no key "k1"');
  });

  it('with k2 first and k1 kept, every record reads as before and new secrets use k2', async () => {
    const app = await restart(`${KEY_2},${KEY_1}`);
    expect(await currentMasks(app)).toEqual(expectedMasks);
    expect((await app.http.get('/api/v1/my/webhooks').set(credentials(account))).body.signingSecret).toBe(mask(account.signingSecret));
    const extra = platformBodies('rot2').PLATFORM_A;
    const created = await app.http.post(BASE).set(credentials(account)).send(extra);
    expect(created.body.secretKey).toBe(mask(extra.secretKey));
    const [row] = await app.sql('SELECT secrets FROM integrations WHERE id = $1', [created.body.id]);
    expect(row.secrets.secretKey).toMatch(/^v2:k2:/);
    await app.http.delete(`${BASE}/${created.body.id}`).set(credentials(account)).expect(204);
    expect((await keyIds(app)).filter((id) => id === 'k1')).toHaveLength(7); // 5 integration secrets, the signing secret and the previous one
  });

  it('the re-encryption command moves every secret to k2 and publishes the new ciphertexts', async () => {
    const app = t!;
    const eventsBefore = (await app.outbox()).length;
    const output: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      output.push(String(chunk));
      return true;
    });
    let code: number;
    try {
      code = await reencryptCommand({ DATABASE_URL: database.url, SECRETS_ENCRYPTION_KEYS: `${KEY_2},${KEY_1}` });
    } finally {
      write.mockRestore();
    }
    expect(code).toBe(0);
    expect(JSON.parse(output.join(''))).toEqual({ currentKeyId: 'k2', integrations: 4, signingSecrets: 1, failures: [] });
    expect(new Set(await keyIds(app))).toEqual(new Set(['k2']));

    const events = (await app.outbox()).slice(eventsBefore);
    expect(events.filter((event) => event.routing_key === RoutingKey.IntegrationUpserted)).toHaveLength(4);
    for (const event of events.filter((row) => row.routing_key === RoutingKey.IntegrationUpserted)) {
      expect(Object.values(event.payload.secrets).every((ciphertext) => String(ciphertext).startsWith('v2:k2:'))).toBe(true);
      expect(event.payload.version).toBe(2);
    }
    const [settings] = events.filter((event) => event.routing_key === RoutingKey.WebhookSettingsChanged);
    expect(settings.payload.webhooks.signingSecretCiphertext).toMatch(/^v2:k2:/);
    expect(settings.payload.webhooks.previousSigningSecretCiphertext).toMatch(/^v2:k2:/);

    const again = await app.http.post('/admin/v1/secrets/reencrypt').set(admin);
    expect(again.body).toEqual({ currentKeyId: 'k2', integrations: 0, signingSecrets: 0, failures: [] });
  });

  it('after dropping k1, every record still reads the same', async () => {
    const app = await restart(KEY_2);
    expect(await currentMasks(app)).toEqual(expectedMasks);
    expect((await app.http.get('/api/v1/my/webhooks').set(credentials(account))).body.signingSecret).toBe(mask(account.signingSecret));
    const unchanged = await app.http.put(`${BASE}/${(await app.http.get(BASE).query({ platform: 'PLATFORM_B' }).set(credentials(account))).body.data[0].id}`).set(credentials(account)).send({ password: bodies.PLATFORM_B.password });
    expect(unchanged.status).toBe(200);
    expect(unchanged.body.password).toBe(mask(bodies.PLATFORM_B.password));
  });

  it('the command refuses to start without a valid keyring, naming the variable', async () => {
    const errors: string[] = [];
    const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => {
      errors.push(String(chunk));
      return true;
    });
    try {
      expect(await reencryptCommand({ DATABASE_URL: database.url, SECRETS_ENCRYPTION_KEYS: 'k1:short' })).toBe(2);
    } finally {
      write.mockRestore();
    }
    expect(errors.join('')).toContain('SECRETS_ENCRYPTION_KEYS');
  });
});

describe('ciphertexts bound to their row and field', () => {
  let t: TestApp;
  const box = SecretBox.fromKeyList(KEY_1);
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('a secret moved to another integration or field does not open there (bare mask, check not_configured), its own row still does', async () => {
    const first = await t.createRestaurant();
    const second = await t.createRestaurant();
    const bodies = platformBodies('moved');
    const own = (await t.http.post(BASE).set(credentials(first)).send(bodies.PLATFORM_C)).body;
    const other = (await t.http.post(BASE).set(credentials(second)).send({ ...bodies.PLATFORM_C, providerRestaurantId: 'c-other', apiKey: 'other-apiKey-0000', secretKey: 'other-secretKey-1111' })).body;
    const [ownRow] = await t.sql('SELECT secrets FROM integrations WHERE id = $1', [own.id]);
    // Another account's row gets this one's ciphertexts; this row gets its two secrets swapped.
    await t.sql('UPDATE integrations SET secrets = $2 WHERE id = $1', [other.id, JSON.stringify(ownRow.secrets)]);
    await t.sql('UPDATE integrations SET secrets = $2 WHERE id = $1', [own.id, JSON.stringify({ apiKey: ownRow.secrets.secretKey, secretKey: ownRow.secrets.apiKey })]);

    const moved = await t.http.get(`${BASE}/${other.id}`).set(credentials(second));
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ apiKey: '****', secretKey: '****' });
    const swapped = await t.http.get(`${BASE}/${own.id}`).set(credentials(first));
    expect(swapped.body).toMatchObject({ apiKey: '****', secretKey: '****' });
    const check = await t.http.post(`${BASE}/${other.id}/check`).set(credentials(second));
    expect(check.body).toMatchObject({ result: 'not_configured' });
    expect(t.logLines.some((line) => line.includes('stored secret cannot be opened') && line.includes(other.id))).toBe(true);

    // Put back where they belong, they open again.
    await t.sql('UPDATE integrations SET secrets = $2 WHERE id = $1', [own.id, JSON.stringify(ownRow.secrets)]);
    expect((await t.http.get(`${BASE}/${own.id}`).set(credentials(first))).body).toMatchObject({ apiKey: mask(bodies.PLATFORM_C.apiKey), secretKey: mask(bodies.PLATFORM_C.secretKey) });
  });

  it('a signing secret moved to another account does not open there', async () => {
    const first = await t.createRestaurant({ generateSigningSecret: true });
    const second = await t.createRestaurant({ generateSigningSecret: true });
    await t.sql('UPDATE restaurants SET webhook_signing_secret = (SELECT webhook_signing_secret FROM restaurants WHERE id = $1) WHERE id = $2', [first.restaurantId, second.restaurantId]);
    expect((await t.http.get('/api/v1/my/webhooks').set(credentials(second))).body.signingSecret).toBe('****');
    expect((await t.http.get('/api/v1/my/webhooks').set(credentials(first))).body.signingSecret).toBe(mask(first.signingSecret!));
  });

  it('legacy unbound (v1) rows stay readable, and the re-encryption binds them and publishes the new ciphertexts', async () => {
    const account = await t.createRestaurant({ generateSigningSecret: true });
    const body = platformBodies('legacy').PLATFORM_B;
    const created = (await t.http.post(BASE).set(credentials(account)).send(body)).body;
    // As written before binding: v1, no associated data.
    await t.sql('UPDATE integrations SET secrets = $2 WHERE id = $1', [created.id, JSON.stringify({ password: box.encrypt(body.password) })]);
    await t.sql('UPDATE restaurants SET webhook_signing_secret = $2 WHERE id = $1', [account.restaurantId, box.encrypt(account.signingSecret!)]);
    expect((await t.http.get(`${BASE}/${created.id}`).set(credentials(account))).body.password).toBe(mask(body.password));
    expect((await t.http.get('/api/v1/my/webhooks').set(credentials(account))).body.signingSecret).toBe(mask(account.signingSecret!));

    const eventsBefore = (await t.outbox()).length;
    const report = await t.http.post('/admin/v1/secrets/reencrypt').set(admin);
    expect(report.body).toMatchObject({ currentKeyId: 'k1', integrations: 1, signingSecrets: 1, failures: [] });
    const [row] = await t.sql('SELECT secrets FROM integrations WHERE id = $1', [created.id]);
    expect(row.secrets.password).toMatch(/^v2:k1:/);
    expect(box.decrypt(row.secrets.password, secretBinding.integrationSecret(created.id, 'password'))).toBe(body.password);
    const upserts = (await t.outbox(RoutingKey.IntegrationUpserted)).slice(0).filter((event) => event.payload.integrationId === created.id);
    expect(upserts.at(-1)!.payload.secrets.password).toBe(row.secrets.password);
    expect((await t.outbox()).length).toBe(eventsBefore + 2);
    expect((await t.http.get(`${BASE}/${created.id}`).set(credentials(account))).body.password).toBe(mask(body.password));
    expect((await t.http.get('/api/v1/my/webhooks').set(credentials(account))).body.signingSecret).toBe(mask(account.signingSecret!));
  });
});
