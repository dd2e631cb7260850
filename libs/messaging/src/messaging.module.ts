import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import { BaseConfig } from '@courier/config';
import { Queues, QueueSpec } from '@courier/contracts';
import { createLogger } from '@courier/logging';
import { AmqpTransport } from './amqp-transport';
import { InProcessTransport } from './in-process-transport';
import { Outbox } from './outbox';
import { OutboxRelay } from './outbox-relay';
import { TaskRunner } from './task-runner';
import { MessageServer } from './message-handlers';
import { TaskHandlerExplorer } from './task-handlers';
import { Messaging, MESSAGING_LOGGER, MESSAGING_SERVICE } from './messaging.service';
import { MESSAGE_TRANSPORT, MessageTransport } from './transport';
import { UnitOfWork } from './unit-of-work';

/** Every queue of the suite; each app declares them all (see assertTopology). */
export const SUITE_TOPOLOGY: QueueSpec[] = Object.values(Queues);

export interface MessagingOptions {
  /** The app's name: AMQP connection name and log field. */
  service: string;
}

/**
 * Transport (RabbitMQ when RABBITMQ_URL is set, else the process's in-process broker), outbox
 * relay, durable task runner and unit of work, for one app and its own database schema.
 */
@Module({})
export class MessagingModule {
  static forRoot(options: MessagingOptions): DynamicModule {
    return {
      module: MessagingModule,
      global: true,
      imports: [DiscoveryModule],
      providers: [
        {
          provide: MESSAGING_LOGGER,
          inject: [BaseConfig],
          useFactory: (config: BaseConfig) => createLogger({ service: options.service, level: config.LOG_LEVEL, pretty: config.LOG_PRETTY }).child({ component: 'messaging' }),
        },
        {
          provide: MESSAGE_TRANSPORT,
          inject: [BaseConfig, MESSAGING_LOGGER],
          useFactory: (config: BaseConfig, logger: Logger): MessageTransport =>
            config.RABBITMQ_URL
              ? new AmqpTransport({
                  url: config.RABBITMQ_URL,
                  topology: SUITE_TOPOLOGY,
                  connectionName: `${options.service}${config.SERVICE_INSTANCE ? `@${config.SERVICE_INSTANCE}` : ''}`,
                  namespace: config.RABBITMQ_NAMESPACE,
                  logger,
                  prefetch: config.RABBITMQ_PREFETCH,
                })
              : new InProcessTransport(SUITE_TOPOLOGY),
        },
        {
          provide: OutboxRelay,
          inject: [DataSource, MESSAGE_TRANSPORT, MESSAGING_LOGGER, BaseConfig, 'MIGRATIONS_APPLIED'],
          useFactory: (dataSource: DataSource, transport: MessageTransport, logger: Logger, config: BaseConfig) =>
            new OutboxRelay(dataSource, transport, logger, { pollMs: config.OUTBOX_POLL_MS }),
        },
        {
          provide: TaskRunner,
          inject: [DataSource, MESSAGING_LOGGER, BaseConfig, 'MIGRATIONS_APPLIED'],
          useFactory: (dataSource: DataSource, logger: Logger, config: BaseConfig) => new TaskRunner(dataSource, logger, { pollMs: config.TASK_POLL_MS }),
        },
        { provide: Outbox, inject: [OutboxRelay], useFactory: (relay: OutboxRelay) => new Outbox(() => relay.nudge()) },
        {
          provide: UnitOfWork,
          inject: [DataSource, Outbox, TaskRunner],
          useFactory: (dataSource: DataSource, outbox: Outbox, tasks: TaskRunner) =>
            new UnitOfWork(dataSource, { onEnqueued: () => outbox.committed(true), onScheduled: () => tasks.nudge() }),
        },
        { provide: MESSAGING_SERVICE, useValue: options.service },
        Messaging,
        MessageServer,
        TaskHandlerExplorer,
      ],
      exports: [MESSAGE_TRANSPORT, Outbox, OutboxRelay, TaskRunner, UnitOfWork, Messaging, MessageServer, MESSAGING_LOGGER, MESSAGING_SERVICE],
    };
  }
}
