import { Module } from '@nestjs/common';
import { AccountEventsConsumer } from './account-events.consumer';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { IntakeAuthGuard } from './intake-auth.guard';

/** The accounts read model, its consumer, and the intake authentication built on it. */
@Module({
  controllers: [AccountEventsConsumer],
  providers: [AccountsRepository, AccountsService, IntakeAuthGuard],
  exports: [AccountsService, IntakeAuthGuard],
})
export class AccountsModule {}
