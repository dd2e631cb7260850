import { BeforeApplicationShutdown, DynamicModule, Inject, Injectable, Module, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import { BaseConfig } from '@courier/config';
import { Queues, QueueSpec } from '@courier/contracts';
import { createLogger } from '@courier/logging';
import { AmqpTransport } from './amqp-transport';
import { InProcessTransport } from './in-process-transport';
import { OutboxRelay } from './outbox-relay';
import { TaskHandler, TaskRunner } from './task-runner';
import { observeDeliveries } from './delivery-observer';
import { ConsumerHandle, HandledMessage, MESSAGE_TRANSPORT, MessageHandler, MessageTransport } from './transport';
import { UnitOfWork } from './unit-of-work';

export const MESSAGING_LOGGER = Symbol('MESSAGING_LOGGER');
export const MESSAGING_SERVICE = Symbol('MESSAGING_SERVICE');

/** Every queue of the suite; each app declares them all (see assertTopology). */
export const SUITE_TOPOLOGY: QueueSpec[] = Object.values(Queues);

/**
 * An app's handle on messaging: subscribe handlers to queues and schedule delayed-work handlers.
 * Consumers start once the whole app is up and stop first on shutdown, before connections close.
 */
@Injectable()
export class Messaging implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly subscriptions: Array<{ queue: QueueSpec; handler: MessageHandler; prefetch?: number }> = [];
  private readonly handles: ConsumerHandle[] = [];
  private readonly handledListeners: Array<(handled: HandledMessage) => void> = [];
  private readonly drains: Array<() => Promise<void>> = [];
  private started = false;

  constructor(
    @Inject(MESSAGE_TRANSPORT) readonly transport: MessageTransport,
    readonly relay: OutboxRelay,
    readonly tasks: TaskRunner,
    readonly unitOfWork: UnitOfWork,
    @Inject(MESSAGING_LOGGER) private readonly logger: Logger,
    private readonly config: BaseConfig,
  ) {}

  subscribe(queue: QueueSpec, handler: MessageHandler, options: { prefetch?: number } = {}): void {
    this.subscriptions.push({ queue, handler, prefetch: options.prefetch });
    if (this.started) void this.attach(queue, handler, options.prefetch);
  }

  /** The queues this app consumes (each once, as subscribed). */
  subscribedQueues(): QueueSpec[] {
    return [...new Map(this.subscriptions.map(({ queue }) => [queue.name, queue])).values()];
  }

  /** Calls `listener` after every delivery a subscribed handler handled (metrics); a throwing listener is ignored. */
  onMessageHandled(listener: (handled: HandledMessage) => void): void {
    this.handledListeners.push(listener);
  }

  /**
   * In-flight work of the app's own, outside any consumer (e.g. intake's processing in the accepting
   * process): on shutdown `drain` is called with the consumers' cancel and awaited within the same
   * SHUTDOWN_GRACE_MS, before the relay stops (so the events that work writes still go out).
   */
  onShutdownDrain(drain: () => Promise<void>): void {
    this.drains.push(drain);
  }

  registerTask<P>(kind: string, handler: TaskHandler<P>): void {
    this.tasks.register(kind, handler);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.transport instanceof AmqpTransport) this.transport.start();
    this.relay.start();
    this.tasks.start();
    this.started = true;
    for (const subscription of this.subscriptions) await this.attach(subscription.queue, subscription.handler, subscription.prefetch);
  }

  async beforeApplicationShutdown(): Promise<void> {
    // Stop taking work, let in-flight work finish (bounded), then flush and close.
    const grace = new Promise<void>((resolve) => setTimeout(resolve, this.config.SHUTDOWN_GRACE_MS).unref());
    const drains = this.drains.map((drain) => drain().catch((error) => this.logger.warn({ err: error }, 'shutdown drain failed')));
    await Promise.race([Promise.all([...this.handles.map((handle) => handle.cancel()), ...drains]), grace]);
    await Promise.race([this.tasks.stop(), grace]);
    await Promise.race([this.relay.stop(), grace]);
    await this.transport.close().catch((error) => this.logger.warn({ err: error }, 'transport close failed'));
  }

  private async attach(queue: QueueSpec, handler: MessageHandler, prefetch?: number): Promise<void> {
    const observed = observeDeliveries(queue.name, handler, (handled) => this.reportHandled(handled));
    this.handles.push(await this.transport.consume(queue, observed, { prefetch: prefetch ?? this.config.RABBITMQ_PREFETCH }));
  }

  private reportHandled(handled: HandledMessage): void {
    for (const listener of this.handledListeners) {
      try {
        listener(handled);
      } catch (error) {
        this.logger.warn({ err: error }, 'message-handled listener failed');
      }
    }
  }
}

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
        {
          provide: UnitOfWork,
          inject: [DataSource, OutboxRelay, TaskRunner],
          useFactory: (dataSource: DataSource, relay: OutboxRelay, tasks: TaskRunner) =>
            new UnitOfWork(dataSource, { onEnqueued: () => relay.nudge(), onScheduled: () => tasks.nudge() }),
        },
        { provide: MESSAGING_SERVICE, useValue: options.service },
        Messaging,
      ],
      exports: [MESSAGE_TRANSPORT, OutboxRelay, TaskRunner, UnitOfWork, Messaging, MESSAGING_LOGGER, MESSAGING_SERVICE],
    };
  }
}
