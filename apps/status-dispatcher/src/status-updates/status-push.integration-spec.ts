import { randomUUID } from 'node:crypto';
import { sleep, waitFor } from '@courier/testing';
import { internal, TestApp } from '../../test/harness';
import { expectConsistentConcurrentPushes, expectOneVerifyFromConcurrentPushes, platformAOrder, Platforms, push, startPlatformApp, startPlatforms, statusUpdate, upsertIntegration, waitForState } from '../../test/platforms';

jest.setTimeout(120_000);

const HOLD_MS = 1_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The status push against the PLATFORM_A simulator, with the hold (and the platform's own 60 s rule
 * between steps) scaled to 1 s: guards 1-5, the hold, ordering, retries, final failures, re-login.
 */
describe('POST /internal/orders/status and GET /internal/status-updates/{id} (PLATFORM_A)', () => {
  let platforms: Platforms;
  let t: TestApp;

  beforeAll(async () => {
    platforms = await startPlatforms({ minStepIntervalMs: HOLD_MS });
    t = await startPlatformApp(platforms, { env: { PLATFORM_A_PREPARE_HOLD_MS: String(HOLD_MS) } });
    await upsertIntegration(t, 'PLATFORM_A');
  });
  afterAll(async () => {
    await t?.close();
    await platforms?.stop();
  });
  beforeEach(() => platforms.a.clearFaults());

  const pushA = (providerOrderId: string, action: string, extra: Record<string, unknown> = {}) => push(t, { providerOrderId, platform: 'PLATFORM_A', action, ...extra });
  const stepsAt = (id: string) => platforms.a.orders.get(id)!.steps;
  const callsOf = (id: string, step: string) => platforms.a.callsTo('POST', `/food-orders/${id}/${step}`);

  it('answers 202 queued with a statusUpdateId, moves the order, publishes its event, and sends the call', async () => {
    const { simulated, yemekKuryeOrderId } = await platformAOrder(platforms, t);
    const response = await pushA(simulated.id, 'VERIFY');
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ status: 'queued', statusUpdateId: expect.stringMatching(UUID), message: 'VERIFY queued for PLATFORM_A.' });
    const order = (await t.http.get(`/internal/orders/${yemekKuryeOrderId}`).set(internal())).body;
    expect(order).toMatchObject({ status: 'VALIDATED', sequence: 1, history: [{ status: 'NEW' }, { status: 'VALIDATED', previousStatus: 'NEW', trigger: 'VERIFY' }] });
    const events = await t.outbox('order.status_changed', yemekKuryeOrderId);
    expect(events.map((event) => event.payload)).toEqual([expect.objectContaining({ status: 'VALIDATED', previousStatus: 'NEW', provider: 'PLATFORM_A', orderId: simulated.id, orderNumber: simulated.confirmationId, sequence: 1 })]);
    const sent = await waitForState(t, response.body.statusUpdateId, ['sent', 'failed']);
    expect(sent).toMatchObject({
      statusUpdateId: response.body.statusUpdateId,
      yemekKuryeOrderId,
      providerOrderId: simulated.id,
      platform: 'PLATFORM_A',
      action: 'VERIFY',
      state: 'sent',
      attempts: 1,
      releaseAt: null,
      platformAnswer: { httpStatus: 200, outcome: 'done', body: { result: true } },
      error: null,
    });
    expect(Date.parse(sent.sentAt)).toBeGreaterThanOrEqual(Date.parse(sent.acceptedAt));
    expect(stepsAt(simulated.id).map((step) => step.step)).toEqual(['verify']);
  });

  it('sends a queued update once and deletes its fallback task with its end (nothing is left to wake it again)', async () => {
    const { simulated } = await platformAOrder(platforms, t);
    const response = await pushA(simulated.id, 'VERIFY');
    const id = response.body.statusUpdateId;
    expect(await waitForState(t, id, ['sent', 'failed'])).toMatchObject({ state: 'sent', attempts: 1 });
    expect(callsOf(simulated.id, 'verify')).toHaveLength(1);
    expect(await t.sql('SELECT 1 FROM scheduled_tasks WHERE dedupe_key = $1', [`status-update:${id}`])).toEqual([]);
  });

  it('guard 4: holds PREPARE until approval + hold, visible as held with releaseAt, then sends it; the platform sees the steps at least the hold apart', async () => {
    const { simulated } = await platformAOrder(platforms, t);
    const verify = await pushA(simulated.id, 'VERIFY');
    const prepare = await pushA(simulated.id, 'PREPARE');
    expect(prepare.status).toBe(202);
    expect(prepare.body.message).toMatch(/^PREPARE held until .* \(PLATFORM_A PREPARE hold\), then sent to PLATFORM_A\.$/);
    const held = (await statusUpdate(t, prepare.body.statusUpdateId)).body;
    const verifyUpdate = (await statusUpdate(t, verify.body.statusUpdateId)).body;
    expect(held).toMatchObject({ state: 'held', holdReason: expect.stringMatching(/PREPARE_HOLD|PLATFORM_STEP_INTERVAL/), attempts: 0 });
    expect(Date.parse(held.releaseAt) - Date.parse(verifyUpdate.acceptedAt)).toBeGreaterThanOrEqual(HOLD_MS);
    expect(callsOf(simulated.id, 'prepare')).toHaveLength(0);

    await waitForState(t, prepare.body.statusUpdateId, ['sent', 'failed'], 10_000);
    const steps = stepsAt(simulated.id);
    expect(steps.map((step) => step.step)).toEqual(['verify', 'prepare']);
    expect(steps[1].at - steps[0].at).toBeGreaterThanOrEqual(HOLD_MS);
    // Never sent early: the platform refused nothing.
    expect(callsOf(simulated.id, 'prepare').map((call) => call.status)).toEqual([200]);
  });

  it('spaces DELIVER after PREPARE too (the platform applies its rule to each step), and sends every step in order', async () => {
    const { simulated } = await platformAOrder(platforms, t);
    const ids: string[] = [];
    for (const action of ['VERIFY', 'PREPARE', 'DELIVER']) ids.push((await pushA(simulated.id, action)).body.statusUpdateId);
    await waitForState(t, ids[2], ['sent', 'failed'], 15_000);
    const steps = stepsAt(simulated.id);
    expect(steps.map((step) => step.step)).toEqual(['verify', 'prepare', 'deliver']);
    expect(steps[2].at - steps[1].at).toBeGreaterThanOrEqual(HOLD_MS);
    expect(platforms.a.calls.filter((call) => call.path.startsWith(`/food-orders/${simulated.id}/`) && call.status !== 200)).toEqual([]);
  });

  it('guard 1: DELIVER before PREPARE or HANDOVER is refused (409 DELIVER_BEFORE_PREPARE)', async () => {
    const { simulated } = await platformAOrder(platforms, t);
    const early = await pushA(simulated.id, 'DELIVER');
    expect(early.status).toBe(409);
    expect(early.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(early.body).toMatchObject({ code: 'DELIVER_BEFORE_PREPARE', status: 409, currentStatus: 'NEW' });
    await pushA(simulated.id, 'VERIFY');
    expect((await pushA(simulated.id, 'DELIVER')).body.code).toBe('DELIVER_BEFORE_PREPARE');
    expect((await pushA(simulated.id, 'HANDOVER')).status).toBe(202);
    expect((await pushA(simulated.id, 'DELIVER')).status).toBe(202);
  });

  it('guard 2: VERIFY of an order the platform already approved is refused (409 ALREADY_VERIFIED)', async () => {
    const { simulated, yemekKuryeOrderId } = await platformAOrder(platforms, t, { status: 500 });
    expect((await t.http.get(`/internal/orders/${yemekKuryeOrderId}`).set(internal())).body.status).toBe('VALIDATED');
    const response = await pushA(simulated.id, 'VERIFY');
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 'ALREADY_VERIFIED' });
  });

  it('guard 3: nothing after a cancel (pushed, from the platform, or as the caller\'s previousStatus); REJECT after CANCEL too', async () => {
    const pushed = await platformAOrder(platforms, t);
    const cancel = await pushA(pushed.simulated.id, 'CANCEL', { reason: 'Out of stock' });
    expect(cancel.status).toBe(202);
    for (const action of ['PREPARE', 'REJECT', 'VERIFY']) expect((await pushA(pushed.simulated.id, action)).body).toMatchObject({ status: 409, code: 'ORDER_CANCELED', currentStatus: 'CANCELED' });
    const [canceled] = await t.outbox('order.canceled', pushed.yemekKuryeOrderId);
    expect(canceled.payload).toMatchObject({ cancelReasonId: 'OTHER', canceledBy: 'Restaurant', reason: 'Out of stock', provider: 'PLATFORM_A', previousStatus: 'NEW' });
    await waitForState(t, cancel.body.statusUpdateId, ['sent']);
    expect(platforms.a.orders.get(pushed.simulated.id)!.status).toBe(1600);

    const fromPlatform = await platformAOrder(platforms, t);
    expect((await platforms.a.cancelOrder(fromPlatform.simulated.id, 'Customer changed their mind')).status).toBe(200);
    expect((await pushA(fromPlatform.simulated.id, 'VERIFY')).body.code).toBe('ORDER_CANCELED');

    const claimed = await platformAOrder(platforms, t);
    expect((await pushA(claimed.simulated.id, 'VERIFY', { previousStatus: 'CANCELED' })).body.code).toBe('ORDER_CANCELED');
  });

  it('guard 5: a repeated action answers the first statusUpdateId and reaches the platform once', async () => {
    const { simulated } = await platformAOrder(platforms, t);
    const first = await pushA(simulated.id, 'VERIFY');
    await waitForState(t, first.body.statusUpdateId, ['sent']);
    const again = await pushA(simulated.id, 'VERIFY');
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ status: 'queued', statusUpdateId: first.body.statusUpdateId, message: 'VERIFY was already accepted for this order: nothing is dispatched again.' });
    const cancel = await pushA(simulated.id, 'CANCEL');
    expect((await pushA(simulated.id, 'CANCEL')).body.statusUpdateId).toBe(cancel.body.statusUpdateId);
    await waitForState(t, cancel.body.statusUpdateId, ['sent']);
    await sleep(200);
    expect(callsOf(simulated.id, 'verify')).toHaveLength(1);
    expect(callsOf(simulated.id, 'cancel')).toHaveLength(1);
  });

  it('guard 5 under 20 concurrent identical pushes: one statusUpdateId, one platform call', () => expectOneVerifyFromConcurrentPushes(t, platforms));

  it('concurrent pushes of different actions of one order (conflicting writes, decided again): each action accepted once, history and events without gaps', async () => {
    const { simulated, yemekKuryeOrderId } = await platformAOrder(platforms, t);
    await expectConsistentConcurrentPushes(t, (action) => pushA(simulated.id, action), yemekKuryeOrderId);
    const metrics = await t.http.get('/metrics');
    // Twenty pushes of one order at once: some writes found the order changed and were decided again.
    expect(metrics.text).toMatch(/^status_push_write_conflicts_total\{resolution="retried"[,}].* [1-9]/m);
  });

  it('retries while the platform is down and sends once it is back; later updates of the order wait for the earlier one', async () => {
    const { simulated } = await platformAOrder(platforms, t);
    platforms.a.setDown(true);
    let verify: string;
    let cancel: string;
    try {
      verify = (await pushA(simulated.id, 'VERIFY')).body.statusUpdateId;
      const retrying = await waitForState(t, verify, ['retrying']);
      expect(retrying).toMatchObject({ state: 'retrying', nextAttemptAt: expect.any(String), platformAnswer: { httpStatus: null, outcome: 'retry', error: expect.any(String) } });
      cancel = (await pushA(simulated.id, 'CANCEL')).body.statusUpdateId;
      expect((await statusUpdate(t, cancel)).body).toMatchObject({ state: 'queued', waitingFor: verify, attempts: 0 });
      await waitFor('a few attempts', async () => (await statusUpdate(t, verify)).body.attempts >= 3);
    } finally {
      platforms.a.setDown(false);
    }
    await waitForState(t, cancel!, ['sent']);
    expect((await statusUpdate(t, verify!)).body).toMatchObject({ state: 'sent', attempts: expect.any(Number) });
    expect(stepsAt(simulated.id).map((step) => step.step)).toEqual(['verify', 'cancel']);
  });

  it('retries 429 and 5xx; a final 4xx is failed and visible with the platform\'s answer, and the action may be pushed again', async () => {
    const { simulated } = await platformAOrder(platforms, t);
    const match = (request: { path: string }) => request.path === `/food-orders/${simulated.id}/verify`;
    platforms.a.failNext({ status: 503, match });
    platforms.a.failNext({ status: 429, headers: { 'Retry-After': '0' }, match });
    const retried = (await pushA(simulated.id, 'VERIFY')).body.statusUpdateId;
    expect(await waitForState(t, retried, ['sent', 'failed'])).toMatchObject({ state: 'sent', attempts: 3 });

    const other = await platformAOrder(platforms, t);
    platforms.a.failNext({ status: 400, body: { code: 99, error: 'RestaurantClosed', message: 'restaurant is closed' }, match: (request) => request.path === `/food-orders/${other.simulated.id}/verify` });
    const failedId = (await pushA(other.simulated.id, 'VERIFY')).body.statusUpdateId;
    const failed = await waitForState(t, failedId, ['failed', 'sent']);
    expect(failed).toMatchObject({ state: 'failed', attempts: 1, error: expect.stringMatching(/HTTP 400/), platformAnswer: { httpStatus: 400, outcome: 'failed', body: { code: 99, error: 'RestaurantClosed' } } });
    const again = await pushA(other.simulated.id, 'VERIFY');
    expect(again.status).toBe(202);
    expect(again.body.statusUpdateId).not.toBe(failedId);
    expect(await waitForState(t, again.body.statusUpdateId, ['sent', 'failed'])).toMatchObject({ state: 'sent' });
  });

  it('logs in again when the platform expired the token (401), and the update is sent', async () => {
    const { simulated } = await platformAOrder(platforms, t);
    await waitForState(t, (await pushA(simulated.id, 'VERIFY')).body.statusUpdateId, ['sent']);
    const logins = platforms.a.logins;
    platforms.a.expireTokens();
    const cancel = (await pushA(simulated.id, 'CANCEL')).body.statusUpdateId;
    expect(await waitForState(t, cancel, ['sent', 'failed'])).toMatchObject({ state: 'sent', attempts: 1 });
    expect(platforms.a.logins - logins).toBe(1);
    expect(callsOf(simulated.id, 'cancel').length).toBe(1);
  });

  it('skips an action the platform has no call for (DELIVER of a Getir-courier order): state skipped, nothing sent', async () => {
    const { simulated } = await platformAOrder(platforms, t, { deliveryType: 1 });
    await pushA(simulated.id, 'VERIFY');
    await pushA(simulated.id, 'PREPARE');
    const deliver = (await pushA(simulated.id, 'DELIVER')).body.statusUpdateId;
    expect(await waitForState(t, deliver, ['skipped', 'sent', 'failed'], 15_000)).toMatchObject({ state: 'skipped', attempts: 1, error: expect.stringMatching(/deliveryType 1/) });
    expect(callsOf(simulated.id, 'deliver')).toHaveLength(0);
  });

  it('fails an update whose integration was deleted (its credentials are gone), without calling the platform', async () => {
    const { integrationId, restaurantId } = await upsertIntegration(t, 'PLATFORM_A', { providerRestaurantId: 'getir-gone' });
    const { order: simulated, response } = await platforms.a.placeOrder('getir-gone');
    expect(response.status).toBe(200);
    await t.deliver('integration.deleted', { integrationId, restaurantId, platform: 'PLATFORM_A', providerRestaurantId: 'getir-gone', version: 2, occurredAt: new Date().toISOString() });
    const id = (await pushA(simulated.id, 'VERIFY')).body.statusUpdateId;
    expect(await waitForState(t, id, ['failed', 'sent'])).toMatchObject({ state: 'failed', error: expect.stringMatching(/^INTEGRATION_DELETED/), platformAnswer: { httpStatus: null } });
    expect(callsOf(simulated.id, 'verify')).toHaveLength(0);
  });

  it('404 ORDER_NOT_FOUND for an unknown order or another platform; 404 STATUS_UPDATE_NOT_FOUND; 401 without the key', async () => {
    const { simulated } = await platformAOrder(platforms, t);
    expect((await pushA('no-such-order', 'VERIFY')).body).toMatchObject({ status: 404, code: 'ORDER_NOT_FOUND' });
    expect((await push(t, { providerOrderId: simulated.id, platform: 'PLATFORM_B', action: 'VERIFY' })).body).toMatchObject({ status: 404, code: 'ORDER_NOT_FOUND' });
    expect((await statusUpdate(t, randomUUID())).body).toMatchObject({ status: 404, code: 'STATUS_UPDATE_NOT_FOUND' });
    expect((await statusUpdate(t, 'not-a-uuid')).body).toMatchObject({ status: 404, code: 'STATUS_UPDATE_NOT_FOUND' });
    expect((await push(t, { providerOrderId: simulated.id, platform: 'PLATFORM_A', action: 'VERIFY' }, {})).body).toMatchObject({ status: 401, code: 'AUTHENTICATION_FAILED' });
    expect((await t.http.get(`/internal/status-updates/${randomUUID()}`)).status).toBe(401);
  });

  it.each([
    ['no body', undefined, ['providerOrderId', 'platform', 'action']],
    ['an unknown action', { providerOrderId: 'x', platform: 'PLATFORM_A', action: 'COOK' }, ['action']],
    ['a lower-case action', { providerOrderId: 'x', platform: 'PLATFORM_A', action: 'verify' }, ['action']],
    ['an unknown platform', { providerOrderId: 'x', platform: 'PLATFORM_Z', action: 'VERIFY' }, ['platform']],
    ['THIRD_PARTY', { providerOrderId: 'x', platform: 'THIRD_PARTY', action: 'VERIFY' }, ['platform']],
    ['an unknown field', { providerOrderId: 'x', platform: 'PLATFORM_A', action: 'VERIFY', status: 'x' }, ['status']],
    ['an empty providerOrderId', { providerOrderId: '', platform: 'PLATFORM_A', action: 'VERIFY' }, ['providerOrderId']],
    ['a numeric providerOrderId', { providerOrderId: 7, platform: 'PLATFORM_A', action: 'VERIFY' }, ['providerOrderId']],
    ['a bad previousStatus', { providerOrderId: 'x', platform: 'PLATFORM_A', action: 'VERIFY', previousStatus: 'COOKING' }, ['previousStatus']],
    ['a too long reason', { providerOrderId: 'x', platform: 'PLATFORM_A', action: 'CANCEL', reason: 'r'.repeat(501) }, ['reason']],
  ])('422 VALIDATION_ERROR for %s', async (_case, body, fields) => {
    const response = await t.http.post('/internal/orders/status').set(internal()).send(body as object);
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect([...new Set(response.body.errors.map((error: { field: string }) => error.field))].sort()).toEqual([...fields].sort());
  });

  it('400 for broken JSON', async () => {
    const response = await t.http.post('/internal/orders/status').set(internal()).set('Content-Type', 'application/json').send('{"action":');
    expect(response.body).toMatchObject({ status: 400, code: 'INVALID_PAYLOAD' });
  });
});
