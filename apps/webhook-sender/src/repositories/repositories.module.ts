import { Module } from '@nestjs/common';
import { DeliveriesRepository } from './deliveries.repository';
import { WebhookAccountsRepository } from './webhook-accounts.repository';

/** The sender's only way to its tables: a repository per group of tables. */
@Module({
  providers: [DeliveriesRepository, WebhookAccountsRepository],
  exports: [DeliveriesRepository, WebhookAccountsRepository],
})
export class RepositoriesModule {}
