import type { LocalSimulatorEntry } from '../common/local-simulator';

/** Getir's simulator in the one-machine suite: a demo restaurant, its webhooks to the suite with the shared x-api-key. */
export const GETIR_LOCAL_SIMULATOR: LocalSimulatorEntry = {
  secrets: { platformAAppSecretKey: 'demo-getir-app', platformAWebhookApiKey: 'demo-getir-webhook', platformARestaurantSecretKey: 'demo-getir-restaurant' },
  async start({ callbackBaseUrl, port, secrets }) {
    // Loaded here, only when the one-machine suite starts it: the apps import the registry, never the simulator.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { PlatformASimulator } = require('./getir.simulator') as typeof import('./getir.simulator');
    const integrationBody = { platform: 'PLATFORM_A', providerRestaurantId: 'demo-getir-restaurant', secretKey: secrets.platformARestaurantSecretKey };
    // Its menu is the default one: DEMO_MENU on the demo chain menu, Künefe the restaurant's own product (getir.catalog-routes.ts).
    const simulator = new PlatformASimulator({
      appSecretKey: secrets.platformAAppSecretKey,
      restaurants: [{ restaurantId: integrationBody.providerRestaurantId, secretKey: integrationBody.secretKey }],
      newOrderUrl: `${callbackBaseUrl}/platforms/platform-a/orders`,
      cancelledOrderUrl: `${callbackBaseUrl}/platforms/platform-a/orders/cancelled`,
      webhookApiKey: secrets.platformAWebhookApiKey,
    });
    await simulator.start(port);
    return {
      simulator,
      env: { PLATFORM_A_BASE_URL: simulator.baseUrl, PLATFORM_A_APP_SECRET_KEY: secrets.platformAAppSecretKey, PLATFORM_A_WEBHOOK_API_KEY: secrets.platformAWebhookApiKey },
      integrationBody,
      newOrder: `new order:  curl -X POST ${simulator.baseUrl}/_simulator/orders`,
    };
  },
};
