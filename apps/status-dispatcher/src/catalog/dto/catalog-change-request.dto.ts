import { ApiProperty } from '@nestjs/swagger';
import { IsNumber } from 'class-validator';
import { MAX_PRICE } from '../catalog-changes.decisions';

export { ProductAvailabilityRequestDto as CatalogAvailabilityRequestDto } from '../../availability/dto/availability-request.dto';

/** Body of PUT /api/v1/my/catalog/products/{productCode}/price. */
export class CatalogPriceRequestDto {
  @ApiProperty({ example: 64.9, exclusiveMinimum: true, minimum: 0, maximum: MAX_PRICE, description: `The new price in the menu's currency: greater than 0, at most ${MAX_PRICE}, at most 2 decimals. Each platform may refuse more (its bounds): answered per integration.` })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a number' })
  price!: number;
}
