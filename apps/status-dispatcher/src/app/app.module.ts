import { Module, Type } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import type { DestinationStream } from 'pino';
import { AppConfigModule } from '@courier/config';
import { HealthModule } from '@courier/health';
import { LoggingModule } from '@courier/logging';
import { MessagingModule } from '@courier/messaging';
import { MetricsModule } from '@courier/observability';
import { PersistenceModule } from '@courier/persistence';
import { PlatformEntry, PlatformInboundModule, PLATFORMS, RegisteredPlatformsModule } from '@courier/platforms';
import { RateLimitModule } from '@courier/rate-limit';
import { AccountDirectoryModule } from '../account-directory/account-directory.module';
import { AdminModule } from '../admin/admin.module';
import { AvailabilityModule } from '../availability/availability.module';
import { CatalogModule } from '../catalog/catalog.module';
import { CatalogChangesModule } from '../catalog/catalog-changes.module';
import { OrdersModule } from '../orders/orders.module';
import { PlatformOrdersModule } from '../platform-orders/platform-orders.module';
import { StatusUpdatesModule } from '../status-updates/status-updates.module';
import { DispatcherConfig } from './status-dispatcher.config';
import { PERSISTENCE } from './persistence';

export interface AppModuleOptions {
  /** Where log lines go (default stdout): tests read them. */
  logDestination?: DestinationStream;
  /** The environment the config is read from (default process.env): the one-machine composer gives each app its own DATABASE_URL. */
  env?: Record<string, string | undefined>;
  /** The platforms the app serves (default PLATFORMS): a test adds one from its own folder. */
  platforms?: readonly PlatformEntry[];
}

/** The status-dispatcher module; options exist for tests (and a composer) to swap the log sink. */
export function createAppModule(options: AppModuleOptions = {}): Type<unknown> {
  const platforms = options.platforms ?? PLATFORMS;
  @Module({
    imports: [
      AppConfigModule.forRoot(DispatcherConfig, options.env),
      RegisteredPlatformsModule.forRoot(platforms),
      // Periodic work of the app's providers (@Interval): RateLimitSweep.
      ScheduleModule.forRoot(),
      LoggingModule.forRoot({ service: 'status-dispatcher', destination: options.logDestination }),
      PersistenceModule.forRoot(PERSISTENCE),
      MessagingModule.forRoot({ service: 'status-dispatcher' }),
      // Transitions and pushes keep working through a broker outage (the outbox holds the events).
      HealthModule.forRoot({ database: true, broker: 'reported' }),
      MetricsModule.forRoot({ service: 'status-dispatcher' }),
      // Failed authentication throttled per client address, in counters shared by the replicas.
      RateLimitModule.forRoot({ service: 'status-dispatcher', authFailures: { keyIdHeaders: ['x-api-key'] } }),
      AccountDirectoryModule,
      AdminModule,
      AvailabilityModule,
      CatalogModule,
      CatalogChangesModule,
      OrdersModule,
      PlatformOrdersModule,
      // Every registered platform's controllers and pollers, over the app's PlatformOrderIntake.
      PlatformInboundModule.register({ platforms, imports: [PlatformOrdersModule] }),
      StatusUpdatesModule,
    ],
  })
  class AppModule {}
  return AppModule;
}

export const AppModule = createAppModule();
