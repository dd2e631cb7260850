import { Module } from '@nestjs/common';
import { InternalAuthModule } from '../internal-auth/internal-auth.module';
import { PlatformOrdersModule } from '../platform-orders/platform-orders.module';
import { PlatformSessionsModule } from '../platform-sessions/platform-sessions.module';
import { DispatchMetrics } from './dispatch-metrics';
import { ImmediateSends } from './immediate-sends';
import { StatusDispatchWorker } from './status-dispatch.worker';
import { StatusPushService } from './status-push.service';
import { StatusUpdateRepository } from './status-update.repository';
import { StatusUpdatesController } from './status-updates.controller';
import { StatusUpdatesService } from './status-updates.service';
import { StepSpacing } from './step-spacing';

/** Status updates out: the internal push, the durable platform commands, and their read. */
@Module({
  imports: [InternalAuthModule, PlatformSessionsModule, PlatformOrdersModule],
  controllers: [StatusUpdatesController],
  providers: [StatusUpdateRepository, StatusPushService, StatusUpdatesService, StatusDispatchWorker, ImmediateSends, StepSpacing, DispatchMetrics],
})
export class StatusUpdatesModule {}
