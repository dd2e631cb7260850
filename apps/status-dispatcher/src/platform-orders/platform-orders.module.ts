import { Module } from '@nestjs/common';
import { PlatformOrderIntake } from '@courier/platforms';
import { AvailabilityModule } from '../availability/availability.module';
import { CatalogOrderItemMetrics } from '../catalog/catalog-order-items.metrics';
import { CatalogOrderItemsRepository } from '../catalog/catalog-order-items.repository';
import { CatalogOrderItemsService } from '../catalog/catalog-order-items.service';
import { PlatformSessionsModule } from '../platform-sessions/platform-sessions.module';
import { OrderAcceptanceScheduler } from './order-acceptance.scheduler';
import { PlatformAcceptanceMetrics } from './platform-acceptance.metrics';
import { DispatcherOrderIntake } from './platform-order-intake';
import { PlatformOrderMetrics } from './platform-order.metrics';
import { PlatformOrderRepository } from './platform-order.repository';
import { PlatformOrdersService } from './platform-orders.service';
import { PlatformPluginRecordsRepository } from './platform-plugin-records.repository';
import { PlatformPluginRecordsService } from './platform-plugin-records.service';
import { PlatformPollCursorRepository } from './platform-poll-cursor.repository';

/**
 * Platform orders in: the orders, test orders and poll cursors the platforms' inbound pieces
 * (libs/platforms, served by PlatformInboundModule) write through the PlatformOrderIntake port.
 */
@Module({
  imports: [PlatformSessionsModule, AvailabilityModule],
  providers: [
    PlatformOrderRepository,
    PlatformOrderMetrics,
    PlatformPluginRecordsRepository,
    PlatformPollCursorRepository,
    PlatformOrdersService,
    PlatformPluginRecordsService,
    OrderAcceptanceScheduler,
    PlatformAcceptanceMetrics,
    CatalogOrderItemsRepository,
    CatalogOrderItemMetrics,
    CatalogOrderItemsService,
    { provide: PlatformOrderIntake, useClass: DispatcherOrderIntake },
  ],
  exports: [PlatformOrdersService, PlatformOrderRepository, PlatformOrderIntake, PlatformSessionsModule],
})
export class PlatformOrdersModule {}
