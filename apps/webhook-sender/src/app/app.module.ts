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
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { SendingOptions } from '../sending/sending.module';
import { PERSISTENCE } from './persistence';
import { WebhookSenderConfig } from './webhook-sender.config';

export interface AppModuleOptions extends SendingOptions {
  /** Where log lines go (default stdout): tests read them. */
  logDestination?: DestinationStream;
  /** The environment the config is read from (default process.env): the one-machine composer gives each app its own DATABASE_URL. */
  env?: Record<string, string | undefined>;
}

/** The webhook-sender module; options exist for tests to swap the log sink, DNS and trusted CAs. */
export function createAppModule(options: AppModuleOptions = {}): Type<unknown> {
  @Module({
    imports: [
      AppConfigModule.forRoot(WebhookSenderConfig, options.env),
      LoggingModule.forRoot({ service: 'webhook-sender', destination: options.logDestination }),
      PersistenceModule.forRoot(PERSISTENCE),
      MessagingModule.forRoot({ service: 'webhook-sender' }),
      // The delivery pump's poll, the retention's runs and RateLimitModule's counter sweep.
      ScheduleModule.forRoot(),
      // A broker outage is shown but does not take the delivery log API or pending retries out of service.
      HealthModule.forRoot({ database: true, broker: 'reported' }),
      MetricsModule.forRoot({ service: 'webhook-sender' }),
      // Failed authentication throttled per client address and per X-API-Key, in counters shared by the replicas.
      RateLimitModule.forRoot({ service: 'webhook-sender', authFailures: { keyIdHeaders: ['x-api-key'] } }),
      DeliveriesModule.forRoot({ hostResolver: options.hostResolver, trustedCa: options.trustedCa }),
    ],
  })
  class AppModule {}
  return AppModule;
}

export const AppModule = createAppModule();
