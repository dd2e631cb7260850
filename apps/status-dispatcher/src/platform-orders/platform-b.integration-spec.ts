import { createHmac, randomUUID } from 'node:crypto';
import { RoutingKey } from '@courier/contracts';
import { platformRequest, PLATFORM_B_PLUGIN_STATUSES } from '@courier/platforms';
import { waitFor } from '@courier/testing';
import { internal, TestApp } from '../../test/harness';
import { B_PLUGIN_SECRET, bPluginAuthorization, CREDENTIALS, Platforms, push, randomHex, startPlatformApp, startPlatforms, upsertIntegration, waitForState } from '../../test/platforms';
import { PlatformOrderRepository } from './platform-order.repository';

jest.setTimeout(120_000);

const VENDOR = CREDENTIALS.PLATFORM_B.providerRestaurantId;
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** Signed with the plugin secret, valid in every claim, but its header makes an extension we do not know critical. */
function criticalExtensionJwt(): string {
  const unsigned = `${b64({ alg: 'HS256', typ: 'JWT', crit: ['x-dh-ext'], 'x-dh-ext': true })}.${b64({ service: 'middleware', exp: Math.floor(Date.now() / 1000) + 3600 })}`;
  return `Bearer ${unsigned}.${createHmac('sha256', B_PLUGIN_SECRET).update(unsigned).digest('base64url')}`;
}

/**
 * PLATFORM_B end to end through the app and the DH middleware simulator: the plugin's JWT, every
 * plugin endpoint and inbound shape (dispatch, test order, expiry, posOrderStatus, availability,
 * menuimport, health), and every status action with the middleware's answers (409 states included).
 */
