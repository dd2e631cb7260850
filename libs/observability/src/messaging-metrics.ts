import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DeliveryOutcome, Messaging, QueueStats } from '@courier/messaging';
import { CachedSample } from './cached-sample';
import { registerMetricsSource } from './source-status';

const OUTCOMES: DeliveryOutcome[] = ['ok', 'error', 'duplicate'];

/**
 * What the app's consumers did (messages handled by queue and outcome, handling time, how old each
 * message was when its handling started: the consumer lag) and, where the transport can tell, the
 * depth of the app's queues and of their dead-letter queues.
 */
export class MessagingMetrics {
  constructor(registry: Registry, messaging: Messaging, options: { cacheMs: number; timeoutMs: number; logger?: Logger }) {
    const handled = new Counter({
      name: 'messaging_messages_handled_total',
      help: 'Deliveries handled by this app\'s consumers, by queue and outcome (ok; error: thrown, redelivered or dead-lettered; duplicate: already applied).',
      labelNames: ['queue', 'outcome'] as const,
      registers: [registry],
      collect() {
        // Every subscribed queue has all three series from the start, so rate() and alerts see zeros.
        for (const queue of messaging.subscribedQueues()) for (const outcome of OUTCOMES) this.inc({ queue: queue.name, outcome }, 0);
      },
    });
    const handling = new Histogram({
      name: 'messaging_message_handling_seconds',
      help: 'Time a consumer took to handle one delivery, by queue.',
      labelNames: ['queue'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    const age = new Histogram({
      name: 'messaging_message_age_seconds',
      help: 'Consumer lag: time from the event\'s outbox write to the start of its handling, by queue (RabbitMQ timestamps are whole seconds).',
      labelNames: ['queue'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600],
      registers: [registry],
    });
    messaging.onMessageHandled((report) => {
      handled.inc({ queue: report.queue, outcome: report.outcome });
      handling.observe({ queue: report.queue }, report.durationMs / 1000);
      if (report.ageMs !== undefined) age.observe({ queue: report.queue }, report.ageMs / 1000);
    });

    const transport = messaging.transport;
    if (!transport.queueStats) return;
    const queueStats = transport.queueStats.bind(transport);
    let failures = 0;
    const sample = new CachedSample(
      async () => {
        const queues = messaging.subscribedQueues();
        try {
          // An app that consumes nothing still says whether it can reach the broker.
          if (!(await transport.isReady())) throw new Error('broker unavailable');
          const stats = await Promise.all(queues.map(async (queue) => ({ queue: queue.name, stats: await queueStats(queue) })));
          failures = 0;
          return stats;
        } catch (error) {
          failures += 1;
          if (failures === 1 || failures % 60 === 0) options.logger?.warn({ err: error, failures }, 'metrics: queue depths unavailable');
          throw error;
        }
      },
      { maxAgeMs: options.cacheMs, timeoutMs: options.timeoutMs },
    );
    registerMetricsSource(registry, 'broker', () => sample.get());
    const queueGauge = (name: string, help: string, value: (stats: QueueStats) => number | undefined) =>
      new Gauge({
        name,
        help,
        labelNames: ['queue'] as const,
        registers: [registry],
        async collect() {
          let stats: Array<{ queue: string; stats: QueueStats }>;
          try {
            stats = await sample.get();
          } catch {
            for (const queue of messaging.subscribedQueues()) this.set({ queue: queue.name }, Number.NaN);
            return;
          }
          this.reset();
          for (const entry of stats) {
            const figure = value(entry.stats);
            if (figure !== undefined) this.set({ queue: entry.queue }, figure);
          }
        },
      });
    queueGauge('messaging_queue_messages', 'Messages ready in the app\'s queues, not yet delivered (the backlog its consumers have to work through).', (stats) => stats.ready);
    queueGauge('messaging_dead_letter_messages', 'Messages in the dead-letter queue of each of the app\'s queues: each needs an operator (docs/operations.md).', (stats) => stats.deadLettered);
    queueGauge('messaging_queue_consumers', 'Consumers attached to each of the app\'s queues, all replicas together (RabbitMQ only).', (stats) => stats.consumers);
  }
}
