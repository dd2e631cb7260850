import { EventPattern, Payload } from '@nestjs/microservices';
import { AccountSnapshot, IntegrationDeletedEvent, IntegrationUpsertedEvent, Queues, RoutingKey } from '@courier/contracts';
import { MessageConsumer } from '@courier/messaging';
import { AccountDirectoryRepository } from './account-directory.repository';

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
  constructor(private readonly accounts: AccountDirectoryRepository) {}

  @EventPattern([RoutingKey.AccountCreated, RoutingKey.AccountUpdated, RoutingKey.AccountDisabled], fromAccountEvents)
  async onAccountSnapshot(@Payload() account: AccountSnapshot): Promise<void> {
    await this.accounts.storeAccount(account);
  }

  @EventPattern(RoutingKey.IntegrationUpserted, fromAccountEvents)
  async onIntegrationUpserted(@Payload() integration: IntegrationUpsertedEvent): Promise<void> {
    await this.accounts.storeIntegration(integration);
  }

  @EventPattern(RoutingKey.IntegrationDeleted, fromAccountEvents)
  async onIntegrationDeleted(@Payload() deletion: IntegrationDeletedEvent): Promise<void> {
    await this.accounts.removeIntegration(deletion);
  }
}
