import { validateConfig } from '@courier/config';
import { PlatformASimulator } from '../../simulators/platform-a/platform-a.simulator';
import { SessionCache } from '../common/session-cache';
import { PlatformClientConfig } from '../platform-client.config';
import type { IntegrationCredentials, PlatformOrderRef } from '../platform-adapter';
import { PlatformAAdapter } from './platform-a.adapter';
import { GETIR_COURIER, PLATFORM_A_STATUS, RESTAURANT_COURIER } from './platform-a.assumptions';
import { parsePlatformAOrder } from './platform-a.orders';

const APP_KEY = 'app-secret-key-0001';
const credentials: IntegrationCredentials = { integrationId: 'int-a-1', providerRestaurantId: 'getir-r-1', settings: {}, secrets: { secretKey: 'restaurant-secret-1' } };

describe('PLATFORM_A adapter against its simulator', () => {
  let sim: PlatformASimulator;
  let adapter: PlatformAAdapter;

  beforeAll(async () => {
    sim = new PlatformASimulator({ appSecretKey: APP_KEY, restaurants: [{ restaurantId: 'getir-r-1', secretKey: 'restaurant-secret-1' }], minStepIntervalMs: 0 });
    await sim.start();
  });
  afterAll(() => sim.stop());
  beforeEach(() => {
    sim.clearFaults();
    sim.options.minStepIntervalMs = 0;
    adapter = new PlatformAAdapter(validateConfig(PlatformClientConfig, { PLATFORM_A_BASE_URL: sim.baseUrl, PLATFORM_A_APP_SECRET_KEY: APP_KEY, PLATFORM_HTTP_TIMEOUT_MS: '2000' }), new SessionCache(60_000));
  });

  function order(deliveryType = RESTAURANT_COURIER, isScheduled = false): PlatformOrderRef {
    const created = sim.createOrder('getir-r-1', { deliveryType, isScheduled });
    return { platformOrderId: created.id, yemekKuryeOrderId: '5f0c4a2e-1111-4222-8333-444455556666', platformData: { deliveryType, isScheduled } };
  }

  it('verifies, prepares and delivers a restaurant-courier order, logging in once, token in the `token` header', async () => {
    const ref = order();
    const before = sim.logins;
    for (const action of ['VERIFY', 'PREPARE', 'DELIVER'] as const) expect(await adapter.sendStatus(credentials, ref, action)).toMatchObject({ kind: 'done', answer: { httpStatus: 200 } });
    expect(sim.orders.get(ref.platformOrderId)!.steps.map((step) => step.step)).toEqual(['verify', 'prepare', 'deliver']);
    expect(sim.orders.get(ref.platformOrderId)!.status).toBe(PLATFORM_A_STATUS.DELIVERED);
    expect(sim.logins - before).toBe(1);
    const calls = sim.callsTo('POST', new RegExp(`/food-orders/${ref.platformOrderId}/`));
    expect(calls.map((call) => call.path.split('/').pop())).toEqual(['verify', 'prepare', 'deliver']);
    expect(calls.every((call) => typeof call.headers.token === 'string' && call.headers.token.length > 10)).toBe(true);
  });

  it('hands over a Getir-courier order and skips its DELIVER; skips HANDOVER of a restaurant-courier order', async () => {
    const getir = order(GETIR_COURIER);
    for (const action of ['VERIFY', 'PREPARE', 'HANDOVER'] as const) expect(await adapter.sendStatus(credentials, getir, action)).toMatchObject({ kind: 'done' });
    expect(sim.orders.get(getir.platformOrderId)!.status).toBe(PLATFORM_A_STATUS.HANDED_OVER);
    expect(await adapter.sendStatus(credentials, getir, 'DELIVER')).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/deliveryType 1/) });
    expect(await adapter.sendStatus(credentials, order(RESTAURANT_COURIER), 'HANDOVER')).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/deliveryType 2/) });
  });

  it('verifies a scheduled order through verify-scheduled', async () => {
    const ref = order(RESTAURANT_COURIER, true);
    expect(await adapter.sendStatus(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done' });
    expect(sim.orders.get(ref.platformOrderId)!.steps[0].step).toBe('verify-scheduled');
  });

  it('counts the platform\'s "already done" answers (code 2, 13) as done', async () => {
    const ref = order();
    await adapter.sendStatus(credentials, ref, 'VERIFY');
    expect(await adapter.sendStatus(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done', alreadyDone: true, answer: { httpStatus: 400, body: { code: 2 } } });
    expect(await adapter.sendStatus(credentials, ref, 'CANCEL', 'Out of stock')).toMatchObject({ kind: 'done' });
    expect(await adapter.sendStatus(credentials, ref, 'REJECT')).toMatchObject({ kind: 'done', alreadyDone: true, answer: { body: { code: 13 } } });
  });

  it('cancels with a reason offered by cancel-options (matched by text) and the note', async () => {
    const ref = order();
    expect(await adapter.sendStatus(credentials, ref, 'CANCEL', 'out of stock')).toMatchObject({ kind: 'done' });
    expect(sim.callsTo('GET', `/food-orders/${ref.platformOrderId}/cancel-options`)).toHaveLength(1);
    expect(sim.callsTo('POST', `/food-orders/${ref.platformOrderId}/cancel`)[0].body).toEqual({ cancelNote: 'out of stock', cancelReasonId: '5d8b8f8e1c9d440000a1b2c2' });
    const other = order();
    expect(await adapter.sendStatus(credentials, other, 'REJECT')).toMatchObject({ kind: 'done' });
    expect(sim.callsTo('POST', `/food-orders/${other.platformOrderId}/cancel`)[0].body).toEqual({ cancelNote: 'Cancelled by the restaurant', cancelReasonId: '5d8b8f8e1c9d440000a1b2c1' });
  });

  it('retries a step sent too early, 429 (20 s block or Retry-After) and 5xx; fails a final 4xx', async () => {
    const ref = order();
    await adapter.sendStatus(credentials, ref, 'VERIFY');
    sim.options.minStepIntervalMs = 60_000;
    expect(await adapter.sendStatus(credentials, ref, 'PREPARE')).toMatchObject({ kind: 'retry', retryAfterMs: 5_000, answer: { body: { code: 40 } } });
    sim.failNext({ status: 429, body: { code: 429, error: 'TooManyRequests' } });
    expect(await adapter.sendStatus(credentials, ref, 'PREPARE')).toMatchObject({ kind: 'retry', retryAfterMs: 20_000 });
    sim.failNext({ status: 429, headers: { 'Retry-After': '7' } });
    expect(await adapter.sendStatus(credentials, ref, 'PREPARE')).toMatchObject({ kind: 'retry', retryAfterMs: 7_000 });
    sim.failNext({ status: 503 });
    expect(await adapter.sendStatus(credentials, ref, 'PREPARE')).toMatchObject({ kind: 'retry', answer: { httpStatus: 503 } });
    expect(await adapter.sendStatus(credentials, { ...ref, platformOrderId: 'no-such-order' }, 'PREPARE')).toMatchObject({ kind: 'failed', answer: { httpStatus: 404 } });
  });

  it('logs in again after a 401 (token expired early) and repeats the call once', async () => {
    const ref = order();
    await adapter.sendStatus(credentials, ref, 'VERIFY');
    const logins = sim.logins;
    sim.expireTokens();
    expect(await adapter.sendStatus(credentials, ref, 'PREPARE')).toMatchObject({ kind: 'done' });
    expect(sim.logins - logins).toBe(1);
    expect(sim.callsTo('POST', `/food-orders/${ref.platformOrderId}/prepare`).map((call) => call.status)).toEqual([401, 200]);
  });

  it('fails on refused credentials and a missing app key; retries when the platform is down', async () => {
    const ref = order();
    const wrong = { ...credentials, integrationId: 'int-a-wrong', secrets: { secretKey: 'nope' } };
    expect(await adapter.sendStatus(wrong, ref, 'VERIFY')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/refused the login/), answer: { httpStatus: 401 } });
    const unconfigured = new PlatformAAdapter(validateConfig(PlatformClientConfig, { PLATFORM_A_BASE_URL: sim.baseUrl }), new SessionCache(0));
    expect(await unconfigured.sendStatus(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/PLATFORM_A_APP_SECRET_KEY/) });
    sim.setDown(true);
    try {
      expect(await adapter.sendStatus(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'retry', answer: { httpStatus: null, error: expect.any(String) } });
      expect(await adapter.checkCredentials(credentials)).toMatchObject({ result: 'unreachable' });
    } finally {
      sim.setDown(false);
    }
  });

  it('checks credentials with a real login', async () => {
    expect(await adapter.checkCredentials(credentials)).toMatchObject({ result: 'ok' });
    expect(await adapter.checkCredentials({ ...credentials, secrets: { secretKey: 'wrong' } })).toMatchObject({ result: 'rejected', httpStatus: 401 });
    const unconfigured = new PlatformAAdapter(validateConfig(PlatformClientConfig, { PLATFORM_A_BASE_URL: sim.baseUrl }), new SessionCache(0));
    expect(await unconfigured.checkCredentials(credentials)).toMatchObject({ result: 'not_configured' });
  });

  it('parses the webhook body the simulator sends', () => {
    const simulated = sim.createOrder('getir-r-1', { deliveryType: GETIR_COURIER });
    const parsed = parsePlatformAOrder(sim.foodOrder(simulated));
    expect(parsed).toMatchObject({
      ok: true,
      order: {
        platformOrderId: simulated.id,
        providerRestaurantId: 'getir-r-1',
        orderNumber: simulated.confirmationId,
        state: 'new',
        scheduledDeliveryTime: null,
        platformData: { deliveryType: 1, isScheduled: false, status: 400 },
        details: { customerName: 'Ayşe Yılmaz', deliveryAddress: 'Bağdat Cd. 250, 5, Kadıköy, İstanbul', deliveryLatitude: 40.9719, total: 110, currency: 'TRY', items: [{ productName: 'Lahmacun', quantity: 2 }] },
      },
    });
    expect(parsePlatformAOrder({ ...sim.foodOrder(simulated), status: 500 })).toMatchObject({ ok: true, order: { state: 'accepted' } });
    expect(parsePlatformAOrder({ ...sim.foodOrder(simulated), status: 1500 })).toMatchObject({ ok: true, order: { state: 'canceled' } });
    expect(parsePlatformAOrder({ id: 'x' })).toEqual({ ok: false, errors: [{ field: 'restaurant.id', message: 'is required' }] });
    expect(parsePlatformAOrder({ id: 'x' }, { restaurantRequired: false })).toMatchObject({ ok: true });
    expect(parsePlatformAOrder([])).toMatchObject({ ok: false, errors: [{ field: 'body' }] });
    expect(parsePlatformAOrder({ id: { $ne: 1 }, restaurant: { id: 'r' } })).toMatchObject({ ok: false, errors: [{ field: 'id', message: 'must be a string' }] });
  });
});
