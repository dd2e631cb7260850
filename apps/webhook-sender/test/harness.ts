/* eslint-disable @typescript-eslint/no-explicit-any -- rows and bodies of tests are loosely typed, as in the specs */
import { randomBytes, randomUUID } from 'node:crypto';
import { AccountSnapshot, CatalogDriftDetectedEvent, OrderCanceledEvent, OrderStatusChangedEvent, Queues, RestaurantAvailabilityChangedEvent, RoutingKey } from '@courier/contracts';
import { generateEncryptionKeyEntry, generateToken, generateWebhookSigningSecret, hashCredential, SecretBox, secretBinding } from '@courier/crypto';
import { createHttpApp, HostResolver } from '@courier/http';
import { AppUnderTest, startAppUnderTest, TestDatabase, waitFor } from '@courier/testing';
import { createAppModule } from '../src/app/app.module';
import { SERVICE_DESCRIPTION } from '../src/app/openapi';
import { DeliveryPump } from '../src/sending/delivery-pump';
import { WebhookMetrics } from '../src/sending/webhook-metrics';
import { availabilityChanged, canceled, catalogDriftDetected, statusChanged } from './order-events.fixture';

/** Helpers of the webhook-sender integration tests: the real app on a fresh database, events in, HTTP out. */

export const KEY_1 = generateEncryptionKeyEntry('k1');

/** An account as integrations-api publishes it, with the credentials and secret the tests need in clear. */
export interface TestAccount {
  restaurantId: string;
  apiKey: string;
  apiSecret: string;
  signingSecret: string | null;
  snapshot: AccountSnapshot;
}

export interface AccountSettings {
  statusUrl?: string | null;
  cancelUrl?: string | null;
  /** A `whsec_` secret, or null for signing off (default: a fresh secret). */
  signingSecret?: string | null;
  status?: 'active' | 'disabled';
  /** The secret a rotation replaced and when it stops signing (default: none). */
  previousSigningSecret?: { secret: string; validUntil: Date } | null;
}

/** The app (libs/testing's AppUnderTest: app, http, database, logLines, sql, close) and the sender's fixtures. */
export interface SenderApp extends AppUnderTest {
  metrics: WebhookMetrics;
  pump: DeliveryPump;
  /** Publishes an account snapshot (account.created for version 1, else account.webhook_settings_changed). */
  publishAccount(account: TestAccount): Promise<void>;
  /** A new account (version 1) with the given settings, published. */
  createAccount(settings?: AccountSettings, restaurantId?: string): Promise<TestAccount>;
  /** The account with changed settings and version + 1, published. */
  changeAccount(account: TestAccount, settings: AccountSettings): Promise<TestAccount>;
  publishStatusChanged(account: TestAccount, fields?: Partial<OrderStatusChangedEvent>, messageId?: string): Promise<OrderStatusChangedEvent>;
  publishCanceled(account: TestAccount, fields?: Partial<OrderCanceledEvent>, messageId?: string): Promise<OrderCanceledEvent>;
  /** A restaurant.availability_changed of the account (a fresh changeEventId unless given), as status-dispatcher publishes it. */
  publishAvailabilityChanged(account: TestAccount, fields?: Partial<RestaurantAvailabilityChangedEvent>, messageId?: string): Promise<RestaurantAvailabilityChangedEvent>;
  /** A catalog.drift_detected of the account (a fresh driftEventId unless given), as status-dispatcher publishes it. */
  publishCatalogDrift(account: TestAccount, fields?: Partial<CatalogDriftDetectedEvent>, messageId?: string): Promise<CatalogDriftDetectedEvent>;
  /** The delivery log entry of one webhook, through the API. */
  delivery(account: TestAccount, id: string): Promise<any>;
  waitForDelivery(account: TestAccount, id: string, predicate: (delivery: any) => boolean, timeoutMs?: number): Promise<any>;
}

export interface SenderAppOptions {
  database?: TestDatabase;
  env?: Record<string, string | undefined>;
  hostResolver?: HostResolver;
  trustedCa?: string;
}

export const credentials = (account: { apiKey: string; apiSecret: string }) => ({ 'X-API-Key': account.apiKey, 'X-API-Secret': account.apiSecret });

let sequence = 10;

export const newRestaurantId = () => `rest_${randomBytes(15).toString('base64url')}`;

