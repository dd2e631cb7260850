import { RoutingKey } from '@courier/contracts';
import { SecretBox, secretBinding } from '@courier/crypto';
import { HostResolver } from '@courier/http';
import { waitFor } from '@courier/testing';
import { credentials, CreatedRestaurant, KEY_1, startTestApp, TestApp } from '../../test/harness';

jest.setTimeout(60_000);

const HOOKS = '/api/v1/my/webhooks';

// Host names the tests resolve without DNS.
const HOSTS: Record<string, string[]> = {
  'receiver.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'internal.example': ['10.1.2.3'],
  'sneaky.example': ['93.184.216.34', '169.254.169.254'],
  'mapped.example': ['::ffff:127.0.0.1'],
};
const resolver: HostResolver = async (host) => {
  if (HOSTS[host]) return HOSTS[host];
  throw new Error('ENOTFOUND');
};

describe('webhook settings (HTTP, real PostgreSQL)', () => {
  let t: TestApp;
  let account: CreatedRestaurant;

  beforeAll(async () => {
    t = await startTestApp({ hostResolver: resolver });
    account = await t.createRestaurant({ name: 'Hooked' });
  });
  afterAll(() => t?.close());

  const settingsEvents = async () =>
    (await t.outbox(RoutingKey.WebhookSettingsChanged)).filter((row) => row.payload.restaurantId === account.restaurantId).map((row) => row.payload);

  it('starts with no URLs and signing off', async () => {
    const response = await t.http.get(HOOKS).set(credentials(account));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ statusUrl: null, cancelUrl: null, signingEnabled: false, signingSecret: null, previousSecretValidUntil: null, updatedAt: expect.any(String) });
  });

  it('saves https URLs of public hosts and publishes the settings', async () => {
    const response = await t.http.put(HOOKS).set(credentials(account)).send({ statusUrl: 'https://receiver.example/hooks/status', cancelUrl: 'https://93.184.216.34:8443/cancel?x=1' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ statusUrl: 'https://receiver.example/hooks/status', cancelUrl: 'https://93.184.216.34:8443/cancel?x=1', signingEnabled: false });
    const events = await settingsEvents();
    expect(events[events.length - 1]).toMatchObject({
      version: 2,
      webhooks: { statusUrl: 'https://receiver.example/hooks/status', cancelUrl: 'https://93.184.216.34:8443/cancel?x=1', signingSecretCiphertext: null },
      apiKeyHash: expect.any(String),
      status: 'active',
    });
  });

  it('changes only the fields sent; null clears; the same values again publish nothing', async () => {
    const only = await t.http.put(HOOKS).set(credentials(account)).send({ cancelUrl: 'https://receiver.example/hooks/cancel' });
    expect(only.body).toMatchObject({ statusUrl: 'https://receiver.example/hooks/status', cancelUrl: 'https://receiver.example/hooks/cancel' });
    const before = (await settingsEvents()).length;
    await t.http.put(HOOKS).set(credentials(account)).send({ cancelUrl: 'https://receiver.example/hooks/cancel' }).expect(200);
    await t.http.put(HOOKS).set(credentials(account)).send({}).expect(200);
    expect((await settingsEvents()).length).toBe(before);
    const cleared = await t.http.put(HOOKS).set(credentials(account)).send({ cancelUrl: null });
    expect(cleared.body).toMatchObject({ statusUrl: 'https://receiver.example/hooks/status', cancelUrl: null });
    expect((await settingsEvents()).length).toBe(before + 1);
    await t.http.put(HOOKS).set(credentials(account)).send({ cancelUrl: 'https://receiver.example/hooks/cancel' }).expect(200);
  });

  it.each([
    ['http', 'http://receiver.example/x', 'must be an https URL'],
    ['another scheme', 'ftp://receiver.example/x', 'must be an https URL'],
    ['not a URL', 'receiver.example/x', 'must be an absolute URL'],
    ['credentials', 'https://user:secret@receiver.example/x', 'must not contain a user name or password'],
    ['a user name', 'https://user@receiver.example/x', 'must not contain a user name or password'],
    ['loopback', 'https://127.0.0.1/x', 'host must be a public address (127.0.0.1 is loopback)'],
    ['loopback in hex', 'https://0x7f000001/x', 'loopback'],
    ['IPv6 loopback', 'https://[::1]/x', 'loopback'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/x', 'loopback'],
    ['private', 'https://192.168.1.10/x', 'private'],
    ['link-local (metadata)', 'https://169.254.169.254/latest', 'link-local'],
    ['CGNAT', 'https://100.64.0.1/x', 'cgnat'],
    ['unique-local', 'https://[fd00::1]/x', 'unique-local'],
    ['unspecified', 'https://0.0.0.0/x', 'unspecified'],
    ['a host resolving to a private address', 'https://internal.example/x', 'internal.example is private'],
    ['a host with one private address among public ones', 'https://sneaky.example/x', 'link-local'],
    ['a host resolving to a mapped loopback', 'https://mapped.example/x', 'loopback'],
    ['localhost', 'https://localhost/x', 'could not be resolved'],
    ['an unresolvable host', 'https://nowhere.invalid/x', 'could not be resolved'],
    ['a number', 42, 'statusUrl must be a string'],
  ])('refuses %s with 422 and keeps the stored URL', async (_case, statusUrl, message) => {
    const response = await t.http.put(HOOKS).set(credentials(account)).send({ statusUrl });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.errors).toEqual([{ field: 'statusUrl', message: expect.stringContaining(message) }]);
    expect((await t.http.get(HOOKS).set(credentials(account))).body.statusUrl).toBe('https://receiver.example/hooks/status');
  });

  it('lists both fields when both are refused, and refuses unknown fields', async () => {
    const both = await t.http.put(HOOKS).set(credentials(account)).send({ statusUrl: 'http://x.example/', cancelUrl: 'https://10.0.0.1/' });
    expect(both.body.errors.map((error: { field: string }) => error.field)).toEqual(['statusUrl', 'cancelUrl']);
    const unknown = await t.http.put(HOOKS).set(credentials(account)).send({ statusUrl: 'https://receiver.example/x', signingSecret: 'mine' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ field: 'signingSecret', message: 'is not allowed' }]);
  });

  it('creates, rotates and removes the signing secret; it travels only encrypted', async () => {
    const created = await t.http.post(`${HOOKS}/secret`).set(credentials(account));
    expect(created.status).toBe(200);
    const secret: string = created.body.signingSecret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect((await t.http.get(HOOKS).set(credentials(account))).body).toMatchObject({ signingEnabled: true, signingSecret: `****${secret.slice(-4)}` });

    let events = await settingsEvents();
    const ciphertext = events[events.length - 1].webhooks.signingSecretCiphertext;
    expect(ciphertext).toMatch(/^v2:k1:/);
    expect(new SecretBox([{ id: 'k1', key: Buffer.from(KEY_1.split(':')[1], 'base64') }]).decrypt(ciphertext, secretBinding.webhookSigningSecret(account.restaurantId))).toBe(secret);
    const [row] = await t.sql('SELECT webhook_signing_secret FROM restaurants WHERE id = $1', [account.restaurantId]);
    expect(row.webhook_signing_secret).toBe(ciphertext);

    const rotated = await t.http.post(`${HOOKS}/secret`).set(credentials(account));
    expect(rotated.body.signingSecret).not.toBe(secret);
    const everything = JSON.stringify(await t.sql('SELECT * FROM restaurants')) + JSON.stringify(await t.sql('SELECT payload FROM outbox_messages'));
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(rotated.body.signingSecret);

    await t.http.delete(`${HOOKS}/secret`).set(credentials(account)).expect(204);
    expect((await t.http.get(HOOKS).set(credentials(account))).body).toMatchObject({ signingEnabled: false, signingSecret: null });
    events = await settingsEvents();
    expect(events[events.length - 1].webhooks.signingSecretCiphertext).toBeNull();
    const count = events.length;
    await t.http.delete(`${HOOKS}/secret`).set(credentials(account)).expect(204);
    expect((await settingsEvents()).length).toBe(count);
    expect((await settingsEvents()).map((event) => event.version)).toEqual([...Array(count).keys()].map((index) => events[0].version + index));
  });

  it('keeps a rotated-out secret signing for the grace period, says until when, keeps at most two, and ends it when signing is turned off', async () => {
    const box = new SecretBox([{ id: 'k1', key: Buffer.from(KEY_1.split(':')[1], 'base64') }]);
    const open = (ciphertext: string) => box.decrypt(ciphertext, secretBinding.webhookSigningSecret(account.restaurantId));
    const first = await t.http.post(`${HOOKS}/secret`).set(credentials(account)).expect(200);
    expect(first.body.previousSecretValidUntil).toBeNull();

    const second = await t.http.post(`${HOOKS}/secret`).set(credentials(account)).expect(200);
    const graceEnd = Date.parse(second.body.previousSecretValidUntil);
    // The default WEBHOOK_SECRET_ROTATION_GRACE: 24 hours after the rotation.
    expect(graceEnd - Date.parse(second.body.createdAt)).toBe(24 * 3_600_000);
    expect((await t.http.get(HOOKS).set(credentials(account))).body).toMatchObject({ signingEnabled: true, previousSecretValidUntil: second.body.previousSecretValidUntil });
    let events = await settingsEvents();
    let webhooks = events[events.length - 1].webhooks;
    expect(open(webhooks.signingSecretCiphertext)).toBe(second.body.signingSecret);
    expect(webhooks.previousSigningSecretCiphertext).toMatch(/^v2:k1:/);
    expect(open(webhooks.previousSigningSecretCiphertext)).toBe(first.body.signingSecret);
    expect(webhooks.previousSigningSecretValidUntil).toBe(second.body.previousSecretValidUntil);

    // Rotating again within the grace period: the oldest secret stops signing, the one just replaced takes its place.
    const third = await t.http.post(`${HOOKS}/secret`).set(credentials(account)).expect(200);
    events = await settingsEvents();
    webhooks = events[events.length - 1].webhooks;
    expect(open(webhooks.signingSecretCiphertext)).toBe(third.body.signingSecret);
    expect(open(webhooks.previousSigningSecretCiphertext)).toBe(second.body.signingSecret);
    expect(Date.parse(third.body.previousSecretValidUntil)).toBeGreaterThanOrEqual(graceEnd);
    const [row] = await t.sql('SELECT webhook_previous_signing_secret AS previous FROM restaurants WHERE id = $1', [account.restaurantId]);
    expect(row.previous).toBe(webhooks.previousSigningSecretCiphertext);

    await t.http.delete(`${HOOKS}/secret`).set(credentials(account)).expect(204);
    events = await settingsEvents();
    expect(events[events.length - 1].webhooks).toMatchObject({ signingSecretCiphertext: null, previousSigningSecretCiphertext: null, previousSigningSecretValidUntil: null });
    expect((await t.http.get(HOOKS).set(credentials(account))).body).toMatchObject({ signingEnabled: false, previousSecretValidUntil: null });
    const created = await t.http.post(`${HOOKS}/secret`).set(credentials(account)).expect(200);
    expect(created.body.previousSecretValidUntil).toBeNull();
    await t.http.delete(`${HOOKS}/secret`).set(credentials(account)).expect(204);
  });
});

