import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { callbackUnauthorized, invalidPlatformPayload, presentedKeyMatches, requireActiveIntegration } from '../../common/platform-callback.auth';
import { PlatformOrderIntake } from '../../common/platform-order-intake';
import { parseExampleOrder } from './example.orders';
import { EXAMPLE_PLATFORM } from './example.platform';

/** The example platform's new-order webhook, authenticated with the store's own apiKey (`x-api-key`). */
@ApiExcludeController()
@Controller('platforms/example')
export class ExamplePlatformController {
  constructor(private readonly orders: PlatformOrderIntake) {}

  @Post('orders')
  @HttpCode(200)
  async newOrder(@Headers('x-api-key') key: unknown, @Body() body: unknown) {
    const parsed = parseExampleOrder(body);
    if (!parsed.ok) throw invalidPlatformPayload(parsed.errors);
    const { providerRestaurantId } = parsed.order;
    const integration = requireActiveIntegration(await this.orders.forPlatformRestaurant(EXAMPLE_PLATFORM.code, providerRestaurantId), EXAMPLE_PLATFORM.code, providerRestaurantId);
    if (!presentedKeyMatches(key, this.orders.credentials(integration).secrets.apiKey)) throw callbackUnauthorized('x-api-key');
    const received = await this.orders.receive(integration, parsed.order);
    return { received: true, yemekKuryeOrderId: received.yemekKuryeOrderId, duplicate: !received.created };
  }
}
