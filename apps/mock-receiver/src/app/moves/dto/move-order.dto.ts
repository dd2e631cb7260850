import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';

export const MOVE_ACTIONS = ['next', 'deliver', 'cancel'] as const;
export type MoveAction = (typeof MOVE_ACTIONS)[number];

/** interface.md's cancellation reasons. */
export const CANCEL_REASON_IDS = ['CUSTOMER_REQUEST', 'OUT_OF_STOCK', 'WRONG_ADDRESS', 'CUSTOMER_NOT_AVAILABLE', 'COURIER_NOT_AVAILABLE', 'RESTAURANT_CLOSED', 'OTHER'] as const;

export class MoveOrderDto {
  @ApiProperty({
    enum: MOVE_ACTIONS,
    description: 'next: the next step of the happy path from the order\'s current status; deliver: every remaining step up to DELIVERED; cancel: CANCEL with the reason below.',
  })
  @IsIn(MOVE_ACTIONS as unknown as string[], { message: `action must be one of ${MOVE_ACTIONS.join(', ')}` })
  action!: MoveAction;

  @ApiPropertyOptional({ enum: CANCEL_REASON_IDS, description: 'With cancel (default OTHER).' })
  @IsOptional()
  @IsIn(CANCEL_REASON_IDS as unknown as string[], { message: `cancelReasonId must be one of ${CANCEL_REASON_IDS.join(', ')}` })
  cancelReasonId?: string;

  @ApiPropertyOptional({ description: 'With cancel: free text.', maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}
