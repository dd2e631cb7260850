import type { LocalSimulatorEntry } from '../common/local-simulator';

/** Migros Yemek's simulator in the one-machine suite: a demo store, its webhooks to the suite. */
export const MIGROS_YEMEK_LOCAL_SIMULATOR: LocalSimulatorEntry = {
  secrets: { platformDApiKey: 'demo-migros-key' },
  async start({ callbackBaseUrl, port, secrets }) {
    // Loaded here, only when the one-machine suite starts it: the apps import the registry, never the simulator.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { PlatformDSimulator } = require('./migros-yemek.simulator') as typeof import('./migros-yemek.simulator');
    // Migros ids are numbers: storeId (providerRestaurantId) and storeGroupId (providerMerchantId).
    const integrationBody = { platform: 'PLATFORM_D', providerRestaurantId: '23000000101833', providerMerchantId: '511', apiKey: secrets.platformDApiKey };
    // No `menu`: the simulator serves DEMO_MENU with Migros ids (platformDDemoMenu).
    const simulator = new PlatformDSimulator({
      stores: [{ storeId: integrationBody.providerRestaurantId, storeGroupId: integrationBody.providerMerchantId, apiKey: integrationBody.apiKey, name: 'Demo Migros store' }],
      orderWebhookUrl: `${callbackBaseUrl}/platforms/platform-d/orders`,
      cancelWebhookUrl: `${callbackBaseUrl}/platforms/platform-d/orders/cancelled`,
      deliveryStatusWebhookUrl: `${callbackBaseUrl}/platforms/platform-d/orders/delivery-status`,
    });
    await simulator.start(port);
    return {
      simulator,
      env: { PLATFORM_D_BASE_URL: simulator.baseUrl },
      integrationBody,
      newOrder: `new order:  curl -X POST ${simulator.baseUrl}/_simulator/orders   (Migros cancels it: POST .../_simulator/orders/{id}/cancel)`,
    };
  },
};
