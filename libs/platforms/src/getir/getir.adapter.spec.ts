import { PlatformASimulator } from './getir.simulator';
import { SessionCache } from '../common/session-cache';
import { platformClientConfig } from '../platforms';
import type { IntegrationCredentials, PlatformOrderRef } from '../common/platform-adapter';
import { PlatformAAdapter } from './getir.adapter';
import { GETIR_COURIER, PLATFORM_A_STATUS, RESTAURANT_COURIER } from './getir.assumptions';
import { parsePlatformAOrder } from './getir.orders';
import alreadyCancelled from './examples/error-already-cancelled.json';
import cannotBeCancelled from './examples/error-cannot-be-cancelled.json';
import clientAccountClosed from './examples/error-client-account-closed.json';
import productNotOfRestaurant from './examples/error-product-not-of-restaurant.json';
import statusLock from './examples/error-status-lock.json';
import tokenRequired from './examples/error-token-required.json';
import unapprovedExample from './examples/periodic-unapproved.json';

const APP_KEY = 'app-secret-key-0001';
const STEP_INTERVAL_MS = 45_000;
const COURIER_INTERVAL_MS = 7_000;
const COURIER_WINDOW_MS = 120_000;
const credentials: IntegrationCredentials = { integrationId: 'int-a-1', providerRestaurantId: 'getir-r-1', settings: {}, secrets: { secretKey: 'restaurant-secret-1' } };

