import { waitFor } from '@courier/testing';
import { admin, internal, TestApp } from '../../test/harness';
import { CREDENTIALS, Platforms, push, startPlatformApp, startPlatforms, upsertIntegration, waitForState } from '../../test/platforms';
import { PlatformOrdersService } from './platform-orders.service';

jest.setTimeout(120_000);

const RESTAURANT = CREDENTIALS.PLATFORM_A.providerRestaurantId;

/**
 * A platform order for an integration its platform has not verified is kept, withheld: the platform
 * gets its usual answer, the account hears nothing and cannot push, operators see it, and it is
 * released to the account, once and in order, when the integration is verified.
 */
describe('platform orders of an unverified integration are withheld until it is verified', () => {
  let platforms: Platforms;
  let t: TestApp;

  beforeAll(async () => {
    platforms = await startPlatforms();
    t = await startPlatformApp(platforms, { env: { PLATFORM_A_PREPARE_HOLD_MS: '0' } });
  });
  afterAll(async () => {
    await t?.close();
    await platforms?.stop();
  });

  const received = async (id: string) => t.outbox('order.platform_received', id);
  const withheldList = async () => (await t.http.get('/admin/v1/withheld-orders').set(admin)).body.data as any[];

  it('stores, answers the platform, withholds from the account, lists for operators, and releases once in order on verification', async () => {
    const { integrationId, restaurantId } = await upsertIntegration(t, 'PLATFORM_A', { verification: 'unverified' });
    const first = await platforms.a.placeOrder(RESTAURANT);
    const second = await platforms.a.placeOrder(RESTAURANT);
    const third = await platforms.a.placeOrder(RESTAURANT);
    const ids = [first, second, third].map(({ response }) => {
      expect(response).toMatchObject({ status: 200, body: { received: true, duplicate: false } });
      return (response.body as any).yemekKuryeOrderId as string;
    });
    // Cancelled on the platform while withheld: recorded, still not announced.
    expect((await platforms.a.cancelOrder(third.order.id)).status).toBe(200);
    expect((await t.sql('SELECT status FROM orders WHERE id = $1', [ids[2]]))[0].status).toBe('CANCELED');

    for (const id of ids) {
      expect((await t.outbox(undefined, id)).map((row) => row.routing_key)).toEqual([]);
      expect((await t.http.get(`/internal/orders/${id}`).set(internal())).status).toBe(404);
    }
    const refused = await push(t, { providerOrderId: first.order.id, platform: 'PLATFORM_A', action: 'VERIFY' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ status: 409, code: 'ORDER_WITHHELD', detail: expect.stringContaining('not verified') });
    expect(platforms.a.callsTo('POST', `/food-orders/${first.order.id}/verify`)).toHaveLength(0);

    expect((await t.http.get('/admin/v1/withheld-orders')).status).toBe(401);
    expect((await t.http.get('/admin/v1/withheld-orders').set({ 'X-Admin-Token': 'wrong-token-0123456789' })).status).toBe(401);
    const listed = await withheldList();
    expect(listed.map((row) => row.yemekKuryeOrderId)).toEqual(ids);
    expect(listed[0]).toEqual({
      yemekKuryeOrderId: ids[0],
      platform: 'PLATFORM_A',
      providerRestaurantId: RESTAURANT,
      platformOrderId: first.order.id,
      orderNumber: first.order.confirmationId,
      integrationId,
      restaurantId,
      integrationVerification: 'unverified',
      status: 'NEW',
      receivedAt: expect.any(String),
    });
    expect(JSON.stringify(listed)).not.toMatch(/Ayşe|Moda|\+90/);
    expect((await t.http.get('/admin/v1/withheld-orders?platform=PLATFORM_B').set(admin)).body.data).toEqual([]);

    // A failed verification releases nothing.
    await upsertIntegration(t, 'PLATFORM_A', { integrationId, restaurantId, verification: 'failed' });
    expect(await withheldList()).toHaveLength(3);

    await upsertIntegration(t, 'PLATFORM_A', { integrationId, restaurantId, verification: 'verified' });
    await waitFor('released', async () => (await withheldList()).length === 0);
    // Redeliveries and other replicas find nothing more to release.
    await upsertIntegration(t, 'PLATFORM_A', { integrationId, restaurantId, verification: 'verified' });
    const service = t.app.get(PlatformOrdersService);
    expect(await Promise.all([service.releaseWithheld(integrationId), service.releaseWithheld(integrationId)])).toEqual([0, 0]);

    const announced = await Promise.all(ids.map((id) => received(id)));
    expect(announced.map((rows) => rows.length)).toEqual([1, 1, 1]);
    expect(announced.map((rows) => rows[0].payload)).toEqual([
      expect.objectContaining({ yemekKuryeOrderId: ids[0], integrationId, restaurantId, status: 'NEW', details: expect.objectContaining({ customerName: expect.any(String) }) }),
      expect.objectContaining({ yemekKuryeOrderId: ids[1], status: 'NEW' }),
      expect.objectContaining({ yemekKuryeOrderId: ids[2], status: 'CANCELED' }),
    ]);
    // In the order they arrived.
    const outboxIds = (await t.outbox('order.platform_received')).map((row) => row.payload.yemekKuryeOrderId).filter((id) => ids.includes(id));
    expect(outboxIds).toEqual(ids);

    expect((await t.http.get(`/internal/orders/${ids[0]}`).set(internal())).body).toMatchObject({ status: 'NEW', restaurantId });
    const accepted = await push(t, { providerOrderId: first.order.id, platform: 'PLATFORM_A', action: 'VERIFY' });
    expect(accepted.status).toBe(202);
    expect(await waitForState(t, accepted.body.statusUpdateId, ['sent', 'failed'])).toMatchObject({ state: 'sent' });

    // Once verified, a new order is the account's at once.
    const next = await platforms.a.placeOrder(RESTAURANT);
    expect(await received((next.response.body as any).yemekKuryeOrderId)).toHaveLength(1);
  });
});