describe('webhook settings with WEBHOOK_SECRET_ROTATION_GRACE=1s', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_SECRET_ROTATION_GRACE: '1s' }, hostResolver: resolver });
  });
  afterAll(() => t?.close());

  it('ends the grace period at the configured time: not shown after it, and the next change drops the old secret from the account events', async () => {
    const account = await t.createRestaurant({ name: 'Brief grace', generateSigningSecret: true });
    const rotated = await t.http.post(`${HOOKS}/secret`).set(credentials(account)).expect(200);
    expect(Date.parse(rotated.body.previousSecretValidUntil) - Date.parse(rotated.body.createdAt)).toBe(1000);
    await waitFor('the end of the grace period', async () => ((await t.http.get(HOOKS).set(credentials(account))).body.previousSecretValidUntil === null ? true : undefined));
    await t.http.put(HOOKS).set(credentials(account)).send({ statusUrl: 'https://receiver.example/after-grace' }).expect(200);
    const events = (await t.outbox(RoutingKey.WebhookSettingsChanged)).filter((row) => row.payload.restaurantId === account.restaurantId);
    expect(events[events.length - 1].payload.webhooks).toMatchObject({ statusUrl: 'https://receiver.example/after-grace', previousSigningSecretCiphertext: null, previousSigningSecretValidUntil: null });
  });
});

