import { Module, Type } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import type { DestinationStream } from 'pino';
import { AppConfigModule } from '@courier/config';
import { HealthModule } from '@courier/health';
import type { HostResolver } from '@courier/http';
import { LoggingModule } from '@courier/logging';
import { MessagingModule } from '@courier/messaging';
import { MetricsModule } from '@courier/observability';
import { PersistenceModule } from '@courier/persistence';
import { RateLimitModule } from '@courier/rate-limit';
import { AccountsModule } from '../accounts/accounts.module';
import { AdminModule } from '../admin/admin.module';
import { CommonModule } from '../common/common.module';
import { IntegrationCheckModule } from '../integration-check/integration-check.module';
import { IntegrationsModule } from '../integrations/integrations.module';
import { WebhookSettingsModule } from '../webhook-settings/webhook-settings.module';
import { IntegrationsConfig } from './integrations-api.config';
import { PERSISTENCE } from './persistence';

export interface AppModuleOptions {
  /** Where log lines go (default stdout): tests read them. */
  logDestination?: DestinationStream;
  /** The environment the config is read from (default process.env): the one-machine composer gives each app its own DATABASE_URL. */
  env?: Record<string, string | undefined>;
  /** How webhook URL hosts are resolved (default DNS): tests use a fixed table. */
  hostResolver?: HostResolver;
}

/** The integrations-api module; options exist for tests (and a composer) to swap log sink and DNS. */
export function createAppModule(options: AppModuleOptions = {}): Type<unknown> {
  @Module({
    imports: [
      AppConfigModule.forRoot(IntegrationsConfig, options.env),
      // Periodic work of the app's providers (@Interval): RateLimitSweep.
      ScheduleModule.forRoot(),
      LoggingModule.forRoot({ service: 'integrations-api', destination: options.logDestination }),
      PersistenceModule.forRoot(PERSISTENCE),
      MessagingModule.forRoot({ service: 'integrations-api' }),
      // The outbox holds events through a broker outage: it is shown, not a reason to stop serving.
      HealthModule.forRoot({ database: true, broker: 'reported' }),
      MetricsModule.forRoot({ service: 'integrations-api' }),
      // Failed authentication throttled per client address and per X-API-Key, in counters shared by the replicas.
      RateLimitModule.forRoot({ service: 'integrations-api', authFailures: { keyIdHeaders: ['x-api-key'] } }),
      CommonModule.forRoot({ hostResolver: options.hostResolver }),
      AccountsModule,
      AdminModule,
      IntegrationsModule,
      IntegrationCheckModule,
      WebhookSettingsModule,
    ],
  })
  class AppModule {}
  return AppModule;
}

export const AppModule = createAppModule();
