import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { BaseConfig } from '@courier/config';
import { QueueSpec } from '@courier/contracts';
import { AmqpTransport } from './amqp-transport';
import { OutboxRelay } from './outbox-relay';
import { TaskRunner } from './task-runner';
import { observeDeliveries } from './delivery-observer';
import { ConsumerHandle, HandledMessage, MESSAGE_TRANSPORT, MessageHandler, MessageTransport } from './transport';
import { UnitOfWork } from './unit-of-work';

export const MESSAGING_LOGGER = Symbol('MESSAGING_LOGGER');
export const MESSAGING_SERVICE = Symbol('MESSAGING_SERVICE');

/**
 * An app's messaging lifecycle under its handlers: MessageServer subscribes the `@EventPattern`
 * handlers' queues here, TaskHandlerExplorer gives the `@OnTask` methods to the TaskRunner.
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
