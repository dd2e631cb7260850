import type { LocalSimulatorEntry } from '../common/local-simulator';

/** Delivery Hero's middleware simulator in the one-machine suite: a demo vendor, its plugin calls to the suite signed with the shared secret. */
export const YEMEKSEPETI_LOCAL_SIMULATOR: LocalSimulatorEntry = {
  secrets: { platformBPluginSecret: 'demo-ys-plugin-secret', platformBPassword: 'demo-ys-password' },
  async start({ callbackBaseUrl, port, secrets }) {
    // Loaded here, only when the one-machine suite starts it: the apps import the registry, never the simulator.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { PlatformBSimulator } = require('./yemeksepeti.simulator') as typeof import('./yemeksepeti.simulator');
    const integrationBody = { platform: 'PLATFORM_B', providerRestaurantId: 'demo-ys-vendor', chainCode: 'demo-chain', username: 'demo-pos', password: secrets.platformBPassword };
    const simulator = new PlatformBSimulator({
      users: [{ username: integrationBody.username, password: integrationBody.password }],
      pluginUrl: `${callbackBaseUrl}/platforms/platform-b`,
      pluginSecret: secrets.platformBPluginSecret,
    });
    await simulator.start(port);
    return {
      simulator,
      env: { PLATFORM_B_BASE_URL: simulator.baseUrl, PLATFORM_B_PLUGIN_SECRET: secrets.platformBPluginSecret },
      integrationBody,
      newOrder: `new order:  curl -X POST ${simulator.baseUrl}/_simulator/orders -H 'Content-Type: application/json' -d '{"remoteId":"${integrationBody.providerRestaurantId}"}'`,
    };
  },
};
