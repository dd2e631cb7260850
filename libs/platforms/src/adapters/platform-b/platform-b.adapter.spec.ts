import { validateConfig } from '@courier/config';
import { PlatformBSimulator } from '../../simulators/platform-b/platform-b.simulator';
import { SessionCache } from '../common/session-cache';
import { PlatformClientConfig } from '../platform-client.config';
import type { IntegrationCredentials, PlatformOrderRef } from '../platform-adapter';
import { jwtExpiry, PlatformBAdapter } from './platform-b.adapter';
import { parsePlatformBOrder } from './platform-b.orders';

const credentials: IntegrationCredentials = { integrationId: 'int-b-1', providerRestaurantId: 'vendor-7', settings: { chainCode: 'chain-1', username: 'pos-user' }, secrets: { password: 'pos-password-1' } };

describe('PLATFORM_B adapter against its simulator', () => {
  let sim: PlatformBSimulator;
  let adapter: PlatformBAdapter;
  const config = () => validateConfig(PlatformClientConfig, { PLATFORM_B_BASE_URL: sim.baseUrl, PLATFORM_HTTP_TIMEOUT_MS: '2000', PLATFORM_B_ACK_RETRY_INTERVAL_MS: '50', PLATFORM_B_ACK_RETRY_WINDOW_MS: '1000' });

  beforeAll(async () => {
    sim = new PlatformBSimulator({ users: [{ username: 'pos-user', password: 'pos-password-1' }] });
    await sim.start();
  });
  afterAll(() => sim.stop());
  beforeEach(() => {
    sim.clearFaults();
    adapter = new PlatformBAdapter(config(), new SessionCache(60_000));
  });

  function order(delivery: 'vendor' | 'platform' | 'pickup' = 'vendor', state: 'ACKNOWLEDGED' | 'WAITING_FOR_ACKNOWLEDGEMENT' = 'ACKNOWLEDGED'): PlatformOrderRef {
    const created = sim.createOrder('vendor-7', { delivery, state });
    const parsed = parsePlatformBOrder('vendor-7', sim.orderPayload(created));
    if (!parsed.ok) throw new Error('unparsable');
    return { platformOrderId: created.token, yemekKuryeOrderId: '0b7f3c1e-2222-4333-8444-555566667777', platformData: parsed.order.platformData };
  }

  it('accepts (acceptanceTime, remoteOrderId) and reports the pickup of a vendor-delivery order; PREPARE and DELIVER have no call', async () => {
    const ref = order('vendor');
    const before = sim.logins;
    expect(await adapter.sendStatus(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done', answer: { httpStatus: 200 } });
    expect(await adapter.sendStatus(credentials, ref, 'PREPARE')).toMatchObject({ kind: 'skipped' });
    expect(await adapter.sendStatus(credentials, ref, 'HANDOVER')).toMatchObject({ kind: 'done' });
    expect(await adapter.sendStatus(credentials, ref, 'DELIVER')).toMatchObject({ kind: 'skipped' });
    const simulated = sim.orders.get(ref.platformOrderId)!;
    expect(simulated.state).toBe('PICKED_UP');
    expect(simulated.remoteOrderId).toBe(ref.yemekKuryeOrderId);
    expect(Date.parse(simulated.acceptanceTime!)).toBeGreaterThan(Date.now());
    expect(sim.logins - before).toBe(1);
    const [accept] = sim.callsTo('POST', `/v2/order/status/${ref.platformOrderId}`);
    expect(accept.headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(accept.body).toEqual({ status: 'order_accepted', acceptanceTime: expect.any(String), remoteOrderId: ref.yemekKuryeOrderId });
  });

  it('reports preparation-completed for platform riders and leaves the pickup to the rider', async () => {
    const ref = order('platform');
    expect(await adapter.sendStatus(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done' });
    expect(await adapter.sendStatus(credentials, ref, 'PREPARE')).toMatchObject({ kind: 'done' });
    expect(sim.orders.get(ref.platformOrderId)!.state).toBe('READY');
    expect(await adapter.sendStatus(credentials, ref, 'HANDOVER')).toMatchObject({ kind: 'skipped' });
  });

  it('rejects with a valid reason (the push\'s code, else TECHNICAL_PROBLEM)', async () => {
    const first = order();
    expect(await adapter.sendStatus(credentials, first, 'REJECT', 'item_unavailable')).toMatchObject({ kind: 'done' });
    expect(sim.orders.get(first.platformOrderId)!.rejectReason).toBe('ITEM_UNAVAILABLE');
    const second = order();
    expect(await adapter.sendStatus(credentials, second, 'CANCEL', 'the kitchen is on fire')).toMatchObject({ kind: 'done' });
    expect(sim.orders.get(second.platformOrderId)!.rejectReason).toBe('TECHNICAL_PROBLEM');
  });

  it('paces the 409 while awaiting acknowledgement; a 409 on a cancelled order is final', async () => {
    const waiting = order('vendor', 'WAITING_FOR_ACKNOWLEDGEMENT');
    expect(await adapter.sendStatus(credentials, waiting, 'VERIFY')).toMatchObject({
      kind: 'retry',
      answer: { httpStatus: 409 },
      pacing: { rule: 'PLATFORM_B_AWAITING_ACKNOWLEDGEMENT', intervalMs: 50, windowMs: 1000 },
    });
    const canceled = order();
    sim.orders.get(canceled.platformOrderId)!.state = 'CANCELLED';
    expect(await adapter.sendStatus(credentials, canceled, 'VERIFY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 409 } });
  });

  it('logs in again after a 401 and repeats the call; retries 429 and 5xx; fails a 404 (unknown order)', async () => {
    const ref = order();
    await adapter.sendStatus(credentials, ref, 'VERIFY');
    const logins = sim.logins;
    sim.expireTokens();
    expect(await adapter.sendStatus(credentials, ref, 'HANDOVER')).toMatchObject({ kind: 'done' });
    expect(sim.logins - logins).toBe(1);
    sim.failNext({ status: 429, headers: { 'Retry-After': '3' } });
    expect(await adapter.sendStatus(credentials, ref, 'HANDOVER')).toMatchObject({ kind: 'retry', retryAfterMs: 3000 });
    sim.failNext({ status: 502 });
    expect(await adapter.sendStatus(credentials, ref, 'HANDOVER')).toMatchObject({ kind: 'retry' });
    expect(await adapter.sendStatus(credentials, order('platform'), 'HANDOVER')).toMatchObject({ kind: 'skipped' });
    expect(await adapter.sendStatus(credentials, { ...order(), platformData: { token: 'missing', delivery: 'vendor' } }, 'VERIFY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 404 } });
  });

  it('shares one login between concurrent calls of an integration', async () => {
    const refs = Array.from({ length: 8 }, () => order());
    const logins = sim.logins;
    const outcomes = await Promise.all(refs.map((ref) => adapter.sendStatus(credentials, ref, 'VERIFY')));
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

  it('parses the dispatched order', () => {
    const created = sim.createOrder('vendor-7', { delivery: 'platform' });
    expect(parsePlatformBOrder('vendor-7', sim.orderPayload(created))).toMatchObject({
      ok: true,
      order: {
        platformOrderId: created.token,
        providerRestaurantId: 'vendor-7',
        orderNumber: created.code.slice(-3),
        platformData: { token: created.token, delivery: 'platform' },
        details: { customerName: 'Mehmet Demir', deliveryAddress: 'İstiklal Cd. 12, 34430, İstanbul', total: 185.5, currency: 'TRY' },
      },
    });
    expect(parsePlatformBOrder('v', { code: 'x' })).toEqual({ ok: false, errors: [{ field: 'token', message: 'is required' }] });
  });
});
