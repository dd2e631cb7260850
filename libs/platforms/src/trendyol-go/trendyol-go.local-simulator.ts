import type { LocalSimulatorEntry } from '../common/local-simulator';

/** Trendyol Go's simulator in the one-machine suite: a demo supplier and store, its documented rate limit on (the suite polls it). */
export const TRENDYOL_GO_LOCAL_SIMULATOR: LocalSimulatorEntry = {
  secrets: { platformCApiKey: 'demo-ty-key', platformCSecretKey: 'demo-ty-secret' },
  async start({ port, secrets }) {
    // Loaded here, only when the one-machine suite starts it: the apps import the registry, never the simulator.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { PlatformCSimulator, TRENDYOL_GO_RATE_LIMIT } = require('./trendyol-go.simulator') as typeof import('./trendyol-go.simulator');
    const integrationBody = { platform: 'PLATFORM_C', providerRestaurantId: 'demo-ty-restaurant', supplierId: '100001', apiKey: secrets.platformCApiKey, secretKey: secrets.platformCSecretKey, storeId: '200001' };
    const simulator = new PlatformCSimulator({
      suppliers: [{ supplierId: integrationBody.supplierId, apiKey: integrationBody.apiKey, secretKey: integrationBody.secretKey, storeIds: [integrationBody.storeId] }],
      rateLimit: TRENDYOL_GO_RATE_LIMIT,
      // The demo menu (DEMO_MENU); price requests are processed a little after they are taken, as the platform's queue does.
      catalog: { batchProcessingMs: 2_000 },
    });
    await simulator.start(port);
    const pollSeconds = Math.round(Number(process.env.PLATFORM_C_POLL_INTERVAL_MS || 30_000) / 1000);
    return {
      simulator,
      env: { PLATFORM_C_BASE_URL: simulator.baseUrl, PLATFORM_C_INTEGRATOR_NAME: 'CourierIntegrationSuiteDemo' },
      integrationBody,
      newOrder: `new package (polled every ${pollSeconds} s):  curl -X POST ${simulator.baseUrl}/_simulator/packages`,
    };
  },
};
