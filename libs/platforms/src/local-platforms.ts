import { randomBytes } from 'node:crypto';
import { PlatformASimulator } from './getir/getir.simulator';
import { PlatformBSimulator } from './yemeksepeti/yemeksepeti.simulator';
import { PlatformCSimulator, TRENDYOL_GO_RATE_LIMIT } from './trendyol-go/trendyol-go.simulator';
import { PlatformDSimulator } from './migros-yemek/migros-yemek.simulator';

export interface LocalPlatformsOptions {
  /** Where status-dispatcher serves /platforms/... (the one-machine {pos_url}, e.g. http://localhost:3001). */
  callbackBaseUrl: string;
  /** Ports of the four simulators on 127.0.0.1 (0 or absent: free ones). */
  ports?: Partial<Record<'PLATFORM_A' | 'PLATFORM_B' | 'PLATFORM_C' | 'PLATFORM_D', number>>;
  /**
   * The keys the simulators share with the suite (from `generateLocalPlatformSecrets`). Absent: new
   * ones per start. The one-machine mode keeps them in its data directory, so the demo integrations
   * stored in the database keep working across restarts.
   */
  secrets?: LocalPlatformSecrets;
}

/** Every generated key of the four demo platforms: the shared ones and the demo integrations' credentials. */
export interface LocalPlatformSecrets {
  platformAAppSecretKey: string;
  platformAWebhookApiKey: string;
  platformARestaurantSecretKey: string;
  platformBPluginSecret: string;
  platformBPassword: string;
  platformCApiKey: string;
  platformCSecretKey: string;
  platformDApiKey: string;
}

/** Fresh random keys for `startLocalPlatforms` (each one at least 8 characters, as the registry asks). */
export function generateLocalPlatformSecrets(): LocalPlatformSecrets {
  const secret = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;
  return {
    platformAAppSecretKey: secret('demo-getir-app'),
    platformAWebhookApiKey: secret('demo-getir-webhook'),
    platformARestaurantSecretKey: secret('demo-getir-restaurant'),
    platformBPluginSecret: secret('demo-ys-plugin-secret'),
    platformBPassword: secret('demo-ys-password'),
    platformCApiKey: secret('demo-ty-key'),
    platformCSecretKey: secret('demo-ty-secret'),
    platformDApiKey: secret('demo-migros-key'),
  };
}

/** Whether a stored value holds a complete set of keys (a partial or hand-edited file is regenerated). */
export function isLocalPlatformSecrets(value: unknown): value is LocalPlatformSecrets {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return Object.keys(generateLocalPlatformSecrets()).every((key) => typeof record[key] === 'string' && (record[key] as string).length >= 8);
}

export interface LocalPlatforms {
  a: PlatformASimulator;
  b: PlatformBSimulator;
  c: PlatformCSimulator;
  d: PlatformDSimulator;
  /** The PLATFORM_* variables that point status-dispatcher and integrations-api at the simulators. */
  env: Record<string, string>;
  /** Create bodies of POST /api/v1/my/integrations whose credentials the simulators accept. */
  integrationBodies: Record<'PLATFORM_A' | 'PLATFORM_B' | 'PLATFORM_C' | 'PLATFORM_D', Record<string, string>>;
  stop(): Promise<void>;
}

/**
 * The four platform simulators for the one-machine mode, with a demo restaurant on each and the
 * keys they share with the suite (`options.secrets`, else generated for this start). Set `env` before the apps are created,
 * register `integrationBodies` for the demo account, then drive orders through each simulator's
 * `/_simulator/...` routes (see libs/platforms/README.md).
 */
