import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ANY_JSON_VALUE } from '@courier/http';
import { STATUS_PUSH_ACTIONS } from '@courier/domain';

export const STATUS_UPDATE_STATES = ['queued', 'held', 'sent', 'retrying', 'failed', 'skipped'] as const;
export type StatusUpdateState = (typeof STATUS_UPDATE_STATES)[number];

/** 202 answer of POST /internal/orders/status. */
export class StatusUpdateAcceptedDto {
  @ApiProperty({ enum: ['queued'], example: 'queued' })
  status: 'queued';

  @ApiProperty({ format: 'uuid', description: 'The update\'s id (GET /internal/status-updates/{statusUpdateId}). A repeated action answers the first update\'s id.' })
  statusUpdateId: string;

  @ApiProperty({ example: 'PREPARE held until 2025-06-01T12:01:00.000Z (PLATFORM_A PREPARE hold), then sent to PLATFORM_A.' })
  message: string;
}

export class PlatformAnswerDto {
  @ApiProperty({ nullable: true, type: Number, example: 200, description: 'HTTP status; null when no answer came (network error, timeout).' })
  httpStatus: number | null;

  @ApiPropertyOptional({ description: 'The platform\'s answer body (bounded): any JSON value.', anyOf: ANY_JSON_VALUE })
  body?: unknown;

  @ApiPropertyOptional({ description: 'What went wrong without an HTTP answer.' })
  error?: string;

  @ApiProperty({ enum: ['done', 'retry', 'failed', 'skipped'], description: 'How the answer was read: done (2xx or the platform\'s "already done"), retry, failed (final), skipped (no call for this action).' })
  outcome: string;

  @ApiPropertyOptional({ description: 'done: true when the platform said the change had already happened.' })
  alreadyDone?: boolean;

  @ApiProperty({ example: '2025-06-01T12:01:00.250Z' })
  at: string;
}

/** A status update as GET /internal/status-updates/{id} shows it. */
export class StatusUpdateDto {
  @ApiProperty({ format: 'uuid' })
  statusUpdateId: string;

  @ApiProperty({ format: 'uuid' })
  yemekKuryeOrderId: string;

  @ApiProperty()
  providerOrderId: string;

  @ApiProperty({ example: 'PLATFORM_A', description: 'Wire code of the platform.' })
  platform: string;

  @ApiProperty({ enum: STATUS_PUSH_ACTIONS })
  action: string;

  @ApiProperty({
    enum: STATUS_UPDATE_STATES,
    description:
      'queued (waiting to be sent, maybe behind an earlier update: see waitingFor, or for the platform\'s call budget: see waitReason), held (until releaseAt: the platform\'s PREPARE hold or step spacing), sent (the platform took it), retrying (until nextAttemptAt), ' +
      'failed (final: the platform refused, or retries ran out), skipped (the platform has no call for this action on this order; nothing was sent).',
  })
  state: StatusUpdateState;

  @ApiProperty({ nullable: true, type: String, description: 'held: when the update is released.' })
  releaseAt: string | null;

  @ApiProperty({ nullable: true, type: String, enum: ['PREPARE_HOLD', 'BEHIND_HELD_UPDATE', 'PLATFORM_STEP_INTERVAL'], description: 'held: why.' })
  holdReason: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'retrying: when the next attempt is due; queued with a waitReason: when it will be tried.' })
  nextAttemptAt: string | null;

  @ApiProperty({
    nullable: true,
    type: String,
    enum: ['PLATFORM_CALL_BUDGET'],
    description: 'queued: why it is not sent yet, when something other than an earlier update holds it (PLATFORM_CALL_BUDGET: the platform\'s call budget for these credentials is used up; its slot is nextAttemptAt).',
  })
  waitReason: string | null;

  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'queued: the earlier update of the same order this one waits for (updates reach the platform in order).' })
  waitingFor: string | null;

  @ApiProperty({ example: 1, description: 'Calls made to the platform for this update.' })
  attempts: number;

  @ApiProperty({ nullable: true, type: String, enum: ['NEW', 'VALIDATED', 'ROUTED', 'ASSIGNED', 'ACCEPTED', 'PREPARED', 'ON_DELIVERY', 'DELIVERED', 'CANCELED', 'FAILED'] })
  previousStatus: string | null;

  @ApiProperty({ nullable: true, type: String })
  reason: string | null;

  @ApiProperty()
  acceptedAt: string;

  @ApiProperty({ nullable: true, type: String })
  firstAttemptAt: string | null;

  @ApiProperty({ nullable: true, type: String })
  lastAttemptAt: string | null;

  @ApiProperty({ nullable: true, type: String })
  sentAt: string | null;

  @ApiProperty({ type: PlatformAnswerDto, nullable: true, description: 'The platform\'s last answer.' })
  platformAnswer: PlatformAnswerDto | null;

  @ApiProperty({ nullable: true, type: String, description: 'failed or skipped: why.' })
  error: string | null;
}
