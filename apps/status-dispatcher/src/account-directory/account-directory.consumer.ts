import { EventPattern, Payload } from '@nestjs/microservices';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccountSnapshot, IntegrationDeletedEvent, IntegrationUpsertedEvent, Queues, RoutingKey } from '@courier/contracts';
import { MessageConsumer } from '@courier/messaging';

const fromAccountEvents = { queue: Queues.dispatcherAccountEvents };

/**
 * Keeps the dispatcher's copy of accounts and integrations from integrations-api's events. Every
 * event carries the whole record and a version, so each write keeps the newest version and
 * ignores a duplicate or a late older one: no inbox needed, and the order of arrival is irrelevant.
 * Rows of different integrations are independent, so two may briefly name the same platform
 * restaurant (a transfer's two events out of order): routing refuses then rather than pick one
 * (IntegrationDirectory.forPlatformRestaurant).
 * Integration secrets stay ciphertexts (for the platform calls of the status push).
 */
@MessageConsumer()
export class AccountDirectoryConsumer {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @EventPattern([RoutingKey.AccountCreated, RoutingKey.AccountUpdated, RoutingKey.AccountDisabled], fromAccountEvents)
  async onAccountSnapshot(@Payload() account: AccountSnapshot): Promise<void> {
    await this.storeAccount(account);
  }

  @EventPattern(RoutingKey.IntegrationUpserted, fromAccountEvents)
  async onIntegrationUpserted(@Payload() integration: IntegrationUpsertedEvent): Promise<void> {
    await this.storeIntegration(integration);
  }

  @EventPattern(RoutingKey.IntegrationDeleted, fromAccountEvents)
  async onIntegrationDeleted(@Payload() deletion: IntegrationDeletedEvent): Promise<void> {
    await this.removeIntegration(deletion);
  }

  private async storeAccount(account: AccountSnapshot): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO restaurant_accounts (restaurant_id, name, status, third_party, version, occurred_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, now())
       ON CONFLICT (restaurant_id) DO UPDATE
          SET name = EXCLUDED.name, status = EXCLUDED.status, third_party = EXCLUDED.third_party,
              version = EXCLUDED.version, occurred_at = EXCLUDED.occurred_at, updated_at = now()
        WHERE restaurant_accounts.version < EXCLUDED.version`,
      [
        account.restaurantId,
        account.name,
        account.status,
        account.thirdParty
          ? JSON.stringify({ integrationId: account.thirdParty.integrationId, providerRestaurantId: account.thirdParty.providerRestaurantId, isActive: account.thirdParty.isActive })
          : null,
        account.version,
        account.occurredAt,
      ],
    );
  }

  private async storeIntegration(integration: IntegrationUpsertedEvent): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO integrations (integration_id, restaurant_id, platform, provider_restaurant_id, is_active, displaced, settings, secrets, version, deleted_at, occurred_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $10, $6, $7, $8, NULL, $9, now())
       ON CONFLICT (integration_id) DO UPDATE
          SET restaurant_id = EXCLUDED.restaurant_id, platform = EXCLUDED.platform, provider_restaurant_id = EXCLUDED.provider_restaurant_id,
              is_active = EXCLUDED.is_active, displaced = EXCLUDED.displaced, settings = EXCLUDED.settings, secrets = EXCLUDED.secrets, version = EXCLUDED.version,
              deleted_at = NULL, occurred_at = EXCLUDED.occurred_at, updated_at = now()
        WHERE integrations.version < EXCLUDED.version`,
      [
        integration.integrationId,
        integration.restaurantId,
        integration.platform,
        integration.providerRestaurantId,
        integration.isActive,
        JSON.stringify(integration.settings),
        JSON.stringify(integration.secrets),
        integration.version,
        integration.occurredAt,
        integration.displaced ?? false,
      ],
    );
  }

  /** A tombstone (with the delete's version) so that a late upsert cannot bring the integration back. */
  private async removeIntegration(deletion: IntegrationDeletedEvent): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO integrations (integration_id, restaurant_id, platform, provider_restaurant_id, is_active, settings, secrets, version, deleted_at, occurred_at, updated_at)
       VALUES ($1, $2, $3, $4, false, '{}', '{}', $5, $6, $6, now())
       ON CONFLICT (integration_id) DO UPDATE
          SET is_active = false, settings = '{}', secrets = '{}', version = EXCLUDED.version,
              deleted_at = EXCLUDED.deleted_at, occurred_at = EXCLUDED.occurred_at, updated_at = now()
        WHERE integrations.version < EXCLUDED.version`,
      [deletion.integrationId, deletion.restaurantId, deletion.platform, deletion.providerRestaurantId, deletion.version, deletion.occurredAt],
    );
  }
}
