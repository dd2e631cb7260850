import { AccountDto, ThirdPartyIntegrationDto } from './dto/account.dto';
import { AccountState } from './accounts.service';
import { IntegrationEntity } from '../integrations/integration.entity';

export function thirdPartyView(integration: IntegrationEntity | null): ThirdPartyIntegrationDto | null {
  return integration ? { integrationId: integration.id, providerRestaurantId: integration.providerRestaurantId, isActive: integration.isActive } : null;
}

export function accountView({ restaurant, thirdParty }: AccountState): AccountDto {
  return {
    restaurantId: restaurant.id,
    name: restaurant.name,
    status: restaurant.status,
    thirdParty: thirdPartyView(thirdParty),
    createdAt: restaurant.createdAt.toISOString(),
  };
}
