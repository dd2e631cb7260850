/* eslint-disable @typescript-eslint/no-explicit-any -- bodies of tests are loosely typed, as in the specs */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { IntegrationUpsertedEvent, RoutingKey } from '@courier/contracts';
import { SecretBox, secretBinding } from '@courier/crypto';
import { PlatformASimulator, PlatformBSimulator, PlatformCSimulator, PlatformDSimulator } from '@courier/platforms/simulators';
import { sleep, waitFor } from '@courier/testing';
import { internal, newRestaurantId, SECRETS_KEYS, startTestApp, TestApp, TestAppOptions } from './harness';

/** The four simulated platforms, the credentials they know, and the app wired to them. */

export const APP_SECRET_KEY = 'getir-app-secret-key-0001';
export const A_WEBHOOK_KEY = 'getir-partner-webhook-key-0001';
/** The secret PLATFORM_B's middleware signs its JWTs to our plugin with (the simulator signs with it). */
export const B_PLUGIN_SECRET = 'dh-plugin-jwt-secret-0000000001';

/**
 * `Authorization: Bearer <JWT>` as PLATFORM_B's middleware signs it for our plugin (HMAC with the
 * plugin secret, `service: middleware`, `exp` an hour ahead unless the claims say otherwise).
 */
export function bPluginAuthorization(claims: Record<string, unknown> = {}, options: { alg?: 'HS256' | 'HS384' | 'HS512'; secret?: string } = {}): string {
  const alg = options.alg ?? 'HS256';
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg, typ: 'JWT' })}.${encode({ service: 'middleware', exp: Math.floor(Date.now() / 1000) + 3600, ...claims })}`;
  const hash = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' }[alg];
  return `Bearer ${unsigned}.${createHmac(hash, options.secret ?? B_PLUGIN_SECRET).update(unsigned).digest('base64url')}`;
}

export const CREDENTIALS = {
  PLATFORM_A: { providerRestaurantId: 'getir-rest-1', settings: {}, secrets: { secretKey: 'getir-restaurant-secret-1' } },
  PLATFORM_B: { providerRestaurantId: 'ys-vendor-1', settings: { chainCode: 'chain-1', username: 'pos-user-1' }, secrets: { password: 'pos-password-1' } },
  PLATFORM_C: { providerRestaurantId: 'ty-rest-1', settings: { supplierId: '104523', storeId: '88211' }, secrets: { apiKey: 'ty-api-key-1', secretKey: 'ty-secret-1' } },
  PLATFORM_D: { providerRestaurantId: '23000000101833', settings: { providerMerchantId: '511' }, secrets: { apiKey: 'migros-store-key-1' } },
} as const;

export type PlatformCode = keyof typeof CREDENTIALS;

export interface Platforms {
  a: PlatformASimulator;
  b: PlatformBSimulator;
  c: PlatformCSimulator;
  d: PlatformDSimulator;
  /** PLATFORM_* variables pointing the app at the simulators. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** The simulators' availability options (each simulator's own; tests shorten the platforms' clocks and budgets). */
export interface SimulatedAvailability {
  a?: ConstructorParameters<typeof PlatformASimulator>[0]['availability'];
  b?: ConstructorParameters<typeof PlatformBSimulator>[0]['availability'];
  c?: ConstructorParameters<typeof PlatformCSimulator>[0]['availability'];
  d?: ConstructorParameters<typeof PlatformDSimulator>[0]['availability'];
}

export async function startPlatforms(options: { minStepIntervalMs?: number; availability?: SimulatedAvailability } = {}): Promise<Platforms> {
  const a = new PlatformASimulator({
    appSecretKey: APP_SECRET_KEY,
    restaurants: [{ restaurantId: CREDENTIALS.PLATFORM_A.providerRestaurantId, secretKey: CREDENTIALS.PLATFORM_A.secrets.secretKey }],
    minStepIntervalMs: options.minStepIntervalMs ?? 0,
    webhookApiKey: A_WEBHOOK_KEY,
    availability: options.availability?.a,
  });
  const b = new PlatformBSimulator({ users: [{ username: CREDENTIALS.PLATFORM_B.settings.username, password: CREDENTIALS.PLATFORM_B.secrets.password }], pluginSecret: B_PLUGIN_SECRET, availability: options.availability?.b });
  const c = new PlatformCSimulator({
    suppliers: [{ supplierId: CREDENTIALS.PLATFORM_C.settings.supplierId, apiKey: CREDENTIALS.PLATFORM_C.secrets.apiKey, secretKey: CREDENTIALS.PLATFORM_C.secrets.secretKey, storeIds: [CREDENTIALS.PLATFORM_C.settings.storeId] }],
    availability: options.availability?.c,
  });
  const d = new PlatformDSimulator({ stores: [{ storeId: CREDENTIALS.PLATFORM_D.providerRestaurantId, storeGroupId: CREDENTIALS.PLATFORM_D.settings.providerMerchantId, apiKey: CREDENTIALS.PLATFORM_D.secrets.apiKey }], availability: options.availability?.d });
  await Promise.all([a.start(), b.start(), c.start(), d.start()]);
  return {
    a,
    b,
    c,
    d,
    env: {
      PLATFORM_A_BASE_URL: a.baseUrl,
      PLATFORM_B_BASE_URL: b.baseUrl,
      PLATFORM_C_BASE_URL: c.baseUrl,
      PLATFORM_D_BASE_URL: d.baseUrl,
      PLATFORM_A_APP_SECRET_KEY: APP_SECRET_KEY,
      PLATFORM_A_WEBHOOK_API_KEY: A_WEBHOOK_KEY,
      // Getir's fallback polling: rare unless a test wants it; a too-early step retried after the simulator's interval.
      PLATFORM_A_POLL_INTERVAL_MS: '600000',
      PLATFORM_A_STEP_INTERVAL_MS: String(options.minStepIntervalMs ?? 0),
      PLATFORM_B_PLUGIN_SECRET: B_PLUGIN_SECRET,
      PLATFORM_C_INTEGRATOR_NAME: 'CourierSuiteTests',
      PLATFORM_HTTP_TIMEOUT_MS: '2000',
    },
    stop: async () => {
      await Promise.all([a.stop(), b.stop(), c.stop(), d.stop()]);
    },
  };
}

/** The app listening on 127.0.0.1, wired to the simulators both ways. */
export async function startPlatformApp(platforms: Platforms, options: TestAppOptions = {}): Promise<TestApp> {
  const t = await startTestApp({ ...options, listen: true, env: { STATUS_PUSH_RETRY_BASE_MS: '50', STATUS_PUSH_RETRY_MAX_DELAY_MS: '200', ...platforms.env, ...options.env } });
  platforms.a.options.newOrderUrl = `${t.baseUrl}/platforms/platform-a/orders`;
  platforms.a.options.cancelledOrderUrl = `${t.baseUrl}/platforms/platform-a/orders/cancelled`;
  platforms.b.options.pluginUrl = `${t.baseUrl}/platforms/platform-b`;
  platforms.d.options.orderWebhookUrl = `${t.baseUrl}/platforms/platform-d/orders`;
  platforms.d.options.cancelWebhookUrl = `${t.baseUrl}/platforms/platform-d/orders/cancelled`;
  return t;
}

const versions = new Map<string, number>();

/** Puts an integration into the app's read model as integrations-api would (integration.upserted, secrets sealed). */
export async function upsertIntegration(
  t: TestApp,
  platform: PlatformCode,
  overrides: {
    integrationId?: string;
    restaurantId?: string;
    isActive?: boolean;
    displaced?: boolean;
    providerRestaurantId?: string;
    settings?: Record<string, string>;
    secrets?: Record<string, string>;
    /** The platform's verdict (default verified: tests of the order flows mean a verified integration). */
    verification?: 'unverified' | 'verified' | 'failed';
  } = {},
): Promise<{ integrationId: string; restaurantId: string }> {
  const box = SecretBox.fromKeyList(SECRETS_KEYS);
  const integrationId = overrides.integrationId ?? randomUUID();
  const version = (versions.get(integrationId) ?? 0) + 1;
  versions.set(integrationId, version);
  const now = new Date().toISOString();
  const event: IntegrationUpsertedEvent = {
    integrationId,
    restaurantId: overrides.restaurantId ?? newRestaurantId(),
    platform,
    providerRestaurantId: overrides.providerRestaurantId ?? CREDENTIALS[platform].providerRestaurantId,
    isActive: overrides.isActive ?? true,
    ...(overrides.displaced === undefined ? {} : { displaced: overrides.displaced }),
    verification: overrides.verification ?? 'verified',
    verifiedAt: (overrides.verification ?? 'verified') === 'verified' ? now : null,
    settings: { ...CREDENTIALS[platform].settings, ...overrides.settings },
    secrets: Object.fromEntries(Object.entries(overrides.secrets ?? CREDENTIALS[platform].secrets).map(([field, value]) => [field, box.encrypt(value, secretBinding.integrationSecret(integrationId, field))])),
    version,
    createdAt: now,
    updatedAt: now,
    occurredAt: now,
  };
  await t.deliver(RoutingKey.IntegrationUpserted, event);
  return { integrationId, restaurantId: event.restaurantId };
}

export function push(t: TestApp, body: Record<string, unknown>, headers: Record<string, string> = internal()) {
  return t.http.post('/internal/orders/status').set(headers).send(body);
}

export function statusUpdate(t: TestApp, id: string) {
  return t.http.get(`/internal/status-updates/${id}`).set(internal());
}

/** Waits until the status update is in one of `states`; returns it. */
export async function waitForState(t: TestApp, id: string, states: string[], timeoutMs = 15_000): Promise<any> {
  let last: any;
  try {
    await waitFor(
      `status update ${id} in ${states.join('|')}`,
      async () => {
        last = (await statusUpdate(t, id)).body;
        return states.includes(last.state);
      },
      timeoutMs,
      25,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; last seen: ${JSON.stringify(last)}`);
  }
  return last;
}

