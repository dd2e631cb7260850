import { Body, Controller, Headers, HttpCode, Logger, Post } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { SecretDecryptionError } from '@courier/crypto';
import { parsePlatformDEvent, PLATFORM_D_EVENTS } from '@courier/platforms';
import { ApiProblems } from '../common/problem.dto';
import { IntegrationDirectory } from '../platform-sessions/integration-directory';
import { callbackUnauthorized, invalidPlatformPayload, presentedKeyMatches, requireActiveIntegration } from './platform-callback.auth';
import { PlatformOrdersService } from './platform-orders.service';

const PLATFORM = 'PLATFORM_D';

/**
 * PLATFORM_D's order webhook, on the assumptions of libs/platforms (platform-d.assumptions.ts): the
 * platform signs in with the merchant's own apiKey, so the body names the restaurant and merchant
 * first and the key is checked against that integration's key.
 */
@ApiTags('platform callbacks')
@ApiSecurity('x-api-key')
@ApiHeader({ name: 'X-API-Key', required: true, description: 'The merchant\'s apiKey (the integration\'s apiKey)' })
@ApiProblems(400, 413, 500)
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
    summary: 'PLATFORM_D order webhook (assumed API): ORDER_CREATED and ORDER_CANCELLED.',
    description:
      'ORDER_CREATED: the order becomes an order of the restaurant (a repeat answers the same yemekKuryeOrderId). ORDER_CANCELLED: cancels it (200 also when already cancelled or never received). ' +
      'The body is read before the key is checked, because the key is the merchant\'s own: a malformed body gets 422 whatever the key.',
  })
  @ApiBody({ schema: { type: 'object', required: ['eventType', 'merchantId', 'restaurantId', 'order'], additionalProperties: true } })
  @ApiOkResponse({ schema: { type: 'object', properties: { received: { type: 'boolean' }, yemekKuryeOrderId: { type: 'string' }, duplicate: { type: 'boolean' }, result: { type: 'string' } } } })
  @ApiProblems(
    [401, 'AUTHENTICATION_FAILED: no PLATFORM_D integration has restaurantId, or X-API-Key is not its apiKey, or merchantId not its providerMerchantId.'],
    [403, 'INTEGRATION_DISABLED: the integration is inactive or the account disabled (new orders only).'],
    [422, 'VALIDATION_ERROR: unknown eventType, missing ids, malformed fields.'],
  )
  async event(@Headers('x-api-key') key: unknown, @Body() body: unknown) {
    const event = parsePlatformDEvent(body);
    if (!event.ok) throw invalidPlatformPayload(event.errors);
    const { order } = event.parsed;
    const integration = await this.directory.forPlatformRestaurant(PLATFORM, order.providerRestaurantId);
    // Unknown restaurant and wrong key look alike to a caller without the key.
    if (!integration || integration.settings.providerMerchantId !== event.merchantId || !presentedKeyMatches(key, this.merchantKey(integration))) throw callbackUnauthorized('X-API-Key');
    if (event.eventType === PLATFORM_D_EVENTS.cancelled) return { received: true, result: await this.orders.cancel(PLATFORM, order.platformOrderId, order.cancelNote) };
    const received = await this.orders.receive(requireActiveIntegration(integration, PLATFORM, order.providerRestaurantId), order);
    return { received: true, yemekKuryeOrderId: received.yemekKuryeOrderId, duplicate: !received.created };
  }

  private merchantKey(integration: Parameters<IntegrationDirectory['credentials']>[0]): string | undefined {
    try {
      return this.directory.credentials(integration).secrets.apiKey;
    } catch (error) {
      if (!(error instanceof SecretDecryptionError)) throw error;
      this.logger.error({ integrationId: integration.integrationId, keyId: error.keyId }, 'integration secret cannot be decrypted (SECRETS_ENCRYPTION_KEYS lacks its key)');
      return undefined;
    }
  }
}
