import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { Geocoder } from '../geocoding/geocoder';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { OrderEventsConsumer } from './order-events.consumer';
import { OrderProcessingService } from './order-processing.service';
import { OrderStatusHistoryService } from './order-status-history.service';
import { OrdersController } from './orders.controller';
import { OrdersRepository } from './orders.repository';
import { OrdersService } from './orders.service';

@Module({
  imports: [AccountsModule],
  controllers: [OrdersController, OrderEventsConsumer],
  providers: [OrdersRepository, OrdersService, OrderProcessingService, OrderStatusHistoryService, Geocoder, RateLimitGuard],
})
export class OrdersModule {}
