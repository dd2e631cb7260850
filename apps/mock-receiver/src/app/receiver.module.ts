import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG } from '@courier/config';
import { HealthModule } from '@courier/health';
import { LoggingModule } from '@courier/logging';
import { MetricsModule } from '@courier/observability';
import { ConfigController } from './config/config.controller';
import { DashboardController } from './dashboard/dashboard.controller';
import { EventsController } from './events/events.controller';
import { ReceiverEvents } from './events/receiver-events.service';
import { OrderMovesController } from './moves/order-moves.controller';
import { OrderMovesService } from './moves/order-moves.service';
import { IntakeClient } from './orders/intake.client';
import { OrdersController } from './orders/orders.controller';
import { OrdersService } from './orders/orders.service';
import { ReceiverConfig } from './receiver.config';
import { RECEIVER_CONFIG } from './receiver.tokens';
import { ReceiverStore } from './state/receiver-state.store';
import { WebhooksModule } from './webhooks/webhooks.module';

/** State and the live event stream, shared by the feature modules. */
@Global()
@Module({})
class ReceiverCoreModule {
  static forRoot(config: ReceiverConfig): DynamicModule {
    return {
      module: ReceiverCoreModule,
      providers: [
        { provide: RECEIVER_CONFIG, useValue: config },
        // runService-style callers read the port from APP_CONFIG, as for every app of the suite.
        { provide: APP_CONFIG, useExisting: RECEIVER_CONFIG },
        ReceiverStore,
        ReceiverEvents,
      ],
      exports: [RECEIVER_CONFIG, APP_CONFIG, ReceiverStore, ReceiverEvents],
    };
  }
}

@Module({})
export class ReceiverModule {
  static forRoot(config: ReceiverConfig): DynamicModule {
    return {
      module: ReceiverModule,
      imports: [
        ReceiverCoreModule.forRoot(config),
        LoggingModule.forRoot({ service: 'mock-receiver', level: config.LOG_LEVEL, pretty: config.LOG_PRETTY }),
        // No database and no broker: /health and /health/ready answer as long as the process does.
        HealthModule.forRoot({ database: false, broker: false }),
        MetricsModule.forRoot({ service: 'mock-receiver' }),
        WebhooksModule,
      ],
      controllers: [OrdersController, OrderMovesController, ConfigController, EventsController, DashboardController],
      providers: [IntakeClient, OrdersService, OrderMovesService],
    };
  }
}
