import * as amqp from 'amqplib';
import type { ChannelModel, ConfirmChannel, Channel, ConsumeMessage } from 'amqplib';
import { once } from 'node:events';
import type { Logger } from 'pino';
import { QueueSpec } from '@courier/contracts';
import { context, trace } from '@opentelemetry/api';
import { CORRELATION_HEADER, withCorrelationId } from '@courier/logging';
import { messageContext, withMessageSpan } from './trace-context';
import { assertTopology, topologyNames } from './amqp-topology';
import {
  ConsumerHandle,
  deadLetterQueueName,
  IncomingMessage,
  MessageHandler,
  MessageTransport,
  OutgoingMessage,
  QueueStats,
  redeliveryDelayMs,
} from './transport';

export interface AmqpTransportOptions {
  url: string;
  /** Queues declared on every (re)connect: the whole suite's topology. */
  topology: QueueSpec[];
  connectionName: string;
  /** Prefix of exchange and queue names (RABBITMQ_NAMESPACE). */
  namespace?: string;
  logger: Logger;
  prefetch?: number;
  /** How long publish waits for a connection before failing (the outbox retries later). */
  publishWaitMs?: number;
  /** How long publish waits for the broker's confirms. */
  confirmTimeoutMs?: number;
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
}

interface Consumer {
  queue: QueueSpec;
  handler: MessageHandler;
  prefetch: number;
  channel?: Channel;
  consumerTag?: string;
  inFlight: Set<Promise<void>>;
  cancelled: boolean;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * RabbitMQ through amqplib, which has no reconnect of its own: this class reconnects with
 * exponential backoff, re-declares the topology and re-attaches every consumer. Publishing uses a
 * confirm channel and resolves only when the broker confirmed every message of the batch (a window
 * of confirms, not one at a time), honouring `drain`. Consumers ack manually after their handler
 * (which commits its own transaction) returns, with a prefetch.
 */
export class AmqpTransport implements MessageTransport {
  readonly kind = 'amqp' as const;
  private connection?: ChannelModel;
  private publishChannel?: ConfirmChannel;
  private readonly consumers: Consumer[] = [];
  private connectLoop?: Promise<void>;
  private closed = false;
  private readyWaiters: Array<() => void> = [];
  private readonly log: Logger;
  private readonly names: ReturnType<typeof topologyNames>;
  private stats?: { connection: ChannelModel; channel: Promise<Channel> };

  constructor(private readonly options: AmqpTransportOptions) {
    // The messaging logger already binds `component`; a second one would repeat the key in every line.
    this.log = options.logger.child({ transport: 'amqp' });
    this.names = topologyNames(options.namespace);
  }

  /** Starts connecting in the background; the app starts even while the broker is down. */
  start(): void {
    if (!this.connectLoop) this.connectLoop = this.connectWithBackoff();
  }

  async isReady(): Promise<boolean> {
    return Boolean(this.publishChannel && this.connection);
  }

  /** A connection wait, then the confirm wait (time blocked on a full socket while the broker holds an alarm is not bounded). */
  get publishTimeoutMs(): number {
    return (this.options.publishWaitMs ?? 2_000) + (this.options.confirmTimeoutMs ?? 10_000);
  }

