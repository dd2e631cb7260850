import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateBy,
  ValidateNested,
  ValidationOptions,
} from 'class-validator';
import { NormalisedText } from '@courier/http';
import { parseOffsetDateTime } from '../offset-date-time';

/** Bounds of decisions.md ("Validation (422)"). */
export const ORDER_LIMITS = { id: 64, name: 200, address: 500, text: 1000, items: 200, phone: 32, email: 254 } as const;
export const PAYMENT_METHODS = ['CASH', 'CARD_POS', 'ONLINE_PREPAID'] as const;

const FINITE = { allowNaN: false, allowInfinity: false };
export const NOT_BLANK = /\S/;

/** An ISO 8601 date-time with `Z` or an offset, after now. */
export function isFutureOffsetDateTime(value: unknown): boolean {
  const time = typeof value === 'string' ? parseOffsetDateTime(value) : undefined;
  return time !== undefined && time.getTime() > Date.now();
}

/** ISO 8601 with `Z` or an offset, and after the moment of validation. */
function IsFutureOffsetDateTime(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isFutureOffsetDateTime',
      validator: {
        validate: isFutureOffsetDateTime,
        defaultMessage: () => '$property must be an ISO 8601 date-time with an offset (e.g. 2030-01-31T18:30:00+03:00) in the future',
      },
    },
    options,
  );
}

/** One line of the order (interface.md: every field optional). */
export class ThirdPartyOrderItemDto {
  @ApiPropertyOptional({ maxLength: ORDER_LIMITS.id, example: 'SKU-1001' })
  @IsOptional()
  @IsString()
  @MaxLength(ORDER_LIMITS.id)
  productCode?: string;

  @ApiPropertyOptional({ maxLength: ORDER_LIMITS.name, example: 'Adana kebab' })
  @IsOptional()
  @IsString()
  @MaxLength(ORDER_LIMITS.name)
  productName?: string;

  @ApiPropertyOptional({ description: 'Greater than 0; decimals allowed.', example: 2 })
  @IsOptional()
  @IsNumber(FINITE)
  quantity?: number;

  @ApiPropertyOptional({ minimum: 0, example: 150 })
  @IsOptional()
  @IsNumber(FINITE)
  unitPrice?: number;

  @ApiPropertyOptional({ minimum: 0, description: 'When given with quantity and unitPrice: quantity x unitPrice - discountAmount, within 0.01.', example: 290 })
  @IsOptional()
  @IsNumber(FINITE)
  totalAmount?: number;

  @ApiPropertyOptional({ minimum: 0, example: 10 })
  @IsOptional()
  @IsNumber(FINITE)
  discountAmount?: number;

  @ApiPropertyOptional({ maxLength: ORDER_LIMITS.text })
  @IsOptional()
  @IsString()
  @MaxLength(ORDER_LIMITS.text)
  productNote?: string;

  @ApiPropertyOptional({ maxLength: ORDER_LIMITS.text, description: 'Extras or modifiers as free text.' })
  @IsOptional()
  @IsString()
  @MaxLength(ORDER_LIMITS.text)
  features?: string;
}

/**
 * The order body of interface.md with the rules of decisions.md. `null` is taken as "not given"
 * for optional fields. Money, currency and coordinate rules come from @courier/domain and are
 * reported in the same `errors` list.
 */
export class ThirdPartyOrderDto {
  @ApiProperty({
    maxLength: ORDER_LIMITS.id,
    description:
      'Unique in the sender\'s system; the idempotency key. Stored NFC and trimmed; control, bidirectional and zero-width characters are refused (422). ' +
      'Ids differing only by case, width or surrounding space are the same order.',
    example: 'POS-2025-000123',
  })
  @IsString()
  @NormalisedText()
  @MaxLength(ORDER_LIMITS.id)
  orderId: string;

  @ApiProperty({ maxLength: ORDER_LIMITS.id, description: 'The authenticated account\'s restaurantId.', example: 'rest_4f9c2a7d1e8b3c6a5d0f7e21' })
  @IsString()
  @MaxLength(ORDER_LIMITS.id)
  restaurantId: string;

