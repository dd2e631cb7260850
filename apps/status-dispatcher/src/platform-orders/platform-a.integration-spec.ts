import { platformRequest } from '@courier/platforms';
import { sleep, waitFor } from '@courier/testing';
/* eslint-disable @nx/enforce-module-boundaries -- Getir's example payloads are data files of the simulator's folder, read as they are (no code crosses the boundary) */
import cancelledOrderExample from '../../../../libs/platforms/src/getir/examples/cancelled-order.json';
import cancelledOrderWrappedExample from '../../../../libs/platforms/src/getir/examples/cancelled-order-wrapped.json';
import newOrderExample from '../../../../libs/platforms/src/getir/examples/new-order.json';
import newOrderWrappedExample from '../../../../libs/platforms/src/getir/examples/new-order-wrapped.json';
/* eslint-enable @nx/enforce-module-boundaries */
import { internal, TestApp } from '../../test/harness';
import { A_WEBHOOK_KEY, CREDENTIALS, Platforms, push, startPlatformApp, startPlatforms, upsertIntegration, waitForState } from '../../test/platforms';
import { platformAPollTaskKey } from '@courier/platforms';

jest.setTimeout(120_000);

const RESTAURANT = CREDENTIALS.PLATFORM_A.providerRestaurantId;

/**
 * PLATFORM_A (Getir) end to end through the app and its simulator: the two partner webhooks (bare and
 * wrapped, in the shape of G's asyncapi), every status action checked at the simulator, and Getir's
 * fallback polling picking up what a webhook never brought.
 */
