import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ThirdPartyIntegrationDto } from '../../accounts/dto/account.dto';

export class AdminWebhookSettingsDto {
  @ApiProperty({ type: String, nullable: true })
  statusUrl: string | null;

  @ApiProperty({ type: String, nullable: true })
  cancelUrl: string | null;

  @ApiProperty({ description: 'Whether a signing secret is set (never shown here).' })
  signingEnabled: boolean;
}

/** A restaurant account as the operator sees it (never its credentials). */
export class RestaurantDto {
  @ApiProperty({ example: 'rest_Qm9sZFBsYWNlaG9sZGVyMDAx' })
  restaurantId: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: ['active', 'disabled'] })
  status: string;

  @ApiProperty({ type: ThirdPartyIntegrationDto, nullable: true })
  thirdParty: ThirdPartyIntegrationDto | null;

  @ApiProperty({ type: AdminWebhookSettingsDto })
  webhooks: AdminWebhookSettingsDto;

  @ApiProperty({ description: 'Grows by one with each change of the account.' })
  version: number;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

/** Answer of account creation: the only time the key pair (and signing secret) are shown. */
export class CreatedRestaurantDto extends RestaurantDto {
  @ApiProperty({ description: 'X-API-Key of the account. Shown only here; store it now.', example: 'cik_...' })
  apiKey: string;

  @ApiProperty({ description: 'X-API-Secret of the account. Shown only here; store it now.', example: 'cis_...' })
  apiSecret: string;

  @ApiPropertyOptional({ description: 'Webhook signing secret, when generateSigningSecret was true. Shown only here.', example: 'whsec_...' })
  signingSecret?: string;
}

export class RestaurantPageDto {
  @ApiProperty({ type: [RestaurantDto] })
  data: RestaurantDto[];

  @ApiProperty({ type: String, nullable: true, description: 'Cursor of the next page; null on the last page.' })
  nextCursor: string | null;
}

export class RotatedKeysDto {
  @ApiProperty()
  restaurantId: string;

  @ApiProperty({ description: 'New X-API-Key. Shown only here.' })
  apiKey: string;

  @ApiProperty({ description: 'New X-API-Secret. Shown only here.' })
  apiSecret: string;

  @ApiProperty({ format: 'date-time' })
  rotatedAt: string;
}

export class ReencryptionReportDto {
  @ApiProperty({ description: 'Id of the key every secret is now encrypted with.' })
  currentKeyId: string;

  @ApiProperty({ description: 'Integrations whose secrets were re-encrypted.' })
  integrations: number;

  @ApiProperty({ description: 'Webhook signing secrets re-encrypted.' })
  signingSecrets: number;

  @ApiProperty({
    description: 'Secrets that could not be opened (e.g. their key is missing from the keyring); left as they were.',
    type: 'array',
    items: { type: 'object', properties: { kind: { type: 'string', enum: ['integration', 'restaurant'] }, id: { type: 'string' }, reason: { type: 'string' } } },
  })
  failures: Array<{ kind: string; id: string; reason: string }>;
}