  @ApiProperty({ maxLength: ORDER_LIMITS.name, example: 'Ayşe Yılmaz' })
  @IsString()
  @Matches(NOT_BLANK, { message: '$property must not be empty' })
  @MaxLength(ORDER_LIMITS.name)
  customerName: string;

  @ApiPropertyOptional({ maxLength: ORDER_LIMITS.phone, description: 'E.164 recommended.', example: '+905321234567' })
  @IsOptional()
  @IsString()
  @MaxLength(ORDER_LIMITS.phone)
  customerPhone?: string;

  @ApiPropertyOptional({ maxLength: ORDER_LIMITS.email, example: 'ayse@example.com' })
  @IsOptional()
  @IsString()
  @MaxLength(ORDER_LIMITS.email)
  customerEmail?: string;

  @ApiProperty({ maxLength: ORDER_LIMITS.address, description: 'Geocoded during processing when no coordinates are sent.', example: 'Bağdat Cd. 10, Kadıköy, İstanbul' })
  @IsString()
  @Matches(NOT_BLANK, { message: '$property must not be empty' })
  @MaxLength(ORDER_LIMITS.address)
  deliveryAddress: string;

  @ApiPropertyOptional({ minimum: -90, maximum: 90, description: 'Together with deliveryLongitude, or neither.', example: 40.9812 })
  @IsOptional()
  @IsNumber(FINITE)
  deliveryLatitude?: number;

  @ApiPropertyOptional({ minimum: -180, maximum: 180, example: 29.0567 })
  @IsOptional()
  @IsNumber(FINITE)
  deliveryLongitude?: number;

  @ApiPropertyOptional({ format: 'date-time', description: 'ISO 8601 with Z or an offset, in the future.', example: '2030-01-31T18:30:00+03:00' })
  @IsOptional()
  @IsString()
  @IsFutureOffsetDateTime()
  scheduledDeliveryTime?: string;

  @ApiPropertyOptional({ enum: PAYMENT_METHODS })
  @IsOptional()
  @IsIn(PAYMENT_METHODS as unknown as string[], { message: `$property must be one of ${PAYMENT_METHODS.join(', ')}` })
  paymentMethod?: (typeof PAYMENT_METHODS)[number];

  @ApiPropertyOptional({ description: 'True when the payment was already taken (online payments).' })
  @IsOptional()
  @IsBoolean()
  paymentCaptured?: boolean;

  @ApiPropertyOptional({ minimum: 0 })
  @IsOptional()
  @IsNumber(FINITE)
  subtotal?: number;

  @ApiPropertyOptional({ minimum: 0 })
  @IsOptional()
  @IsNumber(FINITE)
  deliveryFee?: number;

  @ApiPropertyOptional({ minimum: 0 })
  @IsOptional()
  @IsNumber(FINITE)
  serviceFee?: number;

  @ApiPropertyOptional({ minimum: 0 })
  @IsOptional()
  @IsNumber(FINITE)
  discount?: number;

  @ApiPropertyOptional({ minimum: 0 })
  @IsOptional()
  @IsNumber(FINITE)
  taxAmount?: number;

  @ApiPropertyOptional({ minimum: 0 })
  @IsOptional()
  @IsNumber(FINITE)
  total?: number;

  @ApiPropertyOptional({ description: 'ISO 4217 code in upper case; default TRY.', example: 'TRY' })
  @IsOptional()
  @IsString()
  currency?: string;

  @ApiPropertyOptional({ maxLength: ORDER_LIMITS.text })
  @IsOptional()
  @IsString()
  @MaxLength(ORDER_LIMITS.text)
  notes?: string;

  @ApiPropertyOptional({ type: [ThirdPartyOrderItemDto], maxItems: ORDER_LIMITS.items })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(ORDER_LIMITS.items)
  @IsObject({ each: true, message: 'each item must be an object' })
  @ValidateNested({ each: true })
  @Type(() => ThirdPartyOrderItemDto)
  items?: ThirdPartyOrderItemDto[];
}