/** A PLATFORM_A order that reached the app through the new-order webhook; returns the simulator's order and ours. */
export async function platformAOrder(platforms: Platforms, t: TestApp, overrides: Parameters<PlatformASimulator['placeOrder']>[1] = {}) {
  const { order, response } = await platforms.a.placeOrder(CREDENTIALS.PLATFORM_A.providerRestaurantId, overrides);
  if (response.status !== 200) throw new Error(`new-order webhook answered ${response.status} ${JSON.stringify(response.body)}`);
  return { simulated: order, yemekKuryeOrderId: (response.body as any).yemekKuryeOrderId as string };
}

/** The most calls any window of `windowMs` holds (windows ending at each call). */
export function fullestWindow(calls: Array<{ at: number }>, windowMs: number): number {
  const times = calls.map((call) => call.at).sort((a, b) => a - b);
  let fullest = 0;
  let start = 0;
  for (let end = 0; end < times.length; end += 1) {
    while (times[start] <= times[end] - windowMs) start += 1;
    fullest = Math.max(fullest, end - start + 1);
  }
  return fullest;
}

export function randomHex(bytes = 6): string {
  return randomBytes(bytes).toString('hex');
}

/**
 * Pushes VERIFY to a PLATFORM_A order, then `copies` of each of VERIFY, PREPARE, HANDOVER and
 * DELIVER at the same time (their writes conflict; PREPARE is held, so nothing is sent, or fails,
 * while they are decided) and checks what must hold whatever order they are decided in: every
 * answer is 202, or 409 DELIVER_BEFORE_PREPARE for a DELIVER decided before PREPARE and HANDOVER;
 * the copies of an action share one statusUpdateId; one update per accepted action, with seq 1..n;
 * the order's history without gaps, one event per move, and the order's row at its last entry.
 */
