import type { QueueSpec } from '@courier/contracts';

/** A message on its way to the broker. `messageId` is the outbox row id, stable across republishes. */
export interface OutgoingMessage {
  messageId: string;
  routingKey: string;
  payload: unknown;
  headers?: Record<string, string>;
  timestamp?: Date;
}

/** A message as a consumer sees it. `deliveryCount` starts at 1 and grows on each redelivery. */
export interface IncomingMessage {
  messageId: string;
  routingKey: string;
  payload: unknown;
  headers: Record<string, string>;
  deliveryCount: number;
  /** When the event was written to its producer's outbox, when the transport carries it (consumer lag). */
  publishedAt?: Date;
}

export type MessageHandler = (message: IncomingMessage) => Promise<void>;

/** What a consumer's handling of one delivery came to: done, thrown (redelivered), or an inbox duplicate. */
export type DeliveryOutcome = 'ok' | 'error' | 'duplicate';

/** One delivery handled by a subscribed handler (for metrics). */
export interface HandledMessage {
  /** The queue's name without the namespace prefix. */
  queue: string;
  outcome: DeliveryOutcome;
  durationMs: number;
  /** Time from the outbox write to the start of handling, when known. */
  ageMs?: number;
}

/** Messages of a queue as the broker counts them. */
export interface QueueStats {
  /** Ready, not yet delivered. */
  ready: number;
  /** In the queue's dead-letter queue. */
  deadLettered: number;
  /** Consumers attached, when the transport knows (RabbitMQ). */
  consumers?: number;
}

export interface ConsumerHandle {
  /** Stops taking new messages and waits for the ones in flight. */
  cancel(): Promise<void>;
}

/**
 * What apps publish to and consume from. Two implementations with the same semantics:
 * AmqpTransport (RabbitMQ) and InProcessTransport (one-machine mode, unit tests).
 * - publish resolves only once every message is safely taken over (broker confirm / consumed),
 *   and rejects otherwise; callers (the outbox relay) then try again later.
 * - delivery is at least once; a handler that throws gets the message again, and after the
 *   queue's delivery limit the message goes to the queue's dead-letter queue.
 */
export interface MessageTransport {
  readonly kind: 'amqp' | 'in-process';
  /** Longest a publish waits before it rejects, when the transport bounds it (the outbox relay's lease is longer). */
  readonly publishTimeoutMs?: number;
  publish(messages: OutgoingMessage[]): Promise<void>;
  consume(queue: QueueSpec, handler: MessageHandler, options?: { prefetch?: number }): Promise<ConsumerHandle>;
  isReady(): Promise<boolean>;
  close(): Promise<void>;
  /** Depth of a queue and of its dead-letter queue (metrics); rejects while the broker is unreachable. */
  queueStats?(queue: QueueSpec): Promise<QueueStats>;
}

export const MESSAGE_TRANSPORT = Symbol('MESSAGE_TRANSPORT');

/** Deliveries of one message before it is dead-lettered, unless the queue says otherwise. */
export const DEFAULT_DELIVERY_LIMIT = 5;

export function deadLetterQueueName(queue: string): string {
  return `${queue}.dead`;
}

/** Redelivery backoff inside the delivery limit: short, so a transient fault heals quickly. */
export function redeliveryDelayMs(deliveryCount: number): number {
  return Math.min(100 * 2 ** Math.max(0, deliveryCount - 1), 3_000);
}

/** True when a topic binding pattern (`*` one word, `#` zero or more) matches a routing key. */
export function topicMatches(pattern: string, routingKey: string): boolean {
  const p = pattern.split('.');
  const k = routingKey.split('.');
  const match = (i: number, j: number): boolean => {
    if (i === p.length) return j === k.length;
    if (p[i] === '#') return match(i + 1, j) || (j < k.length && match(i, j + 1));
    if (j === k.length) return false;
    return (p[i] === '*' || p[i] === k[j]) && match(i + 1, j + 1);
  };
  return match(0, 0);
}