describe('PLATFORM_A adapter against its simulator', () => {
  let sim: PlatformASimulator;
  let adapter: PlatformAAdapter;

  beforeAll(async () => {
    sim = new PlatformASimulator({ appSecretKey: APP_KEY, restaurants: [{ restaurantId: 'getir-r-1', secretKey: 'restaurant-secret-1' }, { restaurantId: 'getir-r-2', secretKey: 'restaurant-secret-2' }], minStepIntervalMs: 0 });
    await sim.start();
  });
  afterAll(() => sim.stop());
  beforeEach(() => {
    sim.clearFaults();
    sim.options.minStepIntervalMs = 0;
    sim.options.statusLockMs = 0;
    adapter = new PlatformAAdapter(
      platformClientConfig({ PLATFORM_A_BASE_URL: sim.baseUrl, PLATFORM_A_APP_SECRET_KEY: APP_KEY, PLATFORM_HTTP_TIMEOUT_MS: '2000', PLATFORM_A_STEP_INTERVAL_MS: String(STEP_INTERVAL_MS), PLATFORM_A_COURIER_RETRY_INTERVAL_MS: String(COURIER_INTERVAL_MS), PLATFORM_A_COURIER_RETRY_WINDOW_MS: String(COURIER_WINDOW_MS) }),
      new SessionCache(60_000),
    );
  });

  /** An order on the platform, as our intake stored it (the parser's platformData of the webhook body). */
  function order(overrides: Parameters<PlatformASimulator['createOrder']>[1] = {}): PlatformOrderRef {
    const created = sim.createOrder('getir-r-1', overrides);
    const parsed = parsePlatformAOrder(sim.foodOrder(created));
    if (!parsed.ok) throw new Error('the simulator\'s order does not parse');
    return { platformOrderId: created.id, yemekKuryeOrderId: '5f0c4a2e-1111-4222-8333-444455556666', platformData: parsed.order.platformData };
  }
  const stepsOf = (ref: PlatformOrderRef) => sim.orders.get(ref.platformOrderId)!.steps.map((step) => step.step);

  it('verifies, prepares and delivers a restaurant-courier order, logging in once, token in the `token` header', async () => {
    const ref = order({ deliveryType: RESTAURANT_COURIER });
    const before = sim.logins;
    for (const action of ['VERIFY', 'PREPARE', 'DELIVER'] as const) expect(await adapter.status.send(credentials, ref, action)).toMatchObject({ kind: 'done', answer: { httpStatus: 200, body: { result: true } } });
    expect(stepsOf(ref)).toEqual(['verify', 'prepare', 'deliver']);
    expect(sim.orders.get(ref.platformOrderId)!.status).toBe(PLATFORM_A_STATUS.DELIVERED);
    expect(sim.logins - before).toBe(1);
    const calls = sim.callsTo('POST', new RegExp(`/food-orders/${ref.platformOrderId}/`));
    expect(calls.map((call) => call.path.split('/').pop())).toEqual(['verify', 'prepare', 'deliver']);
    expect(calls.every((call) => typeof call.headers.token === 'string' && call.headers.token.length > 10)).toBe(true);
  });

  it('hands over a Getir-courier order and skips its DELIVER; skips HANDOVER of a restaurant-courier order', async () => {
    const getir = order({ deliveryType: GETIR_COURIER });
    for (const action of ['VERIFY', 'PREPARE', 'HANDOVER'] as const) expect(await adapter.status.send(credentials, getir, action)).toMatchObject({ kind: 'done' });
    expect(sim.orders.get(getir.platformOrderId)!.status).toBe(PLATFORM_A_STATUS.HANDED_OVER);
    expect(await adapter.status.send(credentials, getir, 'DELIVER')).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/deliveryType 1/) });
    expect(await adapter.status.send(credentials, order({ deliveryType: RESTAURANT_COURIER }), 'HANDOVER')).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/deliveryType 2/) });
  });

  it('chooses verify-scheduled by the order\'s status (325), verify for a pre-approved scheduled order (400), and reads the status when intake had none', async () => {
    const scheduled = order({ isScheduled: true });
    expect(scheduled.platformData.status).toBe(325);
    expect(await adapter.status.send(credentials, scheduled, 'VERIFY')).toMatchObject({ kind: 'done' });
    expect(stepsOf(scheduled)).toEqual(['verify-scheduled']);
    expect(sim.orders.get(scheduled.platformOrderId)!.status).toBe(PLATFORM_A_STATUS.SCHEDULED_APPROVED);

    const preApproved = order({ isScheduled: true, status: 400 });
    expect(preApproved.platformData).toMatchObject({ isScheduled: true, status: 400 });
    expect(await adapter.status.send(credentials, preApproved, 'VERIFY')).toMatchObject({ kind: 'done' });
    expect(stepsOf(preApproved)).toEqual(['verify']);

    const unknown = order({ isScheduled: true });
    expect(await adapter.status.send(credentials, { ...unknown, platformData: { deliveryType: 2 } }, 'VERIFY')).toMatchObject({ kind: 'done' });
    expect(sim.callsTo('GET', `/food-orders/${unknown.platformOrderId}`)).toHaveLength(1);
    expect(stepsOf(unknown)).toEqual(['verify-scheduled']);
  });

  it('sends no second verify: a scheduled order approved with verify-scheduled (350, then 500 by Getir itself) counts as verified', async () => {
    const scheduled = order({ isScheduled: true });
    expect(await adapter.status.send(credentials, scheduled, 'VERIFY')).toMatchObject({ kind: 'done' });
    // Our stored status no longer says which call it needs (e.g. polled after approval): the read decides.
    const unknownStatus = { ...scheduled, platformData: { deliveryType: 2 } };
    expect(await adapter.status.send(credentials, unknownStatus, 'VERIFY')).toMatchObject({ kind: 'done', alreadyDone: true, answer: { httpStatus: 200, body: { status: 350 } } });
    sim.activateScheduled(scheduled.platformOrderId);
    expect(await adapter.status.send(credentials, unknownStatus, 'VERIFY')).toMatchObject({ kind: 'done', alreadyDone: true, answer: { body: { status: 500 } } });
    expect(sim.callsTo('POST', `/food-orders/${scheduled.platformOrderId}/verify`)).toHaveLength(0);
    expect(stepsOf(scheduled)).toEqual(['verify-scheduled']);
    sim.options.minStepIntervalMs = 0;
    expect(await adapter.status.send(credentials, scheduled, 'PREPARE')).toMatchObject({ kind: 'done' });
  });

  it('codes 14, 15 and 71 (Getir\'s courier not there yet) are a "not yet": retried at PLATFORM_A_COURIER_RETRY_INTERVAL_MS within its window, then the handover goes through', async () => {
    sim.options.courierArrivesAfterMs = null;
    try {
      const getir = order({ deliveryType: GETIR_COURIER });
      for (const action of ['VERIFY', 'PREPARE'] as const) expect(await adapter.status.send(credentials, getir, action)).toMatchObject({ kind: 'done' });
      const pacing = { intervalMs: COURIER_INTERVAL_MS, windowMs: COURIER_WINDOW_MS, rule: expect.stringMatching(/code 15 CourierNotReachedToRestaurant/) };
      expect(await adapter.status.send(credentials, getir, 'HANDOVER')).toMatchObject({ kind: 'retry', pacing, answer: { httpStatus: 400, body: { code: 15 } } });
      sim.setCourier(getir.platformOrderId, 'none');
      expect(await adapter.status.send(credentials, getir, 'HANDOVER')).toMatchObject({ kind: 'retry', pacing: { ...pacing, rule: expect.stringMatching(/code 71/) } });
      sim.setCourier(getir.platformOrderId, 'unavailable');
      expect(await adapter.status.send(credentials, getir, 'HANDOVER')).toMatchObject({ kind: 'retry', pacing: { ...pacing, rule: expect.stringMatching(/code 14/) } });
      sim.setCourier(getir.platformOrderId, 'at-restaurant');
      expect(await adapter.status.send(credentials, getir, 'HANDOVER')).toMatchObject({ kind: 'done', answer: { httpStatus: 200 } });
      expect(stepsOf(getir)).toEqual(['verify', 'prepare', 'handover']);
    } finally {
      sim.options.courierArrivesAfterMs = undefined;
    }
  });

  it('counts codes 2 (FoodOrderAlreadyVerified) and 13 (FoodOrderAlreadyCancelled) as done', async () => {
    const ref = order();
    await adapter.status.send(credentials, ref, 'VERIFY');
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done', alreadyDone: true, answer: { httpStatus: 400, body: { code: 2, error: 'FoodOrderAlreadyVerified' } } });
    expect(await adapter.status.send(credentials, ref, 'CANCEL', 'Out of stock')).toEqual({ kind: 'done', answer: { httpStatus: 200, body: {} } });
    expect(await adapter.status.send(credentials, ref, 'REJECT')).toMatchObject({ kind: 'done', alreadyDone: true, answer: { body: { code: 13 } } });
    sim.failNext({ status: 400, body: alreadyCancelled, match: (request) => request.path.endsWith('/cancel') });
    expect(await adapter.status.send(credentials, order(), 'CANCEL')).toMatchObject({ kind: 'done', alreadyDone: true });
  });

  it('code 3 (FoodOrderStatusInvalidError) is a final refusal, unless the order already moved past the step (then done)', async () => {
    const early = order();
    expect(await adapter.status.send(credentials, early, 'PREPARE')).toMatchObject({
      kind: 'failed',
      answer: { httpStatus: 400, body: { code: 3, error: 'FoodOrderStatusInvalidError' } },
      reason: expect.stringMatching(/code 3 FoodOrderStatusInvalidError.*order status 400 AwaitingApproval/),
    });
    expect(stepsOf(early)).toEqual([]);

    const moved = order();
    for (const action of ['VERIFY', 'PREPARE'] as const) await adapter.status.send(credentials, moved, action);
    // Prepare again (our retry after a lost answer): Getir answers 3, the order's prepareDate says it happened.
    expect(await adapter.status.send(credentials, moved, 'PREPARE')).toMatchObject({ kind: 'done', alreadyDone: true, answer: { body: { code: 3 } } });

    const cancelled = order();
    sim.cancelOnPlatform(cancelled.platformOrderId);
    expect(await adapter.status.send(credentials, cancelled, 'VERIFY')).toMatchObject({ kind: 'failed', answer: { body: { code: 3 } } });
  });

  it('code 4 (FoodOrderStatusLock) is retried soon: another change of the order holds its lock', async () => {
    await adapter.status.send(credentials, order(), 'VERIFY'); // a session in place: both calls below leave at once
    const ref = order();
    sim.options.statusLockMs = 1_500;
    const outcomes = await Promise.all([adapter.status.send(credentials, ref, 'VERIFY'), adapter.status.send(credentials, ref, 'VERIFY')]);
    expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['done', 'retry']);
    expect(outcomes.find((outcome) => outcome.kind === 'retry')).toMatchObject({ retryAfterMs: 5_000, answer: { body: { code: 4, error: 'FoodOrderStatusLock' } } });
    expect(stepsOf(ref)).toEqual(['verify']);
    sim.options.statusLockMs = 0;
    sim.failNext({ status: 400, body: statusLock });
    expect(await adapter.status.send(credentials, ref, 'PREPARE')).toMatchObject({ kind: 'retry', retryAfterMs: 5_000 });
  });

  it('codes 5 (ClientAccountClosed), 11 (FoodOrderCanNotBeCancelled), 1 (FoodOrderNotFound), 40 and -2 are final', async () => {
    const closed = order();
    sim.closeClientAccount(closed.platformOrderId);
    expect(await adapter.status.send(credentials, closed, 'VERIFY')).toMatchObject({ kind: 'failed', answer: { body: clientAccountClosed } });
    const closedLater = order({ deliveryType: RESTAURANT_COURIER });
    for (const action of ['VERIFY', 'PREPARE'] as const) await adapter.status.send(credentials, closedLater, action);
    sim.closeClientAccount(closedLater.platformOrderId);
    expect(await adapter.status.send(credentials, closedLater, 'DELIVER')).toMatchObject({ kind: 'failed', answer: { body: { code: 5 } } });
    expect(stepsOf(closedLater)).toEqual(['verify', 'prepare']);

    const handedOver = order({ deliveryType: GETIR_COURIER });
    for (const action of ['VERIFY', 'PREPARE', 'HANDOVER'] as const) await adapter.status.send(credentials, handedOver, action);
    expect(await adapter.status.send(credentials, handedOver, 'CANCEL', 'Out of stock')).toMatchObject({ kind: 'failed', answer: { body: cannotBeCancelled } });

    expect(await adapter.status.send(credentials, { ...order(), platformOrderId: 'no-such-order' }, 'PREPARE')).toMatchObject({ kind: 'failed', answer: { httpStatus: 404, body: { code: 1 } } });
    const otherRestaurant = sim.createOrder('getir-r-2');
    expect(await adapter.status.send(credentials, { ...order(), platformOrderId: otherRestaurant.id }, 'PREPARE')).toMatchObject({ kind: 'failed', answer: { httpStatus: 404 } });

    sim.failNext({ status: 400, body: productNotOfRestaurant, match: (request) => request.path.endsWith('/cancel') });
    expect(await adapter.status.send(credentials, order(), 'CANCEL')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/code 40 ProductNotBelongsToRestaurantError/) });
    sim.failNext({ status: 400, body: tokenRequired });
    expect(await adapter.status.send(credentials, order(), 'VERIFY')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/code -2 ValidationError/) });
    sim.failNext({ status: 400, body: { code: 999, error: 'SomethingNew', message: 'new' } });
    expect(await adapter.status.send(credentials, order(), 'VERIFY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 400 } });
  });

  it('codes 74 (prepare too early) and 62 (deliver too early) are retried when the minimum interval has passed', async () => {
    const ref = order({ deliveryType: RESTAURANT_COURIER });
    await adapter.status.send(credentials, ref, 'VERIFY');
    sim.options.minStepIntervalMs = 60_000;
    expect(await adapter.status.send(credentials, ref, 'PREPARE')).toMatchObject({ kind: 'retry', retryAfterMs: STEP_INTERVAL_MS, answer: { body: { code: 74, error: 'FoodOrderPreparedTimeLimitError' } } });
    sim.options.minStepIntervalMs = 0;
    expect(await adapter.status.send(credentials, ref, 'PREPARE')).toMatchObject({ kind: 'done' });
    sim.options.minStepIntervalMs = 60_000;
    expect(await adapter.status.send(credentials, ref, 'DELIVER')).toMatchObject({ kind: 'retry', retryAfterMs: STEP_INTERVAL_MS, answer: { body: { code: 62, error: 'FoodOrderDeliveredToClientTimeLimitError' } } });
    expect(stepsOf(ref)).toEqual(['verify', 'prepare']);
  });

  it('retries 429 (the 20 s block, the 60 s cancel-options block, or Retry-After), 5xx and a platform that is down', async () => {
    const ref = order();
    await adapter.status.send(credentials, order(), 'VERIFY'); // logged in: the faults below meet the status calls
    sim.failNext({ status: 429, body: { code: 429, error: 'TooManyRequests' } });
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'retry', retryAfterMs: 20_000 });
    sim.failNext({ status: 429, headers: { 'Retry-After': '7' } });
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'retry', retryAfterMs: 7_000 });
    sim.failNext({ status: 429, match: (request) => request.path.endsWith('/cancel-options') });
    expect(await adapter.status.send(credentials, ref, 'CANCEL')).toMatchObject({ kind: 'retry', retryAfterMs: 60_000 });
    sim.failNext({ status: 503 });
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'retry', answer: { httpStatus: 503 } });
    sim.setDown(true);
    try {
      expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'retry', answer: { httpStatus: null, error: expect.any(String) } });
      expect(await adapter.checkCredentials(credentials)).toMatchObject({ result: 'unreachable' });
    } finally {
      sim.setDown(false);
    }
  });

  it('a token blocked by the simulator\'s rate limiter (verify-scheduled counts, verify does not) is retried after the block', async () => {
    const limited = new PlatformASimulator({ appSecretKey: APP_KEY, restaurants: [{ restaurantId: 'getir-r-1', secretKey: 'restaurant-secret-1' }], rateLimit: { limit: 2, windowMs: 60_000, blockMs: 20_000 } });
    await limited.start();
    try {
      const local = new PlatformAAdapter(platformClientConfig({ PLATFORM_A_BASE_URL: limited.baseUrl, PLATFORM_A_APP_SECRET_KEY: APP_KEY }), new SessionCache(60_000));
      const refs = [0, 1, 2].map(() => limited.createOrder('getir-r-1', { isScheduled: true })).map((created) => ({ platformOrderId: created.id, yemekKuryeOrderId: 'x', platformData: { status: 325 } }));
      expect(await local.status.send(credentials, refs[0], 'VERIFY')).toMatchObject({ kind: 'done' });
      expect(await local.status.send(credentials, refs[1], 'VERIFY')).toMatchObject({ kind: 'done' });
      expect(await local.status.send(credentials, refs[2], 'VERIFY')).toMatchObject({ kind: 'retry', retryAfterMs: 20_000, answer: { httpStatus: 429 } });
      // Exempt endpoints (verify, the periodic polls) still answer while the token is blocked.
      const immediate = limited.createOrder('getir-r-1');
      expect(await local.status.send(credentials, { platformOrderId: immediate.id, yemekKuryeOrderId: 'x', platformData: { status: 400 } }, 'VERIFY')).toMatchObject({ kind: 'done' });
    } finally {
      await limited.stop();
    }
  });

  it('cancels with a reason offered by cancel-options (matched by text, else the first) and the note', async () => {
    const ref = order();
    expect(await adapter.status.send(credentials, ref, 'CANCEL', 'out of stock')).toMatchObject({ kind: 'done' });
    expect(sim.callsTo('GET', `/food-orders/${ref.platformOrderId}/cancel-options`)).toHaveLength(1);
    expect(sim.callsTo('POST', `/food-orders/${ref.platformOrderId}/cancel`)[0].body).toEqual({ cancelNote: 'out of stock', cancelReasonId: '5d8b8f8e1c9d440000a1b2c2' });
    expect(sim.orders.get(ref.platformOrderId)!.status).toBe(PLATFORM_A_STATUS.CANCELED_BY_RESTAURANT);
    const other = order();
    expect(await adapter.status.send(credentials, other, 'REJECT')).toMatchObject({ kind: 'done' });
    expect(sim.callsTo('POST', `/food-orders/${other.platformOrderId}/cancel`)[0].body).toEqual({ cancelNote: 'Cancelled by the restaurant', cancelReasonId: '5d8b8f8e1c9d440000a1b2c1' });
    sim.failNext({ status: 200, body: [], match: (request) => request.path.endsWith('/cancel-options') });
    expect(await adapter.status.send(credentials, order(), 'CANCEL')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/no cancel reason/) });
  });

  it('logs in again when the token expires between two calls, and the call succeeds', async () => {
    const ref = order();
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done' });
    const logins = sim.logins;
    sim.expireTokens();
    expect(await adapter.status.send(credentials, ref, 'PREPARE')).toMatchObject({ kind: 'done' });
    expect(sim.logins - logins).toBe(1);
    expect(sim.callsTo('POST', `/food-orders/${ref.platformOrderId}/prepare`).map((call) => call.status)).toEqual([401, 200]);
  });

  it('fails on refused credentials and a missing app key', async () => {
    const ref = order();
    const wrong = { ...credentials, integrationId: 'int-a-wrong', secrets: { secretKey: 'nope' } };
    expect(await adapter.status.send(wrong, ref, 'VERIFY')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/refused the login/), answer: { httpStatus: 401 } });
    const unconfigured = new PlatformAAdapter(platformClientConfig({ PLATFORM_A_BASE_URL: sim.baseUrl }), new SessionCache(0));
    expect(await unconfigured.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/PLATFORM_A_APP_SECRET_KEY/) });
  });

  it('checks credentials with a real login, bound to the restaurant the login answer names', async () => {
    expect(await adapter.checkCredentials(credentials)).toMatchObject({ result: 'ok', platformRestaurantId: 'getir-r-1' });
    // Another restaurant's secretKey: Getir accepts the login but names getir-r-2.
    expect(await adapter.checkCredentials({ ...credentials, secrets: { secretKey: 'restaurant-secret-2' } })).toMatchObject({
      result: 'wrong_restaurant',
      platformRestaurantId: 'getir-r-2',
      detail: expect.stringContaining('getir-r-2'),
    });
    expect(await adapter.checkCredentials({ ...credentials, secrets: { secretKey: 'wrong' } })).toMatchObject({ result: 'rejected', httpStatus: 401 });
    const unconfigured = new PlatformAAdapter(platformClientConfig({ PLATFORM_A_BASE_URL: sim.baseUrl }), new SessionCache(0));
    expect(await unconfigured.checkCredentials(credentials)).toMatchObject({ result: 'not_configured' });
  });

  it('opens the restaurant\'s POS with PUT /restaurants/pos-status (no token); a refusal is reported, not thrown', async () => {
    const other = { ...credentials, providerRestaurantId: 'getir-r-2', secrets: { secretKey: 'restaurant-secret-2' } };
    expect(sim.posStatusOf('getir-r-2')).toBe(200);
    expect(await adapter.announcePosReady(other)).toEqual({ ok: true, detail: expect.any(String) });
    expect(sim.posStatusOf('getir-r-2')).toBe(100);
    const call = sim.callsTo('PUT', '/restaurants/pos-status').at(-1)!;
    expect(call.headers.token).toBeUndefined();
    expect(await adapter.announcePosReady({ ...other, secrets: { secretKey: 'wrong' } })).toMatchObject({ ok: false, retry: false, httpStatus: 401 });
    sim.setDown(true);
    try {
      expect(await adapter.announcePosReady(other)).toMatchObject({ ok: false, retry: true });
    } finally {
      sim.setDown(false);
    }
  });

  it('reads the two periodic polling lists and, asked for it alone, the active one (POST, token header) of the restaurant', async () => {
    const fresh = new PlatformASimulator({ appSecretKey: APP_KEY, restaurants: [{ restaurantId: 'getir-r-1', secretKey: 'restaurant-secret-1' }] });
    await fresh.start();
    try {
      const local = new PlatformAAdapter(platformClientConfig({ PLATFORM_A_BASE_URL: fresh.baseUrl, PLATFORM_A_APP_SECRET_KEY: APP_KEY }), new SessionCache(60_000));
      const waiting = fresh.createOrder('getir-r-1');
      const cancelled = fresh.createOrder('getir-r-1');
      fresh.cancelOnPlatform(cancelled.id, 'Client left');
      fresh.createOrder('someone-else');
      const lists = await local.fetchFallbackOrders(credentials);
      expect(lists).toEqual({
        kind: 'ok',
        unapproved: [expect.objectContaining({ ok: true, order: expect.objectContaining({ platformOrderId: waiting.id, state: 'new', providerRestaurantId: 'getir-r-1' }) })],
        cancelled: [expect.objectContaining({ ok: true, order: expect.objectContaining({ platformOrderId: cancelled.id, state: 'canceled', cancelNote: 'Client left' }) })],
      });
      expect(await local.fetchActiveOrders(credentials)).toMatchObject({ kind: 'ok', active: [{ ok: true, order: { platformOrderId: waiting.id } }] });
      expect(fresh.calls.filter((call) => call.path !== '/auth/login').map((call) => `${call.method} ${call.path} ${typeof call.headers.token}`)).toEqual([
        'POST /food-orders/periodic/unapproved string',
        'POST /food-orders/periodic/cancelled string',
        'POST /food-orders/active string',
      ]);
      fresh.failNext({ status: 502, match: (request) => request.path === '/food-orders/periodic/cancelled' });
      expect(await local.fetchFallbackOrders(credentials)).toMatchObject({ kind: 'retry', answer: { httpStatus: 502 } });
      fresh.failNext({ status: 429, match: (request) => request.path === '/food-orders/active' });
      expect(await local.fetchActiveOrders(credentials)).toMatchObject({ kind: 'retry', retryAfterMs: 20_000, answer: { httpStatus: 429 } });
      fresh.failNext({ status: 200, body: unapprovedExample, match: (request) => request.path === '/food-orders/periodic/unapproved' });
      expect(await local.fetchFallbackOrders(credentials)).toMatchObject({ kind: 'ok', unapproved: [{ ok: true, order: { state: 'new', platformData: { status: 400 } } }, { ok: true, order: { platformData: { status: 325, isScheduled: true } } }] });
    } finally {
      await fresh.stop();
    }
  });
});
