import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString, Length, Matches } from 'class-validator';
import { CANCEL_REASON_IDS, CANCELING_PARTIES, ORDER_TRIGGERS, OrderTrigger } from '@courier/domain';
import { NormalisedText } from '@courier/http';

/** ISO 8601 date-time that states its offset (`Z` or ±hh:mm): a time without one is ambiguous. */
export const ISO_8601_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

export const MAX_REASON_LENGTH = 500;

/** Body of POST /internal/orders/{yemekKuryeOrderId}/transitions. */
export class TransitionRequestDto {
  @ApiProperty({
    enum: ORDER_TRIGGERS,
    description:
      'The move: APPROVE (NEW → VALIDATED; the pre-approval of a scheduled order), ROUTE (VALIDATED → ROUTED), ASSIGN (VALIDATED or ROUTED → ASSIGNED), ' +
      'ACCEPT (ASSIGNED → ACCEPTED), PREPARE (VALIDATED or ACCEPTED → PREPARED), PICK_UP (PREPARED → ON_DELIVERY), DELIVER (ON_DELIVERY → DELIVERED), ' +
      'CANCEL (any non-final status → CANCELED).',
  })
  @IsIn(ORDER_TRIGGERS as unknown as string[], { message: `must be one of ${ORDER_TRIGGERS.join(', ')}` })
  trigger!: OrderTrigger;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: MAX_REASON_LENGTH,
    description: 'Free text, NFC and trimmed; control, bidirectional and zero-width characters are refused. For CANCEL it is the `reason` of order.canceled (default: the meaning of cancelReasonId); otherwise kept in the history.',
  })
  @IsOptional()
  @IsString()
  @NormalisedText()
  @Length(1, MAX_REASON_LENGTH)
  reason?: string;

  @ApiPropertyOptional({ enum: CANCEL_REASON_IDS, description: 'CANCEL only. Default OTHER.' })
  @IsOptional()
  @IsIn(CANCEL_REASON_IDS as unknown as string[], { message: `must be one of ${CANCEL_REASON_IDS.join(', ')}` })
  cancelReasonId?: string;

  @ApiPropertyOptional({
    enum: CANCELING_PARTIES,
    description: 'CANCEL only; must be a party the reason allows (interface.md table). Default: the reason\'s party (System for OTHER).',
  })
  @IsOptional()
  @IsIn(CANCELING_PARTIES as unknown as string[], { message: `must be one of ${CANCELING_PARTIES.join(', ')}` })
  canceledBy?: string;

  @ApiPropertyOptional({
    example: '2025-06-01T12:30:00+03:00',
    description:
      'When the change happened: ISO 8601 with Z or an offset, at most 30 s in the future, not before the order\'s last change. Default: now. ' +
      'The event carries it in UTC; changes of one order always get strictly increasing timestamps.',
  })
  @IsOptional()
  @IsString()
  @Matches(ISO_8601_WITH_OFFSET, { message: 'must be an ISO 8601 date-time with Z or an offset, e.g. 2025-06-01T12:30:00+03:00' })
  @IsISO8601({ strict: true, strictSeparator: true }, { message: 'must be a real calendar date and time' })
  occurredAt?: string;
}
