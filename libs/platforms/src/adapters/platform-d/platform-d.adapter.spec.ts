import { validateConfig } from '@courier/config';
import { PlatformDSimulator } from '../../simulators/platform-d/platform-d.simulator';
import { PlatformClientConfig } from '../platform-client.config';
import type { IntegrationCredentials, PlatformOrderRef } from '../platform-adapter';
import { PlatformDAdapter } from './platform-d.adapter';
import { parsePlatformDEvent } from './platform-d.orders';

const credentials: IntegrationCredentials = { integrationId: 'int-d-1', providerRestaurantId: 'migros-r-1', settings: { providerMerchantId: 'm-20931' }, secrets: { apiKey: 'merchant-key-1' } };

describe('PLATFORM_D adapter (assumed API) against its simulator', () => {
  let sim: PlatformDSimulator;
  let adapter: PlatformDAdapter;

  beforeAll(async () => {
    sim = new PlatformDSimulator({ merchants: [{ merchantId: 'm-20931', restaurantId: 'migros-r-1', apiKey: 'merchant-key-1' }] });
    await sim.start();
    adapter = new PlatformDAdapter(validateConfig(PlatformClientConfig, { PLATFORM_D_BASE_URL: sim.baseUrl, PLATFORM_HTTP_TIMEOUT_MS: '2000' }));
  });
  afterAll(() => sim.stop());

  const order = (): PlatformOrderRef => ({ platformOrderId: sim.createOrder('m-20931').id, yemekKuryeOrderId: 'a1b2c3d4-4444-4555-8666-777788889999', platformData: {} });

  it('sends each action as PATCH /courier-order/status with the merchant key', async () => {
    const ref = order();
    const expected = { VERIFY: 'accepted', PREPARE: 'preparing', HANDOVER: 'on_the_way', DELIVER: 'delivered' } as const;
    for (const [action, status] of Object.entries(expected)) {
      expect(await adapter.sendStatus(credentials, ref, action as keyof typeof expected)).toMatchObject({ kind: 'done' });
      expect(sim.orders.get(ref.platformOrderId)!.status).toBe(status);
      const call = sim.callsTo('PATCH', '/courier-order/status').pop()!;
      expect(call.headers['x-api-key']).toBe('merchant-key-1');
      expect(call.body).toEqual({ merchantId: 'm-20931', orderId: ref.platformOrderId, status });
    }
  });

  it('cancels and rejects with the reason', async () => {
    for (const action of ['CANCEL', 'REJECT'] as const) {
      const ref = order();
      expect(await adapter.sendStatus(credentials, ref, action, 'no courier')).toMatchObject({ kind: 'done' });
      expect(sim.orders.get(ref.platformOrderId)).toMatchObject({ status: 'cancelled', reason: 'no courier' });
    }
  });

  it('fails a refused change (409) and a wrong key (401); fails when no base URL is configured', async () => {
    const ref = order();
    await adapter.sendStatus(credentials, ref, 'CANCEL');
    expect(await adapter.sendStatus(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 409 } });
    expect(await adapter.sendStatus({ ...credentials, secrets: { apiKey: 'wrong' } }, order(), 'VERIFY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 401 } });
    const unconfigured = new PlatformDAdapter(validateConfig(PlatformClientConfig, {}));
    expect(await unconfigured.sendStatus(credentials, order(), 'VERIFY')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/PLATFORM_D_BASE_URL/) });
    expect(await unconfigured.checkCredentials(credentials)).toMatchObject({ result: 'not_configured' });
  });

  it('checks the merchant key', async () => {
    expect(await adapter.checkCredentials(credentials)).toMatchObject({ result: 'ok' });
    expect(await adapter.checkCredentials({ ...credentials, secrets: { apiKey: 'wrong' } })).toMatchObject({ result: 'rejected', httpStatus: 401 });
    sim.setDown(true);
    try {
      expect(await adapter.checkCredentials(credentials)).toMatchObject({ result: 'unreachable' });
      expect(await adapter.sendStatus(credentials, order(), 'VERIFY')).toMatchObject({ kind: 'retry' });
    } finally {
      sim.setDown(false);
    }
  });

  it('parses the assumed webhook events', () => {
    const simulated = sim.createOrder('m-20931');
    expect(parsePlatformDEvent(sim.event(simulated, 'ORDER_CREATED'))).toMatchObject({
      ok: true,
      eventType: 'ORDER_CREATED',
      merchantId: 'm-20931',
      parsed: { order: { platformOrderId: simulated.id, providerRestaurantId: 'migros-r-1', state: 'new', details: { customerName: 'Can Öztürk', total: 140 } } },
    });
    expect(parsePlatformDEvent({ ...sim.event(simulated, 'ORDER_CANCELLED'), reason: 'late' })).toMatchObject({ ok: true, parsed: { order: { state: 'canceled', cancelNote: 'late' } } });
    expect(parsePlatformDEvent({ ...sim.event(simulated, 'ORDER_CREATED'), eventType: 'PING' })).toMatchObject({ ok: false, errors: [{ field: 'eventType' }] });
  });
});