describe('PLATFORM_B (DH POS middleware): plugin endpoints and status calls', () => {
  let platforms: Platforms;
  let t: TestApp;

  beforeAll(async () => {
    platforms = await startPlatforms();
    t = await startPlatformApp(platforms, { env: { PLATFORM_B_ACK_RETRY_INTERVAL_MS: '100', PLATFORM_B_ACK_RETRY_WINDOW_MS: '1500' } });
    await upsertIntegration(t, 'PLATFORM_B');
  });
  afterAll(async () => {
    await t?.close();
    await platforms?.stop();
  });

  const order = async (id: string) => (await t.http.get(`/internal/orders/${id}`).set(internal())).body;
  const countOrders = async (orderId: string) => (await t.sql('SELECT count(*)::int AS n FROM orders WHERE provider = $1 AND order_id = $2', ['PLATFORM_B', orderId]))[0].n;
  const pushAll = async (providerOrderId: string, actions: string[], extra: Record<string, unknown> = {}) => {
    const ids: string[] = [];
    for (const action of actions) {
      const response = await push(t, { providerOrderId, platform: 'PLATFORM_B', action, ...extra });
      expect({ action, status: response.status }).toEqual({ action, status: 202 });
      ids.push(response.body.statusUpdateId);
    }
    return Promise.all(ids.map((id) => waitForState(t, id, ['sent', 'skipped', 'failed'])));
  };
  const plugin = (method: 'GET' | 'POST' | 'PUT', path: string, json?: unknown, authorization?: string) => platformRequest({ method, url: `${t.baseUrl}/platforms/platform-b${path}`, headers: { Authorization: authorization ?? bPluginAuthorization() }, json, timeoutMs: 5000 });

  describe('the plugin JWT', () => {
    it.each(['HS256', 'HS384', 'HS512'] as const)('accepts a JWT signed with the plugin secret, %s, service middleware (the simulator signs one per call)', async (alg) => {
      expect(await plugin('GET', '/', undefined, bPluginAuthorization({}, { alg }))).toMatchObject({ status: 200, body: { status: 'ok' } });
      platforms.b.options.pluginJwtAlgorithm = alg;
      try {
        expect(await platforms.b.healthCheck()).toMatchObject({ status: 200 });
      } finally {
        platforms.b.options.pluginJwtAlgorithm = undefined;
      }
    });

    it('refuses alg none, a wrong signature, a wrong or missing service claim, an expired token, a malformed or missing one, one with an unknown crit header, and a static secret, at every plugin endpoint (401, reason UNAUTHORIZED)', async () => {
      const refused = [
        `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64({ service: 'middleware' })}.`,
        `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64({ service: 'middleware' })}.c2ln`,
        bPluginAuthorization({}, { secret: 'not-the-plugin-secret-000' }),
        bPluginAuthorization({ service: 'pos' }),
        bPluginAuthorization({ service: undefined }),
        bPluginAuthorization({ exp: Math.floor(Date.now() / 1000) - 3600 }),
        criticalExtensionJwt(),
        'Bearer a.b',
        'Bearer ',
        'dh-plugin-jwt-secret-0000000001',
      ];
      const endpoints: Array<[Parameters<typeof plugin>[0], string, unknown]> = [
        ['GET', '/', undefined],
        ['POST', `/order/${VENDOR}`, platforms.b.orderPayload(platforms.b.createOrder(VENDOR))],
        ['PUT', `/remoteId/${VENDOR}/remoteOrder/${randomUUID()}/posOrderStatus`, { status: 'ORDER_CANCELLED' }],
        ['PUT', `/remoteId/${VENDOR}/availability`, { closures: [] }],
        ['GET', `/menuimport/${VENDOR}`, undefined],
      ];
      for (const authorization of refused) {
        for (const [method, path, body] of endpoints) {
          const answer = await plugin(method, path, body, authorization);
          expect({ authorization, path, status: answer.status, reason: (answer.body as any)?.reason }).toEqual({ authorization, path, status: 401, reason: 'UNAUTHORIZED' });
        }
      }
      expect(await countOrders(String((endpoints[1][2] as any).token))).toBe(0);
    });
  });

  describe('orders in', () => {
    it('answers the dispatch with our id as remoteOrderId, the same id for the middleware\'s retries, one order announced once, its expiryDate stored', async () => {
      const { order: simulated, response } = await platforms.b.dispatchOrder(VENDOR);
      expect(response.status).toBe(200);
      const remoteOrderId = (response.body as any).remoteResponse.remoteOrderId;
      expect(simulated.remoteOrderId).toBe(remoteOrderId);
      for (let i = 0; i < 3; i += 1) expect(((await platforms.b.redispatch(simulated.token)).response.body as any).remoteResponse.remoteOrderId).toBe(remoteOrderId);
      expect(await countOrders(simulated.token)).toBe(1);
      expect(await order(remoteOrderId)).toMatchObject({ provider: 'PLATFORM_B', orderId: simulated.token, orderNumber: simulated.code.slice(-3), status: 'NEW' });
      expect(await t.outbox('order.platform_received', remoteOrderId)).toHaveLength(1);
      const [row] = await t.sql('SELECT accept_by, platform_data FROM orders WHERE id = $1', [remoteOrderId]);
      expect(new Date(row.accept_by).getTime()).toBe(simulated.expiresAt);
      expect(row.platform_data).toMatchObject({ token: simulated.token, delivery: 'vendor', callbackUrls: { orderAcceptedUrl: `${platforms.b.baseUrl}/v2/order/status/${simulated.token}`, orderPreparedUrl: null } });
    });

    it('acknowledges a test order with a remoteOrderId but keeps it apart: no order, no event, a push cannot reach it; its cancellation is recorded', async () => {
      const { order: simulated, response } = await platforms.b.dispatchOrder(VENDOR, { test: true });
      expect(response.status).toBe(200);
      const remoteOrderId = (response.body as any).remoteResponse.remoteOrderId;
      expect(remoteOrderId).toMatch(/^[0-9a-f-]{36}$/);
      expect(((await platforms.b.redispatch(simulated.token)).response.body as any).remoteResponse.remoteOrderId).toBe(remoteOrderId);
      expect(await countOrders(simulated.token)).toBe(0);
      expect(await t.outbox('order.platform_received', remoteOrderId)).toHaveLength(0);
      expect((await t.http.get(`/internal/orders/${remoteOrderId}`).set(internal())).status).toBe(404);
      expect((await push(t, { providerOrderId: simulated.token, platform: 'PLATFORM_B', action: 'VERIFY' })).status).toBe(404);
      expect(await platforms.b.cancelOrder(simulated.token, 'test over')).toMatchObject({ status: 200, body: { result: 'test_order' } });
      expect(await t.sql('SELECT order_id, last_status, last_status_message FROM platform_test_orders WHERE id = $1', [remoteOrderId])).toEqual([{ order_id: simulated.token, last_status: 'ORDER_CANCELLED', last_status_message: 'test over' }]);
    });

    it('answers a payload it cannot process with 400 { reason, message } (not retried by the middleware)', async () => {
      const bad = await plugin('POST', `/order/${VENDOR}`, { code: 'no-token', products: 'many' });
      expect(bad).toMatchObject({ status: 400, body: { reason: 'MENU_ACCOUNT_SETTINGS', message: expect.stringMatching(/token is required/), code: 'VALIDATION_ERROR' } });
    });

    it('a vendor nobody held yet: 500 (retried), and the retry is taken once its integration arrives; one whose integrations were deleted or displaced: 400; a paused one: 400 CLOSED', async () => {
      const fresh = `ys-new-${randomHex()}`;
      const early = platforms.b.createOrder(fresh);
      const refused = (await platforms.b.redispatch(early.token)).response;
      expect({ status: refused.status, body: refused.body }).toMatchObject({ status: 500, body: { status: 500, code: 'INTEGRATION_NOT_FOUND', reason: 'TECHNICAL_PROBLEM', message: expect.stringMatching(/retry/) } });
      await upsertIntegration(t, 'PLATFORM_B', { providerRestaurantId: fresh });
      expect((await platforms.b.redispatch(early.token)).response.status).toBe(200);
      expect(await countOrders(early.token)).toBe(1);

      const displacedVendor = `ys-displaced-${randomHex()}`;
      await upsertIntegration(t, 'PLATFORM_B', { providerRestaurantId: displacedVendor, displaced: true });
      const deletedVendor = `ys-deleted-${randomHex()}`;
      const deleted = await upsertIntegration(t, 'PLATFORM_B', { providerRestaurantId: deletedVendor });
      await t.deliver(RoutingKey.IntegrationDeleted, { integrationId: deleted.integrationId, restaurantId: deleted.restaurantId, platform: 'PLATFORM_B', providerRestaurantId: deletedVendor, version: 99, occurredAt: new Date().toISOString() });
      await upsertIntegration(t, 'PLATFORM_B', { providerRestaurantId: 'ys-paused', isActive: false });
      const cases: Array<[string, number, string, string]> = [
        [displacedVendor, 400, 'INTEGRATION_NOT_FOUND', 'MENU_ACCOUNT_SETTINGS'],
        [deletedVendor, 400, 'INTEGRATION_NOT_FOUND', 'MENU_ACCOUNT_SETTINGS'],
        ['ys-paused', 400, 'INTEGRATION_DISABLED', 'CLOSED'],
      ];
      for (const [vendor, status, code, reason] of cases) {
        const simulated = platforms.b.createOrder(vendor);
        const answer = await platforms.b.redispatch(simulated.token);
        expect({ vendor, status: answer.response.status, attempts: answer.attempts, body: answer.response.body }).toMatchObject({ vendor, status, attempts: 1, body: { status, code, reason } });
        expect(await countOrders(simulated.token)).toBe(0);
      }
      // The vendor's other plugin calls follow the same rule; a paused vendor's availability is still recorded.
      expect(await plugin('PUT', `/remoteId/${deletedVendor}/availability`, { closures: [] })).toMatchObject({ status: 400, body: { code: 'INTEGRATION_NOT_FOUND' } });
      expect(await plugin('GET', `/menuimport/${displacedVendor}`)).toMatchObject({ status: 400, body: { code: 'INTEGRATION_NOT_FOUND' } });
      expect((await plugin('PUT', '/remoteId/ys-paused/availability', { closures: [] })).status).toBe(200);
    });

    it('answers every refusal of every plugin route within the statuses the middleware expects: too large, too deep, not JSON, not UTF-8, unstorable text, an unknown order', async () => {
      const raw = (method: 'post' | 'put', path: string, body: string, headers: Record<string, string> = {}) =>
        t.http[method](`/platforms/platform-b${path}`).set({ Authorization: bPluginAuthorization(), 'Content-Type': 'application/json', ...headers }).send(body);
      const order = JSON.stringify(platforms.b.orderPayload(platforms.b.createOrder(VENDOR)));
      const statusPath = `/remoteId/${VENDOR}/remoteOrder/${randomUUID()}/posOrderStatus`;
      const cases: Array<[string, Awaited<ReturnType<typeof raw>>, number, string]> = [
        ['over 256 KiB', await raw('post', `/order/${VENDOR}`, JSON.stringify({ token: 'big', notes: 'x'.repeat(300 * 1024) })), 400, 'PAYLOAD_TOO_LARGE'],
        ['over 256 KiB (availability)', await raw('put', `/remoteId/${VENDOR}/availability`, JSON.stringify({ closures: [], pad: 'x'.repeat(300 * 1024) })), 400, 'PAYLOAD_TOO_LARGE'],
        ['nested past 32 levels', await raw('post', `/order/${VENDOR}`, '['.repeat(64 * 1024) + ']'.repeat(64 * 1024)), 400, 'INVALID_PAYLOAD'],
        ['nested past 32 levels (status)', await raw('put', statusPath, '{"status":' + '['.repeat(40) + ']'.repeat(40) + '}'), 400, 'INVALID_PAYLOAD'],
        ['not JSON', await raw('post', `/order/${VENDOR}`, '{"token": '), 400, 'INVALID_PAYLOAD'],
        ['latin1', await raw('post', `/order/${VENDOR}`, order, { 'Content-Type': 'application/json; charset=latin1' }), 400, 'UNSUPPORTED_MEDIA_TYPE'],
        ['NUL in a field', await raw('put', statusPath, JSON.stringify({ status: 'ORDER_CANCELLED', message: 'a\u0000b' })), 400, 'VALIDATION_ERROR'],
        ['unknown remoteOrderId', await raw('put', statusPath, JSON.stringify({ status: 'ORDER_CANCELLED' })), 400, 'ORDER_NOT_FOUND'],
      ];
      for (const [name, answer, status, code] of cases) {
        expect({ name, status: answer.status, inSet: (PLATFORM_B_PLUGIN_STATUSES as readonly number[]).includes(answer.status), body: answer.body }).toMatchObject({
          name,
          status,
          inSet: true,
          body: { status, code, reason: 'MENU_ACCOUNT_SETTINGS', message: expect.any(String) },
        });
      }
    });

    it('refuses (500, retried by the middleware) a vendor two live integrations hold in the read model instead of picking one; routes to the holder once the other is displaced', async () => {
      const vendor = `ys-disputed-${randomHex()}`;
      const victim = await upsertIntegration(t, 'PLATFORM_B', { providerRestaurantId: vendor, isActive: false });
      const claimant = await upsertIntegration(t, 'PLATFORM_B', { providerRestaurantId: vendor });
      const simulated = platforms.b.createOrder(vendor);
      const dispatch = () =>
        platformRequest({ method: 'POST', url: `${t.baseUrl}/platforms/platform-b/order/${vendor}`, headers: { Authorization: bPluginAuthorization() }, json: platforms.b.orderPayload(simulated), timeoutMs: 5000 });
      const refused = await dispatch();
      expect({ status: refused.status, code: (refused.body as any).code, reason: (refused.body as any).reason, retryAfter: refused.headers['retry-after'] }).toEqual({ status: 500, code: 'SERVICE_UNAVAILABLE', reason: 'TECHNICAL_PROBLEM', retryAfter: '30' });
      expect(JSON.stringify(refused.body)).not.toContain(victim.restaurantId);
      expect(await countOrders(simulated.token)).toBe(0);

      // An operator's transfer to the claimant reaches the read model: the paused victim is displaced.
      await upsertIntegration(t, 'PLATFORM_B', { ...victim, providerRestaurantId: vendor, isActive: false, displaced: true });
      const routed = await dispatch();
      expect(routed.status).toBe(200);
      expect(await order((routed.body as any).remoteResponse.remoteOrderId)).toMatchObject({ restaurantId: claimant.restaurantId, orderId: simulated.token });
    });

    it('answers 5xx when the order cannot be stored, so the middleware retries (and the retry succeeds once storage is back)', async () => {
      platforms.b.options.dispatchAttempts = 1;
      const simulated = platforms.b.createOrder(VENDOR);
      await t.sql('ALTER TABLE order_status_changes RENAME TO order_status_changes_away');
      let failed;
      try {
        failed = await plugin('POST', `/order/${VENDOR}`, platforms.b.orderPayload(simulated));
      } finally {
        await t.sql('ALTER TABLE order_status_changes_away RENAME TO order_status_changes');
      }
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(await countOrders(simulated.token)).toBe(0);
      expect((await platforms.b.redispatch(simulated.token)).response.status).toBe(200);
      expect(await countOrders(simulated.token)).toBe(1);
    });

    it('posOrderStatus: ORDER_CANCELLED cancels (a repeat changes nothing), ORDER_PICKED_UP moves a rider order on, other statuses are acknowledged; unknown ids and no status 400', async () => {
      const { order: canceled } = await platforms.b.dispatchOrder(VENDOR);
      expect(await platforms.b.cancelOrder(canceled.token, 'Customer unreachable')).toMatchObject({ status: 200, body: { status: 'ok', result: 'canceled' } });
      expect(await order(canceled.remoteOrderId!)).toMatchObject({ status: 'CANCELED' });
      expect(await platforms.b.cancelOrder(canceled.token)).toMatchObject({ status: 200, body: { result: 'already_final' } });
      expect((await push(t, { providerOrderId: canceled.token, platform: 'PLATFORM_B', action: 'VERIFY' })).body.code).toBe('ORDER_CANCELED');

      const { order: rider } = await platforms.b.dispatchOrder(VENDOR, { delivery: 'platform' });
      await pushAll(rider.token, ['VERIFY', 'PREPARE']);
      expect(await platforms.b.reportPickedUp(rider.token)).toMatchObject({ status: 200, body: { result: 'picked_up' } });
      expect(await order(rider.remoteOrderId!)).toMatchObject({ status: 'ON_DELIVERY' });
      const statusPath = `/remoteId/${VENDOR}/remoteOrder/${rider.remoteOrderId}/posOrderStatus`;
      expect(await plugin('PUT', statusPath, { status: 'COURIER_ARRIVED_AT_VENDOR' })).toMatchObject({ status: 200, body: { result: 'ignored' } });
      expect(await plugin('PUT', statusPath, { message: 'no status' })).toMatchObject({ status: 400, body: { reason: 'MENU_ACCOUNT_SETTINGS', code: 'VALIDATION_ERROR' } });
      expect(await plugin('PUT', `/remoteId/${VENDOR}/remoteOrder/${randomUUID()}/posOrderStatus`, { status: 'ORDER_CANCELLED' })).toMatchObject({ status: 400, body: { code: 'ORDER_NOT_FOUND', reason: 'MENU_ACCOUNT_SETTINGS' } });
      expect(await plugin('PUT', `/remoteId/other-vendor/remoteOrder/${rider.remoteOrderId}/posOrderStatus`, { status: 'ORDER_CANCELLED' })).toMatchObject({ status: 400, body: { code: 'ORDER_NOT_FOUND' } });
      expect(await plugin('PUT', `/remoteId/${VENDOR}/remoteOrder/not-a-uuid/posOrderStatus`, { status: 'ORDER_CANCELLED' })).toMatchObject({ status: 400, body: { code: 'ORDER_NOT_FOUND' } });
    });

    it('records the vendor\'s availability as the platform reports it (closed while a closure covers now), answering 200; a vendor nobody held yet 500 (retried); malformed 400', async () => {
      const closed = await platforms.b.setVendorAvailability(VENDOR, [{ reason: 'TOO_BUSY_KITCHEN', start: new Date(Date.now() - 60_000).toISOString(), end: null, changeable: true }]);
      expect(closed.status).toBe(200);
      expect(await t.sql('SELECT is_open, closures FROM platform_vendor_availability WHERE provider = $1 AND provider_restaurant_id = $2', ['PLATFORM_B', VENDOR])).toEqual([
        { is_open: false, closures: [expect.objectContaining({ reason: 'TOO_BUSY_KITCHEN', changeable: true })] },
      ]);
      expect((await platforms.b.setVendorAvailability(VENDOR, [])).status).toBe(200);
      expect(await t.sql('SELECT is_open FROM platform_vendor_availability WHERE provider_restaurant_id = $1', [VENDOR])).toEqual([{ is_open: true }]);
      expect(await platforms.b.setVendorAvailability('no-such-vendor', [])).toMatchObject({ status: 500, body: { code: 'INTEGRATION_NOT_FOUND', reason: 'TECHNICAL_PROBLEM' } });
      expect(await plugin('PUT', `/remoteId/${VENDOR}/availability`, { closures: [{ start: 'yesterday' }] })).toMatchObject({ status: 400, body: { reason: 'MENU_ACCOUNT_SETTINGS' } });
    });

    it('answers a menu import request 202 without a body (the menu push back is not built), a vendor nobody held yet 500 (retried); GET / is the health check', async () => {
      expect(await platforms.b.requestMenuImport(VENDOR)).toMatchObject({ status: 202, body: null });
      expect((await platforms.b.requestMenuImport('no-such-vendor')).status).toBe(500);
      expect(await platforms.b.healthCheck()).toMatchObject({ status: 200, body: { status: 'ok' } });
    });

    it('an order nobody answers counts as expiring, and is cancelled by the middleware at its expiryDate; an answered one does not count', async () => {
      const expiring = await platforms.b.dispatchOrder(VENDOR, { expiresAt: Date.now() + 60_000 });
      const answered = await platforms.b.dispatchOrder(VENDOR, { expiresAt: Date.now() + 60_000 });
      const expiringCount = async () => (await new PlatformOrderRepository({ query: (sql: string, params?: unknown[]) => t.sql(sql, params) } as any).countExpiring({ PLATFORM_B: 180_000 })).get('PLATFORM_B') ?? 0;
      const before = await expiringCount();
      expect(before).toBeGreaterThanOrEqual(2);
      const metrics = await t.http.get('/metrics');
      expect(Number(/^platform_orders_expiring\{[^}]*platform="PLATFORM_B"[^}]*\} (\d+)$/m.exec(metrics.text)?.[1])).toBeGreaterThanOrEqual(2);
      await pushAll(answered.order.token, ['VERIFY']);
      expect(await expiringCount()).toBe(before - 1);

      const soon = await platforms.b.dispatchOrder(VENDOR);
      platforms.b.orders.get(soon.order.token)!.expiresAt = Date.now(); // acknowledged first, then its expiryDate passes
      await waitFor('the middleware to cancel the expired order', async () => (await order(soon.order.remoteOrderId!)).status === 'CANCELED', 10_000);
      expect(platforms.b.orders.get(soon.order.token)).toMatchObject({ state: 'CANCELLED', cancelReason: 'NO_RESPONSE' });
      expect(expiring.response.status).toBe(200);
    });
  });

  describe('status calls out', () => {
    it('order_accepted and order_picked_up for a vendor-delivery order; preparation-completed for a platform-rider one; order_rejected with a reason of the list', async () => {
      const vendor = await platforms.b.dispatchOrder(VENDOR, { delivery: 'vendor' });
      expect((await pushAll(vendor.order.token, ['VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER'])).map((update) => update.state)).toEqual(['sent', 'skipped', 'sent', 'skipped']);
      expect(platforms.b.orders.get(vendor.order.token)).toMatchObject({ state: 'PICKED_UP', remoteOrderId: vendor.order.remoteOrderId });
      expect(Date.parse(platforms.b.orders.get(vendor.order.token)!.acceptanceTime!)).toBeGreaterThan(Date.now() + 2 * 60_000);
      const rider = await platforms.b.dispatchOrder(VENDOR, { delivery: 'platform' });
      expect((await pushAll(rider.order.token, ['VERIFY', 'PREPARE', 'HANDOVER'])).map((update) => update.state)).toEqual(['sent', 'sent', 'skipped']);
      expect(platforms.b.orders.get(rider.order.token)!.state).toBe('PREPARED');
      const rejected = await platforms.b.dispatchOrder(VENDOR);
      await pushAll(rejected.order.token, ['REJECT'], { reason: 'Out of stock: İskender' });
      expect(platforms.b.orders.get(rejected.order.token)).toMatchObject({ state: 'REJECTED', rejectReason: 'ITEM_UNAVAILABLE' });
    });

    it.each(['WAITING_FOR_ACKNOWLEDGEMENT', 'ASSIGNED_TO_TRANSPORT'] as const)('retries the 409 with currentState %s at the middleware\'s pace until the order is ready, then sends it', async (state) => {
      const { order: simulated } = await platforms.b.dispatchOrder(VENDOR, { delivery: 'platform' });
      platforms.b.holdState(simulated.token, state, 600);
      const id = (await push(t, { providerOrderId: simulated.token, platform: 'PLATFORM_B', action: 'VERIFY' })).body.statusUpdateId;
      const sent = await waitForState(t, id, ['sent', 'failed'], 10_000);
      expect(sent).toMatchObject({ state: 'sent' });
      expect(sent.attempts).toBeGreaterThan(1);
      const calls = platforms.b.callsTo('POST', `/v2/order/status/${simulated.token}`);
      expect(calls.slice(0, -1).map((call) => [call.status, (call.answer as any).currentState])).toEqual(calls.slice(0, -1).map(() => [409, state]));
      // Paced by PLATFORM_B_ACK_RETRY_INTERVAL_MS (100 ms here), not by the exponential backoff.
      for (let i = 1; i < calls.length; i += 1) expect(calls[i].at - calls[i - 1].at).toBeGreaterThanOrEqual(90);
    });

    it('gives up on a not-ready 409 once the window passes; a 409 on a cancelled order is final at once', async () => {
      const { order: never } = await platforms.b.dispatchOrder(VENDOR);
      platforms.b.holdState(never.token, 'WAITING_FOR_ACKNOWLEDGEMENT', 60_000);
      const refused = (await push(t, { providerOrderId: never.token, platform: 'PLATFORM_B', action: 'VERIFY' })).body.statusUpdateId;
      expect(await waitForState(t, refused, ['failed', 'sent'], 10_000)).toMatchObject({ state: 'failed', platformAnswer: { httpStatus: 409, body: { currentState: 'WAITING_FOR_ACKNOWLEDGEMENT' } } });

      const { order: canceled } = await platforms.b.dispatchOrder(VENDOR);
      platforms.b.orders.get(canceled.token)!.state = 'CANCELLED';
      const final = (await push(t, { providerOrderId: canceled.token, platform: 'PLATFORM_B', action: 'VERIFY' })).body.statusUpdateId;
      expect(await waitForState(t, final, ['failed', 'sent'])).toMatchObject({ state: 'failed', attempts: 1, platformAnswer: { httpStatus: 409, body: { currentState: 'CANCELLED' } } });
    });

    it('logs in again when the middleware\'s token expires between calls', async () => {
      const { order: simulated } = await platforms.b.dispatchOrder(VENDOR);
      await pushAll(simulated.token, ['VERIFY']);
      const logins = platforms.b.logins;
      platforms.b.expireTokens();
      expect((await pushAll(simulated.token, ['HANDOVER']))[0].state).toBe('sent');
      expect(platforms.b.logins - logins).toBe(1);
    });
  });
});
