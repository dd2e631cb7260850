import { waitFor } from '@courier/testing';
import { internal, ISO_WITH_OFFSET, TestApp } from '../../test/harness';
import { CREDENTIALS, PlatformCode, Platforms, platformAOrder, push, startPlatformApp, startPlatforms, upsertIntegration, waitForState } from '../../test/platforms';

jest.setTimeout(120_000);

/** Tiny windows: each order's warning is due 6 s after it reached us (window 10 s, warning 4 s before): time enough to answer one first. */
const WINDOW_MS = 10_000;
const WARNING_MS = 4_000;
const PLATFORMS: PlatformCode[] = ['PLATFORM_A', 'PLATFORM_B', 'PLATFORM_C', 'PLATFORM_D'];

/**
 * Accept-by deadlines end to end: an order of each platform, unanswered, gets its platform's accept-by
 * time in GET /internal/orders/{id}, exactly one order.acceptance_due when its warning time comes, and
 * counts in platform_orders_expiring under its platform; an order answered on the platform (VERIFY
 * sent) gets no event.
 */
describe('accept-by deadlines of platform orders', () => {
  let platforms: Platforms;
  let t: TestApp;

  beforeAll(async () => {
    platforms = await startPlatforms();
    platforms.b.options.ackDelayMs = 0;
    const windows = Object.fromEntries(PLATFORMS.flatMap((code) => [[`${code}_ACCEPT_WINDOW_MS`, String(WINDOW_MS)], [`${code}_ACCEPT_WARNING_MS`, String(WARNING_MS)]]));
    t = await startPlatformApp(platforms, {
      env: { ...windows, PLATFORM_C_POLL_INTERVAL_MS: '200', PLATFORM_B_ACK_RETRY_INTERVAL_MS: '100', PLATFORM_B_ACK_RETRY_WINDOW_MS: '1500' },
    });
    for (const platform of PLATFORMS) await upsertIntegration(t, platform);
  });
  afterAll(async () => {
    await t?.close();
    await platforms?.stop();
  });

  const order = async (id: string) => (await t.http.get(`/internal/orders/${id}`).set(internal())).body;
  const idOf = async (provider: string, platformOrderId: string): Promise<string | undefined> =>
    (await t.sql('SELECT id FROM orders WHERE provider = $1 AND order_id = $2', [provider, platformOrderId]))[0]?.id;
  const pendingWarnings = async (id: string) => (await t.sql('SELECT count(*)::int AS n FROM scheduled_tasks WHERE dedupe_key = $1', [`order-acceptance-due:${id}`]))[0].n;

  /** A new order of the platform, unanswered, as the platform delivers it; returns our id and the platform's own deadline when it states one. */
  async function receive(platform: PlatformCode): Promise<{ id: string; platformOrderId: string; statedAcceptBy?: number }> {
    switch (platform) {
      case 'PLATFORM_A': {
        const { simulated, yemekKuryeOrderId } = await platformAOrder(platforms, t);
        return { id: yemekKuryeOrderId, platformOrderId: simulated.id };
      }
      case 'PLATFORM_B': {
        const expiresAt = Date.now() + WINDOW_MS;
        const { order: simulated, response } = await platforms.b.dispatchOrder(CREDENTIALS.PLATFORM_B.providerRestaurantId, { expiresAt });
        expect(response.status).toBe(200);
        return { id: (response.body as any).remoteResponse.remoteOrderId, platformOrderId: simulated.token, statedAcceptBy: expiresAt };
      }
      case 'PLATFORM_C': {
        const pkg = platforms.c.addPackage(CREDENTIALS.PLATFORM_C.settings.supplierId, CREDENTIALS.PLATFORM_C.settings.storeId, { deliveryType: 'STORE' });
        let id: string | undefined;
        await waitFor('the package polled', async () => Boolean((id = await idOf('PLATFORM_C', String(pkg.id)))), 10_000);
        return { id: id!, platformOrderId: String(pkg.id) };
      }
      case 'PLATFORM_D': {
        const { order: simulated, response } = await platforms.d.placeOrder(CREDENTIALS.PLATFORM_D.providerRestaurantId);
        expect(response.status).toBe(200);
        return { id: (response.body as any).yemekKuryeOrderId, platformOrderId: String(simulated.id) };
      }
    }
  }

  it('an unanswered order of each platform: acceptBy from its platform\'s rule, one order.acceptance_due at its warning time, counted in platform_orders_expiring under its platform', async () => {
    const received = await Promise.all(PLATFORMS.map(async (platform) => ({ platform, ...(await receive(platform)) })));
    for (const { platform, id, statedAcceptBy } of received) {
      const body = await order(id);
      expect(body).toMatchObject({ provider: platform, status: 'NEW', acceptanceOverdue: false });
      expect(body.acceptBy).toMatch(ISO_WITH_OFFSET);
      const acceptBy = new Date(body.acceptBy).getTime();
      if (statedAcceptBy !== undefined) expect(acceptBy).toBe(statedAcceptBy);
      // The platform's window (10 s here) counted from the order's start on the platform, at most from our receipt.
      expect(acceptBy).toBeLessThanOrEqual(new Date(body.receivedAt).getTime() + WINDOW_MS);
      expect(acceptBy).toBeGreaterThan(new Date(body.receivedAt).getTime() + WINDOW_MS - 5_000);
    }

    for (const { platform, id } of received) {
      await waitFor(`order.acceptance_due of the ${platform} order`, async () => (await t.outbox('order.acceptance_due', id)).length > 0, 20_000);
    }
    for (const { platform, id, platformOrderId } of received) {
      const body = await order(id);
      // The warning's task is done and gone: no second event can follow.
      expect(await pendingWarnings(id)).toBe(0);
      const events = await t.outbox('order.acceptance_due', id);
      expect(events).toHaveLength(1);
      expect(events[0].payload).toEqual({
        yemekKuryeOrderId: id,
        orderId: platformOrderId,
        restaurantId: body.restaurantId,
        provider: platform,
        providerRestaurantId: CREDENTIALS[platform].providerRestaurantId,
        integrationId: expect.any(String),
        orderNumber: body.orderNumber,
        status: 'NEW',
        acceptBy: body.acceptBy,
        occurredAt: expect.stringMatching(ISO_WITH_OFFSET),
      });
      // Sent at the warning time: warningMs before acceptBy, not before.
      expect(new Date(events[0].payload.occurredAt).getTime()).toBeGreaterThanOrEqual(new Date(body.acceptBy).getTime() - WARNING_MS);
    }

    await waitFor(
      'platform_orders_expiring and platform_order_acceptance_warnings_total to count the order of every platform',
      async () => {
        const metrics = (await t.http.get('/metrics')).text;
        const value = (name: string, platform: string) => Number(new RegExp(`^${name}\\{[^}]*platform="${platform}"[^}]*\\} (\\d+)$`, 'm').exec(metrics)?.[1]);
        return PLATFORMS.every((platform) => value('platform_orders_expiring', platform) >= 1 && value('platform_order_acceptance_warnings_total', platform) >= 1);
      },
      20_000,
    );

    // Past its acceptBy and still unanswered: overdue (PLATFORM_B's middleware cancels its order instead).
    const getir = received.find((entry) => entry.platform === 'PLATFORM_A')!;
    await waitFor('the PLATFORM_A order overdue', async () => (await order(getir.id)).acceptanceOverdue === true, 20_000);
  });

  it('an order answered on its platform (VERIFY sent) gets no order.acceptance_due', async () => {
    const received = await Promise.all(PLATFORMS.map(async (platform) => ({ platform, ...(await receive(platform)) })));
    await Promise.all(
      received.map(async ({ platform, platformOrderId }) => {
        const response = await push(t, { providerOrderId: platformOrderId, platform, action: 'VERIFY' });
        expect(response.status).toBe(202);
        expect((await waitForState(t, response.body.statusUpdateId, ['sent', 'skipped', 'failed'])).state).toBe('sent');
      }),
    );
    for (const { platform, id } of received) {
      await waitFor(`the ${platform} order's warning task to run`, async () => (await pendingWarnings(id)) === 0, 20_000);
      expect(await t.outbox('order.acceptance_due', id)).toHaveLength(0);
      expect(await order(id)).toMatchObject({ acceptanceOverdue: false });
    }
  });

  it('THIRD_PARTY orders have no accept-by time', async () => {
    expect(await t.createOrder()).toMatchObject({ acceptBy: null, acceptanceOverdue: false });
  });
});
