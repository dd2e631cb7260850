import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ANY_JSON_VALUE } from '@courier/http';

/** What a change came to for one integration. */
export class IntegrationChangeDto {
  @ApiProperty({ example: '7d0b8d2e-3c41-4c55-9a3e-1f1c2b9d8e01' })
  integrationId!: string;

  @ApiProperty({ example: 'PLATFORM_A' })
  platform!: string;

  @ApiProperty({ enum: ['queued', 'unsupported'], description: 'queued: a platform command is on its way (follow it with GET); unsupported: this platform cannot do it, nothing is sent.' })
  state!: 'queued' | 'unsupported';

  @ApiPropertyOptional({ example: 'DURATION_UNSUPPORTED', description: 'unsupported: why (BUSY_MODE_UNSUPPORTED, TIMED_CLOSE_UNSUPPORTED, DURATION_UNSUPPORTED, PRODUCT_AVAILABILITY_UNSUPPORTED, AVAILABILITY_NOT_CONFIGURED); queued: the code of what the platform does instead of exactly what was asked, when it does.' })
  code?: string;

  @ApiPropertyOptional({ example: 'closes for 45 minutes, the nearest the platform allows; opens again at until', description: 'The code in words.' })
  message?: string;

  @ApiPropertyOptional({ example: '0b5e0f38-7a0e-4b8b-9a55-2f1c7c4d8a11', description: 'queued: the platform command.' })
  commandId?: string;
}

/** 202 of PUT /api/v1/my/availability (and the internal one). */
export class StoreChangeAcceptedDto {
  @ApiProperty({ example: '5a3c9e0e-4f6b-4d8c-9f0f-0d9a3d5e7b21', description: 'This change; each integration\'s asked state carries it until a later change.' })
  changeId!: string;

  @ApiProperty({ type: [IntegrationChangeDto] })
  integrations!: IntegrationChangeDto[];
}

/** 202 of PUT /api/v1/my/integrations/{id}/products/{platformProductId}/availability. */
export class ProductChangeAcceptedDto extends IntegrationChangeDto {
  @ApiProperty({ example: '5a3c9e0e-4f6b-4d8c-9f0f-0d9a3d5e7b21' })
  changeId!: string;

  @ApiProperty({ example: 'lahmacun-2' })
  platformProductId!: string;
}

/** The platform's answer as kept: its HTTP status and body (bounded), how it was read, and when. */
export class AvailabilityAnswerDto {
  @ApiProperty({ enum: ['done', 'retry', 'failed', 'skipped'] })
  outcome!: string;

  @ApiProperty({ nullable: true, type: Number, example: 200 })
  httpStatus!: number | null;

  @ApiPropertyOptional({ description: 'The platform\'s body, bounded: any JSON value (an object, a text such as "OK", or null).', anyOf: ANY_JSON_VALUE })
  body?: unknown;

  @ApiPropertyOptional({ description: 'For a call without an HTTP answer: what went wrong.' })
  error?: string;

  @ApiProperty({ example: '2026-11-26T14:00:01.250Z' })
  at!: string;
}

/** A platform command (store change or product switch). */
export class AvailabilityCommandDto {
  @ApiProperty({ format: 'uuid' })
  commandId!: string;

  @ApiProperty({ format: 'uuid' })
  changeId!: string;

  @ApiProperty({ enum: ['queued', 'retrying', 'sent', 'failed', 'superseded'], description: 'queued (waiting, maybe for the platform\'s call budget: notBefore), retrying (nextAttemptAt), sent, failed (refused, or retried too long), superseded (a later change came before it was sent: never sent).' })
  state!: string;

  @ApiProperty({ enum: ['restaurant', 'courier_core', 'timer'] })
  requestedBy!: string;

  @ApiProperty({ example: 1 })
  attempts!: number;

  @ApiProperty({ description: 'Not sent before this (the budget slot or the next attempt).' })
  notBefore!: string;

  @ApiProperty()
  acceptedAt!: string;

  @ApiPropertyOptional({ nullable: true, type: String })
  sentAt!: string | null;

  @ApiPropertyOptional({ nullable: true, type: String })
  lastError!: string | null;

  @ApiPropertyOptional({ nullable: true, type: AvailabilityAnswerDto })
  lastAnswer!: AvailabilityAnswerDto | null;
}

export class AskedStoreStateDto {
  @ApiProperty({ enum: ['OPEN', 'CLOSED', 'BUSY'] })
  state!: string;

  @ApiPropertyOptional({ nullable: true, type: String, description: 'When a timed change ends (OPEN again by itself).' })
  until!: string | null;