export async function startLocalPlatforms(options: LocalPlatformsOptions): Promise<LocalPlatforms> {
  const keys = options.secrets ?? generateLocalPlatformSecrets();
  const appSecretKey = keys.platformAAppSecretKey;
  const webhookApiKey = keys.platformAWebhookApiKey;
  const pluginSecret = keys.platformBPluginSecret;
  const bodies: LocalPlatforms['integrationBodies'] = {
    PLATFORM_A: { platform: 'PLATFORM_A', providerRestaurantId: 'demo-getir-restaurant', secretKey: keys.platformARestaurantSecretKey },
    PLATFORM_B: { platform: 'PLATFORM_B', providerRestaurantId: 'demo-ys-vendor', chainCode: 'demo-chain', username: 'demo-pos', password: keys.platformBPassword },
    PLATFORM_C: { platform: 'PLATFORM_C', providerRestaurantId: 'demo-ty-restaurant', supplierId: '100001', apiKey: keys.platformCApiKey, secretKey: keys.platformCSecretKey, storeId: '200001' },
    // Migros ids are numbers: storeId (providerRestaurantId) and storeGroupId (providerMerchantId).
    PLATFORM_D: { platform: 'PLATFORM_D', providerRestaurantId: '23000000101833', providerMerchantId: '511', apiKey: keys.platformDApiKey },
  };
  const callbacks = options.callbackBaseUrl.replace(/\/+$/, '');
  const a = new PlatformASimulator({
    appSecretKey,
    restaurants: [{ restaurantId: bodies.PLATFORM_A.providerRestaurantId, secretKey: bodies.PLATFORM_A.secretKey }],
    newOrderUrl: `${callbacks}/platforms/platform-a/orders`,
    cancelledOrderUrl: `${callbacks}/platforms/platform-a/orders/cancelled`,
    webhookApiKey,
  });
  const b = new PlatformBSimulator({ users: [{ username: bodies.PLATFORM_B.username, password: bodies.PLATFORM_B.password }], pluginUrl: `${callbacks}/platforms/platform-b`, pluginSecret });
  const c = new PlatformCSimulator({ suppliers: [{ supplierId: bodies.PLATFORM_C.supplierId, apiKey: bodies.PLATFORM_C.apiKey, secretKey: bodies.PLATFORM_C.secretKey, storeIds: [bodies.PLATFORM_C.storeId] }], rateLimit: TRENDYOL_GO_RATE_LIMIT });
  const d = new PlatformDSimulator({
    stores: [{ storeId: bodies.PLATFORM_D.providerRestaurantId, storeGroupId: bodies.PLATFORM_D.providerMerchantId, apiKey: bodies.PLATFORM_D.apiKey, name: 'Demo Migros store' }],
    orderWebhookUrl: `${callbacks}/platforms/platform-d/orders`,
    cancelWebhookUrl: `${callbacks}/platforms/platform-d/orders/cancelled`,
    deliveryStatusWebhookUrl: `${callbacks}/platforms/platform-d/orders/delivery-status`,
  });
  const started: Array<{ stop(): Promise<void> }> = [];
  try {
    for (const [simulator, code] of [[a, 'PLATFORM_A'], [b, 'PLATFORM_B'], [c, 'PLATFORM_C'], [d, 'PLATFORM_D']] as const) {
      await simulator.start(options.ports?.[code] ?? 0);
      started.push(simulator);
    }
  } catch (error) {
    await Promise.all(started.map((simulator) => simulator.stop()));
    throw error;
  }
  return {
    a,
    b,
    c,
    d,
    env: {
      PLATFORM_A_BASE_URL: a.baseUrl,
      PLATFORM_B_BASE_URL: b.baseUrl,
      PLATFORM_C_BASE_URL: c.baseUrl,
      PLATFORM_D_BASE_URL: d.baseUrl,
      PLATFORM_A_APP_SECRET_KEY: appSecretKey,
      PLATFORM_A_WEBHOOK_API_KEY: webhookApiKey,
      PLATFORM_B_PLUGIN_SECRET: pluginSecret,
      PLATFORM_C_INTEGRATOR_NAME: 'CourierIntegrationSuiteDemo',
    },
    integrationBodies: bodies,
    stop: async () => {
      await Promise.all([a.stop(), b.stop(), c.stop(), d.stop()]);
    },
  };
}