describe('PLATFORM_A (Getir) orders in and status updates out', () => {
  let platforms: Platforms;
  let t: TestApp;

  const order = async (id: string) => (await t.http.get(`/internal/orders/${id}`).set(internal())).body;
  const countOrders = async (orderId: string) => (await t.sql('SELECT count(*)::int AS n FROM orders WHERE provider = $1 AND order_id = $2', ['PLATFORM_A', orderId]))[0].n;
  const pushAll = async (providerOrderId: string, actions: string[], extra: Record<string, unknown> = {}) => {
    const ids: string[] = [];
    for (const action of actions) {
      const response = await push(t, { providerOrderId, platform: 'PLATFORM_A', action, ...extra });
      expect({ action, status: response.status }).toEqual({ action, status: 202 });
      ids.push(response.body.statusUpdateId);
    }
    return Promise.all(ids.map((id) => waitForState(t, id, ['sent', 'skipped', 'failed'])));
  };
  const sendWebhook = (path: string, body: unknown, key = A_WEBHOOK_KEY) => platformRequest({ method: 'POST', url: `${t.baseUrl}/platforms/platform-a/${path}`, headers: { 'x-api-key': key }, json: body, timeoutMs: 5000 });

  describe('partner webhooks and status calls (polling rare)', () => {
    let restaurantId: string;

    beforeAll(async () => {
      platforms = await startPlatforms();
      t = await startPlatformApp(platforms, { env: { PLATFORM_A_PREPARE_HOLD_MS: '0', PLATFORM_A_COURIER_RETRY_INTERVAL_MS: '100', PLATFORM_A_COURIER_RETRY_WINDOW_MS: '1500' } });
      restaurantId = (await upsertIntegration(t, 'PLATFORM_A')).restaurantId;
    });
    afterAll(async () => {
      await t?.close();
      await platforms?.stop();
    });

    it('creates the order once, however often the platform repeats the webhook (also concurrently), and announces it once', async () => {
      const { order: simulated, response } = await platforms.a.placeOrder(RESTAURANT);
      expect(response.status).toBe(200);
      const id = (response.body as any).yemekKuryeOrderId;
      expect(response.body).toEqual({ received: true, yemekKuryeOrderId: id, duplicate: false });
      const replays = await Promise.all([...Array(10)].map((_, index) => platforms.a.redeliver(simulated.id, { wrapped: index % 2 === 0 })));
      expect(replays.map((replay) => [replay.status, (replay.body as any).yemekKuryeOrderId, (replay.body as any).duplicate])).toEqual(Array(10).fill([200, id, true]));
      expect(await countOrders(simulated.id)).toBe(1);
      expect(await order(id)).toMatchObject({ provider: 'PLATFORM_A', orderId: simulated.id, orderNumber: simulated.confirmationId, restaurantId, status: 'NEW', sequence: 0 });
      const announced = await t.outbox('order.platform_received', id);
      expect(announced).toHaveLength(1);
      expect(announced[0].payload).toMatchObject({
        yemekKuryeOrderId: id,
        orderId: simulated.id,
        provider: 'PLATFORM_A',
        providerRestaurantId: RESTAURANT,
        status: 'NEW',
        details: { customerName: 'Ayşe Yılmaz', deliveryLatitude: 40.9719, items: [{ productName: 'Lahmacun', quantity: 2 }] },
      });
    });

    it('takes Getir\'s example bodies: a new order bare and wrapped in { foodOrder }, its cancellation bare and wrapped', async () => {
      const exampleRestaurant = newOrderExample.restaurant.id;
      await upsertIntegration(t, 'PLATFORM_A', { providerRestaurantId: exampleRestaurant });
      const bare = await sendWebhook('orders', newOrderExample);
      expect(bare).toMatchObject({ status: 200, body: { received: true, duplicate: false } });
      const id = (bare.body as any).yemekKuryeOrderId;
      expect(await sendWebhook('orders', newOrderWrappedExample)).toMatchObject({ status: 200, body: { yemekKuryeOrderId: id, duplicate: true } });
      expect(await order(id)).toMatchObject({ orderNumber: 'K7X2', status: 'NEW' });

      const wrapped = { foodOrder: { ...newOrderExample, id: '6512f0c2a1b2c3d4e5f60800' } };
      const other = await sendWebhook('orders', wrapped);
      expect(other).toMatchObject({ status: 200, body: { duplicate: false } });

      expect(await sendWebhook('orders/cancelled', cancelledOrderExample)).toMatchObject({ status: 200, body: { received: true, result: 'canceled' } });
      expect(await order(id)).toMatchObject({ status: 'CANCELED', history: [{ status: 'NEW' }, { status: 'CANCELED', trigger: 'PLATFORM_CANCEL', canceledBy: 'System', reason: 'Müşteri adres değişikliği istedi' }] });
      expect(await sendWebhook('orders/cancelled', cancelledOrderWrappedExample)).toMatchObject({ status: 200, body: { result: 'already_final' } });
      const cancelWrapped = { foodOrder: { ...cancelledOrderExample, id: '6512f0c2a1b2c3d4e5f60800' } };
      expect(await sendWebhook('orders/cancelled', cancelWrapped)).toMatchObject({ status: 200, body: { result: 'canceled' } });
      expect(await order((other.body as any).yemekKuryeOrderId)).toMatchObject({ status: 'CANCELED' });
    });

    it('refuses a wrong x-api-key (401), an unknown restaurant (404), an inactive integration (403) and a malformed order (422), bare or wrapped', async () => {
      const simulated = platforms.a.createOrder('getir-without-integration');
      const url = `${t.baseUrl}/platforms/platform-a/orders`;
      expect((await sendWebhook('orders', platforms.a.foodOrder(simulated), 'wrong-key-wrong-key')).status).toBe(401);
      expect((await platformRequest({ method: 'POST', url, json: platforms.a.foodOrder(simulated), timeoutMs: 5000 })).status).toBe(401);
      expect(await sendWebhook('orders', platforms.a.foodOrder(simulated))).toMatchObject({ status: 404, body: { code: 'INTEGRATION_NOT_FOUND' } });
      await upsertIntegration(t, 'PLATFORM_A', { providerRestaurantId: 'getir-paused', isActive: false });
      expect(await sendWebhook('orders', { foodOrder: platforms.a.foodOrder({ ...simulated, restaurantId: 'getir-paused' }) })).toMatchObject({ status: 403, body: { code: 'INTEGRATION_DISABLED' } });
      expect(await sendWebhook('orders', { restaurant: { id: RESTAURANT } })).toMatchObject({ status: 422, body: { code: 'VALIDATION_ERROR', errors: [{ field: 'id' }] } });
      expect(await sendWebhook('orders', { foodOrder: { restaurant: { id: RESTAURANT } } })).toMatchObject({ status: 422, body: { code: 'VALIDATION_ERROR', errors: [{ field: 'id' }] } });
      expect(await sendWebhook('orders/cancelled', { foodOrder: 'x' })).toMatchObject({ status: 422, body: { code: 'VALIDATION_ERROR' } });
      expect(await countOrders(simulated.id)).toBe(0);
    });

    it('cancels the order on the cancelled-order webhook (order.canceled, System), once; bare and wrapped', async () => {
      const { order: simulated, response } = await platforms.a.placeOrder(RESTAURANT);
      const id = (response.body as any).yemekKuryeOrderId;
      expect((await platforms.a.cancelOrder(simulated.id, 'Customer cancelled', { wrapped: true })).body).toEqual({ received: true, result: 'canceled' });
      expect((await platforms.a.cancelOrder(simulated.id)).body).toEqual({ received: true, result: 'already_final' });
      expect(await order(id)).toMatchObject({ status: 'CANCELED', history: [{ status: 'NEW' }, { status: 'CANCELED', trigger: 'PLATFORM_CANCEL', cancelReasonId: 'OTHER', canceledBy: 'System', reason: 'Customer cancelled' }] });
      const canceled = await t.outbox('order.canceled', id);
      expect(canceled.map((row) => row.payload)).toEqual([expect.objectContaining({ cancelReasonId: 'OTHER', canceledBy: 'System', reason: 'Customer cancelled', provider: 'PLATFORM_A' })]);
      const unknown = platforms.a.createOrder('getir-without-integration');
      expect((await platforms.a.cancelOrder(unknown.id)).body).toEqual({ received: true, result: 'unknown' });
    });

    it('takes a restaurant-courier order through verify, prepare and deliver, a Getir-courier one through handover, a scheduled one through verify-scheduled', async () => {
      const own = await platforms.a.placeOrder(RESTAURANT, { deliveryType: 2 });
      expect((await pushAll(own.order.id, ['VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER'])).map((update) => update.state)).toEqual(['sent', 'sent', 'skipped', 'sent']);
      expect(platforms.a.orders.get(own.order.id)!.steps.map((step) => step.step)).toEqual(['verify', 'prepare', 'deliver']);
      expect(await order((own.response.body as any).yemekKuryeOrderId)).toMatchObject({ status: 'DELIVERED' });
      const getir = await platforms.a.placeOrder(RESTAURANT, { deliveryType: 1 }, { wrapped: true });
      expect((await pushAll(getir.order.id, ['VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER'])).map((update) => update.state)).toEqual(['sent', 'sent', 'sent', 'skipped']);
      expect(platforms.a.adminView(platforms.a.orders.get(getir.order.id)!)).toMatchObject({ status: 600, statusName: 'HandedOver' });
      const scheduled = await platforms.a.placeOrder(RESTAURANT, { isScheduled: true });
      await pushAll(scheduled.order.id, ['VERIFY']);
      expect(platforms.a.orders.get(scheduled.order.id)!.steps.map((step) => step.step)).toEqual(['verify-scheduled']);
      const preApproved = await platforms.a.placeOrder(RESTAURANT, { isScheduled: true, status: 400 });
      await pushAll(preApproved.order.id, ['VERIFY']);
      expect(platforms.a.orders.get(preApproved.order.id)!.steps.map((step) => step.step)).toEqual(['verify']);
      const rejected = await platforms.a.placeOrder(RESTAURANT);
      expect((await pushAll(rejected.order.id, ['REJECT'], { reason: 'Restaurant closed' }))[0].state).toBe('sent');
      expect(platforms.a.callsTo('POST', `/food-orders/${rejected.order.id}/cancel`)[0].body).toEqual({ cancelNote: 'Restaurant closed', cancelReasonId: '5d8b8f8e1c9d440000a1b2c3' });
    });

    it('fails a step Getir refuses with code 3 (the order is not in a status for it) instead of counting it done', async () => {
      const simulated = await platforms.a.placeOrder(RESTAURANT, { deliveryType: 1 });
      await pushAll(simulated.order.id, ['VERIFY']);
      platforms.a.cancelOnPlatform(simulated.order.id); // cancelled on Getir, the cancellation webhook lost
      const [prepare] = await pushAll(simulated.order.id, ['PREPARE']);
      expect(prepare).toMatchObject({ state: 'failed', platformAnswer: { httpStatus: 400, body: { code: 3, error: 'FoodOrderStatusInvalidError' } } });
    });

    it('retries a handover while Getir\'s courier has not reached the restaurant (code 15) and sends it once the courier is there', async () => {
      platforms.a.options.courierArrivesAfterMs = null;
      try {
        const simulated = await platforms.a.placeOrder(RESTAURANT, { deliveryType: 1 });
        await pushAll(simulated.order.id, ['VERIFY', 'PREPARE']);
        const response = await push(t, { providerOrderId: simulated.order.id, platform: 'PLATFORM_A', action: 'HANDOVER' });
        expect(response.status).toBe(202);
        const id = response.body.statusUpdateId;
        const handovers = () => platforms.a.callsTo('POST', `/food-orders/${simulated.order.id}/handover`);
        await waitFor('two handovers refused with code 15', async () => handovers().filter((call) => (call.answer as any)?.code === 15).length >= 2, 10_000);
        expect(await waitForState(t, id, ['retrying'])).toMatchObject({ platformAnswer: { httpStatus: 400, body: { code: 15, error: 'CourierNotReachedToRestaurant' }, outcome: 'retry' } });
        await platformRequest({ method: 'POST', url: `${platforms.a.baseUrl}/_simulator/orders/${simulated.order.id}/courier`, json: { state: 'at-restaurant' }, timeoutMs: 5000 });
        expect(await waitForState(t, id, ['sent', 'failed'])).toMatchObject({ state: 'sent', platformAnswer: { httpStatus: 200 } });
        expect(handovers().at(-1)!.status).toBe(200);
        expect(handovers().slice(0, -1).every((call) => call.status === 400)).toBe(true);
        expect(platforms.a.orders.get(simulated.order.id)!.status).toBe(600);
      } finally {
        platforms.a.options.courierArrivesAfterMs = undefined;
      }
    });

    it('ends a handover that never becomes possible (no courier: code 71) failed once PLATFORM_A_COURIER_RETRY_WINDOW_MS has passed', async () => {
      const simulated = await platforms.a.placeOrder(RESTAURANT, { deliveryType: 1 });
      await pushAll(simulated.order.id, ['VERIFY', 'PREPARE']);
      platforms.a.setCourier(simulated.order.id, 'none');
      const [handover] = await pushAll(simulated.order.id, ['HANDOVER']);
      expect(handover).toMatchObject({ state: 'failed', platformAnswer: { httpStatus: 400, body: { code: 71, error: 'FoodOrderHasNoCourierError' } }, error: expect.stringMatching(/code 71 FoodOrderHasNoCourierError.*still refused 2 s after the first attempt/) });
      expect(handover.attempts).toBeGreaterThan(2);
      expect(platforms.a.orders.get(simulated.order.id)!.status).toBe(550);
    });

    it('logs in again when Getir expires the token between two calls', async () => {
      const simulated = await platforms.a.placeOrder(RESTAURANT);
      await pushAll(simulated.order.id, ['VERIFY']);
      const logins = platforms.a.logins;
      platforms.a.expireTokens();
      expect((await pushAll(simulated.order.id, ['PREPARE']))[0]).toMatchObject({ state: 'sent', attempts: 1 });
      expect(platforms.a.logins - logins).toBe(1);
      expect(platforms.a.callsTo('POST', `/food-orders/${simulated.order.id}/prepare`).map((call) => call.status)).toEqual([401, 200]);
    });
  });

  describe('fallback polling (PLATFORM_A_POLL_INTERVAL_MS small)', () => {
    let integrationId: string;

    beforeAll(async () => {
      platforms = await startPlatforms();
      t = await startPlatformApp(platforms, { env: { PLATFORM_A_PREPARE_HOLD_MS: '0', PLATFORM_A_POLL_INTERVAL_MS: '200' } });
      integrationId = (await upsertIntegration(t, 'PLATFORM_A')).integrationId;
    });
    afterAll(async () => {
      await t?.close();
      await platforms?.stop();
    });

    const idOf = async (orderId: string) => (await t.sql('SELECT id FROM orders WHERE provider = $1 AND order_id = $2', ['PLATFORM_A', orderId]))[0]?.id as string | undefined;

    it('makes an order of a food order whose webhook never came, and exactly one when the webhook arrives late', async () => {
      const missed = platforms.a.createOrder(RESTAURANT, { deliveryType: 1 });
      await waitFor('the polled order', async () => (await countOrders(missed.id)) === 1, 15_000);
      const id = (await idOf(missed.id))!;
      expect(await order(id)).toMatchObject({ provider: 'PLATFORM_A', orderNumber: missed.confirmationId, status: 'NEW' });
      const late = await platforms.a.redeliver(missed.id);
      expect(late).toMatchObject({ status: 200, body: { yemekKuryeOrderId: id, duplicate: true } });
      await sleep(600); // polls keep seeing it
      expect(await countOrders(missed.id)).toBe(1);
      expect(await t.outbox('order.platform_received', id)).toHaveLength(1);
      expect(platforms.a.callsTo('POST', '/food-orders/periodic/unapproved').every((call) => typeof call.headers.token === 'string')).toBe(true);
      // The order is ours to drive: its status calls reach Getir.
      expect((await pushAll(missed.id, ['VERIFY'])).map((update) => update.state)).toEqual(['sent']);
    });

    it('cancels an order whose cancellation webhook never came', async () => {
      const { order: simulated, response } = await platforms.a.placeOrder(RESTAURANT);
      const id = (response.body as any).yemekKuryeOrderId;
      platforms.a.cancelOnPlatform(simulated.id, 'Client unreachable');
      await waitFor('the polled cancellation', async () => (await order(id)).status === 'CANCELED', 15_000);
      expect(await order(id)).toMatchObject({ history: [{ status: 'NEW' }, { status: 'CANCELED', trigger: 'PLATFORM_CANCEL', canceledBy: 'System', reason: 'Client unreachable' }] });
      expect((await platforms.a.cancelOrder(simulated.id)).body).toEqual({ received: true, result: 'already_final' });
      expect(await t.outbox('order.canceled', id)).toHaveLength(1);
    });

    it('keeps one poll task per integration, says why a poll failed, and picks up what it missed once the platform is back', async () => {
      const task = async () => (await t.sql('SELECT count(*) OVER ()::int AS n, last_error FROM scheduled_tasks WHERE dedupe_key = $1', [platformAPollTaskKey(integrationId)]))[0];
      expect(await task()).toMatchObject({ n: 1, last_error: null });
      platforms.a.failNext({ status: 503, times: 1000, match: (request) => request.path.startsWith('/food-orders/periodic/') });
      try {
        await waitFor('a failed poll noted on its task', async () => /503/.test((await task())?.last_error ?? ''), 10_000);
        const missed = platforms.a.createOrder(RESTAURANT);
        await sleep(600); // polls keep failing
        expect(await countOrders(missed.id)).toBe(0);
        platforms.a.clearFaults();
        await waitFor('the order polled after the outage', async () => (await countOrders(missed.id)) === 1, 15_000);
        await waitFor('the task clear again', async () => (await task())?.last_error === null, 10_000);
        // The rate-limited active list failing does not hold back the exempt periodic ones.
        platforms.a.failNext({ status: 503, times: 1000, match: (request) => request.path === '/food-orders/active' });
        await waitFor('a failed active poll noted on its task', async () => /503 on \/food-orders\/active/.test((await task())?.last_error ?? ''), 10_000);
        const missedToo = platforms.a.createOrder(RESTAURANT);
        await waitFor('the order polled from the unapproved list', async () => (await countOrders(missedToo.id)) === 1, 15_000);
        platforms.a.clearFaults();
        await waitFor('the task clear again', async () => (await task())?.last_error === null, 10_000);
        expect(await t.sql('SELECT count(*)::int AS n FROM platform_poll_cursors WHERE integration_id = $1', [integrationId])).toEqual([{ n: 0 }]);
      } finally {
        platforms.a.clearFaults();
      }
    });
  });

  describe('the rate-limited active list (PLATFORM_A_POLL_INTERVAL_MS small, active-orders budget 3 / 60 s)', () => {
    beforeAll(async () => {
      platforms = await startPlatforms();
      t = await startPlatformApp(platforms, { env: { PLATFORM_A_PREPARE_HOLD_MS: '0', PLATFORM_A_POLL_INTERVAL_MS: '100', PLATFORM_CALL_BUDGETS: 'PLATFORM_A:active-orders=3/60000' } });
      await upsertIntegration(t, 'PLATFORM_A');
    });
    afterAll(async () => {
      await t?.close();
      await platforms?.stop();
    });

    const polls = () => platforms.a.callsTo('POST', '/food-orders/periodic/unapproved').length;
    const activeCalls = () => platforms.a.callsTo('POST', '/food-orders/active');

    it('reads /food-orders/active only while the integration has open orders, and never past its call budget', async () => {
      await waitFor('five periodic polls', async () => polls() >= 5, 10_000);
      expect(activeCalls()).toHaveLength(0); // nothing it could find

      const { order: simulated, response } = await platforms.a.placeOrder(RESTAURANT);
      const id = (response.body as any).yemekKuryeOrderId;
      await waitFor('an active-orders poll', async () => activeCalls().length >= 1, 10_000);
      const seen = polls();
      await waitFor('ten more periodic polls', async () => polls() >= seen + 10, 10_000);
      expect(activeCalls().length).toBeLessThanOrEqual(3);
      expect(activeCalls().every((call) => call.status === 200)).toBe(true);

      await platforms.a.cancelOrder(simulated.id);
      expect(await order(id)).toMatchObject({ status: 'CANCELED' });
      const before = activeCalls().length;
      const after = polls();
      await waitFor('five more periodic polls', async () => polls() >= after + 5, 10_000);
      expect(activeCalls()).toHaveLength(before);
    });
  });
});
