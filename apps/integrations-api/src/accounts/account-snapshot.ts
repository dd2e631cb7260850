import { AccountSnapshot } from '@courier/contracts';
import { IntegrationEntity } from '../integrations/integration.entity';
import { RestaurantEntity } from './restaurant.entity';

/** The account as every account.* event carries it. */
export function accountSnapshot(restaurant: RestaurantEntity, thirdParty: IntegrationEntity | null, occurredAt: Date): AccountSnapshot {
  return {
    restaurantId: restaurant.id,
    name: restaurant.name,
    status: restaurant.status,
    apiKeyHash: restaurant.apiKeyHash,
    apiSecretHash: restaurant.apiSecretHash,
    thirdParty: thirdParty ? { integrationId: thirdParty.id, providerRestaurantId: thirdParty.providerRestaurantId, isActive: thirdParty.isActive } : null,
    webhooks: {
      statusUrl: restaurant.webhookStatusUrl,
      cancelUrl: restaurant.webhookCancelUrl,
      signingSecretCiphertext: restaurant.webhookSigningSecret,
      previousSigningSecretCiphertext: restaurant.webhookPreviousSigningSecret,
      previousSigningSecretValidUntil: restaurant.webhookPreviousSigningSecretValidUntil?.toISOString() ?? null,
    },
    version: restaurant.version,
    createdAt: restaurant.createdAt.toISOString(),
    occurredAt: occurredAt.toISOString(),
  };
}
