import { platformRequest } from '@courier/platforms';
import { sleep, waitFor } from '@courier/testing';
import { internal, TestApp } from '../../test/harness';
import { CREDENTIALS, Platforms, push, startPlatformApp, startPlatforms, upsertIntegration, waitForState } from '../../test/platforms';

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

  // PLATFORM_B (DH POS middleware): platform-b.integration-spec.ts.

  describe('PLATFORM_C (Trendyol Go): polling', () => {
    it('polls new packages into orders (one order per package, however often it is seen), with the cursor stored', async () => {
      const packages = [platforms.c.addPackage('104523', '88211'), platforms.c.addPackage('104523', '88211', { deliveryType: 'GO' })];
      await waitFor('polled packages', async () => (await Promise.all(packages.map((pkg) => countOrders('PLATFORM_C', String(pkg.id))))).every((n) => n === 1), 10_000);
      // Later polls overlap the earlier windows and see the same packages again: wait for two more
      // polls (an event, not a time: a loaded machine polls later) and count again.
      const listCalls = () => platforms.c.callsTo('GET', /\/integrator\/order\/meal\/suppliers\/104523\/packages$/);
      const seen = listCalls().length;
      await waitFor('two more polls', () => listCalls().length >= seen + 2, 30_000);
      for (const pkg of packages) expect(await countOrders('PLATFORM_C', String(pkg.id))).toBe(1);
      const [cursor] = await t.sql('SELECT cursor_ms, last_error FROM platform_poll_cursors');
      expect(cursor.last_error).toBeNull();
      expect(Number(cursor.cursor_ms)).toBeGreaterThanOrEqual(packages[1].packageModificationDate);
      const calls = listCalls();
      expect(calls[0].query.get('storeId')).toBe('88211');
      expect(calls[0].headers).toMatchObject({ 'user-agent': '104523 - CourierSuiteTests', 'x-agentname': 'CourierSuiteTests', 'x-executor-user': 'integration@courier-suite.invalid' });
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
      const itemIdList = unsupplied.lines.flatMap((line) => line.items.map((item) => item.packageItemId));
      expect(platforms.c.callsTo('PUT', /\/packages\/unsupplied$/).map((call) => call.body)).toContainEqual({ packageId: unsupplied.id, itemIdList, reasonId: 622 });
    });

    it('sends picked and invoiced for a GO package and skips manual-shipped / manual-delivered (the platform\'s courier)', async () => {
      const pkg = platforms.c.addPackage('104523', '88211', { deliveryType: 'GO' });
      await waitFor('the package polled', async () => (await countOrders('PLATFORM_C', pkg.id)) === 1, 10_000);
      expect((await pushAll('PLATFORM_C', pkg.id, ['VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER'])).map((update) => update.state)).toEqual(['sent', 'sent', 'skipped', 'skipped']);
      expect(platforms.c.packages.get(pkg.id)!.packageStatus).toBe('Invoiced');
      expect(platforms.c.calls.filter((call) => call.path.includes(`${pkg.id}/manual-`))).toEqual([]);
    });

    it('keeps a test package (testPackage: true) apart as a test order with its last status: never an order, never announced', async () => {
      const test = platforms.c.addPackage('104523', '88211', { testPackage: true });
      const testOrder = async () => (await t.sql('SELECT id, provider, provider_restaurant_id, last_status FROM platform_test_orders WHERE provider = $1 AND order_id = $2', ['PLATFORM_C', test.id]))[0];
      await waitFor('the test package kept apart', async () => (await testOrder())?.last_status === 'Created', 10_000);
      platforms.c.cancelPackage(test.id);
      await waitFor('its cancellation recorded', async () => (await testOrder())?.last_status === 'Cancelled', 10_000);
      const real = platforms.c.addPackage('104523', '88211');
      await waitFor('a later package polled', async () => (await countOrders('PLATFORM_C', real.id)) === 1, 10_000);
      expect(await countOrders('PLATFORM_C', test.id)).toBe(0);
      expect(await t.sql('SELECT count(*)::int AS n FROM platform_test_orders WHERE order_id = $1', [test.id])).toEqual([{ n: 1 }]);
      expect(await testOrder()).toMatchObject({ provider: 'PLATFORM_C', provider_restaurant_id: CREDENTIALS.PLATFORM_C.providerRestaurantId });
      expect((await t.sql("SELECT count(*)::int AS n FROM outbox_messages WHERE payload->>'orderId' = $1", [test.id]))[0].n).toBe(0);
    });

    it('takes a store pickup (storePickupSelected) through picked and invoiced, skips manual-shipped / manual-delivered, and says it is a pickup', async () => {
      const pkg = platforms.c.addPackage('104523', '88211', { deliveryType: 'STORE', storePickupSelected: true });
      await waitFor('the package polled', async () => (await countOrders('PLATFORM_C', pkg.id)) === 1, 10_000);
      const updates = await pushAll('PLATFORM_C', pkg.id, ['VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER']);
      expect(updates.map((update) => update.state)).toEqual(['sent', 'sent', 'skipped', 'skipped']);
      expect(updates[2].error).toMatch(/customer collects this package at the store \(storePickupSelected\)/);
      expect(platforms.c.calls.filter((call) => call.path.includes(`${pkg.id}/manual-`))).toEqual([]);
      const [{ id }] = await t.sql('SELECT id FROM orders WHERE provider = $1 AND order_id = $2', ['PLATFORM_C', pkg.id]);
      expect((await t.outbox('order.platform_received', id))[0].payload).toMatchObject({ details: { pickup: true } });
    });

    it('marks a model 2 package\'s placeholder address and proxy phone in the order it announces', async () => {
      const pkg = platforms.c.addPackage('104523', '88211', { deliveryType: 'GO' });
      await waitFor('the package polled', async () => (await countOrders('PLATFORM_C', pkg.id)) === 1, 10_000);
      const [{ id }] = await t.sql('SELECT id FROM orders WHERE provider = $1 AND order_id = $2', ['PLATFORM_C', pkg.id]);
      expect((await t.outbox('order.platform_received', id))[0].payload).toMatchObject({
        details: { deliveryAddress: expect.stringContaining('Trendyol Yemek'), deliveryAddressPlaceholder: true, customerPhone: '08502221212', customerPhoneProxy: true },
      });
    });

    it('records a stored supplierId that cannot go into a header as that integration\'s poll error, and keeps polling the others', async () => {
      const { integrationId } = await upsertIntegration(t, 'PLATFORM_C', { providerRestaurantId: 'ty-broken', settings: { supplierId: 'İstanbul', storeId: '77001' } });
      await waitFor('the broken poll recorded', async () => (await t.sql('SELECT last_error FROM platform_poll_cursors WHERE integration_id = $1', [integrationId]))[0]?.last_error?.includes('supplierId') === true, 10_000);
      const pkg = platforms.c.addPackage('104523', '88211');
      await waitFor('the healthy integration still polled', async () => (await countOrders('PLATFORM_C', pkg.id)) === 1, 10_000);
      expect(platforms.c.calls.filter((call) => call.query.get('storeId') === '77001')).toEqual([]);
    });

    it('does not poll an inactive integration', async () => {
      await upsertIntegration(t, 'PLATFORM_C', { providerRestaurantId: 'ty-paused', isActive: false, settings: { storeId: '99999' } });
      await sleep(800);
      expect(platforms.c.calls.filter((call) => call.query.get('storeId') === '99999')).toEqual([]);
    });
  });

  describe('PLATFORM_D (Migros Yemek): order and cancellation webhooks, encrypted status calls', () => {
    const D = CREDENTIALS.PLATFORM_D;
    const webhook = (path: string, body: unknown, headers: Record<string, string> = { XApiKey: D.secrets.apiKey }) =>
      platformRequest({ method: 'POST', url: `${t.baseUrl}/platforms/platform-d/${path}`, headers, json: body, timeoutMs: 5000 });
    const statusCalls = (orderId: number) => platforms.d.received.filter((call) => call.body.orderId === orderId).map((call) => ({ path: call.path, ...call.body }));

    it('creates the order once for repeated webhooks, in TRY from kuruş, and sends every action to Migros as it expects', async () => {
      const { order: simulated, response } = await platforms.d.placeOrder(D.providerRestaurantId);
      expect(response.status).toBe(200);
      const id = (response.body as any).yemekKuryeOrderId;
      expect(response.body).toEqual({ success: true, received: true, yemekKuryeOrderId: id, duplicate: false, confirmedBy: 'XApiKey' });
      expect((await platforms.d.redeliver(simulated.id)).body).toEqual({ success: true, received: true, yemekKuryeOrderId: id, duplicate: true, confirmedBy: 'XApiKey' });
      expect(await countOrders('PLATFORM_D', String(simulated.id))).toBe(1);
      expect(await order(id)).toMatchObject({ provider: 'PLATFORM_D', orderId: String(simulated.id), orderNumber: String(simulated.id), restaurantId: restaurants.PLATFORM_D, status: 'NEW' });
      const [announced] = await t.outbox('order.platform_received', id);
      expect(announced.payload).toMatchObject({
        providerRestaurantId: D.providerRestaurantId,
        details: { customerName: 'Ayşe Yılmaz', total: 210, currency: 'TRY', deliveryLatitude: 40.9651, items: [{ productName: 'Lahmacun', quantity: 2, unitPrice: 90, totalAmount: 180 }, { productName: 'Ayran', totalAmount: 55 }] },
      });

      expect((await pushAll('PLATFORM_D', String(simulated.id), ['VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER'])).map((update) => update.state)).toEqual(['sent', 'sent', 'sent', 'sent']);
      expect(platforms.d.orders.get(String(simulated.id))!.status).toBe('Completed');
      const storeId = Number(D.providerRestaurantId);
      expect(statusCalls(simulated.id)).toEqual(
        ['Approved', 'Prepared', 'Delivery', 'Completed'].map((orderStatus) => ({ path: '/Order/v2/UpdateOrderStatus', orderId: simulated.id, storeId, orderStatus })),
      );
    });

    it('pushes CANCEL as CancelOrder for an approved order and REJECT as Rejected for a new one; a refused step ends failed', async () => {
      const approved = await platforms.d.placeOrder(D.providerRestaurantId);
      expect((await pushAll('PLATFORM_D', String(approved.order.id), ['VERIFY', 'CANCEL'], { reason: 'Kurye bulunamadı' })).map((update) => update.state)).toEqual(['sent', 'sent']);
      expect(platforms.d.orders.get(String(approved.order.id))).toMatchObject({ status: 'Cancelled', cancelReasonId: 3, notifyUser: true });
      // Both ids (the sources disagree on which one Migros reads): the store, and the customer the order webhook named.
      const cancelCall = platforms.d.received.filter((call) => call.path === '/Order/v2/CancelOrder' && call.body.orderId === approved.order.id).at(-1)!;
      expect(cancelCall.body).toEqual({ orderId: approved.order.id, storeId: Number(D.providerRestaurantId), userId: approved.order.userId, notifyUser: true, cancelReasonId: 3 });
      expect(await order((approved.response.body as any).yemekKuryeOrderId)).toMatchObject({ status: 'CANCELED' });

      const fresh = await platforms.d.placeOrder(D.providerRestaurantId);
      expect((await pushAll('PLATFORM_D', String(fresh.order.id), ['REJECT'])).map((update) => update.state)).toEqual(['sent']);
      expect(platforms.d.orders.get(String(fresh.order.id))).toMatchObject({ status: 'Rejected', cancelReasonId: 1 });

      const migrosCourier = await platforms.d.placeOrder(D.providerRestaurantId, { deliveryProvider: 'MIGROS', status: 'Approved' });
      const [prepare, handover] = await pushAll('PLATFORM_D', String(migrosCourier.order.id), ['PREPARE', 'HANDOVER']);
      expect(prepare).toMatchObject({ state: 'sent' });
      expect(handover).toMatchObject({ state: 'skipped' });

      const notApproved = await platforms.d.placeOrder(D.providerRestaurantId);
      const [refused] = await pushAll('PLATFORM_D', String(notApproved.order.id), ['PREPARE']);
      expect(refused).toMatchObject({ state: 'failed', platformAnswer: { httpStatus: 400, body: { success: false, errorMessage: { errorCode: 'ORDER_STATUS_NOT_ALLOWED' } } } });
    });

    it('cancels on the cancellation webhook { OrderId, StoreId, UserId }, on either path, only for the store whose key it carries', async () => {
      const first = await platforms.d.placeOrder(D.providerRestaurantId);
      expect((await platforms.d.cancelOrder(first.order.id)).body).toEqual({ success: true, received: true, result: 'canceled', confirmedBy: 'XApiKey' });
      expect(await order((first.response.body as any).yemekKuryeOrderId)).toMatchObject({ status: 'CANCELED' });
      expect((await platforms.d.cancelOrder(first.order.id)).body).toEqual({ success: true, received: true, result: 'already_final', confirmedBy: 'XApiKey' });

      const second = await platforms.d.placeOrder(D.providerRestaurantId);
      expect((await webhook('orders', platforms.d.cancellationPayload(second.order))).body).toEqual({ success: true, received: true, result: 'canceled', confirmedBy: 'XApiKey' });

      // Another store (its own integration and key) cannot cancel this store's order.
      const third = await platforms.d.placeOrder(D.providerRestaurantId);
      const other = { storeId: '23000000109999', storeGroupId: '511', apiKey: 'migros-store-key-other' };
      await upsertIntegration(t, 'PLATFORM_D', { providerRestaurantId: other.storeId, secrets: { apiKey: other.apiKey } });
      const crossStore = await webhook('orders/cancelled', { OrderId: third.order.id, StoreId: Number(other.storeId), UserId: 1 }, { XApiKey: other.apiKey });
      expect(crossStore.body).toEqual({ success: true, received: true, result: 'unknown', confirmedBy: 'XApiKey' });
      expect(await order((third.response.body as any).yemekKuryeOrderId)).toMatchObject({ status: 'NEW' });
    });

    it('confirms an order webhook without the store\'s key by reading it back from Migros, and takes Migros\' order, not the body', async () => {
      platforms.d.options.webhookApiKey = null;
      try {
        const { order: simulated, response } = await platforms.d.placeOrder(D.providerRestaurantId);
        expect(response).toMatchObject({ status: 200, body: { success: true, received: true, duplicate: false, confirmedBy: 'GetOrderDetail' } });
        const id = (response.body as any).yemekKuryeOrderId;
        expect(platforms.d.callsTo('GET', '/Order/v2/GetOrderDetail').at(-1)).toMatchObject({ headers: { xapikey: D.secrets.apiKey } });
        expect(await order(id)).toMatchObject({ provider: 'PLATFORM_D', orderId: String(simulated.id), restaurantId: restaurants.PLATFORM_D, status: 'NEW' });

        // A forged body for an order Migros has: the order is Migros' (customer, total), never the body's.
        const real = platforms.d.createOrder(D.providerRestaurantId);
        const forged = { ...platforms.d.orderPayload(real), customer: { fullName: 'Mallory', phoneNumber: '+900000000000' }, prices: { total: { amountAsPenny: 1 } } };
        for (const headers of [{}, { XApiKey: 'forged-key' }, { 'X-API-Key': D.secrets.apiKey }] as Array<Record<string, string>>) {
          expect(await webhook('orders', forged, headers)).toMatchObject({ status: 200, body: { success: true, confirmedBy: 'GetOrderDetail' } });
        }
        expect(await countOrders('PLATFORM_D', String(real.id))).toBe(1);
        const received = (await t.outbox('order.platform_received')).find((row) => row.payload.orderId === String(real.id))!;
        expect(received.payload.details).toMatchObject({ customerName: 'Ayşe Yılmaz', customerPhone: '+905321112233', total: 210 });
      } finally {
        platforms.d.options.webhookApiKey = 'store';
      }
    });

    it('refuses (200, success: false) an order without the store\'s key that Migros does not show for that store, and an unknown store alike', async () => {
      const made = platforms.d.createOrder(D.providerRestaurantId);
      const fabricated = { ...platforms.d.orderPayload(made), id: 999_000_001 };
      const refused = { success: false, received: false, code: 'PLATFORM_ORDER_NOT_CONFIRMED', errorMessage: { errorCode: 'PLATFORM_ORDER_NOT_CONFIRMED' } };
      for (const headers of [{}, { XApiKey: 'forged-key' }, { XApiKey: 'migros-store-key-other' }] as Array<Record<string, string>>) {
        expect(await webhook('orders', fabricated, headers)).toMatchObject({ status: 200, body: refused });
      }
      expect(await countOrders('PLATFORM_D', '999000001')).toBe(0);
      // Another store's order (Migros' ids are sequential), posted as this store's: Migros does not show it for this store.
      platforms.d.options.stores.push({ storeId: '23000000107777', storeGroupId: '511', apiKey: 'migros-store-key-7777' });
      const othersOrder = platforms.d.createOrder('23000000107777');
      expect(await webhook('orders', { ...platforms.d.orderPayload(othersOrder), store: { id: Number(D.providerRestaurantId) } }, {})).toMatchObject({ status: 200, body: refused });
      expect(await countOrders('PLATFORM_D', String(othersOrder.id))).toBe(0);
      const unknownStore = await webhook('orders', { ...platforms.d.orderPayload(made), store: { id: 99999 } }, {});
      expect(unknownStore).toMatchObject({ status: 200, body: refused });
      expect(await countOrders('PLATFORM_D', String(made.id))).toBe(0);
    });

    it('answers 503 (Migros retries) when the read-back cannot reach Migros, and takes the order on the retry', async () => {
      const made = platforms.d.createOrder(D.providerRestaurantId);
      platforms.d.failNext({ status: 502, match: (request) => request.path === '/Order/v2/GetOrderDetail' });
      const failed = await webhook('orders', platforms.d.orderPayload(made), {});
      expect(failed).toMatchObject({ status: 503, headers: { 'retry-after': '10' }, body: { code: 'SERVICE_UNAVAILABLE', success: false } });
      expect(await countOrders('PLATFORM_D', String(made.id))).toBe(0);
      expect(await webhook('orders', platforms.d.orderPayload(made), {})).toMatchObject({ status: 200, body: { success: true, confirmedBy: 'GetOrderDetail' } });
      expect(await countOrders('PLATFORM_D', String(made.id))).toBe(1);
    });

    it('cancels on a cancellation without the store\'s key only when Migros shows the order cancelled', async () => {
      const placed = await platforms.d.placeOrder(D.providerRestaurantId);
      const id = (placed.response.body as any).yemekKuryeOrderId;
      const forged = await webhook('orders/cancelled', platforms.d.cancellationPayload(placed.order), {});
      expect(forged).toMatchObject({ status: 200, body: { success: false, code: 'PLATFORM_ORDER_NOT_CONFIRMED', detail: expect.stringMatching(/NEW_PENDING/) } });
      expect(await order(id)).toMatchObject({ status: 'NEW' });
      platforms.d.options.webhookApiKey = null;
      try {
        expect(await platforms.d.cancelOrder(placed.order.id)).toMatchObject({ status: 200, body: { success: true, result: 'canceled', confirmedBy: 'GetOrderDetail' } });
      } finally {
        platforms.d.options.webhookApiKey = 'store';
      }
      expect(await order(id)).toMatchObject({ status: 'CANCELED' });
    });

    it('cancels on the delivery-status webhook with isCancelled (order.canceled), with or without the key; records other delivery statuses without moving the order', async () => {
      for (const webhookApiKey of ['store', null] as const) {
        platforms.d.options.webhookApiKey = webhookApiKey;
        try {
          const placed = await platforms.d.placeOrder(D.providerRestaurantId, { deliveryProvider: 'MIGROS' });
          const id = (placed.response.body as any).yemekKuryeOrderId;
          expect(await platforms.d.sendDeliveryStatus(placed.order.id, 'ASSIGNED_FOR_DELIVERY')).toMatchObject({ status: 200, body: { success: true, received: true, result: 'recorded' } });
          expect(await platforms.d.sendDeliveryStatus(placed.order.id, 'DELIVERED')).toMatchObject({ status: 200, body: { success: true, result: 'recorded' } });
          expect(await order(id)).toMatchObject({ status: 'NEW' });
          const cancelled = await platforms.d.cancelOrder(placed.order.id, 'delivery_status');
          expect(cancelled).toMatchObject({ status: 200, body: { success: true, result: 'canceled', confirmedBy: webhookApiKey ? 'XApiKey' : 'GetOrderDetail' } });
          expect(await order(id)).toMatchObject({ status: 'CANCELED' });
          const [event] = await t.outbox('order.canceled', id);
          expect(event.payload).toMatchObject({ yemekKuryeOrderId: id, previousStatus: 'NEW', canceledBy: 'System', reason: 'Cancelled on Migros Yemek (delivery status: cancelled)' });
        } finally {
          platforms.d.options.webhookApiKey = 'store';
        }
      }
      // On its own path too, and a forged isCancelled for an order Migros still has is refused.
      const alive = await platforms.d.placeOrder(D.providerRestaurantId);
      const forged = platforms.d.deliveryStatusPayload(alive.order, undefined);
      expect(await webhook('orders/delivery-status', { ...forged, isCancelled: true }, {})).toMatchObject({ status: 200, body: { success: false, code: 'PLATFORM_ORDER_NOT_CONFIRMED' } });
      expect(await order((alive.response.body as any).yemekKuryeOrderId)).toMatchObject({ status: 'NEW' });
    });

    it('sends an integration\'s status calls in CBC when its encryptionMode says so (a store Migros reads in CBC), ECB otherwise', async () => {
      const callsBefore = platforms.d.calls.length;
      const cbcStore = { storeId: '23000000106666', storeGroupId: '511', apiKey: 'migros-store-key-cbc', cipherMode: 'CBC' as const };
      platforms.d.options.stores.push(cbcStore);
      await upsertIntegration(t, 'PLATFORM_D', { providerRestaurantId: cbcStore.storeId, settings: { encryptionMode: 'CBC' }, secrets: { apiKey: cbcStore.apiKey } });
      const cbcOrder = await platforms.d.placeOrder(cbcStore.storeId);
      expect(cbcOrder.response).toMatchObject({ status: 200, body: { success: true } });
      expect((await pushAll('PLATFORM_D', String(cbcOrder.order.id), ['VERIFY'])).map((update) => update.state)).toEqual(['sent']);
      expect(platforms.d.orders.get(String(cbcOrder.order.id))!.status).toBe('Approved');

      // The default store reads ECB; a call in CBC would be refused there (DECRYPTION_FAILED).
      const ecbOrder = await platforms.d.placeOrder(D.providerRestaurantId);
      expect((await pushAll('PLATFORM_D', String(ecbOrder.order.id), ['VERIFY'])).map((update) => update.state)).toEqual(['sent']);
      expect(platforms.d.calls.slice(callsBefore).filter((call) => call.status !== 200)).toEqual([]);
    });

    it('opens an encrypted { value } webhook in either mode; refuses a malformed body (422) and one it cannot open (400); a paused integration is refused for good', async () => {
      const simulated = platforms.d.createOrder(D.providerRestaurantId);
      const body = platforms.d.orderPayload(simulated);
      for (const mode of ['CBC', 'ECB'] as const) {
        const encrypted = { value: platforms.d.encrypt(JSON.stringify(body), D.secrets.apiKey, mode) };
        expect(await webhook('orders', encrypted)).toMatchObject({ status: 200, body: { success: true, confirmedBy: 'XApiKey' } });
      }
      expect(await countOrders('PLATFORM_D', String(simulated.id))).toBe(1);
      expect(await webhook('orders', { value: platforms.d.encrypt(JSON.stringify(body), 'another-key-entirely') })).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD', success: false } });
      expect(await webhook('orders', { value: 'bm90IGVuY3J5cHRlZA==' }, {})).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } });

      expect(await webhook('orders', { ...body, id: null, items: 'many' })).toMatchObject({ status: 422, body: { code: 'VALIDATION_ERROR', success: false, errors: [{ field: 'id' }, { field: 'items' }] } });
      expect(await webhook('orders/cancelled', { OrderId: simulated.id })).toMatchObject({ status: 422, body: { errors: [{ field: 'StoreId', message: 'is required' }] } });
      expect(await webhook('orders', [1, 2])).toMatchObject({ status: 422 });

      const paused = { storeId: '23000000108888', apiKey: 'migros-store-key-paused' };
      await upsertIntegration(t, 'PLATFORM_D', { providerRestaurantId: paused.storeId, isActive: false, secrets: { apiKey: paused.apiKey } });
      expect(await webhook('orders', { ...body, store: { id: Number(paused.storeId) } }, { XApiKey: paused.apiKey })).toMatchObject({ status: 200, body: { success: false, code: 'INTEGRATION_DISABLED' } });
    });
  });
});
