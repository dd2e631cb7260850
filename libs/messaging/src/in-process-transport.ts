import { QueueSpec } from '@courier/contracts';
import { CORRELATION_HEADER, withCorrelationId } from '@courier/logging';
import { withMessageSpan } from './trace-context';
import {
  ConsumerHandle,
  DEFAULT_DELIVERY_LIMIT,
  IncomingMessage,
  MessageHandler,
  MessageTransport,
  OutgoingMessage,
  QueueStats,
  redeliveryDelayMs,
  topicMatches,
} from './transport';

interface Envelope {
  message: IncomingMessage;
  settle: () => void;
}

interface ConsumerSlot {
  handler: MessageHandler;
  prefetch: number;
  inFlight: Set<Promise<void>>;
  cancelled: boolean;
}

interface LocalQueue {
  spec: QueueSpec;
  ready: Envelope[];
  consumers: ConsumerSlot[];
  dead: IncomingMessage[];
  nextConsumer: number;
}

/**
 * The broker of the one-machine mode: topic routing into named queues, competing consumers with
 * a prefetch, redelivery with a delivery count, and a dead-letter list past the delivery limit.
 * A publish resolves only when every routed copy has been handled (or dead-lettered), so the outbox
 * row that fed it is marked sent only after the effect happened: a crash loses nothing.
 */
export class InProcessBroker {
  private static instance?: InProcessBroker;
  private readonly queues = new Map<string, LocalQueue>();

  /** The process-wide broker: every app of the one-machine process shares it. */
  static shared(): InProcessBroker {
    InProcessBroker.instance ??= new InProcessBroker();
    return InProcessBroker.instance;
  }

  declare(specs: QueueSpec[]): void {
    for (const spec of specs) {
      if (!this.queues.has(spec.name)) this.queues.set(spec.name, { spec, ready: [], consumers: [], dead: [], nextConsumer: 0 });
    }
  }

  publish(messages: OutgoingMessage[]): Promise<void> {
    // Like a broker refusing a publish: with no consumer in this process for a bound queue, nothing
    // is taken over; the outbox keeps the rows and the relay tries again (nothing waits forever).
    for (const message of messages) {
      for (const queue of this.queues.values()) {
        if (queue.consumers.length === 0 && queue.spec.bindings.some((pattern) => topicMatches(pattern, message.routingKey))) {
          return Promise.reject(new Error(`no consumer in this process for queue ${queue.spec.name}`));
        }
      }
    }
    const settled: Promise<void>[] = [];
    for (const message of messages) {
      // A copy per queue, as over the wire: consumers never share mutable objects with producers.
      const body = JSON.stringify(message.payload ?? null);
      for (const queue of this.queues.values()) {
        if (!queue.spec.bindings.some((pattern) => topicMatches(pattern, message.routingKey))) continue;
        settled.push(
          new Promise<void>((resolve) => {
            queue.ready.push({
              message: {
                messageId: message.messageId,
                routingKey: message.routingKey,
                payload: JSON.parse(body),
                headers: { ...(message.headers ?? {}) },
                deliveryCount: 1,
                publishedAt: message.timestamp,
              },
              settle: resolve,
            });
          }),
        );
        this.pump(queue);
      }
    }
    return Promise.all(settled).then(() => undefined);
  }

  consume(queueName: string, handler: MessageHandler, prefetch: number): ConsumerHandle {
    const queue = this.queues.get(queueName);
    if (!queue) throw new Error(`queue ${queueName} is not declared`);
    const slot: ConsumerSlot = { handler, prefetch, inFlight: new Set(), cancelled: false };
    queue.consumers.push(slot);
    this.pump(queue);
    return {
      cancel: async () => {
        slot.cancelled = true;
        queue.consumers = queue.consumers.filter((candidate) => candidate !== slot);
        await Promise.allSettled([...slot.inFlight]);
      },
    };
  }

  deadLetters(queueName: string): IncomingMessage[] {
    return [...(this.queues.get(queueName)?.dead ?? [])];
  }

  depth(queueName: string): number {
    return this.queues.get(queueName)?.ready.length ?? 0;
  }

  private pump(queue: LocalQueue): void {
    while (queue.ready.length > 0) {
      const slot = this.nextFreeConsumer(queue);
      if (!slot) return;
      const envelope = queue.ready.shift()!;
      const work = this.deliver(queue, slot, envelope);
      slot.inFlight.add(work);
      void work.finally(() => {
        slot.inFlight.delete(work);
        this.pump(queue);
      });
    }
  }

  private nextFreeConsumer(queue: LocalQueue): ConsumerSlot | undefined {
    const count = queue.consumers.length;
    for (let i = 0; i < count; i += 1) {
      const slot = queue.consumers[(queue.nextConsumer + i) % count];
      if (!slot.cancelled && slot.inFlight.size < slot.prefetch) {
        queue.nextConsumer = (queue.nextConsumer + i + 1) % count;
        return slot;
      }
    }
    return undefined;
  }

  private async deliver(queue: LocalQueue, slot: ConsumerSlot, envelope: Envelope): Promise<void> {
    const { message } = envelope;
    try {
      await withCorrelationId(message.headers[CORRELATION_HEADER], () =>
        withMessageSpan(`${queue.spec.name} process`, message.headers, { 'messaging.system': 'in-process', 'messaging.destination.name': queue.spec.name, 'messaging.message.id': message.messageId }, () =>
          slot.handler({ ...message }),
        ),
      );
      envelope.settle();
    } catch {
      const limit = queue.spec.deliveryLimit ?? DEFAULT_DELIVERY_LIMIT;
      if (message.deliveryCount > limit) {
        queue.dead.push(message);
        envelope.settle();
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, redeliveryDelayMs(message.deliveryCount)).unref());
      queue.ready.push({ message: { ...message, deliveryCount: message.deliveryCount + 1 }, settle: envelope.settle });
    }
  }
}

/** One app's view of the shared in-process broker, with the MessageTransport interface. */
export class InProcessTransport implements MessageTransport {
  readonly kind = 'in-process' as const;
  private readonly handles: ConsumerHandle[] = [];

  constructor(
    topology: QueueSpec[],
    private readonly broker: InProcessBroker = InProcessBroker.shared(),
  ) {
    broker.declare(topology);
  }

  publish(messages: OutgoingMessage[]): Promise<void> {
    return this.broker.publish(messages);
  }

  async consume(queue: QueueSpec, handler: MessageHandler, options: { prefetch?: number } = {}): Promise<ConsumerHandle> {
    this.broker.declare([queue]);
    const handle = this.broker.consume(queue.name, handler, options.prefetch ?? 32);
    this.handles.push(handle);
    return handle;
  }

  async isReady(): Promise<boolean> {
    return true;
  }

  async queueStats(queue: QueueSpec): Promise<QueueStats> {
    return { ready: this.broker.depth(queue.name), deadLettered: this.broker.deadLetters(queue.name).length };
  }

  async close(): Promise<void> {
    await Promise.all(this.handles.map((handle) => handle.cancel()));
  }
}