export async function startSender(options: SenderAppOptions = {}): Promise<SenderApp> {
  const started = await startAppUnderTest({
    databasePrefix: 'webhook_sender',
    database: options.database,
    schema: 'webhooks',
    env: {
      RABBITMQ_URL: undefined,
      SECRETS_ENCRYPTION_KEYS: KEY_1,
      WEBHOOK_ALLOW_INSECURE_URLS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '200ms,400ms',
      LOG_LEVEL: 'debug',
      LOG_PRETTY: 'false',
      SHUTDOWN_GRACE_MS: '2000',
      OUTBOX_POLL_MS: '100',
      TASK_POLL_MS: '100',
      // Tests send many wrong credentials from one address on purpose; the throttle's own tests set these low.
      AUTH_FAILURE_LIMIT_PER_MINUTE: '100000',
      AUTH_FAILURE_KEY_LIMIT_PER_MINUTE: '100000',
      WEBHOOK_REDELIVER_LIMIT_PER_MINUTE: '100000',
      ...options.env,
    },
    create: (logDestination) => createHttpApp(createAppModule({ logDestination, hostResolver: options.hostResolver, trustedCa: options.trustedCa }), SERVICE_DESCRIPTION),
    // The in-process broker refuses a publish while a bound queue has no consumer in the process:
    // the queues of the other apps get one that drops everything.
    consumers: 'drop',
    ownQueues: [Queues.senderOrderEvents.name, Queues.senderAccountEvents.name, Queues.senderRestaurantEvents.name],
  });
  const { app, http, transport } = started;
  const box = SecretBox.fromKeyList(KEY_1);
  const publish = (routingKey: string, payload: unknown, messageId: string = randomUUID()) => transport.publish([{ messageId, routingKey, payload }]);

  const snapshotOf = (base: Omit<TestAccount, 'snapshot'>, settings: AccountSettings, version: number, createdAt: string): AccountSnapshot => ({
    restaurantId: base.restaurantId,
    name: 'Test Kebab House',
    status: settings.status ?? 'active',
    apiKeyHash: hashCredential(base.apiKey),
    apiSecretHash: hashCredential(base.apiSecret),
    thirdParty: { integrationId: randomUUID(), providerRestaurantId: 'pos-rest-9', isActive: true },
    webhooks: {
      statusUrl: settings.statusUrl ?? null,
      cancelUrl: settings.cancelUrl ?? null,
      signingSecretCiphertext: base.signingSecret === null ? null : box.encrypt(base.signingSecret, secretBinding.webhookSigningSecret(base.restaurantId)),
      previousSigningSecretCiphertext: settings.previousSigningSecret ? box.encrypt(settings.previousSigningSecret.secret, secretBinding.webhookSigningSecret(base.restaurantId)) : null,
      previousSigningSecretValidUntil: settings.previousSigningSecret ? settings.previousSigningSecret.validUntil.toISOString() : null,
    },
    version,
    createdAt,
    occurredAt: new Date().toISOString(),
  });

  const harness: SenderApp = {
    ...started,
    metrics: app.get(WebhookMetrics),
    pump: app.get(DeliveryPump),
    publishAccount: (account) => publish(account.snapshot.version === 1 ? RoutingKey.AccountCreated : RoutingKey.WebhookSettingsChanged, account.snapshot),
    createAccount: async (settings = {}, restaurantId = newRestaurantId()) => {
      const base = {
        restaurantId,
        apiKey: generateToken(32, 'cik_'),
        apiSecret: generateToken(32, 'cis_'),
        signingSecret: settings.signingSecret === undefined ? generateWebhookSigningSecret() : settings.signingSecret,
      };
      const account = { ...base, snapshot: snapshotOf(base, settings, 1, new Date().toISOString()) };
      await harness.publishAccount(account);
      return account;
    },
    changeAccount: async (account, settings) => {
      const base = { ...account, signingSecret: settings.signingSecret === undefined ? account.signingSecret : settings.signingSecret };
      const merged: AccountSettings = { statusUrl: account.snapshot.webhooks.statusUrl, cancelUrl: account.snapshot.webhooks.cancelUrl, status: account.snapshot.status, ...settings };
      const changed = { ...base, snapshot: snapshotOf(base, merged, account.snapshot.version + 1, account.snapshot.createdAt) };
      await harness.publishAccount(changed);
      return changed;
    },
    publishStatusChanged: async (account, fields = {}, messageId) => {
      sequence += 1;
      const event = { ...statusChanged, yemekKuryeOrderId: randomUUID(), orderId: `pos-${sequence}`, restaurantId: account.restaurantId, sequence, timestamp: new Date().toISOString(), ...fields };
      await publish(RoutingKey.OrderStatusChanged, event, messageId);
      return event;
    },
    publishCanceled: async (account, fields = {}, messageId) => {
      sequence += 1;
      const event = { ...canceled, yemekKuryeOrderId: randomUUID(), orderId: `pos-${sequence}`, restaurantId: account.restaurantId, sequence, timestamp: new Date().toISOString(), ...fields };
      await publish(RoutingKey.OrderCanceled, event, messageId);
      return event;
    },
    publishAvailabilityChanged: async (account, fields = {}, messageId) => {
      const event: RestaurantAvailabilityChangedEvent = { ...availabilityChanged, changeEventId: randomUUID(), restaurantId: account.restaurantId, integrationId: randomUUID(), occurredAt: new Date().toISOString(), ...fields };
      await publish(RoutingKey.RestaurantAvailabilityChanged, event, messageId);
      return event;
    },
    publishCatalogDrift: async (account, fields = {}, messageId) => {
      const event: CatalogDriftDetectedEvent = { ...catalogDriftDetected, driftEventId: randomUUID(), restaurantId: account.restaurantId, integrationId: randomUUID(), importId: randomUUID(), detectedAt: new Date().toISOString(), ...fields };
      await publish(RoutingKey.CatalogDriftDetected, event, messageId);
      return event;
    },
    delivery: async (account, id) => {
      const response = await http.get(`/api/v1/my/webhooks/deliveries/${id}`).set(credentials(account));
      if (response.status !== 200) throw new Error(`delivery ${id}: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body;
    },
    waitForDelivery: (account, id, predicate, timeoutMs = 15_000) =>
      waitFor(
        `delivery ${id}`,
        async () => {
          const delivery = await harness.delivery(account, id);
          return predicate(delivery) ? delivery : undefined;
        },
        timeoutMs,
      ),
  };
  return harness;
}

/** The id of the delivery the sender made for an order event (looked up in the database). */
export async function deliveryIdOf(sender: SenderApp, event: { yemekKuryeOrderId: string }, kind = 'order.status_changed'): Promise<string> {
  const [row] = await sender.sql<{ id: string }>('SELECT id FROM webhook_deliveries WHERE yemek_kurye_order_id = $1 AND event = $2', [event.yemekKuryeOrderId, kind]);
  if (!row) throw new Error(`no delivery for ${event.yemekKuryeOrderId}`);
  return row.id;
}
