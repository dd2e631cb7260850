import { IntegrationDeletedEvent, IntegrationUpsertedEvent } from '@courier/contracts';
import { IntegrationEntity } from './integration.entity';

/** integration.upserted payload: the whole record, secrets as ciphertexts only. */
export function integrationUpsertedEvent(integration: IntegrationEntity, occurredAt: Date): IntegrationUpsertedEvent {
  return {
    integrationId: integration.id,
    restaurantId: integration.restaurantId,
    platform: integration.platform,
    providerRestaurantId: integration.providerRestaurantId,
    isActive: integration.isActive,
    displaced: integration.displacedAt !== null,
    verification: integration.verificationState,
    verifiedAt: integration.verificationState === 'verified' ? (integration.verificationVerifiedAt?.toISOString() ?? null) : null,
    settings: { ...integration.settings },
    secrets: { ...integration.secrets },
    version: integration.version,
    createdAt: integration.createdAt.toISOString(),
    updatedAt: integration.updatedAt.toISOString(),
    occurredAt: occurredAt.toISOString(),
  };
}

/** integration.deleted payload; its version follows the last upsert's. */
export function integrationDeletedEvent(integration: IntegrationEntity, occurredAt: Date): IntegrationDeletedEvent {
  return {
    integrationId: integration.id,
    restaurantId: integration.restaurantId,
    platform: integration.platform,
    providerRestaurantId: integration.providerRestaurantId,
    version: integration.version + 1,
    occurredAt: occurredAt.toISOString(),
  };
}
