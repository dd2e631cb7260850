import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module';
import { AccountEventsConsumer } from './account-events.consumer';
import { ACCOUNT_KEY_LOOKUP, ApiCredentialsGuard } from '@courier/http';
import { WebhookAccountsRepository } from '../repositories/webhook-accounts.repository';
import { WebhookAccountsService } from './webhook-accounts.service';

/** The accounts read model (from account.* events) and the delivery log API's authentication. */
@Module({
  imports: [RepositoriesModule],
  controllers: [AccountEventsConsumer],
  // The delivery log API's credentials: @courier/http's guard over the read model's accounts.
  providers: [WebhookAccountsService, ApiCredentialsGuard, { provide: ACCOUNT_KEY_LOOKUP, useExisting: WebhookAccountsRepository }],
  exports: [WebhookAccountsService, ApiCredentialsGuard, ACCOUNT_KEY_LOOKUP],
})
export class AccountsModule {}