export async function expectConsistentConcurrentPushes(
  t: TestApp,
  pushAction: (action: string) => Promise<{ status: number; body: any }>,
  yemekKuryeOrderId: string,
  copies = 5,
): Promise<void> {
  const actions = ['VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER'];
  const verify = await pushAction('VERIFY');
  expect(verify.status).toBe(202);
  const sent = actions.flatMap((action) => Array.from({ length: copies }, () => action));
  const responses = await Promise.all(sent.map((action) => pushAction(action)));
  const accepted = new Map<string, Set<string>>([['VERIFY', new Set([verify.body.statusUpdateId])]]);
  responses.forEach((response, index) => {
    if (response.status === 409) {
      expect([sent[index], response.body.code]).toEqual(['DELIVER', 'DELIVER_BEFORE_PREPARE']);
      return;
    }
    expect(response.status).toBe(202);
    accepted.set(sent[index], (accepted.get(sent[index]) ?? new Set()).add(response.body.statusUpdateId));
  });
  for (const ids of accepted.values()) expect(ids.size).toBe(1);
  for (const action of ['VERIFY', 'PREPARE', 'HANDOVER']) expect(accepted.has(action)).toBe(true);

  const updates = await t.sql<{ id: string; action: string; seq: number }>('SELECT id, action, seq FROM status_updates WHERE order_id = $1 ORDER BY seq', [yemekKuryeOrderId]);
  expect(updates.map((update) => update.seq)).toEqual(updates.map((_, index) => index + 1));
  expect(new Map(updates.map((update) => [update.action, update.id]))).toEqual(new Map([...accepted].map(([action, ids]) => [action, [...ids][0]])));

  const [order] = await t.sql<{ sequence: number; status: string }>('SELECT sequence, status FROM orders WHERE id = $1', [yemekKuryeOrderId]);
  const history = await t.sql<{ sequence: number; status: string; trigger: string }>('SELECT sequence, status, trigger FROM order_status_changes WHERE order_id = $1 ORDER BY sequence', [yemekKuryeOrderId]);
  expect(history.map((entry) => entry.sequence)).toEqual(history.map((_, index) => history[0].sequence + index));
  expect(history.at(-1)).toMatchObject({ sequence: order.sequence, status: order.status });
  const moves = history.filter((entry) => actions.includes(entry.trigger));
  const events = (await t.outbox('order.status_changed', yemekKuryeOrderId)).map((row) => (row.payload as { sequence: number }).sequence);
  expect(events.sort((a, b) => a - b)).toEqual(moves.map((entry) => entry.sequence));
}

