/* eslint-disable @typescript-eslint/no-explicit-any -- rows and bodies of tests are loosely typed, as in the specs */
import * as amqp from 'amqplib';
import { randomBytes, randomUUID } from 'node:crypto';
import { AccountSnapshot, Queues, RoutingKey } from '@courier/contracts';
import { hashCredential } from '@courier/crypto';
import { createHttpApp } from '@courier/http';
import { deadLetterQueueName, topologyNames } from '@courier/messaging';
import { AppUnderTest, startAppUnderTest, testBrokerUrl, TestDatabase, waitFor } from '@courier/testing';
import { createAppModule } from '../src/app/app.module';
import { SERVICE_DESCRIPTION } from '../src/app/openapi';

/** Helpers of the intake-api integration tests: real apps on a fresh database, through HTTP. */

/** Queues intake-api consumes itself; every other queue gets a recording consumer in tests. */
const INTAKE_QUEUES = new Set([Queues.intakeAccountEvents.name, Queues.intakeOrderEvents.name]);

export interface TestAccount {
  restaurantId: string;
  apiKey: string;
  apiSecret: string;
  snapshot: AccountSnapshot;
}

/** The app (libs/testing's AppUnderTest: app, http, database, logLines, delivered, transport, sql, close) and intake's fixtures. */
export interface IntakeTestApp extends AppUnderTest {
  /** Publishes an account snapshot and waits until the read model holds its version. */
  publishAccount(snapshot: AccountSnapshot, routingKey?: RoutingKey): Promise<void>;
  /** A new active account with an active THIRD_PARTY integration, known to the read model. */
  createAccount(changes?: Partial<AccountSnapshot>): Promise<TestAccount>;
  /** Publishes the account with `changes` and the next version (account.updated by default). */
  updateAccount(account: TestAccount, changes: Partial<AccountSnapshot>, routingKey?: RoutingKey): Promise<TestAccount>;
}

export interface IntakeTestAppOptions {
  database?: TestDatabase;
  env?: Record<string, string | undefined>;
  /** Attach recording consumers to the other apps' queues (default true). */
  recordOtherQueues?: boolean;
}

export function newAccountSnapshot(changes: Partial<AccountSnapshot> = {}): { snapshot: AccountSnapshot; apiKey: string; apiSecret: string } {
  const apiKey = `cik_${randomBytes(32).toString('base64url')}`;
  const apiSecret = `cis_${randomBytes(32).toString('base64url')}`;
  const restaurantId = `rest_${randomBytes(15).toString('base64url')}`;
  const now = new Date().toISOString();
  const snapshot: AccountSnapshot = {
    restaurantId,
    name: 'Test Restaurant',
    status: 'active',
    apiKeyHash: hashCredential(apiKey),
    apiSecretHash: hashCredential(apiSecret),
    thirdParty: { integrationId: randomUUID(), providerRestaurantId: `pos-${restaurantId.slice(5, 12)}`, isActive: true },
    webhooks: { statusUrl: null, cancelUrl: null, signingSecretCiphertext: null },
    version: 1,
    createdAt: now,
    occurredAt: now,
    ...changes,
  };
  return { snapshot, apiKey, apiSecret };
}

/** A valid order of `restaurantId` with a fresh orderId. */
export function validOrder(restaurantId: string, changes: Record<string, unknown> = {}): Record<string, any> {
  return {
    orderId: `ord-${randomUUID()}`,
    restaurantId,
    customerName: 'Ayşe Yılmaz',
    customerPhone: '+905321234567',
    deliveryAddress: 'Bağdat Cd. 10, Kadıköy, İstanbul',
    paymentMethod: 'CARD_POS',
    subtotal: 300,
    deliveryFee: 20,
    total: 320,
    currency: 'TRY',
    items: [{ productCode: 'SKU-1', productName: 'Adana kebab', quantity: 2, unitPrice: 150, totalAmount: 300 }],
    ...changes,
  };
}

export const keyHeader = (account: { apiKey: string }) => ({ 'X-API-Key': account.apiKey });
export const basicHeader = (key: string, secret = '') => ({ Authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` });

export async function startIntakeApp(options: IntakeTestAppOptions = {}): Promise<IntakeTestApp> {
  const base = await startAppUnderTest({
    databasePrefix: 'intake_api',
    database: options.database,
    schema: 'intake',
    env: {
      RABBITMQ_URL: undefined,
      RABBITMQ_NAMESPACE: undefined,
      REDIS_URL: undefined,
      GEOCODER_URL: undefined,
      INTAKE_RATE_LIMIT_PER_MINUTE: '100000',
      LOG_LEVEL: 'info',
      LOG_PRETTY: 'false',
      SHUTDOWN_GRACE_MS: '500',
      OUTBOX_POLL_MS: '100',
      ...options.env,
    },
    restoreEnvAfterCreate: true,
    create: (logDestination) => createHttpApp(createAppModule({ logDestination }), SERVICE_DESCRIPTION),
    consumers: options.recordOtherQueues === false ? 'none' : 'record',
    ownQueues: [...INTAKE_QUEUES],
    poolMax: 4,
  });
  const { transport, sql } = base;

  const publishAccount = async (snapshot: AccountSnapshot, routingKey: RoutingKey = RoutingKey.AccountUpdated) => {
    await transport.publish([{ messageId: randomUUID(), routingKey, payload: snapshot }]);
    await waitFor(`account ${snapshot.restaurantId} v${snapshot.version}`, async () => {
      const rows = await sql<{ version: number }>('SELECT version FROM accounts WHERE restaurant_id = $1', [snapshot.restaurantId]);
      return rows.length > 0 && rows[0].version >= snapshot.version;
    });
  };

  return {
    ...base,
    publishAccount,
    createAccount: async (changes = {}) => {
      const { snapshot, apiKey, apiSecret } = newAccountSnapshot(changes);
      await publishAccount(snapshot, RoutingKey.AccountCreated);
      return { restaurantId: snapshot.restaurantId, apiKey, apiSecret, snapshot };
    },
    updateAccount: async (account, changes, routingKey = RoutingKey.AccountUpdated) => {
      const snapshot = { ...account.snapshot, ...changes, version: account.snapshot.version + 1, occurredAt: new Date().toISOString() };
      await publishAccount(snapshot, routingKey);
      return { ...account, snapshot };
    },
  };
}

/** Deletes the queues and exchanges of a test namespace on the broker. */
export async function deleteBrokerNamespace(namespace: string): Promise<void> {
  const names = topologyNames(namespace);
  const connection = await amqp.connect(testBrokerUrl());
  try {
    const channel = await connection.createChannel();
    for (const queue of Object.values(Queues)) {
      const { name } = names.queue(queue);
      await channel.deleteQueue(name);
      await channel.deleteQueue(deadLetterQueueName(name));
    }
    await channel.deleteExchange(names.events);
    await channel.deleteExchange(names.deadLetter);
    await channel.close();
  } finally {
    await connection.close();
  }
}
