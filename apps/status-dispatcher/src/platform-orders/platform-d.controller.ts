import { Body, Controller, Headers, HttpCode, Logger, Post } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { SecretDecryptionError } from '@courier/crypto';
import { parsePlatformDWebhook } from '@courier/platforms';
import { ApiProblems } from '../common/api-problems';
import { DirectoryIntegration, IntegrationDirectory } from '../platform-sessions/integration-directory';
import { callbackUnauthorized, invalidPlatformPayload, presentedKeyMatches, requireActiveIntegration } from './platform-callback.auth';
import { PlatformOrdersService } from './platform-orders.service';

const PLATFORM = 'PLATFORM_D';
const WEBHOOK_BODY: SchemaObject = {
  description:
    'Migros\' Order Created body (the order: `id`, `status` NEW_PENDING, `deliveryProvider`, `store { id, group { id } }`, `customer`, `prices { total, discounted { amountAsPenny } }`, `items [{ price (kuruş) ... }]`, `payment`, `extendedProperties`) or its cancellation `{ OrderId, StoreId, UserId }`.',
  oneOf: [
    {
      type: 'object',
      title: 'Order created',
      required: ['id', 'store'],
      properties: {
        id: { oneOf: [{ type: 'integer' }, { type: 'string', maxLength: 64 }], description: 'Migros\' order id.' },
        store: {
          type: 'object',
          required: ['id'],
          properties: { id: { oneOf: [{ type: 'integer' }, { type: 'string', maxLength: 64 }], description: 'The store: the integration\'s providerRestaurantId.' } },
          additionalProperties: true,
        },
      },
      additionalProperties: true,
    },
    { type: 'object', title: 'Order cancelled', required: ['OrderId', 'StoreId'], properties: { OrderId: { type: 'integer' }, StoreId: { type: 'integer' }, UserId: { type: 'integer' } }, additionalProperties: true },
  ],
};

/**
 * PLATFORM_D's (Migros Yemek) webhooks. Migros posts the order as plain JSON, and a cancellation as
 * `{ OrderId, StoreId, UserId }`. How Migros authenticates them is not documented
 * (platform-d.assumptions.ts): the store's own apiKey is expected in `XApiKey`, the header Migros'
 * API uses, so the body's store id is read first and the key compared with that integration's.
 * Both paths take both shapes (which URL Migros posts which event to is configured on its side).
 */
@ApiTags('platform callbacks')
@ApiSecurity('XApiKey')
@ApiHeader({ name: 'XApiKey', required: true, description: 'The Migros store\'s API key (the integration\'s apiKey).' })
@ApiProblems(
  400,
  413,
  [401, 'AUTHENTICATION_FAILED: no PLATFORM_D integration has the store id, or XApiKey is not its apiKey.'],
  [422, 'VALIDATION_ERROR: neither an order (id, store.id) nor a cancellation (OrderId, StoreId), or malformed fields.'],
  500,
)
@Controller('platforms/platform-d')
export class PlatformDController {
  private readonly logger = new Logger('PlatformD');

  constructor(
    private readonly directory: IntegrationDirectory,
    private readonly orders: PlatformOrdersService,
  ) {}

  @Post('orders')
  @HttpCode(200)
  @ApiOperation({
    summary: 'PLATFORM_D (Migros Yemek) order webhook.',
    description:
      'A new order becomes an order of the restaurant whose PLATFORM_D integration has `store.id` as providerRestaurantId (kuruş amounts in TRY); the same order again answers the same yemekKuryeOrderId. ' +
      'An order is the store\'s own: the same id under another store is that store\'s order, never answered with this one\'s id. ' +
      'A cancellation body sent here is handled as on /orders/cancelled. The body is read before the key is checked, because the key is the store\'s own: a malformed body gets 422 whatever the key.',
  })
  @ApiBody({ schema: WEBHOOK_BODY })
  @ApiOkResponse({ schema: { type: 'object', properties: { received: { type: 'boolean' }, yemekKuryeOrderId: { type: 'string', format: 'uuid' }, duplicate: { type: 'boolean' }, result: { type: 'string', enum: ['canceled', 'already_final', 'unknown'] } } } })
  @ApiProblems(
    [403, 'INTEGRATION_DISABLED: the integration is inactive or the account disabled (new orders only).'],
    [409, 'PLATFORM_ORDER_OF_ANOTHER_INTEGRATION: this store\'s order with this id was received for another integration (the store\'s integration replaced).'],
  )
  order(@Headers('xapikey') key: unknown, @Body() body: unknown) {
    return this.webhook(key, body);
  }

  @Post('orders/cancelled')
  @HttpCode(200)
  @ApiOperation({
    summary: 'PLATFORM_D (Migros Yemek) cancellation webhook: `{ OrderId, StoreId, UserId }`.',
    description: 'Cancels the store\'s order (order.canceled with OTHER / System). A repeat, or an order never received, answers 200 too (`result` says which). An order body sent here is handled as on /orders.',
  })
  @ApiBody({ schema: WEBHOOK_BODY })
  @ApiOkResponse({ schema: { type: 'object', properties: { received: { type: 'boolean' }, result: { type: 'string', enum: ['canceled', 'already_final', 'unknown'] } } } })
  cancelled(@Headers('xapikey') key: unknown, @Body() body: unknown) {
    return this.webhook(key, body);
  }

  private async webhook(key: unknown, body: unknown) {
    const webhook = parsePlatformDWebhook(body);
    if (!webhook.ok) throw invalidPlatformPayload(webhook.errors);
    const integration = await this.directory.forPlatformRestaurant(PLATFORM, webhook.storeId);
    // Unknown store and wrong key look alike to a caller without the key.
    if (!integration || !presentedKeyMatches(key, this.storeKey(integration))) throw callbackUnauthorized('XApiKey');
    if (webhook.kind === 'cancellation') {
      return { received: true, result: await this.orders.cancel(PLATFORM, webhook.orderId, `Cancelled on Migros Yemek${webhook.userId ? ` (user ${webhook.userId})` : ''}`, webhook.storeId) };
    }
    const received = await this.orders.receive(requireActiveIntegration(integration, PLATFORM, webhook.storeId), webhook.order);
    return { received: true, yemekKuryeOrderId: received.yemekKuryeOrderId, duplicate: !received.created };
  }

  private storeKey(integration: DirectoryIntegration): string | undefined {
    try {
      return this.directory.credentials(integration).secrets.apiKey;
    } catch (error) {
      if (!(error instanceof SecretDecryptionError)) throw error;
      this.logger.error({ integrationId: integration.integrationId, keyId: error.keyId }, 'integration secret cannot be decrypted (SECRETS_ENCRYPTION_KEYS lacks its key)');
      return undefined;
    }
  }
}
