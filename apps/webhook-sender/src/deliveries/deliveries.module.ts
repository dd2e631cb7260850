import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { RepositoriesModule } from '../repositories/repositories.module';
import { SendingModule, SendingOptions } from '../sending/sending.module';
import { DeliveriesController } from './deliveries.controller';
import { DeliveriesService } from './deliveries.service';
import { DeliveryRetention } from './delivery-retention';
import { OrderEventsConsumer } from './order-events.consumer';
import { RedeliverRateLimitGuard } from './redeliver-rate-limit.guard';
import { RestaurantEventsConsumer } from './restaurant-events.consumer';

/** Order and restaurant events become deliveries; the delivery log API. */
@Module({})
export class DeliveriesModule {
  static forRoot(sending: SendingOptions = {}) {
    return {
      module: DeliveriesModule,
      imports: [AccountsModule, RepositoriesModule, SendingModule.forRoot(sending)],
      controllers: [DeliveriesController, OrderEventsConsumer, RestaurantEventsConsumer],
      providers: [DeliveriesService, DeliveryRetention, RedeliverRateLimitGuard],
      exports: [DeliveryRetention],
    };
  }
}
