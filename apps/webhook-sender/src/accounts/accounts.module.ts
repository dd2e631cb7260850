import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module';
import { AccountEventsConsumer } from './account-events.consumer';
import { ApiCredentialsGuard } from './api-credentials.guard';
import { WebhookAccountsService } from './webhook-accounts.service';

/** The accounts read model (from account.* events) and the delivery log API's authentication. */
@Module({
  imports: [RepositoriesModule],
  controllers: [AccountEventsConsumer],
  providers: [WebhookAccountsService, ApiCredentialsGuard],
  exports: [WebhookAccountsService, ApiCredentialsGuard],
})
export class AccountsModule {}
