import { Module } from '@nestjs/common';
import { AccountsController } from './accounts.controller';
import { AccountsService } from './accounts.service';
import { ACCOUNT_KEY_LOOKUP, ApiCredentialsGuard } from '@courier/http';
import { AccountsRepository } from '../repositories/accounts.repository';
import { RepositoriesModule } from '../repositories/repositories.module';

/** Restaurant accounts, their authentication, and account events. */
@Module({
  imports: [RepositoriesModule],
  controllers: [AccountsController],
  // The API credentials of /api/v1/my/*: @courier/http's guard over this app's accounts table.
  providers: [AccountsService, ApiCredentialsGuard, { provide: ACCOUNT_KEY_LOOKUP, useExisting: AccountsRepository }],
  exports: [AccountsService, ApiCredentialsGuard, ACCOUNT_KEY_LOOKUP],
})
export class AccountsModule {}
