import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { ORDER_STATUSES, OrderStatus, STATUS_PUSH_ACTIONS, StatusPushAction } from '@courier/domain';
import { NormalisedText } from '@courier/http';
import { RESTAURANT_ID } from '../../common/ids';

// eslint-disable-next-line no-control-regex
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

/** Body of POST /internal/orders/status (interface.md, "Status update request"). */
export class StatusUpdateRequestDto {
  @ApiProperty({ example: '5f4d3c2b1a09f8e7d6c5b4a3', maxLength: 128, description: 'The order\'s id on its platform: docs/api.md, POST /internal/orders/status, names it for each platform.' })
  @IsString()
  @Length(1, 128)
  @Matches(NO_CONTROL_CHARACTERS, { message: 'must not contain control characters' })
  providerOrderId!: string;

  @ApiProperty({ example: 'PLATFORM_A', description: 'The platform\'s code on the wire (PLATFORM_A .. PLATFORM_D unless renamed by PLATFORM_X_CODE). THIRD_PARTY orders move by /transitions instead.' })
  @IsString()
  @Length(1, 40)
  platform!: string;

  @ApiPropertyOptional({
    example: 'rest_Q2x9bX1kZW1vcmVzdGF1cmFudA',
    description:
      'The restaurant whose order this is (`restaurantId` of order.platform_received). Optional: it narrows the match to that restaurant\'s order (404 ORDER_NOT_FOUND when it has none). ' +
      'Needed when orders of several platform stores share the providerOrderId (409 AMBIGUOUS_PROVIDER_ORDER_ID without it).',
  })
  @IsOptional()
  @IsString()
  @Matches(RESTAURANT_ID, { message: 'must be a restaurant id (rest_ and 20 to 64 letters, digits, _ or -)' })
  restaurantId?: string;

  @ApiProperty({ enum: STATUS_PUSH_ACTIONS, description: 'VERIFY (accepted), PREPARE (ready), HANDOVER (given to the courier), DELIVER, CANCEL, REJECT.' })
  @IsIn(STATUS_PUSH_ACTIONS as unknown as string[], { message: `must be one of ${STATUS_PUSH_ACTIONS.join(', ')}` })
  action!: StatusPushAction;

  @ApiPropertyOptional({ enum: ORDER_STATUSES, description: 'The caller\'s view of the order\'s status, kept with the update. CANCELED counts for guard 3 (nothing after a cancel); the other guards go by what was pushed to the platform.' })
  @IsOptional()
  @IsIn(ORDER_STATUSES as unknown as string[], { message: `must be one of ${ORDER_STATUSES.join(', ')}` })
  previousStatus?: OrderStatus;

  @ApiPropertyOptional({ maxLength: 500, description: 'CANCEL / REJECT: the reason, NFC and trimmed; control, bidirectional and zero-width characters are refused (sent to the platform: a code it knows is used as such, e.g. PLATFORM_B ITEM_UNAVAILABLE, PLATFORM_C 622; free text becomes the note). Kept with other actions.' })
  @IsOptional()
  @IsString()
  @NormalisedText()
  @Length(1, 500)
  reason?: string;
}
