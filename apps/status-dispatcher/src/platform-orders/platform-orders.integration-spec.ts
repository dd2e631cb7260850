import { randomUUID } from 'node:crypto';
import { platformRequest } from '@courier/platforms';
import { sleep, waitFor } from '@courier/testing';
import { internal, TestApp } from '../../test/harness';
import { B_PLUGIN_TOKEN, CREDENTIALS, Platforms, push, startPlatformApp, startPlatforms, upsertIntegration, waitForState } from '../../test/platforms';

jest.setTimeout(120_000);

/**
 * Each platform end to end through the app and its simulator: orders in (webhooks, plugin calls,
 * polling), replays recognised, inactive integrations refused, cancellations from the platform, and
 * every action of the status push checked at the simulator.
 */
describe('platform orders in and status updates out, per platform', () => {
  let platforms: Platforms;
  let t: TestApp;
  let restaurants: Record<string, string>;

  beforeAll(async () => {
    platforms = await startPlatforms();
    platforms.b.options.ackDelayMs = 0;
    t = await startPlatformApp(platforms, {
      env: { PLATFORM_A_PREPARE_HOLD_MS: '0', PLATFORM_C_POLL_INTERVAL_MS: '200', PLATFORM_B_ACK_RETRY_INTERVAL_MS: '100', PLATFORM_B_ACK_RETRY_WINDOW_MS: '1500' },
    });
    restaurants = {};
    for (const platform of ['PLATFORM_A', 'PLATFORM_B', 'PLATFORM_C', 'PLATFORM_D'] as const) restaurants[platform] = (await upsertIntegration(t, platform)).restaurantId;
  });
  afterAll(async () => {
    await t?.close();
    await platforms?.stop();
  });

  const order = async (id: string) => (await t.http.get(`/internal/orders/${id}`).set(internal())).body;
  const countOrders = async (provider: string, orderId: string) => (await t.sql('SELECT count(*)::int AS n FROM orders WHERE provider = $1 AND order_id = $2', [provider, orderId]))[0].n;
  const pushAll = async (platform: string, providerOrderId: string, actions: string[], extra: Record<string, unknown> = {}) => {
    const ids: string[] = [];
    for (const action of actions) {
      const response = await push(t, { providerOrderId, platform, action, ...extra });
      expect({ action, status: response.status }).toEqual({ action, status: 202 });
      ids.push(response.body.statusUpdateId);
    }
    return Promise.all(ids.map((id) => waitForState(t, id, ['sent', 'skipped', 'failed'])));
  };

  // PLATFORM_A (Getir): platform-a.integration-spec.ts.

  describe('PLATFORM_B (DH POS middleware): plugin endpoints', () => {
    it('answers the dispatch with our id as remoteOrderId, the same id for the middleware\'s retries, and one order', async () => {
      const { order: simulated, response } = await platforms.b.dispatchOrder(CREDENTIALS.PLATFORM_B.providerRestaurantId);
      expect(response.status).toBe(200);
      const remoteOrderId = (response.body as any).remoteResponse.remoteOrderId;
      expect(simulated.remoteOrderId).toBe(remoteOrderId);
      for (let i = 0; i < 3; i += 1) expect(((await platforms.b.redispatch(simulated.token)).response.body as any).remoteResponse.remoteOrderId).toBe(remoteOrderId);
      expect(await countOrders('PLATFORM_B', simulated.token)).toBe(1);
      expect(await order(remoteOrderId)).toMatchObject({ provider: 'PLATFORM_B', orderId: simulated.token, orderNumber: simulated.code.slice(-3), status: 'NEW' });
    });

    it('refuses a wrong plugin token (401), an unknown vendor (404) and a paused integration (403)', async () => {
      const simulated = platforms.b.createOrder(CREDENTIALS.PLATFORM_B.providerRestaurantId);
      const dispatch = (remoteId: string, token = B_PLUGIN_TOKEN) =>
        platformRequest({ method: 'POST', url: `${t.baseUrl}/platforms/platform-b/order/${remoteId}`, headers: { Authorization: `Bearer ${token}` }, json: platforms.b.orderPayload(simulated), timeoutMs: 5000 });
      expect((await dispatch(CREDENTIALS.PLATFORM_B.providerRestaurantId, 'wrong-token-wrong-token')).status).toBe(401);
      expect((await dispatch('no-such-vendor')).body).toMatchObject({ code: 'INTEGRATION_NOT_FOUND' });
      await upsertIntegration(t, 'PLATFORM_B', { providerRestaurantId: 'ys-paused', isActive: false });
      expect(await dispatch('ys-paused')).toMatchObject({ status: 403, body: { code: 'INTEGRATION_DISABLED' } });
    });

    it('sends order_accepted and order_picked_up for a vendor-delivery order; preparation-completed for a platform-rider one; order_rejected with a reason', async () => {
      const vendor = await platforms.b.dispatchOrder(CREDENTIALS.PLATFORM_B.providerRestaurantId, { delivery: 'vendor' });
      expect((await pushAll('PLATFORM_B', vendor.order.token, ['VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER'])).map((update) => update.state)).toEqual(['sent', 'skipped', 'sent', 'skipped']);
      expect(platforms.b.orders.get(vendor.order.token)).toMatchObject({ state: 'PICKED_UP', remoteOrderId: vendor.order.remoteOrderId });
      const rider = await platforms.b.dispatchOrder(CREDENTIALS.PLATFORM_B.providerRestaurantId, { delivery: 'platform' });
      expect((await pushAll('PLATFORM_B', rider.order.token, ['VERIFY', 'PREPARE', 'HANDOVER'])).map((update) => update.state)).toEqual(['sent', 'sent', 'skipped']);
      expect(platforms.b.orders.get(rider.order.token)!.state).toBe('READY');
      const rejected = await platforms.b.dispatchOrder(CREDENTIALS.PLATFORM_B.providerRestaurantId);
      await pushAll('PLATFORM_B', rejected.order.token, ['REJECT'], { reason: 'ITEM_UNAVAILABLE' });
      expect(platforms.b.orders.get(rejected.order.token)).toMatchObject({ state: 'REJECTED', rejectReason: 'ITEM_UNAVAILABLE' });
    });

    it('retries the 409 of an order awaiting acknowledgement until it is acknowledged; fails it when the window passes', async () => {
      platforms.b.options.ackDelayMs = 600;
      try {
        const late = await platforms.b.dispatchOrder(CREDENTIALS.PLATFORM_B.providerRestaurantId);
        const accepted = (await push(t, { providerOrderId: late.order.token, platform: 'PLATFORM_B', action: 'VERIFY' })).body.statusUpdateId;
        const sent = await waitForState(t, accepted, ['sent', 'failed'], 10_000);
        expect(sent.state).toBe('sent');
        expect(sent.attempts).toBeGreaterThan(1);
        const calls = platforms.b.callsTo('POST', `/v2/order/status/${late.order.token}`);
        expect(calls.slice(0, -1).every((call) => call.status === 409)).toBe(true);
        // Paced by PLATFORM_B_ACK_RETRY_INTERVAL_MS (100 ms here), not by the exponential backoff.
        for (let i = 1; i < calls.length; i += 1) expect(calls[i].at - calls[i - 1].at).toBeGreaterThanOrEqual(90);

        platforms.b.options.ackDelayMs = 60_000;
        const never = await platforms.b.dispatchOrder(CREDENTIALS.PLATFORM_B.providerRestaurantId);
        const refused = (await push(t, { providerOrderId: never.order.token, platform: 'PLATFORM_B', action: 'VERIFY' })).body.statusUpdateId;
        expect(await waitForState(t, refused, ['failed', 'sent'], 10_000)).toMatchObject({
          state: 'failed',
          error: expect.stringMatching(/PLATFORM_B_AWAITING_ACKNOWLEDGEMENT/),
          platformAnswer: { httpStatus: 409, body: { state: 'WAITING_FOR_ACKNOWLEDGEMENT' } },
        });
      } finally {
        platforms.b.options.ackDelayMs = 0;
      }
    });

    it('cancels the order on posOrderStatus ORDER_CANCELLED; a later push is refused; unknown remoteOrderId is 404', async () => {
      const { order: simulated } = await platforms.b.dispatchOrder(CREDENTIALS.PLATFORM_B.providerRestaurantId);
      const answer = await platforms.b.cancelOrder(simulated.token, 'Customer unreachable');
      expect(answer).toMatchObject({ status: 200, body: { status: 'ok', result: 'canceled' } });
      expect(await order(simulated.remoteOrderId!)).toMatchObject({ status: 'CANCELED' });
      expect((await push(t, { providerOrderId: simulated.token, platform: 'PLATFORM_B', action: 'VERIFY' })).body.code).toBe('ORDER_CANCELED');
      const unknown = await platformRequest({
        method: 'PUT',
        url: `${t.baseUrl}/platforms/platform-b/remoteId/${CREDENTIALS.PLATFORM_B.providerRestaurantId}/remoteOrder/${randomUUID()}/posOrderStatus`,
        headers: { Authorization: `Bearer ${B_PLUGIN_TOKEN}` },
        json: { status: 'ORDER_CANCELLED' },
        timeoutMs: 5000,
      });
      expect(unknown).toMatchObject({ status: 404, body: { code: 'ORDER_NOT_FOUND' } });
    });
  });

  describe('PLATFORM_C (Trendyol Go): polling', () => {
    it('polls new packages into orders (one order per package, however often it is seen), with the cursor stored', async () => {
      const packages = [platforms.c.addPackage('104523', '88211'), platforms.c.addPackage('104523', '88211', { deliveryType: 'GO' })];
      await waitFor('polled packages', async () => (await Promise.all(packages.map((pkg) => countOrders('PLATFORM_C', String(pkg.id))))).every((n) => n === 1), 10_000);
      // Later polls overlap the earlier windows and see the same packages again.
      await sleep(700);
      for (const pkg of packages) expect(await countOrders('PLATFORM_C', String(pkg.id))).toBe(1);
      const [cursor] = await t.sql('SELECT cursor_ms, last_error FROM platform_poll_cursors');
      expect(cursor.last_error).toBeNull();
      expect(Number(cursor.cursor_ms)).toBeGreaterThanOrEqual(packages[1].packageModificationDate);
      const calls = platforms.c.callsTo('GET', /\/integrator\/order\/meal\/suppliers\/104523\/packages$/);
      expect(calls.length).toBeGreaterThan(2);
      expect(calls[0].query.get('storeId')).toBe('88211');
      expect(calls[0].headers['user-agent']).toBe('104523 - CourierSuiteTests');
    });

    it('takes a STORE package through picked, invoiced, manual-shipped and manual-delivered; cancels on the platform\'s cancellation', async () => {
      const pkg = platforms.c.addPackage('104523', '88211', { deliveryType: 'STORE' });
      await waitFor('the package polled', async () => (await countOrders('PLATFORM_C', String(pkg.id))) === 1, 10_000);
      expect((await pushAll('PLATFORM_C', String(pkg.id), ['VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER'])).map((update) => update.state)).toEqual(['sent', 'sent', 'sent', 'sent']);
      expect(platforms.c.packages.get(pkg.id)!.packageStatus).toBe('Delivered');

      const canceled = platforms.c.addPackage('104523', '88211');
      await waitFor('the package polled', async () => (await countOrders('PLATFORM_C', String(canceled.id))) === 1, 10_000);
      const [{ id }] = await t.sql('SELECT id FROM orders WHERE provider = $1 AND order_id = $2', ['PLATFORM_C', String(canceled.id)]);
      platforms.c.cancelPackage(canceled.id);
      await waitFor('the cancellation polled', async () => (await order(id)).status === 'CANCELED', 10_000);
      expect((await t.outbox('order.canceled', id)).map((row) => row.payload.canceledBy)).toEqual(['System']);

      const unsupplied = platforms.c.addPackage('104523', '88211');
      await waitFor('the package polled', async () => (await countOrders('PLATFORM_C', String(unsupplied.id))) === 1, 10_000);
      await pushAll('PLATFORM_C', String(unsupplied.id), ['CANCEL'], { reason: '622' });
      expect(platforms.c.packages.get(unsupplied.id)).toMatchObject({ packageStatus: 'UnSupplied', unsuppliedReason: 622 });
    });

    it('does not poll an inactive integration', async () => {
      await upsertIntegration(t, 'PLATFORM_C', { providerRestaurantId: 'ty-paused', isActive: false, settings: { storeId: '99999' } });
      await sleep(800);
      expect(platforms.c.calls.filter((call) => call.query.get('storeId') === '99999')).toEqual([]);
    });
  });

  describe('PLATFORM_D (assumed API): order webhook', () => {
    it('creates the order once for repeated webhooks; refuses a wrong merchant key; sends every action; cancels on ORDER_CANCELLED', async () => {
      const { order: simulated, response } = await platforms.d.placeOrder(CREDENTIALS.PLATFORM_D.settings.providerMerchantId);
      expect(response.status).toBe(200);
      const id = (response.body as any).yemekKuryeOrderId;
      expect((await platforms.d.redeliver(simulated.id)).body).toEqual({ received: true, yemekKuryeOrderId: id, duplicate: true });
      expect(await countOrders('PLATFORM_D', simulated.id)).toBe(1);
      const forged = await platformRequest({ method: 'POST', url: `${t.baseUrl}/platforms/platform-d/orders`, headers: { 'X-API-Key': 'forged-key' }, json: platforms.d.event(simulated, 'ORDER_CREATED'), timeoutMs: 5000 });
      expect(forged).toMatchObject({ status: 401, body: { code: 'AUTHENTICATION_FAILED' } });

      expect((await pushAll('PLATFORM_D', simulated.id, ['VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER'])).map((update) => update.state)).toEqual(['sent', 'sent', 'sent', 'sent']);
      expect(platforms.d.orders.get(simulated.id)!.status).toBe('delivered');
      expect(platforms.d.callsTo('PATCH', '/courier-order/status').filter((call) => (call.body as any).orderId === simulated.id).map((call) => (call.body as any).status)).toEqual(['accepted', 'preparing', 'on_the_way', 'delivered']);

      const other = await platforms.d.placeOrder(CREDENTIALS.PLATFORM_D.settings.providerMerchantId);
      expect((await platforms.d.cancelOrder(other.order.id, 'Late')).body).toEqual({ received: true, result: 'canceled' });
      expect(await order((other.response.body as any).yemekKuryeOrderId)).toMatchObject({ status: 'CANCELED' });
    });
  });
});
