import { Module } from '@nestjs/common';
import { CatalogOrderItemsRepository } from '../catalog/catalog-order-items.repository';
import { InternalAuthModule } from '../internal-auth/internal-auth.module';
import { FinalApprovalScheduler } from './final-approval.scheduler';
import { OrderCreationConsumer } from './order-creation.consumer';
import { OrderLifecycleService } from './order-lifecycle.service';
import { OrderRepository } from './order.repository';
import { OrdersController } from './orders.controller';

/** Order lifecycle of THIRD_PARTY orders: creation from order.created, transitions, final approval. */
@Module({
  imports: [InternalAuthModule],
  controllers: [OrdersController, OrderCreationConsumer],
  providers: [OrderRepository, OrderLifecycleService, FinalApprovalScheduler, CatalogOrderItemsRepository],
})
export class OrdersModule {}
