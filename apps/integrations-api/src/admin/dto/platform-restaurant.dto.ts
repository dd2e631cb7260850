import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { NormalisedText } from '@courier/http';
import { IsCleanText } from '../../common/clean-text.decorator';

/** A delivery platform's restaurant: the platform (wire code) and its id there. */
export class PlatformRestaurantQuery {
  @ApiProperty({ example: 'PLATFORM_B', description: 'A delivery platform\'s code (every registered platform but THIRD_PARTY).' })
  @IsString()
  @MaxLength(40)
  platform: string;

  @ApiProperty({ example: 'demo-ys-vendor', maxLength: 128, description: 'The restaurant\'s id on the platform (providerRestaurantId).' })
  @IsString()
  @MaxLength(128)
  @IsCleanText()
  providerRestaurantId: string;

  @ApiPropertyOptional({ example: 'ops:ayse', maxLength: 200, description: 'Who looks (recorded in the audit table).' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @IsCleanText()
  operator?: string;
}

class OperatorAction {
  @ApiProperty({ example: 'PLATFORM_B', description: 'A delivery platform\'s code (every registered platform but THIRD_PARTY).' })
  @IsString()
  @MaxLength(40)
  platform: string;

  @ApiProperty({ example: 'demo-ys-vendor', maxLength: 128 })
  @IsString()
  @MaxLength(128)
  @IsCleanText()
  providerRestaurantId: string;

  @ApiProperty({ example: 'ops:ayse', maxLength: 200, description: 'Who acts: recorded with the change and in the audit table.' })
  @IsString()
  @MaxLength(200)
  @IsCleanText()
  operator: string;

  @ApiPropertyOptional({ example: 'Ticket 4711: vendor contract checked with the platform.', maxLength: 1000, description: 'Why (the evidence, a ticket).' })
  @IsOptional()
  @IsString()
  @NormalisedText()
  @MaxLength(1000)
  @IsCleanText()
  note?: string;
}

export class VerifyPlatformRestaurantDto extends OperatorAction {
  @ApiProperty({ format: 'uuid', description: 'The integration the operator confirms as the owner: it must be the one holding the restaurant now (else 409 CONFLICT).' })
  @IsString()
  @MaxLength(64)
  integrationId: string;
}

export class TransferPlatformRestaurantDto extends OperatorAction {
  @ApiProperty({
    format: 'uuid',
    description: 'The integration (same platform, any account) that takes the restaurant: its providerRestaurantId becomes this one, and it is marked verified by the operator.',
  })
  @IsString()
  @MaxLength(64)
  toIntegrationId: string;
}

/** An integration bearing a platform restaurant's id, as the operator sees it (never its credentials). */
export class PlatformRestaurantIntegrationDto {
  @ApiProperty({ format: 'uuid' })
  integrationId: string;

  @ApiProperty({ example: 'rest_Qm9sZFBsYWNlaG9sZGVyMDAx' })
  restaurantId: string;

  @ApiProperty({ description: 'The account\'s name.' })
  restaurantName: string;

  @ApiProperty({ enum: ['active', 'disabled'], description: 'The account\'s status.' })
  accountStatus: string;

  @ApiProperty()
  isActive: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When another integration took the restaurant (null for the holder).' })
  displacedAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  verifiedAt: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The operator who verified the holder (or transferred the restaurant to it).' })
  verifiedBy: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

/** A verification, transfer or clean-up recorded for the restaurant. */
export class PlatformRestaurantAuditDto {
  @ApiProperty({ enum: ['verify', 'transfer', 'deduplicate'] })
  action: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The holder after the action.' })
  integrationId: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The holder the action displaced (transfer, deduplicate).' })
  previousIntegrationId: string | null;

  @ApiProperty({ type: String, nullable: true })
  operator: string | null;

  @ApiProperty({ type: String, nullable: true })
  note: string | null;

  @ApiProperty({ format: 'date-time' })
  occurredAt: string;
}

export class PlatformRestaurantDto {
  @ApiProperty({ example: 'PLATFORM_B' })
  platform: string;

  @ApiProperty({ example: 'demo-ys-vendor' })
  providerRestaurantId: string;

  @ApiProperty({ type: PlatformRestaurantIntegrationDto, nullable: true, description: 'The integration that holds the restaurant (orders are routed to it); null when none does.' })
  holder: PlatformRestaurantIntegrationDto | null;

  @ApiProperty({ type: [PlatformRestaurantIntegrationDto], description: 'Integrations that bore this id and lost it (inactive), oldest first.' })
  displaced: PlatformRestaurantIntegrationDto[];

  @ApiProperty({ type: [PlatformRestaurantAuditDto], description: 'The last 20 verifications, transfers and clean-ups, newest first.' })
  history: PlatformRestaurantAuditDto[];
}
