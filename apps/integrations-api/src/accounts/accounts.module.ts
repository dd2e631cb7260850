import { Module } from '@nestjs/common';
import { AccountsController } from './accounts.controller';
import { AccountsService } from './accounts.service';
import { ApiCredentialsGuard } from './api-credentials.guard';
import { RepositoriesModule } from '../repositories/repositories.module';

/** Restaurant accounts, their authentication, and account events. */
@Module({
  imports: [RepositoriesModule],
  controllers: [AccountsController],
  providers: [AccountsService, ApiCredentialsGuard],
  exports: [AccountsService, ApiCredentialsGuard],
})
export class AccountsModule {}
