import { Registry } from 'prom-client';
import { DynamicModule, Module } from '@nestjs/common';
import { SecretBox } from '@courier/crypto';
import { HostResolver, systemHostResolver } from '@courier/http';
import { WebhookSenderConfig } from '../app/webhook-sender.config';
import { RepositoriesModule } from '../repositories/repositories.module';
import { DeliveryBacklogMetrics } from './delivery-backlog.metrics';
import { DeliveryPump } from './delivery-pump';
import { DeliveryWorker } from './delivery-worker';
import { HostLimiter } from './host-limiter';
import { ReceiverClient } from './receiver-client';
import { WebhookMetrics } from './webhook-metrics';

export interface SendingOptions {
  /** How receiver hosts are resolved (default DNS): tests map names to local addresses. */
  hostResolver?: HostResolver;
  /** CAs trusted for receivers instead of Node's bundle: tests only (a receiver with a test CA's certificate). */
  trustedCa?: string | Buffer;
}

/** Sending deliveries: the safe HTTP client, per-host limits, the worker and the pump that runs it, metrics. */
@Module({})
export class SendingModule {
  static forRoot(options: SendingOptions = {}): DynamicModule {
    return {
      module: SendingModule,
      imports: [RepositoriesModule],
      providers: [
        { provide: SecretBox, inject: [WebhookSenderConfig], useFactory: (config: WebhookSenderConfig) => SecretBox.fromKeyList(config.SECRETS_ENCRYPTION_KEYS) },
        {
          provide: ReceiverClient,
          inject: [WebhookSenderConfig],
          useFactory: (config: WebhookSenderConfig) =>
            new ReceiverClient({
              allowInsecure: config.WEBHOOK_ALLOW_INSECURE_URLS,
              allowedInsecureOrigins: config.WEBHOOK_ALLOWED_INSECURE_ORIGINS,
              resolve: options.hostResolver ?? systemHostResolver,
              ca: options.trustedCa,
            }),
        },
        {
          provide: HostLimiter,
          inject: [WebhookSenderConfig],
          useFactory: (config: WebhookSenderConfig) =>
            // A fast receiver may fill half of the pump's slots (its deliveries wait milliseconds); the other half stays for the rest.
            new HostLimiter({
              perHost: config.WEBHOOK_MAX_CONCURRENCY_PER_HOST,
              maxWaitMs: config.WEBHOOK_TIMEOUT_MS,
              // Slow: answering in more than half the timeout (or a second) on average.
              slowMs: Math.min(1_000, config.WEBHOOK_TIMEOUT_MS / 2),
              fastAllowance: Math.floor(config.WEBHOOK_CONCURRENCY / 2),
            }),
        },
        { provide: WebhookMetrics, inject: [Registry], useFactory: (registry: Registry) => new WebhookMetrics(registry) },
        DeliveryBacklogMetrics,
        DeliveryWorker,
        DeliveryPump,
      ],
      exports: [DeliveryPump, WebhookMetrics],
    };
  }
}
