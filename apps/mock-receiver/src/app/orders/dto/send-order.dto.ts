import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsNumber, IsOptional, IsString, ValidateNested } from 'class-validator';

/**
 * Item of a test order. Only the types are checked here: values the service would refuse (a
 * negative quantity, a wrong totalAmount) are sent as given, so its validation can be tested.
 */
export class TestOrderItemDto {
  @ApiPropertyOptional() @IsOptional() @IsString() productCode?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() productName?: string;
  @ApiPropertyOptional() @IsOptional() @IsNumber() quantity?: number;
  @ApiPropertyOptional() @IsOptional() @IsNumber() unitPrice?: number;
  @ApiPropertyOptional({ description: 'Computed as quantity x unitPrice - discountAmount when left out' })
  @IsOptional()
  @IsNumber()
  totalAmount?: number;
  @ApiPropertyOptional() @IsOptional() @IsNumber() discountAmount?: number;
  @ApiPropertyOptional() @IsOptional() @IsString() productNote?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() features?: string;
}

/**
 * Body of POST /api/send-order: any fields of the Order of interface.md except restaurantId (always
 * SERVICE_RESTAURANT_ID). What is left out comes from the default order; totals left out are
 * computed from the items.
 */
export class SendOrderDto {
  @ApiPropertyOptional({ description: 'Default: a fresh id' }) @IsOptional() @IsString() orderId?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() customerName?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() customerPhone?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() customerEmail?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() deliveryAddress?: string;
  @ApiPropertyOptional() @IsOptional() @IsNumber() deliveryLatitude?: number;
  @ApiPropertyOptional() @IsOptional() @IsNumber() deliveryLongitude?: number;
  @ApiPropertyOptional() @IsOptional() @IsString() scheduledDeliveryTime?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() paymentMethod?: string;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() paymentCaptured?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsNumber() subtotal?: number;
  @ApiPropertyOptional() @IsOptional() @IsNumber() deliveryFee?: number;
  @ApiPropertyOptional() @IsOptional() @IsNumber() serviceFee?: number;
  @ApiPropertyOptional() @IsOptional() @IsNumber() discount?: number;
  @ApiPropertyOptional() @IsOptional() @IsNumber() taxAmount?: number;
  @ApiPropertyOptional() @IsOptional() @IsNumber() total?: number;
  @ApiPropertyOptional() @IsOptional() @IsString() currency?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() notes?: string;

  @ApiPropertyOptional({ type: [TestOrderItemDto] })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => TestOrderItemDto)
  items?: TestOrderItemDto[];
}
