/* eslint-disable @typescript-eslint/no-explicit-any -- rows and bodies of tests are loosely typed, as in the specs */
import { generateEncryptionKeyEntry } from '@courier/crypto';
import { createHttpApp, HostResolver } from '@courier/http';
import { AppUnderTest, startAppUnderTest, TestDatabase } from '@courier/testing';
import { createAppModule } from '../src/app/app.module';
import { SERVICE_DESCRIPTION } from '../src/app/openapi';

/** Helpers of the integrations-api integration tests: a real app on a fresh database, through HTTP. */

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
export const KEY_1 = generateEncryptionKeyEntry('k1');
export const KEY_2 = generateEncryptionKeyEntry('k2');

export interface OutboxRow {
  routing_key: string;
  payload: Record<string, any>;
  created_at: Date;
}

export interface CreatedRestaurant {
  restaurantId: string;
  apiKey: string;
  apiSecret: string;
  signingSecret?: string;
  thirdParty: { integrationId: string; providerRestaurantId: string; isActive: boolean };
  [field: string]: unknown;
}

/** The app (libs/testing's AppUnderTest: app, http, database, logLines, delivered (every queue), sql, close) and this app's fixtures. */
export interface TestApp extends AppUnderTest {
  outbox(routingKey?: string): Promise<OutboxRow[]>;
  createRestaurant(body?: Record<string, unknown>): Promise<CreatedRestaurant>;
}

export interface TestAppOptions {
  /** Reuse a database (restart scenarios); otherwise a fresh one is created. */
  database?: TestDatabase;
  /** SECRETS_ENCRYPTION_KEYS (default KEY_1). */
  keys?: string;
  env?: Record<string, string | undefined>;
  hostResolver?: HostResolver;
}

export const credentials = (restaurant: { apiKey: string; apiSecret: string }) => ({ 'X-API-Key': restaurant.apiKey, 'X-API-Secret': restaurant.apiSecret });
export const admin = { 'X-Admin-Token': ADMIN_TOKEN };

/** Valid create bodies, one per platform; secrets are unique strings the tests search for. */
export function platformBodies(tag = Math.random().toString(36).slice(2, 8)): Record<string, Record<string, string>> {
  return {
    PLATFORM_A: { platform: 'PLATFORM_A', providerRestaurantId: `a-${tag}`, secretKey: `plainA-secretKey-${tag}-9a1` },
    PLATFORM_B: { platform: 'PLATFORM_B', providerRestaurantId: `b-${tag}`, chainCode: `chain-${tag}`, username: `user-${tag}`, password: `plainB-password-${tag}-7b2` },
    PLATFORM_C: {
      platform: 'PLATFORM_C',
      providerRestaurantId: `c-${tag}`,
      supplierId: `sup-${tag}`,
      apiKey: `plainC-apiKey-${tag}-3c3`,
      secretKey: `plainC-secretKey-${tag}-5c4`,
      storeId: `store-${tag}`,
    },
    PLATFORM_D: { platform: 'PLATFORM_D', providerRestaurantId: `d-${tag}`, providerMerchantId: `merchant-${tag}`, apiKey: `plainD-apiKey-${tag}-1d5` },
  };
}

export const SECRET_FIELDS: Record<string, string[]> = {
  PLATFORM_A: ['secretKey'],
  PLATFORM_B: ['password'],
  PLATFORM_C: ['apiKey', 'secretKey'],
  PLATFORM_D: ['apiKey'],
};

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const base = await startAppUnderTest({
    databasePrefix: 'integrations_api',
    database: options.database,
    schema: 'integrations',
    env: {
      RABBITMQ_URL: undefined,
      ADMIN_TOKEN,
      SECRETS_ENCRYPTION_KEYS: options.keys ?? KEY_1,
      WEBHOOK_ALLOW_INSECURE_URLS: 'false',
      LOG_LEVEL: 'info',
      LOG_PRETTY: 'false',
      SHUTDOWN_GRACE_MS: '500',
      OUTBOX_POLL_MS: '100',
      // Tests send many wrong credentials from one address on purpose; the throttle's own tests set these low.
      AUTH_FAILURE_LIMIT_PER_MINUTE: '100000',
      AUTH_FAILURE_KEY_LIMIT_PER_MINUTE: '100000',
      // Integrations are verified with their platform at once: never the real hosts from a test (a closed local port: no verdict).
      PLATFORM_A_BASE_URL: 'http://127.0.0.1:9',
      PLATFORM_B_BASE_URL: 'http://127.0.0.1:9',
      PLATFORM_C_BASE_URL: 'http://127.0.0.1:9',
      PLATFORM_D_BASE_URL: 'http://127.0.0.1:9',
      // The periodic re-check of unverified integrations stays out of the tests' way (platform call
      // counts); its own test sets a short period.
      INTEGRATION_VERIFICATION_RETRY_MS: '3600000',
      ...options.env,
    },
    create: (logDestination) => createHttpApp(createAppModule({ logDestination, hostResolver: options.hostResolver }), SERVICE_DESCRIPTION),
    // Every queue of the suite, so tests see each event wherever it is routed.
    consumers: 'record',
  });
  const { sql, http } = base;

  return {
    ...base,
    outbox: (routingKey?: string) =>
      routingKey
        ? sql<OutboxRow>('SELECT routing_key, payload, created_at FROM outbox_messages WHERE routing_key = $1 ORDER BY created_at, id', [routingKey])
        : sql<OutboxRow>('SELECT routing_key, payload, created_at FROM outbox_messages ORDER BY created_at, id'),
    createRestaurant: async (body: Record<string, unknown> = {}) => {
      const response = await http.post('/admin/v1/restaurants').set(admin).send({ name: 'Test Restaurant', ...body });
      if (response.status !== 201) throw new Error(`restaurant not created: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body as CreatedRestaurant;
    },
  };
}
