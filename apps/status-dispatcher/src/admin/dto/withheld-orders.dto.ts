import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export class WithheldOrdersQuery {
  @ApiPropertyOptional({ description: 'Only this platform\'s orders (wire code, e.g. PLATFORM_A).' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  platform?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 500, default: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}

/** A withheld platform order: where it came from and for whom it is kept; no customer details. */
export class WithheldOrderDto {
  @ApiProperty({ format: 'uuid', description: 'Our id of the order (yemekKuryeOrderId).' })
  yemekKuryeOrderId: string;

  @ApiProperty({ example: 'PLATFORM_A', description: 'Wire code of the platform.' })
  platform: string;

  @ApiProperty({ description: 'The platform store the order is for.' })
  providerRestaurantId: string;

  @ApiProperty({ description: 'The platform\'s id of the order.' })
  platformOrderId: string;

  @ApiProperty()
  orderNumber: string;

  @ApiProperty({ format: 'uuid', description: 'The integration holding the platform store, which its platform has not verified.' })
  integrationId: string;

  @ApiProperty({ description: 'The account of that integration (rest_...).' })
  restaurantId: string;

  @ApiProperty({ enum: ['unverified', 'verified', 'failed'], description: 'The integration\'s verification as the dispatcher knows it.' })
  integrationVerification: string;

  @ApiProperty({ example: 'NEW', description: 'The order\'s status (a cancellation from the platform is recorded while withheld).' })
  status: string;

  @ApiProperty({ example: '2025-06-01T12:00:00.000Z' })
  receivedAt: string;
}

export class WithheldOrdersDto {
  @ApiProperty({ type: [WithheldOrderDto], description: 'Oldest first.' })
  data: WithheldOrderDto[];
}
