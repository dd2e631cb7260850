import { Module } from '@nestjs/common';
import { AccountEventsConsumer } from './account-events.consumer';
import { AccountsService } from './accounts.service';
import { IntakeAuthGuard } from './intake-auth.guard';

/** The accounts read model, its consumer, and the intake authentication built on it. */
@Module({
  controllers: [AccountEventsConsumer],
  providers: [AccountsService, IntakeAuthGuard],
  exports: [AccountsService, IntakeAuthGuard],
})
export class AccountsModule {}
