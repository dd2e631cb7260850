import { randomBytes } from 'node:crypto';
import { platformRequest } from '@courier/platforms';
import { waitFor } from '@courier/testing';
import { internal, newRestaurantId, TestApp } from '../../test/harness';
import { A_WEBHOOK_KEY, bPluginAuthorization, CREDENTIALS, Platforms, push, startPlatformApp, startPlatforms, upsertIntegration } from '../../test/platforms';

jest.setTimeout(120_000);

/**
 * A platform order belongs to the platform store (integration) it came in for: the attack replays of
 * every platform that can be replayed. Another store presenting a store's order id (before or after
 * the real order) gets an order of its own, the real order stays its store's own, neither answer
 * carries the other's id, the collision is counted, and a true replay for the same store is still
 * the same order. The status push names the restaurant when the id is ambiguous.
 */
describe('platform orders: one owner per platform store', () => {
  let platforms: Platforms;
  let t: TestApp;
  const victims: Record<string, { integrationId: string; restaurantId: string }> = {};

  beforeAll(async () => {
    platforms = await startPlatforms();
    // A second store of the PLATFORM_C supplier, polled with the same credentials.
    platforms.c.options.suppliers[0].storeIds.push('88212');
    t = await startPlatformApp(platforms, { env: { PLATFORM_C_POLL_INTERVAL_MS: '200' } });
    for (const platform of ['PLATFORM_A', 'PLATFORM_B', 'PLATFORM_C', 'PLATFORM_D'] as const) victims[platform] = await upsertIntegration(t, platform);
  });
  afterAll(async () => {
    await t?.close();
    await platforms?.stop();
  });

  const order = async (id: string) => (await t.http.get(`/internal/orders/${id}`).set(internal())).body;
  const ordersOf = async (provider: string, orderId: string) =>
    t.sql<{ id: string; restaurant_id: string; provider_restaurant_id: string; integration_id: string }>(
      'SELECT id, restaurant_id, provider_restaurant_id, integration_id FROM orders WHERE provider = $1 AND order_id = $2 ORDER BY received_at',
      [provider, orderId],
    );
  const collisions = async (platform: string) => {
    const text: string = (await t.http.get('/metrics')).text;
    return Number(new RegExp(`^platform_order_id_collisions_total\\{[^}]*platform="${platform}"[^}]*\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  };
  const dWebhook = (body: unknown, apiKey: string) => platformRequest({ method: 'POST', url: `${t.baseUrl}/platforms/platform-d/orders`, headers: { XApiKey: apiKey }, json: body, timeoutMs: 5000 });
  const aWebhook = (body: unknown) => platformRequest({ method: 'POST', url: `${t.baseUrl}/platforms/platform-a/orders`, headers: { 'x-api-key': A_WEBHOOK_KEY }, json: body, timeoutMs: 5000 });
  const bDispatch = (remoteId: string, body: unknown) =>
    platformRequest({ method: 'POST', url: `${t.baseUrl}/platforms/platform-b/order/${remoteId}`, headers: { Authorization: bPluginAuthorization() }, json: body, timeoutMs: 5000 });
  /** A PLATFORM_D order body of the victim store, presented as another store's. */
  const asDStore = (body: Record<string, any>, storeId: string): Record<string, any> => ({ ...body, store: { ...body.store, id: Number(storeId) } });

  /** Both orders exist, apart: each of its own store, integration and restaurant, with different ids. */
  const expectApart = async (provider: string, platformOrderId: string, victim: { id: string; integrationId: string; restaurantId: string }, attacker: { id: string; integrationId: string; restaurantId: string }) => {
    expect(victim.id).not.toBe(attacker.id);
    const rows = await ordersOf(provider, platformOrderId);
    expect(rows.map((row) => [row.id, row.integration_id, row.restaurant_id]).sort()).toEqual(
      [
        [victim.id, victim.integrationId, victim.restaurantId],
        [attacker.id, attacker.integrationId, attacker.restaurantId],
      ].sort(),
    );
    expect(await order(victim.id)).toMatchObject({ provider, orderId: platformOrderId, restaurantId: victim.restaurantId });
    expect(await order(attacker.id)).toMatchObject({ provider, orderId: platformOrderId, restaurantId: attacker.restaurantId });
    // The courier core hears of each order once, for its own integration.
    expect((await t.outbox('order.platform_received', victim.id)).map((row) => row.payload.integrationId)).toEqual([victim.integrationId]);
    expect((await t.outbox('order.platform_received', attacker.id)).map((row) => row.payload.integrationId)).toEqual([attacker.integrationId]);
  };

  describe('PLATFORM_D (Migros): a store posting another store\'s order ids with its own key', () => {
    const D = CREDENTIALS.PLATFORM_D;
    const attackerStore = { storeId: '23000000107777', apiKey: 'key-the-attacker-chose' };
    let attacker: { integrationId: string; restaurantId: string };

    beforeAll(async () => {
      attacker = await upsertIntegration(t, 'PLATFORM_D', { providerRestaurantId: attackerStore.storeId, secrets: { apiKey: attackerStore.apiKey } });
    });

    it('the victim\'s next order id posted first by the attacker: the real order is still the victim\'s own, never answered with the attacker\'s order', async () => {
      const before = await collisions('PLATFORM_D');
      const next = platforms.d.createOrder(D.providerRestaurantId);
      const forged = await dWebhook(asDStore(platforms.d.orderPayload(next), attackerStore.storeId), attackerStore.apiKey);
      expect(forged).toMatchObject({ status: 200, body: { received: true, duplicate: false } });
      const forgedId = (forged.body as any).yemekKuryeOrderId;

      const real = await platforms.d.redeliver(next.id);
      expect(real).toMatchObject({ status: 200, body: { received: true, duplicate: false } });
      const realId = (real.body as any).yemekKuryeOrderId;
      await expectApart('PLATFORM_D', String(next.id), { id: realId, ...victims.PLATFORM_D }, { id: forgedId, ...attacker });
      expect(await collisions('PLATFORM_D')).toBe(before + 1);

      // True replays, each for its own store: the same order each time.
      expect((await platforms.d.redeliver(next.id)).body).toMatchObject({ success: true, received: true, yemekKuryeOrderId: realId, duplicate: true });
      expect((await dWebhook(asDStore(platforms.d.orderPayload(next), attackerStore.storeId), attackerStore.apiKey)).body).toMatchObject({ success: true, received: true, yemekKuryeOrderId: forgedId, duplicate: true });
      expect(await collisions('PLATFORM_D')).toBe(before + 1);
    });

    it('a victim\'s order replayed by the attacker afterwards: the attacker gets an order of its own, never the victim\'s id', async () => {
      const before = await collisions('PLATFORM_D');
      const { order: placed, response } = await platforms.d.placeOrder(D.providerRestaurantId);
      const realId = (response.body as any).yemekKuryeOrderId;
      const replay = await dWebhook(asDStore(platforms.d.orderPayload(placed), attackerStore.storeId), attackerStore.apiKey);
      expect(replay).toMatchObject({ status: 200, body: { received: true, duplicate: false } });
      expect((replay.body as any).yemekKuryeOrderId).not.toBe(realId);
      await expectApart('PLATFORM_D', String(placed.id), { id: realId, ...victims.PLATFORM_D }, { id: (replay.body as any).yemekKuryeOrderId, ...attacker });
      expect(await collisions('PLATFORM_D')).toBe(before + 1);
      expect((await platforms.d.redeliver(placed.id)).body).toMatchObject({ success: true, received: true, yemekKuryeOrderId: realId, duplicate: true });
    });

    it('the store\'s order received for an integration since replaced: refused for good (Migros\' envelope, PLATFORM_ORDER_OF_ANOTHER_INTEGRATION), never handed to the new one', async () => {
      const store = { storeId: '23000000106666', apiKey: 'store-key-6666' };
      const first = await upsertIntegration(t, 'PLATFORM_D', { providerRestaurantId: store.storeId, secrets: { apiKey: store.apiKey } });
      const body = asDStore(platforms.d.orderPayload(platforms.d.createOrder(D.providerRestaurantId)), store.storeId);
      const received = await dWebhook(body, store.apiKey);
      expect(received).toMatchObject({ status: 200, body: { duplicate: false } });

      // An operator moves the store to another account's integration (the old holder deactivated and displaced).
      await upsertIntegration(t, 'PLATFORM_D', { integrationId: first.integrationId, restaurantId: first.restaurantId, providerRestaurantId: store.storeId, displaced: true, isActive: false, secrets: { apiKey: store.apiKey } });
      await upsertIntegration(t, 'PLATFORM_D', { providerRestaurantId: store.storeId, secrets: { apiKey: store.apiKey } });
      const before = await collisions('PLATFORM_D');
      const again = await dWebhook(body, store.apiKey);
      // HTTP 200 with success false: Migros retries any other answer, and a retry cannot change this.
      expect(again).toMatchObject({ status: 200, body: { success: false, code: 'PLATFORM_ORDER_OF_ANOTHER_INTEGRATION' } });
      expect(JSON.stringify(again.body)).not.toContain((received.body as any).yemekKuryeOrderId);
      expect((await ordersOf('PLATFORM_D', String(body.id))).map((row) => row.integration_id)).toEqual([first.integrationId]);
      expect(await collisions('PLATFORM_D')).toBe(before + 1);
    });
  });

  describe('PLATFORM_A (Getir): an order id arriving under another restaurant.id', () => {
    const A = CREDENTIALS.PLATFORM_A;
    const attackerStore = 'getir-rest-attacker';
    let attacker: { integrationId: string; restaurantId: string };

    beforeAll(async () => {
      attacker = await upsertIntegration(t, 'PLATFORM_A', { providerRestaurantId: attackerStore, secrets: { secretKey: 'getir-secret-attacker' } });
    });

    it('first under the other store, then the real one: two orders apart; replays answer each store\'s own', async () => {
      const before = await collisions('PLATFORM_A');
      const simulated = platforms.a.createOrder(A.providerRestaurantId);
      const foodOrder = platforms.a.foodOrder(simulated);
      const forged = await aWebhook({ ...foodOrder, restaurant: { ...(foodOrder.restaurant as object), id: attackerStore } });
      expect(forged).toMatchObject({ status: 200, body: { received: true, duplicate: false } });
      const real = await platforms.a.redeliver(simulated.id);
      expect(real).toMatchObject({ status: 200, body: { received: true, duplicate: false } });
      const realId = (real.body as any).yemekKuryeOrderId;
      const forgedId = (forged.body as any).yemekKuryeOrderId;
      await expectApart('PLATFORM_A', simulated.id, { id: realId, ...victims.PLATFORM_A }, { id: forgedId, ...attacker });
      expect(await collisions('PLATFORM_A')).toBe(before + 1);

      expect((await platforms.a.redeliver(simulated.id)).body).toEqual({ received: true, yemekKuryeOrderId: realId, duplicate: true });
      expect((await aWebhook({ ...foodOrder, restaurant: { id: attackerStore } })).body).toEqual({ received: true, yemekKuryeOrderId: forgedId, duplicate: true });

      // A cancellation that names its store cancels that store's order only; one naming none cancels neither.
      expect((await platforms.a.cancelOrder(simulated.id)).body).toEqual({ received: true, result: 'canceled' });
      expect(await order(realId)).toMatchObject({ status: 'CANCELED' });
      expect(await order(forgedId)).toMatchObject({ status: 'NEW' });
      const storeless = await platformRequest({ method: 'POST', url: `${t.baseUrl}/platforms/platform-a/orders/cancelled`, headers: { 'x-api-key': A_WEBHOOK_KEY }, json: { id: simulated.id }, timeoutMs: 5000 });
      expect(storeless.body).toEqual({ received: true, result: 'ambiguous' });
      expect(await order(forgedId)).toMatchObject({ status: 'NEW' });
    });
  });

  describe('PLATFORM_B (DH POS plugin): a dispatch of one vendor\'s order token to another vendor', () => {
    const VENDOR = CREDENTIALS.PLATFORM_B.providerRestaurantId;
    const attackerVendor = 'ys-vendor-attacker';
    let attacker: { integrationId: string; restaurantId: string };

    beforeAll(async () => {
      attacker = await upsertIntegration(t, 'PLATFORM_B', { providerRestaurantId: attackerVendor });
    });

    it('each vendor gets its own remoteOrderId for the token; the middleware\'s retries answer each vendor\'s own', async () => {
      const before = await collisions('PLATFORM_B');
      const simulated = platforms.b.createOrder(VENDOR);
      const forged = await bDispatch(attackerVendor, platforms.b.orderPayload(simulated));
      expect(forged.status).toBe(200);
      const forgedId = (forged.body as any).remoteResponse.remoteOrderId;
      const real = await platforms.b.redispatch(simulated.token);
      expect(real.response.status).toBe(200);
      const realId = (real.response.body as any).remoteResponse.remoteOrderId;
      await expectApart('PLATFORM_B', simulated.token, { id: realId, ...victims.PLATFORM_B }, { id: forgedId, ...attacker });
      expect(await collisions('PLATFORM_B')).toBe(before + 1);

      expect(((await platforms.b.redispatch(simulated.token)).response.body as any).remoteResponse.remoteOrderId).toBe(realId);
      expect(((await bDispatch(attackerVendor, platforms.b.orderPayload(simulated))).body as any).remoteResponse.remoteOrderId).toBe(forgedId);
    });

    it('keeps test orders apart per vendor too', async () => {
      const simulated = platforms.b.createOrder(VENDOR, { test: true });
      const forged = ((await bDispatch(attackerVendor, platforms.b.orderPayload(simulated))).body as any).remoteResponse.remoteOrderId;
      const real = ((await platforms.b.redispatch(simulated.token)).response.body as any).remoteResponse.remoteOrderId;
      expect(real).not.toBe(forged);
      expect(((await platforms.b.redispatch(simulated.token)).response.body as any).remoteResponse.remoteOrderId).toBe(real);
      expect(await t.sql('SELECT id, provider_restaurant_id FROM platform_test_orders WHERE order_id = $1 ORDER BY received_at', [simulated.token])).toEqual([
        { id: forged, provider_restaurant_id: attackerVendor },
        { id: real, provider_restaurant_id: VENDOR },
      ]);
    });
  });

  describe('PLATFORM_C (Trendyol Go): one package id polled under two stores', () => {
    it('each store\'s poll makes its own order; later polls change neither', async () => {
      const C = CREDENTIALS.PLATFORM_C;
      const second = await upsertIntegration(t, 'PLATFORM_C', { providerRestaurantId: 'ty-rest-2', settings: { storeId: '88212' } });
      const before = await collisions('PLATFORM_C');
      const first = platforms.c.addPackage(C.settings.supplierId, '88212');
      await waitFor('the package polled for the second store', async () => (await ordersOf('PLATFORM_C', first.id)).length === 1, 15_000);
      // The same package id, now listed for the first store.
      platforms.c.addPackage(C.settings.supplierId, C.settings.storeId, { id: first.id });
      await waitFor('the package polled for the first store', async () => (await ordersOf('PLATFORM_C', first.id)).length === 2, 15_000);
      const rows = await ordersOf('PLATFORM_C', first.id);
      const byStore = new Map(rows.map((row) => [row.provider_restaurant_id, row]));
      await expectApart('PLATFORM_C', first.id, { id: byStore.get(C.providerRestaurantId)!.id, ...victims.PLATFORM_C }, { id: byStore.get('ty-rest-2')!.id, ...second });
      expect(await collisions('PLATFORM_C')).toBe(before + 1);

      const listCalls = () => platforms.c.callsTo('GET', /\/integrator\/order\/meal\/suppliers\/104523\/packages$/).filter((call) => call.query.get('storeId') === C.settings.storeId).length;
      const seen = listCalls();
      await waitFor('two more polls of the first store', () => listCalls() >= seen + 2, 30_000);
      expect((await ordersOf('PLATFORM_C', first.id)).map((row) => row.id).sort()).toEqual(rows.map((row) => row.id).sort());
      expect(await collisions('PLATFORM_C')).toBe(before + 1);
    });
  });

  describe('PLATFORM_C: a store moved to another integration', () => {
    it('the new integration\'s poll skips the packages the old one received (refused, counted) and takes the new ones', async () => {
      const C = CREDENTIALS.PLATFORM_C;
      platforms.c.options.suppliers[0].storeIds.push('88213');
      const store = { providerRestaurantId: 'ty-rest-3', settings: { storeId: '88213' } };
      const old = await upsertIntegration(t, 'PLATFORM_C', store);
      const received = platforms.c.addPackage(C.settings.supplierId, '88213');
      await waitFor('the package polled for the old integration', async () => (await ordersOf('PLATFORM_C', received.id)).length === 1, 15_000);

      // As integrations-api transfers a store: the old holder deactivated and displaced.
      await upsertIntegration(t, 'PLATFORM_C', { integrationId: old.integrationId, restaurantId: old.restaurantId, displaced: true, isActive: false, ...store });
      const moved = await upsertIntegration(t, 'PLATFORM_C', store);
      const before = await collisions('PLATFORM_C');
      // The new integration has no cursor: its first poll reads the look-back window, the old package in it.
      await waitFor('the old package refused to the new integration', async () => (await collisions('PLATFORM_C')) > before, 15_000);
      const fresh = platforms.c.addPackage(C.settings.supplierId, '88213');
      await waitFor('a new package polled for the new integration', async () => (await ordersOf('PLATFORM_C', fresh.id)).length === 1, 15_000);
      expect((await ordersOf('PLATFORM_C', received.id)).map((row) => [row.integration_id, row.restaurant_id])).toEqual([[old.integrationId, old.restaurantId]]);
      expect((await ordersOf('PLATFORM_C', fresh.id)).map((row) => [row.integration_id, row.restaurant_id])).toEqual([[moved.integrationId, moved.restaurantId]]);
      expect(await t.sql('SELECT last_error FROM platform_poll_cursors WHERE integration_id = $1', [moved.integrationId])).toEqual([{ last_error: null }]);
    });
  });

  describe('the status push of an id several stores hold', () => {
    const D = CREDENTIALS.PLATFORM_D;
    const otherStore = { storeId: '23000000105555', apiKey: 'store-key-5555' };

    it('409 AMBIGUOUS_PROVIDER_ORDER_ID without restaurantId; with it, that restaurant\'s order; 404 for a restaurant without it; 422 for a malformed one', async () => {
      const other = await upsertIntegration(t, 'PLATFORM_D', { providerRestaurantId: otherStore.storeId, secrets: { apiKey: otherStore.apiKey } });
      const { order: placed, response } = await platforms.d.placeOrder(D.providerRestaurantId);
      const realId = (response.body as any).yemekKuryeOrderId;
      const otherId = ((await dWebhook(asDStore(platforms.d.orderPayload(placed), otherStore.storeId), otherStore.apiKey)).body as any).yemekKuryeOrderId;
      const providerOrderId = String(placed.id);

      const ambiguous = await push(t, { providerOrderId, platform: 'PLATFORM_D', action: 'VERIFY' });
      expect(ambiguous).toMatchObject({ status: 409, body: { code: 'AMBIGUOUS_PROVIDER_ORDER_ID', detail: expect.stringContaining('restaurantId') } });
      expect(JSON.stringify(ambiguous.body)).not.toMatch(new RegExp(`${realId}|${otherId}`));
      expect(await t.sql('SELECT count(*)::int AS n FROM status_updates WHERE order_id IN ($1, $2)', [realId, otherId])).toEqual([{ n: 0 }]);

      const narrowed = await push(t, { providerOrderId, platform: 'PLATFORM_D', action: 'VERIFY', restaurantId: victims.PLATFORM_D.restaurantId });
      expect(narrowed.status).toBe(202);
      expect(await t.sql('SELECT order_id FROM status_updates WHERE id = $1', [narrowed.body.statusUpdateId])).toEqual([{ order_id: realId }]);
      expect(await order(realId)).toMatchObject({ status: 'VALIDATED' });
      expect(await order(otherId)).toMatchObject({ status: 'NEW' });
      // The same action again for that restaurant: guard 5 as before.
      expect((await push(t, { providerOrderId, platform: 'PLATFORM_D', action: 'VERIFY', restaurantId: victims.PLATFORM_D.restaurantId })).body.statusUpdateId).toBe(narrowed.body.statusUpdateId);

      const toOther = await push(t, { providerOrderId, platform: 'PLATFORM_D', action: 'REJECT', restaurantId: other.restaurantId });
      expect(toOther.status).toBe(202);
      expect(await t.sql('SELECT order_id FROM status_updates WHERE id = $1', [toOther.body.statusUpdateId])).toEqual([{ order_id: otherId }]);

      expect(await push(t, { providerOrderId, platform: 'PLATFORM_D', action: 'VERIFY', restaurantId: newRestaurantId() })).toMatchObject({ status: 404, body: { code: 'ORDER_NOT_FOUND' } });
      for (const restaurantId of ['rest_short', 'not-a-restaurant-id-at-all-0000000', `rest_${randomBytes(60).toString('base64url')}`, 42]) {
        const malformed = await push(t, { providerOrderId, platform: 'PLATFORM_D', action: 'VERIFY', restaurantId });
        expect(malformed).toMatchObject({ status: 422, body: { code: 'VALIDATION_ERROR' } });
        expect(new Set(malformed.body.errors.map((error: { field: string }) => error.field))).toEqual(new Set(['restaurantId']));
      }
    });

    it('one order with the id: answered as before, with or without its restaurantId', async () => {
      const { order: placed, response } = await platforms.d.placeOrder(D.providerRestaurantId);
      const id = (response.body as any).yemekKuryeOrderId;
      const verify = await push(t, { providerOrderId: String(placed.id), platform: 'PLATFORM_D', action: 'VERIFY' });
      expect(verify.status).toBe(202);
      expect(await t.sql('SELECT order_id FROM status_updates WHERE id = $1', [verify.body.statusUpdateId])).toEqual([{ order_id: id }]);
      expect((await push(t, { providerOrderId: String(placed.id), platform: 'PLATFORM_D', action: 'VERIFY', restaurantId: victims.PLATFORM_D.restaurantId })).body.statusUpdateId).toBe(verify.body.statusUpdateId);
      expect(await push(t, { providerOrderId: 'no-such-order', platform: 'PLATFORM_D', action: 'VERIFY' })).toMatchObject({ status: 404, body: { code: 'ORDER_NOT_FOUND' } });
    });
  });
});
