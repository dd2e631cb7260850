import { PlatformAdapters } from '../../common/platform-adapters';
import { PlatformRegistry } from '../../common/platform-registry';
import { PLATFORMS, statusPushRulesOf } from '../../platforms';
import { examplePlatform } from './example-platform';
import { parseExampleOrder } from './example.orders';
import { ExamplePlatformSimulator } from './example.simulator';

/** The registry and the adapters take a fifth platform from its own folder, with no change to shared code. */
describe('a platform added from its own folder', () => {
  const simulator = new ExamplePlatformSimulator({ apiKey: 'ex-key-0000000001' });
  beforeAll(() => simulator.start());
  afterAll(() => simulator.stop());

  it('is registered beside the others, found by its wire code, and its adapter reaches its API', async () => {
    const platforms = [...PLATFORMS, examplePlatform(simulator.baseUrl)];
    const registry = PlatformRegistry.fromEnv({}, platforms.map((platform) => platform.definition));
    expect(registry.byWireCode('PLATFORM_EXAMPLE')?.code).toBe('PLATFORM_EXAMPLE');
    expect(registry.list()).toHaveLength(PLATFORMS.length + 1);
    expect(statusPushRulesOf('PLATFORM_EXAMPLE', platforms.map((platform) => platform.definition))).toEqual({});

    const adapters = PlatformAdapters.fromEnv({}, { platforms });
    const parsed = parseExampleOrder({ id: 'ex-1', storeId: 'store-1', number: 'E1', customer: 'Deniz', address: 'Moda', items: [{ name: 'Simit', quantity: 1, price: 15 }] });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const credentials = { integrationId: 'i-1', providerRestaurantId: 'store-1', settings: {}, secrets: { apiKey: 'ex-key-0000000001' } };
    const outcome = await adapters.get('PLATFORM_EXAMPLE')!.status.send(credentials, { platformOrderId: parsed.order.platformOrderId, yemekKuryeOrderId: 'o-1', platformData: {} }, 'VERIFY');
    expect(outcome.kind).toBe('done');
    expect(simulator.statuses.get('ex-1')).toEqual(['VERIFY']);
    expect((await adapters.get('PLATFORM_EXAMPLE')!.checkCredentials({ ...credentials, secrets: { apiKey: 'wrong' } })).result).toBe('rejected');
  });
});
