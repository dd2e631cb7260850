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

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2026-11-27T10:15:00.000Z',
    description:
      'While a rotation\'s grace period runs: until when the previous secret still signs every webhook beside the current one (webhook-signature carries both; X-Service-Signature the previous one\'s, X-Service-Signature-New the current one\'s). null otherwise.',
  })
  previousSecretValidUntil: string | null;

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

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2026-11-27T10:15:00.000Z',
    description:
      'Until when the replaced secret still signs (WEBHOOK_SECRET_ROTATION_GRACE after now): meanwhile webhook-signature carries a v1 signature with each secret, X-Service-Signature stays the previous secret\'s and X-Service-Signature-New carries this one\'s, so receivers not yet updated keep verifying. null when there was no secret before or the deployment\'s grace is 0. A secret replaced earlier (a rotation during a grace period) stops signing now.',
  })
  previousSecretValidUntil: string | null;
}
