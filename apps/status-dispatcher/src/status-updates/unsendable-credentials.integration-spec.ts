import { PLATFORM_D_PATHS } from '@courier/platforms';
import { TestApp } from '../../test/harness';
import { CREDENTIALS, Platforms, push, startPlatformApp, startPlatforms, upsertIntegration, waitForState } from '../../test/platforms';

jest.setTimeout(120_000);

const UNSAFE = 'anahtar-şifre-ğüç';

/**
 * An integration whose header-bound credential a header cannot carry (stored before integrations-api
 * refused such values): its status updates cannot be sent, so they end failed with a reason naming
 * the field, instead of staying queued and being retried forever.
 */
describe('a status update whose credential cannot be put into a header (PLATFORM_D apiKey)', () => {
  let platforms: Platforms;
  let t: TestApp;

  beforeAll(async () => {
    platforms = await startPlatforms();
    t = await startPlatformApp(platforms);
  });
  afterAll(async () => {
    await t?.close();
    await platforms?.stop();
  });

  it('ends failed, naming apiKey and its header (never the value), without calling the platform', async () => {
    const integration = await upsertIntegration(t, 'PLATFORM_D');
    const { order, response } = await platforms.d.placeOrder(CREDENTIALS.PLATFORM_D.providerRestaurantId, { deliveryProvider: 'RESTAURANT' });
    expect(response.status).toBe(200);
    // The read model as integrations-api published it before the rule: the key now holds ş and ğ.
    await upsertIntegration(t, 'PLATFORM_D', { ...integration, secrets: { apiKey: UNSAFE } });

    const pushed = await push(t, { providerOrderId: String(order.id), platform: 'PLATFORM_D', action: 'VERIFY' });
    expect(pushed.status).toBe(202);
    const update = await waitForState(t, pushed.body.statusUpdateId, ['failed', 'sent']);
    expect(update).toMatchObject({ state: 'failed', error: expect.stringMatching(/apiKey.*XApiKey/), platformAnswer: { httpStatus: null } });
    expect(JSON.stringify(update)).not.toContain(UNSAFE);
    expect(platforms.d.received.filter((call) => call.path === PLATFORM_D_PATHS.updateOrderStatus)).toHaveLength(0);
    expect(t.logLines.join('\n')).not.toContain(UNSAFE);
  });
});
