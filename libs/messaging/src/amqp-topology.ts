import type { Channel } from 'amqplib';
import { DEAD_LETTER_EXCHANGE, EVENTS_EXCHANGE, QueueSpec } from '@courier/contracts';
import { DEFAULT_DELIVERY_LIMIT, deadLetterQueueName } from './transport';

/**
 * Declares the suite's topology: a durable topic exchange for events, a direct dead-letter exchange,
 * and per consumer a durable quorum queue with a delivery limit that dead-letters (at least once)
 * into its own `<queue>.dead` quorum queue. Every app declares every queue, so a message published
 * before its consumer first starts is kept, not dropped as unroutable.
 */
export async function assertTopology(channel: Channel, queues: QueueSpec[], namespace?: string): Promise<void> {
  const names = topologyNames(namespace);
  await channel.assertExchange(names.events, 'topic', { durable: true });
  await channel.assertExchange(names.deadLetter, 'direct', { durable: true });
  for (const unprefixed of queues) {
    const queue = names.queue(unprefixed);
    const dead = deadLetterQueueName(queue.name);
    await channel.assertQueue(dead, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await channel.bindQueue(dead, names.deadLetter, queue.name);
    await channel.assertQueue(queue.name, {
      durable: true,
      arguments: {
        'x-queue-type': 'quorum',
        'x-delivery-limit': queue.deliveryLimit ?? DEFAULT_DELIVERY_LIMIT,
        'x-dead-letter-exchange': names.deadLetter,
        'x-dead-letter-routing-key': queue.name,
        'x-dead-letter-strategy': 'at-least-once',
        'x-overflow': 'reject-publish',
      },
    });
    for (const key of queue.bindings) await channel.bindQueue(queue.name, names.events, key);
  }
}

/** Exchange and queue names under an optional namespace prefix (`<namespace>.<name>`). */
export function topologyNames(namespace?: string) {
  const prefix = namespace ? `${namespace}.` : '';
  return {
    events: `${prefix}${EVENTS_EXCHANGE}`,
    deadLetter: `${prefix}${DEAD_LETTER_EXCHANGE}`,
    queue: (spec: QueueSpec): QueueSpec => ({ ...spec, name: `${prefix}${spec.name}` }),
  };
}
