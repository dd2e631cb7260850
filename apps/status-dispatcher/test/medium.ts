import { randomBytes, randomUUID } from 'node:crypto';
import { IntegrationUpsertedEvent, RoutingKey } from '@courier/contracts';
import { generateEncryptionKeyEntry, SecretBox, secretBinding } from '@courier/crypto';
import { MessageContext } from '@courier/messaging';
import { platformClientConfig, PlatformAdapters, PLATFORMS } from '@courier/platforms';
import { createMediumDatabase, MediumContext, MediumDatabase, newMediumContext } from '@courier/testing';
import { AccountDirectoryModule } from '../src/account-directory/account-directory.module';
import { AccountDirectoryRepository } from '../src/account-directory/account-directory.repository';
import { DispatcherConfig } from '../src/app/status-dispatcher.config';
import { PERSISTENCE } from '../src/app/persistence';
import { OrderCreatedPayload } from '../src/orders/order-created.payload';
import { OrderCreationConsumer } from '../src/orders/order-creation.consumer';
import { OrdersModule } from '../src/orders/orders.module';
import { PlatformOrdersModule } from '../src/platform-orders/platform-orders.module';
import { PlatformOrdersService } from '../src/platform-orders/platform-orders.service';
import { IntegrationDirectory } from '../src/platform-sessions/integration-directory';
import { StatusUpdatesModule } from '../src/status-updates/status-updates.module';
import { orderCreatedEvent } from './harness';

/** The middle tier of status-dispatcher: its feature modules on their own database, no HTTP, broker or simulator. */

export const MEDIUM_SECRETS_KEYS = generateEncryptionKeyEntry('medium1');

/** Every platform's base URL on a closed local port: a platform call fails at connect (a network error), never reaching a real host. */
const CLOSED_PLATFORMS = Object.fromEntries(['A', 'B', 'C', 'D'].map((letter) => [`PLATFORM_${letter}_BASE_URL`, 'http://127.0.0.1:9']));

export interface DispatcherMedium {
  ctx: MediumContext;
  db: MediumDatabase;
  close(): Promise<void>;
}

/** The dispatcher's order, platform-order and status-update modules, real, on a fresh migrated database. */
export async function startDispatcherMedium(env: Record<string, string | undefined> = {}): Promise<DispatcherMedium> {
  const db = await createMediumDatabase('status_dispatcher', PERSISTENCE);
  try {
    const ctx = await newMediumContext({
      database: db,
      config: {
        schema: DispatcherConfig,
        env: { NODE_ENV: 'test', DATABASE_URL: db.database.url, INTERNAL_API_KEYS: 'internal-key-medium-0123456789abcdef', SECRETS_ENCRYPTION_KEYS: MEDIUM_SECRETS_KEYS, SHUTDOWN_GRACE_MS: '2000', ...env },
      },
      imports: [AccountDirectoryModule, OrdersModule, PlatformOrdersModule, StatusUpdatesModule],
      overrides: [{ token: PlatformAdapters, value: new PlatformAdapters(platformClientConfig({ ...CLOSED_PLATFORMS, PLATFORM_HTTP_TIMEOUT_MS: '2000' }), undefined, { platforms: PLATFORMS }) }],
    });
    return {
      ctx,
      db,
      close: async () => {
        try {
          await ctx.close();
        } finally {
          await db.close();
        }
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}

/** A THIRD_PARTY order as order.created creates it (through the consumer, inbox included); returns its id. */
export async function createThirdPartyOrder(ctx: MediumContext): Promise<string> {
  const event = orderCreatedEvent();
  const message = { messageId: randomUUID(), routingKey: RoutingKey.OrderCreated, payload: event, headers: {}, deliveryCount: 1 };
  await ctx.get(OrderCreationConsumer).onOrderCreated(event as unknown as OrderCreatedPayload, new MessageContext([message, 'order-events']));
  return event.yemekKuryeOrderId;
}

/** A verified integration of `platform` in the account directory (as integration.upserted stores it), with sealed secrets. */
export async function storeIntegration(ctx: MediumContext, platform: string, secrets: Record<string, string>, settings: Record<string, string> = {}) {
  const box = SecretBox.fromKeyList(MEDIUM_SECRETS_KEYS);
  const integrationId = randomUUID();
  const now = new Date().toISOString();
  const event: IntegrationUpsertedEvent = {
    integrationId,
    restaurantId: `rest_${randomBytes(18).toString('base64url')}`,
    platform,
    providerRestaurantId: `store-${randomBytes(4).toString('hex')}`,
    isActive: true,
    verification: 'verified',
    verifiedAt: now,
    settings,
    secrets: Object.fromEntries(Object.entries(secrets).map(([field, value]) => [field, box.encrypt(value, secretBinding.integrationSecret(integrationId, field))])),
    version: 1,
    createdAt: now,
    updatedAt: now,
    occurredAt: now,
  };
  await ctx.get(AccountDirectoryRepository).storeIntegration(event);
  const integration = await ctx.get(IntegrationDirectory).byId(integrationId);
  if (!integration) throw new Error(`integration ${integrationId} not in the directory`);
  return integration;
}

/** A new platform order received for `integration` (as a webhook or poll hands it over); returns its ids. */
export async function receivePlatformOrder(ctx: MediumContext, integration: Awaited<ReturnType<typeof storeIntegration>>) {
  const platformOrderId = `po-${randomBytes(6).toString('hex')}`;
  const received = await ctx.get(PlatformOrdersService).receive(integration, {
    platformOrderId,
    providerRestaurantId: integration.providerRestaurantId,
    orderNumber: platformOrderId.slice(-4),
    state: 'new',
    scheduledDeliveryTime: null,
    details: {
      customerName: 'Ada Lovelace',
      deliveryAddress: 'Moda Cd. 1, Kadıköy, İstanbul',
      currency: 'TRY',
      total: 120.5,
      items: [{ productCode: 'P1', productName: 'Lahmacun', quantity: 2, unitPrice: 60.25, totalAmount: 120.5 }],
    },
    platformData: {},
  });
  return { platformOrderId, yemekKuryeOrderId: received.yemekKuryeOrderId };
}
