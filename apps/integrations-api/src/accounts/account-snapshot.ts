import { AccountSnapshot, AccountSnapshotKey } from '@courier/contracts';
import { TransactionContext } from '@courier/messaging';
import { THIRD_PARTY_CODE } from '@courier/platforms';
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
    },
    version: restaurant.version,
    createdAt: restaurant.createdAt.toISOString(),
    occurredAt: occurredAt.toISOString(),
  };
}

/** Writes the account's current snapshot to the outbox of `tx` under `routingKey`. */
export async function publishAccountSnapshot(tx: TransactionContext, routingKey: AccountSnapshotKey, restaurant: RestaurantEntity, occurredAt = new Date()): Promise<void> {
  const thirdParty = await tx.manager.findOne(IntegrationEntity, { where: { restaurantId: restaurant.id, platform: THIRD_PARTY_CODE } });
  await tx.publish(routingKey, accountSnapshot(restaurant, thirdParty, occurredAt));
}

/**
 * One change of an account, inside `tx`: locks the row, applies `change` (which may say there is
 * nothing to do by returning false), bumps the version and publishes the snapshot. Returns the
 * account after the change, or undefined when there is no such account.
 *
 * Lock order: a transaction that also changes an integration locks the integration first.
 */
export async function changeAccount(
  tx: TransactionContext,
  routingKey: AccountSnapshotKey,
  restaurantId: string,
  change: (restaurant: RestaurantEntity) => boolean | void = () => true,
): Promise<RestaurantEntity | undefined> {
  const restaurant = await tx.manager.findOne(RestaurantEntity, { where: { id: restaurantId }, lock: { mode: 'pessimistic_write' } });
  if (!restaurant) return undefined;
  if (change(restaurant) === false) return restaurant;
  const now = new Date();
  restaurant.version += 1;
  restaurant.updatedAt = now;
  await tx.manager.update(
    RestaurantEntity,
    { id: restaurant.id },
    {
      name: restaurant.name,
      status: restaurant.status,
      apiKeyHash: restaurant.apiKeyHash,
      apiSecretHash: restaurant.apiSecretHash,
      webhookStatusUrl: restaurant.webhookStatusUrl,
      webhookCancelUrl: restaurant.webhookCancelUrl,
      webhookSigningSecret: restaurant.webhookSigningSecret,
      version: restaurant.version,
      updatedAt: now,
    },
  );
  await publishAccountSnapshot(tx, routingKey, restaurant, now);
  return restaurant;
}
