import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, Length, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { IsDateTime, NormalisedText } from '@courier/http';

export const MAX_LINKS = 50;
export const DEFAULT_DRIFT_LIMIT = 100;
export const MAX_DRIFT_LIMIT = 500;

/** One integration's product for a code. */
export class ProductLinkDto {
  @ApiProperty({ example: '7d0b8d2e-3c41-4c55-9a3e-1f1c2b9d8e01', description: 'A delivery-platform integration of the account.' })
  @IsString()
  @Length(1, 100)
  integrationId!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'getir-5f1a',
    description: 'The platform product (on the integration\'s imported menu, or seen in its orders) to link to the code; null: the code has no product on this integration.',
  })
  @ValidateIf((_link, value) => value !== null)
  @IsString()
  @Length(1, 128)
  @NormalisedText()
  platformProductId!: string | null;
}

/** Body of PUT /api/v1/my/catalog/products/{productCode}/links. */
export class SetProductLinksRequestDto {
  @ApiProperty({
    type: [ProductLinkDto],
    maxItems: MAX_LINKS,
    description: 'The code\'s product on each listed integration (each integration once). Integrations not listed keep their link; a product linked to another code moves to this one.',
  })
  @IsArray()
  @ArrayMaxSize(MAX_LINKS)
  @ValidateNested({ each: true })
  @Type(() => ProductLinkDto)
  links!: ProductLinkDto[];

  @ApiPropertyOptional({ maxLength: 200, example: 'Kaşarlı Pide', description: 'The product\'s name for the restaurant (NFC, trimmed); absent: kept, or for a new code the first linked product\'s name.' })
  @IsOptional()
  @IsString()
  @NormalisedText()
  @Length(1, 200)
  name?: string;
}

/** Query of GET /api/v1/my/catalog/drift. */
export class DriftQueryDto {
  @ApiPropertyOptional({ example: '2026-11-26T12:00:00Z', description: 'Only differences found after this time (ISO 8601).' })
  @IsOptional()
  @IsDateTime()
  since?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_DRIFT_LIMIT, default: DEFAULT_DRIFT_LIMIT, description: 'At most this many, newest first.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(MAX_DRIFT_LIMIT)
  limit?: number;
}
