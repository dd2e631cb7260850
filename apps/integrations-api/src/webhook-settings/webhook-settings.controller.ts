import { Body, Controller, Delete, Get, HttpCode, Post, Put, UseGuards } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiCredentialsGuard, CurrentAccount } from '@courier/http';
import { RestaurantEntity } from '../accounts/restaurant.entity';
import { ApiProblems } from '../common/api-problems';
import { SigningSecretDto, UpdateWebhookSettingsDto, WebhookSettingsDto } from './dto/webhook-settings.dto';
import { WebhookSettingsService } from './webhook-settings.service';

/** The account's webhook settings: receiver URLs and signing secret. */
@ApiTags('webhooks')
@ApiSecurity({ 'X-API-Key': [], 'X-API-Secret': [] })
@ApiProblems(401, 500)
@UseGuards(ApiCredentialsGuard)
@Controller('api/v1/my/webhooks')
export class WebhookSettingsController {
  constructor(private readonly settings: WebhookSettingsService) {}

  @Get()
  @ApiOperation({ summary: 'Webhook URLs and whether signing is on (the secret masked).' })
  @ApiOkResponse({ type: WebhookSettingsDto })
  get(@CurrentAccount() restaurant: RestaurantEntity): WebhookSettingsDto {
    return this.settings.view(restaurant);
  }

  @Put()
  @ApiOperation({
    summary: 'Set or clear the status and cancel URLs (fields not sent stay as they are).',
    description:
      'Checked when saved: https only (http allowed only when the deployment sets WEBHOOK_ALLOW_INSECURE_URLS), no user name or password in the URL, and the host must resolve only to public addresses (no private, loopback, link-local, unique-local, CGNAT, multicast or unspecified addresses). Refused URLs: 422 with the reason per field.',
  })
  @ApiOkResponse({ type: WebhookSettingsDto })
  @ApiProblems(400, 422)
  update(@CurrentAccount() restaurant: RestaurantEntity, @Body() body: UpdateWebhookSettingsDto): Promise<WebhookSettingsDto> {
    return this.settings.update(restaurant, body);
  }

  @Post('secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create or rotate the signing secret; it is returned only in this answer.',
    description:
      'A replaced secret keeps signing beside the new one until previousSecretValidUntil (WEBHOOK_SECRET_ROTATION_GRACE, 24 h by default): webhook-signature then carries two v1 signatures (new first), X-Service-Signature stays the previous secret\'s and X-Service-Signature-New carries the new one\'s, so receivers not yet updated keep verifying. Rotating again within that period drops the older secret at once.',
  })
  @ApiOkResponse({ type: SigningSecretDto })
  rotateSecret(@CurrentAccount() restaurant: RestaurantEntity): Promise<SigningSecretDto> {
    return this.settings.rotateSigningSecret(restaurant);
  }

  @Delete('secret')
  @HttpCode(204)
  @ApiOperation({ summary: 'Turn signing off (no-op when it is off); ends a rotation\'s grace period.' })
  @ApiNoContentResponse({ description: 'Signing is off.' })
  async removeSecret(@CurrentAccount() restaurant: RestaurantEntity): Promise<void> {
    await this.settings.removeSigningSecret(restaurant);
  }
}
