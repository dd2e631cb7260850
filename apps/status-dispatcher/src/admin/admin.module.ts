import { Module } from '@nestjs/common';
import { PlatformOrdersModule } from '../platform-orders/platform-orders.module';
import { PlatformSessionsModule } from '../platform-sessions/platform-sessions.module';
import { AdminTokenGuard } from './admin-token.guard';
import { WithheldOrdersController } from './withheld-orders.controller';

/** The operators' API of the dispatcher (/admin/v1, X-Admin-Token). */
@Module({
  imports: [PlatformOrdersModule, PlatformSessionsModule],
  controllers: [WithheldOrdersController],
  providers: [AdminTokenGuard],
})
export class AdminModule {}
