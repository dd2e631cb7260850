import { Module, Type } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import type { DestinationStream } from 'pino';
import { AppConfigModule } from '@courier/config';
import { HealthModule } from '@courier/health';
import { LoggingModule } from '@courier/logging';
import { MessagingModule } from '@courier/messaging';
import { MetricsModule } from '@courier/observability';
import { PersistenceModule } from '@courier/persistence';
import { RateLimitModule } from '@courier/rate-limit';
import { OrdersModule } from '../orders/orders.module';
import { IntakeConfig } from './intake-api.config';
import { PERSISTENCE } from './persistence';

export interface AppModuleOptions {
  /** Where log lines go (default stdout): tests read them. */
  logDestination?: DestinationStream;
  /** The environment the config is read from (default process.env): the one-machine composer gives each app its own DATABASE_URL. */
  env?: Record<string, string | undefined>;
}

/** The intake-api module; options exist for tests (and a composer) to swap the log sink. */
export function createAppModule(options: AppModuleOptions = {}): Type<unknown> {
  @Module({
    imports: [
      AppConfigModule.forRoot(IntakeConfig, options.env),
      LoggingModule.forRoot({ service: 'intake-api', destination: options.logDestination }),
      PersistenceModule.forRoot(PERSISTENCE),
      MessagingModule.forRoot({ service: 'intake-api' }),
      // Readiness checks the database only: intake must keep taking orders while the broker is
      // down (the outbox holds the events), so a broker outage is reported but never takes it out of service.
      HealthModule.forRoot({ database: true, broker: 'reported' }),
      MetricsModule.forRoot({ service: 'intake-api' }),
      // Per-key request counters; intake does not throttle failed authentication (only the other apps do).
      RateLimitModule.forRoot({ service: 'intake' }),
      // Periodic work as @Interval methods: the stuck-order sweep and RateLimitModule's counter sweep.
      ScheduleModule.forRoot(),
      OrdersModule,
    ],
  })
  class AppModule {}
  return AppModule;
}

export const AppModule = createAppModule();
