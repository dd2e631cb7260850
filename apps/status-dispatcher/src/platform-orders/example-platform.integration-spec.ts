import { randomBytes, randomUUID } from 'node:crypto';
import { IntegrationUpsertedEvent, RoutingKey } from '@courier/contracts';
import { SecretBox, secretBinding } from '@courier/crypto';
import { PLATFORMS } from '@courier/platforms';
import { examplePlatform, ExamplePlatformSimulator } from '@courier/platforms/simulators';
import { internal, newRestaurantId, SECRETS_KEYS, startTestApp, TestApp } from '../../test/harness';
import { push, waitForState } from '../../test/platforms';

jest.setTimeout(120_000);

const STORE = 'example-store-1';
const API_KEY = `ex-key-${randomBytes(12).toString('hex')}`;

/**
 * Adding a platform is one folder and one registry line: the example platform
 * (libs/platforms/src/testing/example-platform) joins the registered ones with its own definition,
 * adapter, webhook controller and simulator, and an order goes through it end to end without a
 * line of shared code or of this app knowing it.
 */
describe('a fifth platform registered from its own folder', () => {
  let simulator: ExamplePlatformSimulator;
  let t: TestApp;
  let restaurantId: string;

  beforeAll(async () => {
    simulator = new ExamplePlatformSimulator({ apiKey: API_KEY });
    await simulator.start();
    t = await startTestApp({
      listen: true,
      platforms: [...PLATFORMS, examplePlatform(simulator.baseUrl)],
      env: { STATUS_PUSH_RETRY_BASE_MS: '50', STATUS_PUSH_RETRY_MAX_DELAY_MS: '200' },
    });
    const integrationId = randomUUID();
    restaurantId = newRestaurantId();
    const now = new Date().toISOString();
    const box = SecretBox.fromKeyList(SECRETS_KEYS);
    const event: IntegrationUpsertedEvent = {
      integrationId,
      restaurantId,
      platform: 'PLATFORM_EXAMPLE',
      providerRestaurantId: STORE,
      isActive: true,
      verification: 'verified',
      verifiedAt: now,
      settings: {},
      secrets: { apiKey: box.encrypt(API_KEY, secretBinding.integrationSecret(integrationId, 'apiKey')) },
      version: 1,
      createdAt: now,
      updatedAt: now,
      occurredAt: now,
    };
    await t.deliver(RoutingKey.IntegrationUpserted, event);
  });
  afterAll(async () => {
    await t?.close();
    await simulator?.stop();
  });

  it('takes an order in through its own webhook and sends the status pushes to its simulator', async () => {
    const { order, response } = await simulator.placeOrder(STORE, `${t.baseUrl}/platforms/example/orders`);
    expect(response.status).toBe(200);
    const id = (response.body as { yemekKuryeOrderId: string }).yemekKuryeOrderId;
    expect(response.body).toEqual({ received: true, yemekKuryeOrderId: id, duplicate: false });
    const stored = (await t.http.get(`/internal/orders/${id}`).set(internal())).body;
    expect(stored).toMatchObject({ provider: 'PLATFORM_EXAMPLE', orderId: order.id, orderNumber: order.number, restaurantId, status: 'NEW' });

    for (const action of ['VERIFY', 'PREPARE', 'DELIVER']) {
      const pushed = await push(t, { providerOrderId: order.id, platform: 'PLATFORM_EXAMPLE', action });
      expect({ action, status: pushed.status }).toEqual({ action, status: 202 });
      expect((await waitForState(t, pushed.body.statusUpdateId, ['sent', 'skipped', 'failed'])).state).toBe('sent');
    }
    expect(simulator.statuses.get(order.id)).toEqual(['VERIFY', 'PREPARE', 'DELIVER']);
  });

  it('refuses its webhook without the store\'s key, and knows nothing of the platform without its registry line', async () => {
    const wrongKey = new ExamplePlatformSimulator({ apiKey: 'another-key-0000000001' });
    const { response } = await wrongKey.placeOrder(STORE, `${t.baseUrl}/platforms/example/orders`);
    expect(response.status).toBe(401);
    const unknown = await push(t, { providerOrderId: 'ex-none', platform: 'PLATFORM_EXAMPLE_OTHER', action: 'VERIFY' });
    expect(unknown.status).toBe(422);
  });
});
