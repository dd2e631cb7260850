import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

/** PUT body: each URL optional; null clears it, a missing field keeps it. */
export class UpdateWebhookSettingsDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'https://pos.example.com/webhooks/status',
    description: 'Receives order.status_changed. https only; no user or password; the host must resolve to public addresses only. null clears it.',
  })
  @IsOptional()
  @IsString()
  statusUrl?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'https://pos.example.com/webhooks/cancel', description: 'Receives order.canceled. Same rules.' })
  @IsOptional()
  @IsString()
  cancelUrl?: string | null;
}

export class WebhookSettingsDto {
  @ApiProperty({ type: String, nullable: true })
  statusUrl: string | null;

  @ApiProperty({ type: String, nullable: true })
  cancelUrl: string | null;

  @ApiProperty({ description: 'Whether webhooks are signed (X-Service-Signature and the Standard Webhooks headers).' })
  signingEnabled: boolean;

  @ApiProperty({ type: String, nullable: true, example: '****x0Q=', description: 'The signing secret masked (**** + last 4); null when signing is off.' })
  signingSecret: string | null;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class SigningSecretDto {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description:
      'The new signing secret, shown only here. X-Service-Signature is the hex HMAC-SHA256 of the body keyed with this whole string; for the Standard Webhooks headers the key is the base64-decoded part after whsec_.',
  })
  signingSecret: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}
