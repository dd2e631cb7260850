import { DynamicModule, Module } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { BaseConfig } from '@courier/config';
import { createLogger } from '@courier/logging';
import { Messaging } from '@courier/messaging';
import { DatabaseMetrics } from './database-metrics';
import { HttpMetrics } from './http-metrics';
import { MessagingMetrics } from './messaging-metrics';
import { MetricsController } from './metrics.controller';

const METRICS_LOGGER = Symbol('METRICS_LOGGER');

export interface MetricsOptions {
  /** The app's name: the `service` label on every series. */
  service: string;
  /** How long database and broker figures are reused between scrapes (default 5 s). */
  cacheMs?: number;
  /** Time limit of one read of those figures (default 1 s). */
  timeoutMs?: number;
}

/**
 * Prometheus metrics of one app: GET /metrics, a registry of the app's own (never prom-client's
 * global one: the one-machine mode runs several apps in one process), default process metrics,
 * HTTP latency by route template, and, when the app has them, its outbox and task backlog
 * (PersistenceModule) and consumer and queue figures (MessagingModule). The registry is injectable:
 * apps add their own metrics with `registers: [registry]`.
 */
@Module({})
export class MetricsModule {
  static forRoot(options: MetricsOptions): DynamicModule {
    const cacheMs = options.cacheMs ?? 5_000;
    const timeoutMs = options.timeoutMs ?? 1_000;
    return {
      module: MetricsModule,
      global: true,
      controllers: [MetricsController],
      providers: [
        {
          provide: Registry,
          useFactory: () => {
            const registry = new Registry();
            registry.setDefaultLabels({ service: options.service });
            collectDefaultMetrics({ register: registry });
            return registry;
          },
        },
        {
          provide: METRICS_LOGGER,
          inject: [{ token: BaseConfig, optional: true }],
          useFactory: (config?: BaseConfig) =>
            createLogger({ service: options.service, level: config?.LOG_LEVEL, pretty: config?.LOG_PRETTY }).child({ component: 'metrics' }),
        },
        {
          provide: HttpMetrics,
          inject: [Registry, HttpAdapterHost],
          useFactory: (registry: Registry, adapterHost: HttpAdapterHost) => {
            const adapter = adapterHost.httpAdapter;
            const metrics = new HttpMetrics(registry, adapter?.getInstance());
            // Installed while the app is being created, before the body parser and every other
            // middleware, so that answers given before routing (413, bad JSON) are measured too.
            // Without an HTTP adapter (an application context, a CLI) there is nothing to measure.
            adapter?.use(metrics.middleware);
            return metrics;
          },
        },
        {
          provide: DatabaseMetrics,
          inject: [Registry, METRICS_LOGGER, { token: DataSource, optional: true }],
          useFactory: (registry: Registry, logger: Logger, dataSource?: DataSource) =>
            dataSource ? new DatabaseMetrics(registry, dataSource, { cacheMs, timeoutMs, logger }) : undefined,
        },
        {
          provide: MessagingMetrics,
          inject: [Registry, METRICS_LOGGER, { token: Messaging, optional: true }],
          useFactory: (registry: Registry, logger: Logger, messaging?: Messaging) =>
            messaging ? new MessagingMetrics(registry, messaging, { cacheMs, timeoutMs, logger }) : undefined,
        },
      ],
      exports: [Registry],
    };
  }
}