  async publish(messages: OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const channel = await this.waitForChannel(this.options.publishWaitMs ?? 2_000);
    const confirms: Promise<void>[] = [];
    for (const message of messages) {
      const content = Buffer.from(JSON.stringify(message.payload));
      let accepted = true;
      confirms.push(
        new Promise<void>((resolve, reject) => {
          try {
            // In the producer's trace (the stored traceparent): a publish span of the amqplib
            // instrumentation joins it and sends its own traceparent on; without it, ours goes as is.
            accepted = context.with(messageContext(message.headers), () => channel.publish(
              this.names.events,
              message.routingKey,
              content,
              {
                persistent: true,
                messageId: message.messageId,
                contentType: 'application/json',
                timestamp: Math.floor((message.timestamp ?? new Date()).getTime() / 1000),
                headers: { ...message.headers },
              },
              (error) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve()),
            ));
          } catch (error) {
            reject(error);
          }
        }),
      );
      if (!accepted) await Promise.race([once(channel, 'drain'), once(channel, 'close')]);
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('broker confirm timed out')), this.options.confirmTimeoutMs ?? 10_000);
    });
    try {
      await Promise.race([Promise.all(confirms), timeout]);
    } finally {
      clearTimeout(timer);
      // Late settlements of a failed batch must not surface as unhandled rejections.
      for (const confirm of confirms) confirm.catch(() => undefined);
    }
  }

  /** Ready and dead-lettered counts from the broker (passive declares; quorum queues count ready messages only). */
  async queueStats(queue: QueueSpec): Promise<QueueStats> {
    const name = this.names.queue(queue).name;
    const channel = await this.statsChannel();
    const main = await channel.checkQueue(name);
    const dead = await channel.checkQueue(deadLetterQueueName(name));
    return { ready: main.messageCount, deadLettered: dead.messageCount, consumers: main.consumerCount };
  }

  async consume(queue: QueueSpec, handler: MessageHandler, options: { prefetch?: number } = {}): Promise<ConsumerHandle> {
    const consumer: Consumer = { queue, handler, prefetch: options.prefetch ?? this.options.prefetch ?? 32, inFlight: new Set(), cancelled: false };
    this.consumers.push(consumer);
    if (this.connection) await this.attach(consumer).catch((error) => this.log.warn({ err: error, queue: queue.name }, 'consumer attach failed; will retry on reconnect'));
    return { cancel: () => this.cancelConsumer(consumer) };
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.consumers.map((consumer) => this.cancelConsumer(consumer)));
    this.readyWaiters.forEach((wake) => wake());
    const connection = this.connection;
    this.connection = undefined;
    this.publishChannel = undefined;
    if (connection) await bounded(connection.close());
  }

  private async cancelConsumer(consumer: Consumer): Promise<void> {
    if (consumer.cancelled) return;
    consumer.cancelled = true;
    const { channel, consumerTag } = consumer;
    // Broker calls on a channel whose connection just died may never answer: bound each step.
    if (channel && consumerTag) await bounded(channel.cancel(consumerTag));
    await Promise.allSettled([...consumer.inFlight]);
    if (channel) await bounded(channel.close());
    consumer.channel = undefined;
  }

  /**
   * A channel of its own for the checks: a failed passive declare (a queue an operator deleted)
   * closes only this channel, never the publish channel (whose loss means a reconnect).
   */
  private statsChannel(): Promise<Channel> {
    const connection = this.connection;
    if (!connection) return Promise.reject(new Error('broker unavailable'));
    if (this.stats?.connection !== connection) {
      const channel = connection.createChannel().then((created) => {
        created.on('error', (error) => this.log.debug({ err: error }, 'stats channel error'));
        created.on('close', () => {
          if (this.stats?.channel === channel) this.stats = undefined;
        });
        return created;
      });
      channel.catch(() => {
        if (this.stats?.channel === channel) this.stats = undefined;
      });
      this.stats = { connection, channel };
    }
    return this.stats.channel;
  }

  private async waitForChannel(timeoutMs: number): Promise<ConfirmChannel> {
    if (this.publishChannel) return this.publishChannel;
    if (this.closed) throw new Error('transport closed');
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.readyWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    if (!this.publishChannel) throw new Error('broker unavailable');
    return this.publishChannel;
  }

  private async connectWithBackoff(): Promise<void> {
    let delay = this.options.reconnectMinMs ?? 250;
    const max = this.options.reconnectMaxMs ?? 15_000;
    while (!this.closed) {
      try {
        await this.connect();
        return;
      } catch (error) {
        if (this.closed) return;
        this.log.warn({ err: error, retryInMs: delay }, 'broker connection failed');
        await sleep(delay);
        delay = Math.min(delay * 2, max);
      }
    }
  }

  private async connect(): Promise<void> {
    const connection = await amqp.connect(this.options.url, {
      clientProperties: { connection_name: this.options.connectionName },
      timeout: 5_000,
    });
    try {
      connection.on('error', (error) => this.log.warn({ err: error }, 'broker connection error'));
      const channel = await connection.createConfirmChannel();
      channel.on('error', (error) => this.log.warn({ err: error }, 'publish channel error'));
      await assertTopology(channel, this.options.topology, this.options.namespace);
      if (this.closed) throw new Error('transport closed while connecting');
      connection.on('close', () => this.onConnectionLost(connection));
      // A publish channel closed by the broker (e.g. a precondition error) is as bad as a lost connection.
      channel.on('close', () => {
        if (this.connection === connection) void connection.close().catch(() => undefined);
      });
      this.connection = connection;
      this.publishChannel = channel;
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
    for (const consumer of this.consumers) {
      if (!consumer.cancelled) await this.attach(consumer);
    }
    this.log.info({ consumers: this.consumers.length }, 'broker connected');
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    waiters.forEach((wake) => wake());
  }

  private onConnectionLost(connection: ChannelModel): void {
    if (this.connection !== connection) return;
    this.connection = undefined;
    this.publishChannel = undefined;
    for (const consumer of this.consumers) consumer.channel = undefined;
    if (this.closed) return;
    this.log.warn('broker connection lost; reconnecting');
    this.connectLoop = this.connectWithBackoff();
  }

  private async attach(consumer: Consumer): Promise<void> {
    if (!this.connection) return;
    const channel = await this.connection.createChannel();
    channel.on('error', (error) => this.log.warn({ err: error, queue: consumer.queue.name }, 'consumer channel error'));
    await channel.prefetch(consumer.prefetch);
    consumer.channel = channel;
    const reply = await channel.consume(this.names.queue(consumer.queue).name, (raw) => {
      if (!raw) return; // cancelled by the broker; the reconnect path re-attaches
      const work = this.handleDelivery(consumer, channel, raw);
      consumer.inFlight.add(work);
      void work.finally(() => consumer.inFlight.delete(work));
    }, { noAck: false });
    consumer.consumerTag = reply.consumerTag;
  }

  private async handleDelivery(consumer: Consumer, channel: Channel, raw: ConsumeMessage): Promise<void> {
    const headers = normaliseHeaders(raw.properties.headers);
    const previousDeliveries = Number(raw.properties.headers?.['x-delivery-count'] ?? 0);
    let payload: unknown;
    try {
      payload = JSON.parse(raw.content.toString('utf8'));
    } catch {
      this.log.error({ queue: consumer.queue.name, messageId: raw.properties.messageId }, 'unparseable message dead-lettered');
      safely(() => channel.nack(raw, false, false));
      return;
    }
    const message: IncomingMessage = {
      messageId: String(raw.properties.messageId ?? ''),
      routingKey: raw.fields.routingKey,
      payload,
      headers,
      deliveryCount: previousDeliveries + 1,
      // AMQP timestamps are whole seconds (the outbox row's created_at, set on publish).
      publishedAt: typeof raw.properties.timestamp === 'number' ? new Date(raw.properties.timestamp * 1000) : undefined,
    };
    try {
      const handle = () => consumer.handler(message);
      // The amqplib instrumentation already runs the delivery in a consumer span of the message's
      // trace (from the same headers); a second span would only repeat it.
      await withCorrelationId(headers[CORRELATION_HEADER], () =>
        trace.getActiveSpan()
          ? handle()
          : withMessageSpan(`${consumer.queue.name} process`, headers, { 'messaging.system': 'rabbitmq', 'messaging.destination.name': consumer.queue.name, 'messaging.message.id': message.messageId }, handle),
      );
      safely(() => channel.ack(raw));
    } catch (error) {
      this.log.warn(
        { err: error, queue: consumer.queue.name, messageId: message.messageId, deliveryCount: message.deliveryCount, correlationId: headers[CORRELATION_HEADER] },
        'message handler failed; message will be redelivered or dead-lettered',
      );
      await sleep(redeliveryDelayMs(message.deliveryCount));
      // requeue: the quorum queue counts deliveries and dead-letters past its limit
      safely(() => channel.nack(raw, false, true));
    }
  }
}

/** Waits for a broker call at most `ms`, ignoring its failure (used only while closing). */
async function bounded(call: Promise<unknown>, ms = 2_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([call.catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** Acking on a channel that closed meanwhile throws; the broker redelivers anyway. */
function safely(action: () => void): void {
  try {
    action();
  } catch {
    /* channel gone: the message is redelivered on the next connection */
  }
}

function normaliseHeaders(headers: Record<string, unknown> | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (typeof value === 'string') result[key] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') result[key] = String(value);
  }
  return result;
}
