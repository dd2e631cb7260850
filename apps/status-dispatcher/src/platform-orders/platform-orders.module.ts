import { Module } from '@nestjs/common';
import { AvailabilityModule } from '../availability/availability.module';
import { PlatformSessionsModule } from '../platform-sessions/platform-sessions.module';
import { OrderAcceptanceScheduler } from './order-acceptance.scheduler';
import { PlatformAcceptanceMetrics } from './platform-acceptance.metrics';
import { PlatformAController } from './platform-a.controller';
import { PlatformAPoller } from './platform-a.poller';
import { PlatformBAvailabilityController } from './platform-b-availability.controller';
import { PlatformBController } from './platform-b.controller';
import { PlatformBPluginRepository } from './platform-b-plugin.repository';
import { PlatformBPluginService } from './platform-b-plugin.service';
import { PlatformCPoller } from './platform-c.poller';
import { PlatformDController } from './platform-d.controller';
import { PlatformOrderMetrics } from './platform-order.metrics';
import { PlatformOrderRepository } from './platform-order.repository';
import { PlatformOrdersService } from './platform-orders.service';
import { PlatformPollCursorRepository } from './platform-poll-cursor.repository';

/** Platform orders in: PLATFORM_A and PLATFORM_D webhooks (PLATFORM_A with Getir's fallback polling), PLATFORM_B plugin endpoints, PLATFORM_C polling. */
@Module({
  imports: [PlatformSessionsModule, AvailabilityModule],
  controllers: [PlatformAController, PlatformBController, PlatformBAvailabilityController, PlatformDController],
  providers: [PlatformOrderRepository, PlatformOrderMetrics, PlatformBPluginRepository, PlatformPollCursorRepository, PlatformOrdersService, PlatformAPoller, PlatformCPoller, PlatformBPluginService, OrderAcceptanceScheduler, PlatformAcceptanceMetrics],
  exports: [PlatformOrdersService, PlatformOrderRepository],
})
export class PlatformOrdersModule {}