/** Guard 5 under load: 20 identical VERIFY pushes to a PLATFORM_A order at once give one statusUpdateId, one update, one move, one platform call. */
export async function expectOneVerifyFromConcurrentPushes(t: TestApp, platforms: Platforms): Promise<void> {
  const { simulated, yemekKuryeOrderId } = await platformAOrder(platforms, t);
  const responses = await Promise.all(Array.from({ length: 20 }, () => push(t, { providerOrderId: simulated.id, platform: 'PLATFORM_A', action: 'VERIFY' })));
  expect(responses.map((response) => response.status)).toEqual(Array(20).fill(202));
  const ids = new Set(responses.map((response) => response.body.statusUpdateId));
  expect(ids.size).toBe(1);
  await waitForState(t, [...ids][0], ['sent']);
  await sleep(300);
  expect(platforms.a.callsTo('POST', `/food-orders/${simulated.id}/verify`)).toHaveLength(1);
  expect(await t.sql('SELECT count(*)::int AS n FROM status_updates WHERE order_id = $1', [yemekKuryeOrderId])).toEqual([{ n: 1 }]);
  expect(await t.outbox('order.status_changed', yemekKuryeOrderId)).toHaveLength(1);
}

/**
 * The env of an app whose platform callbacks are under test while its platform calls go nowhere (a
 * closed port): the callbacks' keys set, PLATFORM_C's polling out of the way.
 */
export const CALLBACKS_ONLY_ENV: Readonly<Record<string, string>> = {
  LOG_LEVEL: 'warn',
  PLATFORM_A_BASE_URL: 'http://127.0.0.1:9',
  PLATFORM_B_BASE_URL: 'http://127.0.0.1:9',
  PLATFORM_C_BASE_URL: 'http://127.0.0.1:9',
  PLATFORM_D_BASE_URL: 'http://127.0.0.1:9',
  PLATFORM_A_WEBHOOK_API_KEY: A_WEBHOOK_KEY,
  PLATFORM_B_PLUGIN_SECRET: B_PLUGIN_SECRET,
  PLATFORM_C_POLL_INTERVAL_MS: '600000',
};
