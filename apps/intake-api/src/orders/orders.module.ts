import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { GeocodingModule } from '../geocoding/geocoding.module';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { OrderEventsConsumer } from './order-events.consumer';
import { OrderProcessingService } from './order-processing.service';
import { OrderStatusHistoryRepository } from './order-status-history.repository';
import { OrderStatusHistoryService } from './order-status-history.service';
import { OrdersController } from './orders.controller';
import { OrdersRepository } from './orders.repository';
import { OrdersService } from './orders.service';

@Module({
  imports: [AccountsModule, GeocodingModule],
  controllers: [OrdersController, OrderEventsConsumer],
  providers: [OrdersRepository, OrderStatusHistoryRepository, OrdersService, OrderProcessingService, OrderStatusHistoryService, RateLimitGuard],
})
export class OrdersModule {}
