import { IntegrationDeletedEvent, IntegrationUpsertedEvent, RoutingKey } from '@courier/contracts';
import { TransactionContext } from '@courier/messaging';
import { IntegrationEntity } from './integration.entity';

/**
 * Stores a changed integration (in memory) with the next version and announces it, in `tx`: the
 * one way a change of an existing integration reaches the table and integration.upserted.
 */
export async function storeIntegrationChange(tx: TransactionContext, integration: IntegrationEntity, now: Date): Promise<void> {
  integration.version += 1;
  integration.updatedAt = now;
  await tx.manager.update(
    IntegrationEntity,
    { id: integration.id },
    {
      providerRestaurantId: integration.providerRestaurantId,
      isActive: integration.isActive,
      settings: integration.settings,
      secrets: integration.secrets,
      displacedAt: integration.displacedAt,
      verifiedAt: integration.verifiedAt,
      verifiedBy: integration.verifiedBy,
      version: integration.version,
      updatedAt: now,
    },
  );
  await tx.publish(RoutingKey.IntegrationUpserted, integrationUpsertedEvent(integration, now));
}

/** integration.upserted payload: the whole record, secrets as ciphertexts only. */
export function integrationUpsertedEvent(integration: IntegrationEntity, occurredAt: Date): IntegrationUpsertedEvent {
  return {
    integrationId: integration.id,
    restaurantId: integration.restaurantId,
    platform: integration.platform,
    providerRestaurantId: integration.providerRestaurantId,
    isActive: integration.isActive,
    displaced: integration.displacedAt !== null,
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
