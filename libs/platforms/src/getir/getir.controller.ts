import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { PlatformApiProblems as ApiProblems } from '../common/platform-api-problems';
import { invalidPlatformPayload, requireActiveIntegration } from '../common/platform-callback.auth';
import { PlatformOrderIntake } from '../common/platform-order-intake';
import { PlatformAWebhookGuard } from './getir-webhook.guard';
import { parsePlatformAOrder } from './getir.orders';

const PLATFORM = 'PLATFORM_A';
const FOOD_ORDER = {
  type: 'object',
  description:
    'A Getir food order (id, status, isScheduled, confirmationId, client, products, totalPrice, totalDiscountedPrice, checkoutDate, deliveryType, paymentMethod, restaurant.id, ...), ' +
    'bare or wrapped as { foodOrder: {...} }. A cancellation adds cancelDate, cancelNote and cancelReason { id, messages { tr, en }, cancelSource }.',
  additionalProperties: true,
};

/**
 * PLATFORM_A's partner webhooks (new order, cancelled order; G asyncapi/getir-food-webhooks.yml),
 * authenticated by the static `x-api-key` Getir sends on both (PlatformAWebhookGuard, before the body
 * is read). Getir documents no answer it expects, so refusals are our problem JSON. A webhook that
 * never arrives is picked up by PlatformAPoller.
 */
@ApiTags('platform callbacks')
@ApiSecurity('x-api-key')
@ApiHeader({ name: 'x-api-key', required: true, description: 'PLATFORM_A_WEBHOOK_API_KEY' })
@ApiProblems([401, 'AUTHENTICATION_FAILED: x-api-key missing or not PLATFORM_A_WEBHOOK_API_KEY (checked before the body is read).'], [400, 'INVALID_PAYLOAD: not JSON, or nested more than 32 levels (refused before parsing).'], 413, [422, 'VALIDATION_ERROR: the food order lacks id or restaurant.id, or has malformed fields.'], 500)
@UseGuards(PlatformAWebhookGuard)
@Controller('platforms/platform-a')
export class PlatformAController {
  constructor(private readonly orders: PlatformOrderIntake) {}

  @Post('orders')
  @HttpCode(200)
  @ApiOperation({
    summary: 'PLATFORM_A new-order webhook.',
    description:
      'The order becomes an order of the restaurant whose PLATFORM_A integration has restaurant.id as providerRestaurantId. The same order again (the platform repeating itself) answers 200 with the same yemekKuryeOrderId and changes nothing. ' +
      'An order is the platform store\'s own: the same id under another restaurant.id is another store\'s order, never answered with this one\'s id.',
  })
  @ApiBody({ schema: FOOD_ORDER })
  @ApiOkResponse({ schema: { type: 'object', properties: { received: { type: 'boolean' }, yemekKuryeOrderId: { type: 'string', format: 'uuid' }, duplicate: { type: 'boolean' } } } })
  @ApiProblems(
    [403, 'INTEGRATION_DISABLED: the integration is inactive or the account disabled.'],
    [404, 'INTEGRATION_NOT_FOUND: no PLATFORM_A integration has this restaurant.'],
    [409, 'PLATFORM_ORDER_OF_ANOTHER_INTEGRATION: this store\'s order with this id was received for another integration (the store\'s integration replaced).'],
  )
  async newOrder(@Body() body: unknown) {
    const parsed = parsePlatformAOrder(body);
    if (!parsed.ok) throw invalidPlatformPayload(parsed.errors);
    const integration = requireActiveIntegration(await this.orders.forPlatformRestaurant(PLATFORM, parsed.order.providerRestaurantId), PLATFORM, parsed.order.providerRestaurantId);
    const received = await this.orders.receive(integration, parsed.order);
    return { received: true, yemekKuryeOrderId: received.yemekKuryeOrderId, duplicate: !received.created };
  }

  @Post('orders/cancelled')
  @HttpCode(200)
  @ApiOperation({
    summary: 'PLATFORM_A cancelled-order webhook.',
    description:
      'Cancels the order of the store named by restaurant.id (order.canceled with OTHER / System and the platform\'s note). A repeat, or an order never received, answers 200 too (`result` says which): the platform would otherwise repeat it. ' +
      'Without restaurant.id only an order id one store holds is cancelled; several: `ambiguous`, nothing cancelled (the store\'s fallback poll brings the cancellation with its store).',
  })
  @ApiBody({ schema: FOOD_ORDER })
  @ApiOkResponse({ schema: { type: 'object', properties: { received: { type: 'boolean' }, result: { type: 'string', enum: ['canceled', 'already_final', 'unknown', 'ambiguous'] } } } })
  async cancelledOrder(@Body() body: unknown) {
    const parsed = parsePlatformAOrder(body, { restaurantRequired: false });
    if (!parsed.ok) throw invalidPlatformPayload(parsed.errors);
    // A body that names its restaurant cancels only that restaurant's order.
    return { received: true, result: await this.orders.cancel(PLATFORM, parsed.order.platformOrderId, parsed.order.cancelNote, parsed.order.providerRestaurantId || undefined) };
  }
}
