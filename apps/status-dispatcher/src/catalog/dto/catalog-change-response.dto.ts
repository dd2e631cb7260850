import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ANY_JSON_VALUE } from '@courier/http';

const ANSWERED_STATES = ['queued', 'refused', 'unsupported', 'not_linked'] as const;
const COMMAND_STATES = ['queued', 'retrying', 'checking', 'sent', 'failed', 'superseded'] as const;

/** What a change by product code came to for one integration, at once. */
export class CatalogChangeResultDto {
  @ApiProperty({ example: '7d0b8d2e-3c41-4c55-9a3e-1f1c2b9d8e01' })
  integrationId!: string;

  @ApiProperty({ example: 'PLATFORM_A' })
  platform!: string;

  @ApiProperty({ nullable: true, type: String, example: '5f3a9c0e1b2d', description: 'The linked product\'s id on the platform (null: not linked there).' })
  platformProductId!: string | null;

  @ApiProperty({
    enum: ANSWERED_STATES,
    description:
      'queued: a platform command is on its way (follow it with GET /api/v1/my/catalog/changes/{changeId}); refused: the platform (or the integration) does not take it, nothing is sent (code says why: PRICE_OUT_OF_RANGE, PRICE_PRECISION, PRODUCT_NOT_ON_MENU, INTEGRATION_NOT_VERIFIED...); ' +
      'unsupported: the platform has no such call (PRICE_UNSUPPORTED, PRODUCT_AVAILABILITY_UNSUPPORTED, AVAILABILITY_NOT_CONFIGURED); not_linked: no product of this integration is linked to the code (PRODUCT_NOT_LINKED).',
  })
  state!: (typeof ANSWERED_STATES)[number];

  @ApiPropertyOptional({ example: 'PRICE_PRECISION' })
  code?: string;

  @ApiPropertyOptional({ example: 'the platform takes whole kuruş amounts only' })
  message?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'queued: the platform command.' })
  commandId?: string;
}

/** 202 of PUT /api/v1/my/catalog/products/{productCode}/availability and .../price. */
export class CatalogChangeAcceptedDto {
  @ApiProperty({ format: 'uuid', example: '5a3c9e0e-4f6b-4d8c-9f0f-0d9a3d5e7b21' })
  changeId!: string;

  @ApiProperty({ example: 'LAHMACUN' })
  productCode!: string;

  @ApiProperty({ type: [CatalogChangeResultDto], description: 'Every active platform integration of the account, linked or not.' })
  results!: CatalogChangeResultDto[];
}

/** The platform's answer as kept. */
export class CatalogCommandAnswerDto {
  @ApiProperty({ enum: ['done', 'pending', 'retry', 'failed', 'skipped'], description: 'pending: the platform took the request and works on it (checked again later).' })
  outcome!: string;

  @ApiProperty({ nullable: true, type: Number, example: 200 })
  httpStatus!: number | null;

  @ApiPropertyOptional({ description: 'The platform\'s body, bounded: any JSON value.', anyOf: ANY_JSON_VALUE })
  body?: unknown;

  @ApiPropertyOptional({ description: 'For a call without an HTTP answer: what went wrong.' })
  error?: string;

  @ApiProperty({ example: '2026-11-26T14:00:01.250Z' })
  at!: string;
}

/** One integration of a change, now. */
export class CatalogChangeIntegrationDto {
  @ApiProperty()
  integrationId!: string;

  @ApiProperty({ example: 'PLATFORM_A' })
  platform!: string;

  @ApiProperty({ nullable: true, type: String })
  platformProductId!: string | null;

  @ApiProperty({
    enum: [...COMMAND_STATES, 'refused', 'unsupported', 'not_linked'],
    description:
      'With a command: queued (waiting, maybe for the call budget), retrying (nextAt), checking (sent; the platform works on it asynchronously, its result is asked at nextAt), sent, failed (refused by the platform, with its reason, or retried too long), ' +
      'superseded (a later change of the same product came before it was sent: never sent). Without one: what was answered at once (refused, unsupported, not_linked).',
  })
  state!: string;

  @ApiPropertyOptional({ example: 'PRICE_OUT_OF_RANGE', description: 'Answered at once: why nothing was queued; queued: what the platform does instead, when it does.' })
  code?: string;

  @ApiPropertyOptional()
  message?: string;

  @ApiProperty({ nullable: true, type: String, format: 'uuid' })
  commandId!: string | null;

  @ApiProperty({ example: 1, description: 'Platform calls made for the command (the send, and each check of an asynchronous request).' })
  attempts!: number;

  @ApiProperty({ nullable: true, type: String, description: 'queued, retrying, checking: not before then.' })
  nextAt!: string | null;

  @ApiProperty({ nullable: true, type: String })
  sentAt!: string | null;

  @ApiProperty({ nullable: true, type: String })
  endedAt!: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'failed: the reason (the platform\'s, per item for a batch).' })
  lastError!: string | null;

  @ApiProperty({ nullable: true, type: CatalogCommandAnswerDto })
  lastAnswer!: CatalogCommandAnswerDto | null;
}

export class CatalogChangeRequestViewDto {
  @ApiPropertyOptional({ description: 'availability: false sold out, true back on.' })
  available?: boolean;

  @ApiPropertyOptional({ nullable: true, type: String, description: 'availability: back on by itself then.' })
  until?: string | null;

  @ApiPropertyOptional({ example: 64.9, description: 'price: the new price.' })
  price?: number;
}

/** GET /api/v1/my/catalog/changes/{changeId}. */
export class CatalogChangeViewDto {
  @ApiProperty({ format: 'uuid' })
  changeId!: string;

  @ApiProperty({ example: 'LAHMACUN' })
  productCode!: string;

  @ApiProperty({ enum: ['availability', 'price'] })
  kind!: 'availability' | 'price';

  @ApiProperty({ type: CatalogChangeRequestViewDto })
  request!: CatalogChangeRequestViewDto;

  @ApiProperty()
  acceptedAt!: string;

  @ApiProperty({ type: [CatalogChangeIntegrationDto] })
  integrations!: CatalogChangeIntegrationDto[];
}
