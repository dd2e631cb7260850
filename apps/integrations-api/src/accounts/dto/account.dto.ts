import { ApiProperty } from '@nestjs/swagger';

export class ThirdPartyIntegrationDto {
  @ApiProperty({ format: 'uuid' })
  integrationId: string;

  @ApiProperty({ description: 'Your own id for the restaurant; the webhooks carry it as providerRestaurantId.', example: 'pos-store-17' })
  providerRestaurantId: string;

  @ApiProperty({ description: 'Order intake is refused (403 INTEGRATION_DISABLED) while false.' })
  isActive: boolean;
}

/** The caller's own account. */
export class AccountDto {
  @ApiProperty({ example: 'rest_Qm9sZFBsYWNlaG9sZGVyMDAx', description: 'Restaurant id, sent as restaurantId with every order.' })
  restaurantId: string;

  @ApiProperty({ example: 'Demo Kebab House' })
  name: string;

  @ApiProperty({ enum: ['active', 'disabled'] })
  status: string;

  @ApiProperty({ type: ThirdPartyIntegrationDto, nullable: true, description: 'The THIRD_PARTY integration (null when deleted).' })
  thirdParty: ThirdPartyIntegrationDto | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}
