/* eslint-disable @typescript-eslint/no-explicit-any -- rows and bodies of tests are loosely typed, as in the specs */
import { randomBytes, randomUUID } from 'node:crypto';
import type request from 'supertest';
import { OrderCreatedEvent, Queues, RoutingKey } from '@courier/contracts';
import { generateEncryptionKeyEntry } from '@courier/crypto';
import { createHttpApp } from '@courier/http';
import { AppUnderTest, startAppUnderTest, TestDatabase } from '@courier/testing';
import { AppModuleOptions, createAppModule } from '../src/app/app.module';
import { SERVICE_DESCRIPTION } from '../src/app/openapi';

/** Helpers of the status-dispatcher integration tests: a real app on a fresh database, through HTTP. */

export const INTERNAL_KEY = 'internal-key-current-0123456789abcdef';
/** A second configured key: both work at once while callers rotate. */
export const PREVIOUS_INTERNAL_KEY = 'internal-key-previous-fedcba9876543210';
export const internal = (key = INTERNAL_KEY) => ({ 'X-Internal-Api-Key': key });
export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
export const admin = { 'X-Admin-Token': ADMIN_TOKEN };
/** SECRETS_ENCRYPTION_KEYS of the test apps (the integrations' secrets are sealed with it). */
export const SECRETS_KEYS = generateEncryptionKeyEntry('test1');

/** ISO 8601 with an offset (Z included), as the events carry times. */
export const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export interface OutboxRow {
  id: string;
  routing_key: string;
  payload: Record<string, any>;
  created_at: Date;
}

/** The app (libs/testing's AppUnderTest: app, http, database, logLines, delivered, sql, baseUrl, close) and the dispatcher's fixtures. */
export interface TestApp extends AppUnderTest {
  /** Outbox rows (events published by the app), oldest first; optionally of one order only. */
  outbox(routingKey?: string, yemekKuryeOrderId?: string): Promise<OutboxRow[]>;
  /** Delivers a message to the app's queues through the in-process broker; resolves once handled (or dead-lettered). */
  deliver(routingKey: string, payload: unknown, messageId?: string): Promise<void>;
  /** Sends order.created and returns the stored order (GET /internal/orders/{id}). */
  createOrder(overrides?: Partial<OrderCreatedEvent>): Promise<any>;
  transition(id: string, body: Record<string, unknown>, headers?: Record<string, string>): Promise<request.Response>;
}

export interface TestAppOptions {
  /** Reuse a database (restart scenarios); otherwise a fresh one is created. */
  database?: TestDatabase;
  env?: Record<string, string | undefined>;
  /** Listen on a random port of 127.0.0.1 (for callers outside the process, such as the platform simulators). */
  listen?: boolean;
  /** The platforms the app serves (default: the registry's): a test registers one more. */
  platforms?: AppModuleOptions['platforms'];
}

export function newRestaurantId(): string {
  return `rest_${randomBytes(18).toString('base64url')}`;
}

/** A valid order.created payload (an ordinary, unscheduled order received now). */
export function orderCreatedEvent(overrides: Partial<OrderCreatedEvent> = {}): OrderCreatedEvent {
  return {
    yemekKuryeOrderId: randomUUID(),
    orderId: `POS-${randomBytes(4).toString('hex')}`,
    restaurantId: newRestaurantId(),
    provider: 'THIRD_PARTY',
    providerRestaurantId: `pos-rest-${randomBytes(3).toString('hex')}`,
    receivedAt: new Date().toISOString(),
    details: {
      customerName: 'Ada Lovelace',
      deliveryAddress: 'Moda Cd. 1, Kadıköy, İstanbul',
      currency: 'TRY',
      total: 120.5,
      items: [{ productCode: 'P1', productName: 'Lahmacun', quantity: 2, unitPrice: 60.25, totalAmount: 120.5 }],
    },
    ...overrides,
  };
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const base = await startAppUnderTest({
    databasePrefix: 'status_dispatcher',
    database: options.database,
    schema: 'dispatcher',
    env: {
      RABBITMQ_URL: undefined,
      INTERNAL_API_KEYS: `${INTERNAL_KEY},${PREVIOUS_INTERNAL_KEY}`,
      ADMIN_TOKEN,
      SECRETS_ENCRYPTION_KEYS: SECRETS_KEYS,
      LOG_LEVEL: 'info',
      LOG_PRETTY: 'false',
      SHUTDOWN_GRACE_MS: '500',
      OUTBOX_POLL_MS: '100',
      TASK_POLL_MS: '100',
      // Tests send many wrong credentials from one address on purpose; the throttle's own tests set these low.
      AUTH_FAILURE_LIMIT_PER_MINUTE: '100000',
      AUTH_FAILURE_KEY_LIMIT_PER_MINUTE: '100000',
      ...options.env,
    },
    create: (logDestination) => createHttpApp(createAppModule({ logDestination, platforms: options.platforms }), SERVICE_DESCRIPTION),
    listen: options.listen,
    // Stand-ins for the other apps' consumers, so the relay can hand the app's events over; the
    // dispatcher's own queues are left to the app (a second consumer there would take its messages).
    consumers: 'record',
    ownQueues: [Queues.dispatcherOrderEvents.name, Queues.dispatcherAccountEvents.name],
    poolMax: 3,
  });
  const { sql, http, transport } = base;
  const deliver = (routingKey: string, payload: unknown, messageId: string = randomUUID()) => transport.publish([{ messageId, routingKey, payload }]);

  return {
    ...base,
    deliver,
    outbox: (routingKey?: string, yemekKuryeOrderId?: string) =>
      sql<OutboxRow>(
        `SELECT id, routing_key, payload, created_at FROM outbox_messages
          WHERE ($1::text IS NULL OR routing_key = $1) AND ($2::text IS NULL OR payload->>'yemekKuryeOrderId' = $2)
          ORDER BY created_at, id`,
        [routingKey ?? null, yemekKuryeOrderId ?? null],
      ),
    createOrder: async (overrides: Partial<OrderCreatedEvent> = {}) => {
      const event = orderCreatedEvent(overrides);
      await deliver(RoutingKey.OrderCreated, event);
      const response = await http.get(`/internal/orders/${event.yemekKuryeOrderId}`).set(internal());
      if (response.status !== 200) throw new Error(`order not created: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body;
    },
    transition: (id: string, body: Record<string, unknown>, headers: Record<string, string> = internal()) =>
      http.post(`/internal/orders/${id}/transitions`).set(headers).send(body),
  };
}
