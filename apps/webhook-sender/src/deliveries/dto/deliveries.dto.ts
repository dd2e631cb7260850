import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '@courier/http';
import { DELIVERY_STATUSES, DeliveryStatus, WEBHOOK_EVENTS, WebhookEvent } from '../webhook-delivery.entity';

export class ListDeliveriesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES, description: 'Only deliveries in this status.' })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES as unknown as string[])
  status?: DeliveryStatus;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENTS, description: 'Only webhooks of this event.' })
  @IsOptional()
  @IsIn(WEBHOOK_EVENTS as unknown as string[])
  event?: WebhookEvent;

  @ApiPropertyOptional({ description: 'Only webhooks of this order (the orderId you sent at intake).', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  orderId?: string;

  @ApiPropertyOptional({ description: 'Only webhooks of this order (its yemekKuryeOrderId).', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  yemekKuryeOrderId?: string;
}

export class DeliveryDto {
  @ApiProperty({ format: 'uuid', description: 'The webhook id: X-Webhook-Id and webhook-id of every attempt.' })
  id: string;

  @ApiProperty({ enum: WEBHOOK_EVENTS, description: 'order.status_changed, restaurant.availability_changed and catalog.drift_detected go to the status URL, order.canceled to the cancel URL.' })
  event: WebhookEvent;

  @ApiProperty({ type: String, nullable: true, example: 'pos-1001', description: 'The order of an order webhook; null for restaurant.availability_changed and catalog.drift_detected.' })
  orderId: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The order of an order webhook; null for restaurant.availability_changed and catalog.drift_detected.' })
  yemekKuryeOrderId: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The platform integration a restaurant.availability_changed or catalog.drift_detected is about; null for order webhooks.' })
  integrationId: string | null;

  @ApiProperty({
    enum: DELIVERY_STATUSES,
    description:
      'pending: first attempt (of the delivery or of a redelivery) not made yet; retrying: failed, next attempt at nextAttemptAt; delivered: a 2xx was received; failed: no 2xx within WEBHOOK_MAX_AGE (3 days); skipped: no URL configured for the event.',
  })
  status: DeliveryStatus;

  @ApiProperty({ type: String, nullable: true, description: 'The receiver URL when the webhook was created (each attempt shows the URL it used).' })
  url: string | null;

  @ApiProperty({ description: 'Attempts made so far.' })
  attemptCount: number;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  nextAttemptAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastAttemptAt: string | null;

  @ApiProperty({ type: Number, nullable: true, description: 'HTTP status of the last answer (null when there was none).' })
  lastStatusCode: number | null;

  @ApiProperty({ type: String, nullable: true, example: 'HTTP 503 Service Unavailable' })
  lastError: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  deliveredAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the support alert was raised: the delivery had been failing for 24 hours.' })
  alertRaisedAt: string | null;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;
}

export class AttemptDto {
  @ApiProperty({ description: 'X-Webhook-Attempt of this attempt.' })
  attempt: number;

  @ApiProperty({ type: String, nullable: true, description: 'URL used (null when the attempt could not be made).' })
  url: string | null;

  @ApiProperty({ type: String, format: 'date-time' })
  startedAt: string;

  @ApiProperty({ type: Number, nullable: true, description: 'HTTP status answered; null for no answer (timeout, refused connection, TLS or URL refused).' })
  statusCode: number | null;

  @ApiProperty({ description: 'Time to the status line, in ms.' })
  latencyMs: number;

  @ApiProperty({ type: String, nullable: true, example: 'timed out after 5000 ms' })
  error: string | null;
}

export class DeliveryDetailDto extends DeliveryDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The webhook body (the exact bytes sent are its compact JSON).' })
  payload: Record<string, unknown>;

  @ApiProperty({ type: [AttemptDto], description: 'Every attempt, oldest first.' })
  attempts: AttemptDto[];
}

export class DeliveryPageDto {
  @ApiProperty({ type: [DeliveryDto], description: 'Newest first.' })
  data: DeliveryDto[];

  @ApiProperty({ type: String, nullable: true, description: 'Cursor of the next page; null on the last page.' })
  nextCursor: string | null;
}