describe('webhook settings with WEBHOOK_ALLOW_INSECURE_URLS=true', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ALLOW_INSECURE_URLS: 'true' } });
  });
  afterAll(() => t?.close());

  it('accepts http and private or loopback hosts, but still no credentials', async () => {
    const account = await t.createRestaurant({ name: 'Dev', statusUrl: 'http://localhost:4444/webhook/status' });
    expect(account.webhooks).toMatchObject({ statusUrl: 'http://localhost:4444/webhook/status' });
    const response = await t.http.put(HOOKS).set(credentials(account)).send({ cancelUrl: 'http://10.0.0.8:4444/webhook/cancel' });
    expect(response.status).toBe(200);
    const refused = await t.http.put(HOOKS).set(credentials(account)).send({ cancelUrl: 'http://u:p@localhost/x' });
    expect(refused.status).toBe(422);
  });
});

describe('webhook settings with WEBHOOK_ALLOWED_INSECURE_ORIGINS (the one-machine receiver)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ALLOW_INSECURE_URLS: 'false', WEBHOOK_ALLOWED_INSECURE_ORIGINS: 'http://127.0.0.1:4444' }, hostResolver: resolver });
  });
  afterAll(() => t?.close());

  it('accepts URLs of exactly that origin, and refuses every other loopback, private or http URL', async () => {
    const account = await t.createRestaurant({ name: 'Local', statusUrl: 'http://127.0.0.1:4444/webhook/status', cancelUrl: 'http://127.0.0.1:4444/webhook/cancel' });
    expect(account.webhooks).toMatchObject({ statusUrl: 'http://127.0.0.1:4444/webhook/status', cancelUrl: 'http://127.0.0.1:4444/webhook/cancel' });
    for (const url of ['http://127.0.0.1:4445/webhook/status', 'https://127.0.0.1:4445/webhook/status', 'http://localhost:4444/webhook/status', 'http://10.0.0.8:4444/x', 'http://receiver.example/x', 'https://internal.example/x']) {
      const refused = await t.http.put(HOOKS).set(credentials(account)).send({ statusUrl: url });
      expect([url, refused.status, refused.body.code]).toEqual([url, 422, 'VALIDATION_ERROR']);
    }
    expect((await t.http.put(HOOKS).set(credentials(account)).send({ statusUrl: 'https://receiver.example/x' })).status).toBe(200);
  });

  it('refuses a malformed origin list at start, naming the variable', async () => {
    await expect(startTestApp({ env: { WEBHOOK_ALLOWED_INSECURE_ORIGINS: 'http://127.0.0.1:4444/webhook' } })).rejects.toThrow(/WEBHOOK_ALLOWED_INSECURE_ORIGINS/);
  });
});
