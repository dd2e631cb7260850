import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { Geocoder } from '../geocoding/geocoder';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { OrderEventsConsumer } from './order-events.consumer';
import { OrderProcessingService } from './order-processing.service';
import { OrderStatusHistoryService } from './order-status-history.service';
import { OrdersController } from './orders.controller';
import { OrdersRepository } from './orders.repository';
import { OrdersService } from './orders.service';

@Module({
  imports: [AccountsModule, RateLimitModule],
  controllers: [OrdersController],
  providers: [OrdersRepository, OrdersService, OrderProcessingService, OrderStatusHistoryService, OrderEventsConsumer, Geocoder],
})
export class OrdersModule {}
