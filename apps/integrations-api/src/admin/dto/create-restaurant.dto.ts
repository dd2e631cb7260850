import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { NormalisedText } from '@courier/http';
import { IsCleanText } from '../../common/clean-text.decorator';

export class CreateRestaurantDto {
  @ApiProperty({ example: 'Demo Kebab House', maxLength: 200 })
  @IsString()
  @MaxLength(200)
  @IsCleanText()
  name: string;

  @ApiPropertyOptional({
    maxLength: 128,
    example: 'pos-store-17',
    description:
      'The customer\'s own id for the restaurant, given to the THIRD_PARTY integration (default: the restaurantId). Stored NFC and trimmed; control, bidirectional and zero-width characters are refused.',
  })
  @IsOptional()
  @IsString()
  @NormalisedText()
  @MaxLength(128)
  @IsCleanText()
  providerRestaurantId?: string;

  @ApiPropertyOptional({ example: 'https://pos.example.com/webhooks/status', description: 'Status webhook URL (checked like PUT /api/v1/my/webhooks).' })
  @IsOptional()
  @IsString()
  statusUrl?: string;

  @ApiPropertyOptional({ example: 'https://pos.example.com/webhooks/cancel', description: 'Cancel webhook URL.' })
  @IsOptional()
  @IsString()
  cancelUrl?: string;

  @ApiPropertyOptional({ description: 'Create a webhook signing secret now; it is returned once as `signingSecret`.', default: false })
  @IsOptional()
  @IsBoolean()
  generateSigningSecret?: boolean;
}