  @ApiPropertyOptional({ nullable: true, type: Number })
  busyMinutes!: number | null;

  @ApiPropertyOptional({ nullable: true, type: String })
  reason!: string | null;

  @ApiProperty({ enum: ['restaurant', 'courier_core', 'timer'], description: 'Who asked: the restaurant (management API), the courier core (internal API), or our own timer at `until`.' })
  by!: string;

  @ApiProperty()
  at!: string;

  @ApiProperty({ format: 'uuid' })
  changeId!: string;
}

export class ConfirmedStoreStateDto {
  @ApiProperty({ enum: ['OPEN', 'CLOSED', 'BUSY'] })
  state!: string;

  @ApiPropertyOptional({ nullable: true, type: String })
  until!: string | null;

  @ApiProperty()
  at!: string;

  @ApiProperty({ enum: ['command', 'read_back', 'platform_call'], description: 'command: the platform took our call; read_back: we read it from the platform; platform_call: the platform told us.' })
  by!: string;
}

export class PlatformStoreStateDto {
  @ApiProperty({ enum: ['OPEN', 'CLOSED', 'BUSY'] })
  state!: string;

  @ApiPropertyOptional({ nullable: true, type: String })
  until!: string | null;

  @ApiPropertyOptional({ nullable: true, type: String, description: 'The platform\'s own reason or status text.' })
  reason!: string | null;

  @ApiProperty({ description: 'When we saw it (read back or told).' })
  seenAt!: string;
}

/** One integration's store: asked, confirmed, seen, pending, last answer. */
export class IntegrationAvailabilityDto {
  @ApiProperty()
  integrationId!: string;

  @ApiProperty({ example: 'PLATFORM_A' })
  platform!: string;

  @ApiProperty()
  providerRestaurantId!: string;

  @ApiPropertyOptional({ nullable: true, type: AskedStoreStateDto, description: 'What was asked last (null: nothing yet).' })
  asked!: AskedStoreStateDto | null;

  @ApiPropertyOptional({ nullable: true, type: ConfirmedStoreStateDto, description: 'What the platform last confirmed, and when.' })
  confirmed!: ConfirmedStoreStateDto | null;

  @ApiPropertyOptional({ nullable: true, type: PlatformStoreStateDto, description: 'The state the platform last reported by itself (read back or its own call).' })
  platformReported!: PlatformStoreStateDto | null;

  @ApiPropertyOptional({ nullable: true, type: AvailabilityCommandDto, description: 'The command still on its way (queued or retrying), if any.' })
  pending!: AvailabilityCommandDto | null;

  @ApiPropertyOptional({ nullable: true, type: AvailabilityCommandDto, description: 'The newest command, pending or ended.' })
  lastCommand!: AvailabilityCommandDto | null;

  @ApiPropertyOptional({ nullable: true, type: AvailabilityAnswerDto, description: 'The platform\'s last answer to a command or a read.' })
  lastAnswer!: AvailabilityAnswerDto | null;

  @ApiPropertyOptional({ nullable: true, type: String, description: 'When the asked timed change ends (the OPEN we send then).' })
  endsAt!: string | null;
}

export class AvailabilityViewDto {
  @ApiProperty()
  restaurantId!: string;

  @ApiProperty({ type: [IntegrationAvailabilityDto] })
  integrations!: IntegrationAvailabilityDto[];
}

export class ProductAvailabilityDto {
  @ApiProperty()
  platformProductId!: string;

  @ApiProperty({ description: 'What was asked last.' })
  available!: boolean;

  @ApiPropertyOptional({ nullable: true, type: String, description: 'Back on by itself then.' })
  until!: string | null;

  @ApiProperty()
  askedAt!: string;

  @ApiProperty({ format: 'uuid' })
  changeId!: string;

  @ApiPropertyOptional({ nullable: true, type: Boolean, description: 'What the platform last confirmed.' })
  confirmedAvailable!: boolean | null;

  @ApiPropertyOptional({ nullable: true, type: String })
  confirmedAt!: string | null;

  @ApiPropertyOptional({ nullable: true, type: AvailabilityCommandDto })
  lastCommand!: AvailabilityCommandDto | null;
}

export class ProductsAvailabilityDto {
  @ApiProperty()
  integrationId!: string;

  @ApiProperty({ example: 'PLATFORM_A' })
  platform!: string;

  @ApiProperty({ type: [ProductAvailabilityDto], description: 'The products switched off now, or with a command still on its way.' })
  products!: ProductAvailabilityDto[];
}
