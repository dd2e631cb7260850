import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { IsDateTime, NormalisedText } from '@courier/http';

export const STORE_STATES = ['OPEN', 'CLOSED', 'BUSY'] as const;
/** Busy mode adds at most this many minutes to deliveries (the platforms' own ranges are narrower; each plan says). */
export const MAX_BUSY_MINUTES = 120;

/** Body of PUT /api/v1/my/availability and PUT /internal/restaurants/{restaurantId}/availability. */
export class StoreAvailabilityRequestDto {
  @ApiProperty({ enum: STORE_STATES, description: 'OPEN: taking orders; CLOSED: not taking orders; BUSY: taking orders with longer delivery times (busyMinutes).' })
  @IsIn(STORE_STATES as unknown as string[], { message: `must be one of ${STORE_STATES.join(', ')}` })
  state!: (typeof STORE_STATES)[number];

  @ApiPropertyOptional({ example: '2026-11-26T18:30:00Z', description: 'CLOSED or BUSY until then (ISO 8601 with an offset, in the future, at most 31 days ahead); then OPEN again by itself. Not with OPEN.' })
  @IsOptional()
  @IsDateTime()
  until?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_BUSY_MINUTES, example: 20, description: 'BUSY (required there, and only there): how many minutes deliveries take longer.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_BUSY_MINUTES)
  busyMinutes?: number;

  @ApiPropertyOptional({ maxLength: 200, example: 'kitchen overloaded', description: 'Why, kept with the change (NFC, trimmed; control characters refused).' })
  @IsOptional()
  @IsString()
  @NormalisedText()
  @Length(1, 200)
  reason?: string;

  @ApiPropertyOptional({ type: [String], maxItems: 50, description: 'Only these integrations (each the account\'s, active and verified by its platform); absent: every active, verified platform integration of the account.' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @ArrayUnique()
  @IsString({ each: true })
  @Length(1, 100, { each: true })
  integrationIds?: string[];
}

/** Body of PUT /api/v1/my/integrations/{id}/products/{platformProductId}/availability. */
export class ProductAvailabilityRequestDto {
  @ApiProperty({ description: 'false: sold out (switched off on the platform); true: back on.' })
  @IsBoolean()
  available!: boolean;

  @ApiPropertyOptional({ example: '2026-11-26T22:00:00Z', description: 'With available: false, back on by itself at this time (ISO 8601, in the future, at most 31 days ahead).' })
  @IsOptional()
  @IsDateTime()
  until?: string;
}
