import { ModuleRef } from '@nestjs/core';
import { EventPattern, Payload } from '@nestjs/microservices';
import { AccountSnapshot, IntegrationDeletedEvent, IntegrationUpsertedEvent, Queues, RoutingKey } from '@courier/contracts';
import { MessageConsumer } from '@courier/messaging';
import { PlatformOrdersService } from '../platform-orders/platform-orders.service';
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
  constructor(
    private readonly accounts: AccountDirectoryRepository,
    private readonly moduleRef: ModuleRef,
  ) {}

  @EventPattern([RoutingKey.AccountCreated, RoutingKey.AccountUpdated, RoutingKey.AccountDisabled, RoutingKey.AccountKeysRotated], fromAccountEvents)
  async onAccountSnapshot(@Payload() account: AccountSnapshot): Promise<void> {
    await this.accounts.storeAccount(account);
  }

  @EventPattern(RoutingKey.IntegrationUpserted, fromAccountEvents)
  async onIntegrationUpserted(@Payload() integration: IntegrationUpsertedEvent): Promise<void> {
    await this.accounts.storeIntegration(integration);
    // After the verdict is stored (a redelivery repeats this harmlessly): the orders kept for the now verified integration are its account's.
    if (integration.verification === 'verified') await this.platformOrders().releaseWithheld(integration.integrationId);
  }

  /** Looked up, not injected: the platform orders module depends on this read model (through the integration directory). */
  private platformOrders(): PlatformOrdersService {
    return this.moduleRef.get(PlatformOrdersService, { strict: false });
  }

  @EventPattern(RoutingKey.IntegrationDeleted, fromAccountEvents)
  async onIntegrationDeleted(@Payload() deletion: IntegrationDeletedEvent): Promise<void> {
    await this.accounts.removeIntegration(deletion);
  }
}
