import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PlatformBSimulator } from './yemeksepeti.simulator';
import { SessionCache } from '../common/session-cache';
import { platformClientConfig } from '../platforms';
import type { IntegrationCredentials, PlatformOrderRef } from '../common/platform-adapter';
import { jwtExpiry, PlatformBAdapter } from './yemeksepeti.adapter';
import { PLATFORM_B_409_PACING_RULE, platformBRejectReason } from './yemeksepeti.status';
import { PLATFORM_B_AFTER_ACCEPTANCE_REASONS, PLATFORM_B_REJECT_REASONS } from './yemeksepeti.assumptions';
import { parsePlatformBOrder, PlatformBOrderData } from './yemeksepeti.orders';

const credentials: IntegrationCredentials = { integrationId: 'int-b-1', providerRestaurantId: 'vendor-7', settings: { chainCode: 'chain-1', username: 'pos-user' }, secrets: { password: 'pos-password-1' } };
const REMOTE_ORDER_ID = '0b7f3c1e-2222-4333-8444-555566667777';
/** An answer in the middleware's own shape (simulators/platform-b/examples, each naming its source). */
const example = (name: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(__dirname, 'examples', name), 'utf8')).body;

describe('PLATFORM_B adapter against its simulator', () => {
  let sim: PlatformBSimulator;
  let adapter: PlatformBAdapter;
  const config = (base = sim.baseUrl) =>
    platformClientConfig({ PLATFORM_B_BASE_URL: base, PLATFORM_HTTP_TIMEOUT_MS: '2000', PLATFORM_B_ACK_RETRY_INTERVAL_MS: '50', PLATFORM_B_ACK_RETRY_WINDOW_MS: '1000' });

  beforeAll(async () => {
    sim = new PlatformBSimulator({ users: [{ username: 'pos-user', password: 'pos-password-1' }] });
    await sim.start();
  });
  afterAll(() => sim.stop());
  beforeEach(() => {
    sim.clearFaults();
    adapter = new PlatformBAdapter(config(), new SessionCache(60_000));
  });

  /** An order the plugin acknowledged (RECEIVED), as our intake parsed it. */
  function order(delivery: 'vendor' | 'platform' | 'pickup' = 'vendor', overrides: Parameters<PlatformBSimulator['createOrder']>[1] = {}, data: Partial<PlatformBOrderData> = {}): PlatformOrderRef {
    const created = sim.createOrder('vendor-7', { delivery, state: 'RECEIVED', ...overrides });
    created.acknowledgedAt = Date.now();
    const parsed = parsePlatformBOrder('vendor-7', sim.orderPayload(created));
    if (!parsed.ok) throw new Error(`unparsable: ${JSON.stringify(parsed.errors)}`);
    return { platformOrderId: created.token, yemekKuryeOrderId: REMOTE_ORDER_ID, platformData: { ...parsed.order.platformData, ...data } };
  }

  it('accepts a vendor-delivery order (acceptanceTime at least 2 min ahead, remoteOrderId) and reports its pickup, both on the order\'s callback URLs; PREPARE and DELIVER have no call', async () => {
    const ref = order('vendor');
    const before = sim.logins;
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done', answer: { httpStatus: 200 } });
    expect(await adapter.status.send(credentials, ref, 'PREPARE')).toMatchObject({ kind: 'skipped' });
    expect(await adapter.status.send(credentials, ref, 'HANDOVER')).toMatchObject({ kind: 'done' });
    expect(await adapter.status.send(credentials, ref, 'DELIVER')).toMatchObject({ kind: 'skipped' });
    const simulated = sim.orders.get(ref.platformOrderId)!;
    expect(simulated).toMatchObject({ state: 'PICKED_UP', remoteOrderId: REMOTE_ORDER_ID });
    expect(simulated.callbacks).toEqual([`/v2/order/status/${ref.platformOrderId}`, `/v2/order/status/${ref.platformOrderId}`]);
    expect(Date.parse(simulated.acceptanceTime!)).toBeGreaterThanOrEqual(Date.now() + 2 * 60_000);
    expect(sim.logins - before).toBe(1);
    const [accept] = sim.callsTo('POST', `/v2/order/status/${ref.platformOrderId}`);
    expect(accept.headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(accept.body).toEqual({ status: 'order_accepted', acceptanceTime: expect.any(String), remoteOrderId: REMOTE_ORDER_ID });
  });

  it('reports preparation-completed for platform riders and leaves the pickup to the rider', async () => {
    const ref = order('platform');
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done' });
    expect(await adapter.status.send(credentials, ref, 'PREPARE')).toMatchObject({ kind: 'done' });
    expect(sim.orders.get(ref.platformOrderId)!.state).toBe('PREPARED');
    expect(sim.orders.get(ref.platformOrderId)!.callbacks.at(-1)).toBe(`/v2/orders/${ref.platformOrderId}/preparation-completed`);
    expect(await adapter.status.send(credentials, ref, 'HANDOVER')).toMatchObject({ kind: 'skipped' });
  });

  it('reports the pickup of a pickup order', async () => {
    const ref = order('pickup');
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done' });
    expect(await adapter.status.send(credentials, ref, 'PREPARE')).toMatchObject({ kind: 'skipped' });
    expect(await adapter.status.send(credentials, ref, 'HANDOVER')).toMatchObject({ kind: 'done' });
    expect(sim.orders.get(ref.platformOrderId)!.state).toBe('PICKED_UP');
  });

  it('rejects with a reason of the fixed list: the push\'s code, a code its words name, else TOO_BUSY; TEST_ORDER for a test order; the text as message', async () => {
    const cases: Array<[string | null, PlatformOrderRef, string]> = [
      ['item_unavailable', order(), 'ITEM_UNAVAILABLE'],
      ['No courier available', order(), 'NO_COURIER'],
      ['the kitchen is on fire', order(), 'TOO_BUSY'],
      [null, order(), 'TOO_BUSY'],
      ['anything', order('vendor', { test: true }), 'TEST_ORDER'],
    ];
    for (const [reason, ref, expected] of cases) {
      expect(await adapter.status.send(credentials, ref, 'REJECT', reason)).toMatchObject({ kind: 'done' });
      expect(sim.orders.get(ref.platformOrderId)).toMatchObject({ state: 'REJECTED', rejectReason: expected });
    }
    expect(sim.callsTo('POST', `/v2/order/status/${cases[1][1].platformOrderId}`)[0].body).toEqual({ status: 'order_rejected', reason: 'NO_COURIER', message: 'No courier available' });
    for (const text of ['', '??', 'printer down', 'sold out', 'ADDRESS incomplete misstated', 'we are closed']) expect(PLATFORM_B_REJECT_REASONS).toContain(platformBRejectReason(text));
  });

  it('a cancellation after acceptance with a before-acceptance reason is refused by the platform (final); an after-acceptance one goes through', async () => {
    const ref = order();
    await adapter.status.send(credentials, ref, 'VERIFY');
    expect(await adapter.status.send(credentials, ref, 'CANCEL', 'TOO_BUSY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 400 } });
    expect(PLATFORM_B_AFTER_ACCEPTANCE_REASONS).toContain('LATE_DELIVERY');
    expect(await adapter.status.send(credentials, ref, 'CANCEL', 'late delivery')).toMatchObject({ kind: 'done' });
    expect(sim.orders.get(ref.platformOrderId)).toMatchObject({ state: 'REJECTED', rejectReason: 'LATE_DELIVERY' });
  });

  it.each(['WAITING_FOR_ACKNOWLEDGEMENT', 'ASSIGNED_TO_TRANSPORT'] as const)('paces the 409 with currentState %s, then succeeds once the order is ready', async (state) => {
    const ref = order('platform');
    sim.holdState(ref.platformOrderId, state, 60_000);
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({
      kind: 'retry',
      answer: { httpStatus: 409, body: { currentState: state } },
      pacing: { rule: PLATFORM_B_409_PACING_RULE, intervalMs: 50, windowMs: 1000 },
    });
    sim.orders.get(ref.platformOrderId)!.held = undefined;
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done' });
  });

  it('reads the middleware\'s own 409 bodies: ASSIGNED_TO_TRANSPORT is retried, CANCELLED is final', async () => {
    const statusCall = (request: { path: string }) => request.path.startsWith('/v2/order/status/');
    sim.failNext({ status: 409, body: example('status-409-assigned-to-transport.json'), match: statusCall });
    expect(await adapter.status.send(credentials, order(), 'VERIFY')).toMatchObject({ kind: 'retry', pacing: { rule: PLATFORM_B_409_PACING_RULE } });
    sim.failNext({ status: 409, body: example('status-409-cancelled.json'), match: statusCall });
    expect(await adapter.status.send(credentials, order(), 'VERIFY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 409 } });
  });

  it('a 409 on a cancelled order, or a 409 without a not-yet state, is final', async () => {
    const canceled = order();
    sim.orders.get(canceled.platformOrderId)!.state = 'CANCELLED';
    expect(await adapter.status.send(credentials, canceled, 'VERIFY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 409, body: { currentState: 'CANCELLED' } } });
    sim.failNext({ status: 409, body: { code: 'CONFLICT', message: 'no state given' } });
    expect(await adapter.status.send(credentials, order(), 'VERIFY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 409 } });
  });

  it('never sends an acceptanceTime less than 2 minutes ahead (fake clock): a due time too close or past is lifted to now + 3 min; a later one is kept', async () => {
    const now = Date.now();
    const clocked = new PlatformBAdapter(config(), new SessionCache(60_000), () => now);
    const soon = order('vendor', {}, { expectedAt: new Date(now + 30_000).toISOString() });
    const past = order('platform', {}, { expectedAt: new Date(now - 60_000).toISOString() });
    const later = order('vendor', {}, { expectedAt: new Date(now + 25 * 60_000).toISOString() });
    const none = order('pickup', {}, { expectedAt: undefined });
    for (const ref of [soon, past, later, none]) expect(await clocked.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done' });
    const sent = (ref: PlatformOrderRef) => Date.parse(sim.orders.get(ref.platformOrderId)!.acceptanceTime!);
    expect(sent(soon)).toBe(now + 3 * 60_000);
    expect(sent(past)).toBe(now + 3 * 60_000);
    expect(sent(later)).toBe(now + 25 * 60_000);
    expect(sent(none)).toBe(now + 20 * 60_000);
  });

  it('the simulator refuses an acceptanceTime under 2 minutes ahead, a missing remoteOrderId and an unknown reason (400, final)', async () => {
    const ref = order();
    const bad = new PlatformBAdapter(config(), new SessionCache(60_000), () => Date.now() - 19 * 60_000); // now + 20 min by its clock: 1 min ahead by the platform's
    expect(await bad.status.send(credentials, { ...ref, platformData: { ...ref.platformData, expectedAt: undefined } }, 'VERIFY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 400 } });
    expect(sim.orders.get(ref.platformOrderId)!.state).toBe('RECEIVED');
  });

  it('follows the order\'s callbackUrls: a null URL means no such call; a URL on another host is not called with our token; no callbackUrls at all: the documented paths', async () => {
    const withoutAccept = order('vendor', {}, { callbackUrls: { orderAcceptedUrl: null, orderRejectedUrl: null, orderPickedUpUrl: null, orderPreparedUrl: null } });
    expect(await adapter.status.send(credentials, withoutAccept, 'VERIFY')).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/orderAcceptedUrl/) });
    expect(await adapter.status.send(credentials, withoutAccept, 'REJECT')).toMatchObject({ kind: 'skipped' });
    const foreign = order('vendor', {}, { callbackUrls: { orderAcceptedUrl: 'https://attacker.example/steal', orderRejectedUrl: null, orderPickedUpUrl: null, orderPreparedUrl: null } });
    expect(await adapter.status.send(credentials, foreign, 'VERIFY')).toMatchObject({ kind: 'done' });
    expect(sim.orders.get(foreign.platformOrderId)!.callbacks).toEqual([`/v2/order/status/${foreign.platformOrderId}`]);
    const bare = order('platform', {}, { callbackUrls: undefined });
    expect(await adapter.status.send(credentials, bare, 'VERIFY')).toMatchObject({ kind: 'done' });
    expect(await adapter.status.send(credentials, bare, 'PREPARE')).toMatchObject({ kind: 'done' });
  });

  it('logs in again when the token expires mid-stream (401) and repeats the call; retries 429, 5xx and a platform that is down; fails a 404 and a 400', async () => {
    const ref = order();
    await adapter.status.send(credentials, ref, 'VERIFY');
    const logins = sim.logins;
    sim.expireTokens();
    expect(await adapter.status.send(credentials, ref, 'HANDOVER')).toMatchObject({ kind: 'done' });
    expect(sim.logins - logins).toBe(1);
    const next = order();
    sim.failNext({ status: 429, headers: { 'Retry-After': '3' } });
    expect(await adapter.status.send(credentials, next, 'VERIFY')).toMatchObject({ kind: 'retry', retryAfterMs: 3000 });
    sim.failNext({ status: 502 });
    expect(await adapter.status.send(credentials, next, 'VERIFY')).toMatchObject({ kind: 'retry', answer: { httpStatus: 502 } });
    sim.setDown(true);
    try {
      expect(await adapter.status.send(credentials, next, 'VERIFY')).toMatchObject({ kind: 'retry', answer: { httpStatus: null } });
    } finally {
      sim.setDown(false);
    }
    sim.failNext({ status: 400, body: { code: 'INVALID_REQUEST', message: 'bad' } });
    expect(await adapter.status.send(credentials, next, 'VERIFY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 400 } });
    const unknown = { ...order(), platformData: { token: 'missing', delivery: 'vendor' } };
    expect(await adapter.status.send(credentials, unknown, 'VERIFY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 404 } });
  });

  it('keeps the token for the login\'s expires_in and logs in again when it runs out (fake clock)', async () => {
    let now = Date.now();
    const clocked = new PlatformBAdapter(config(), new SessionCache(60_000, () => now), () => now);
    const logins = sim.logins;
    expect(await clocked.status.send(credentials, order(), 'VERIFY')).toMatchObject({ kind: 'done' });
    now += 30 * 60_000; // the simulator's tokens live 3600 s (expires_in); the cache renews 60 s early
    expect(await clocked.status.send(credentials, order(), 'VERIFY')).toMatchObject({ kind: 'done' });
    expect(sim.logins - logins).toBe(1);
    now += 30 * 60_000;
    expect(await clocked.status.send(credentials, order(), 'VERIFY')).toMatchObject({ kind: 'done' });
    expect(sim.logins - logins).toBe(2);
    expect(sim.callsTo('POST', '/v2/login').at(-1)!.answer).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
  });

  it('shares one login between concurrent calls of an integration', async () => {
    const refs = Array.from({ length: 8 }, () => order());
    const logins = sim.logins;
    const outcomes = await Promise.all(refs.map((ref) => adapter.status.send(credentials, ref, 'VERIFY')));
    expect(outcomes.every((outcome) => outcome.kind === 'done')).toBe(true);
    expect(sim.logins - logins).toBe(1);
  });

  it('checks credentials with a real login; the login is form-encoded client_credentials', async () => {
    expect(await adapter.checkCredentials(credentials)).toMatchObject({ result: 'ok' });
    const [login] = sim.callsTo('POST', '/v2/login').slice(-1);
    expect(login.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(login.body).toEqual({ username: 'pos-user', password: 'pos-password-1', grant_type: 'client_credentials' });
    expect(await adapter.checkCredentials({ ...credentials, secrets: { password: 'wrong' } })).toMatchObject({ result: 'rejected', httpStatus: 401 });
  });

  it('reads the token expiry from the JWT', () => {
    const payload = Buffer.from(JSON.stringify({ exp: 2_000_000_000 })).toString('base64url');
    expect(jwtExpiry(`h.${payload}.s`)).toBe(2_000_000_000_000);
    expect(jwtExpiry('garbage')).toBeUndefined();
  });
});
