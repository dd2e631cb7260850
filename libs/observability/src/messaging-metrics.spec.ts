import pino from 'pino';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { BaseConfig } from '@courier/config';
import { InProcessBroker, InProcessTransport, Messaging, MessageTransport, OutboxRelay, TaskRunner, UnitOfWork } from '@courier/messaging';
import { parsePrometheusText, samplesOf } from '@courier/testing';
import { MessagingMetrics } from './messaging-metrics';

const orders = { name: 'app.order-events', bindings: ['order.*'], deliveryLimit: 1 };
const accounts = { name: 'app.account-events', bindings: ['account.*'] };
const silent = pino({ level: 'silent' });

/** A unit of work whose inbox remembers ids in memory (a second delivery of an id is a duplicate). */
function memoryInbox(): UnitOfWork {
  const seen = new Set<string>();
  const manager = {
    query: async (_sql: string, [, id]: [string, string]) => (seen.has(id) ? [] : (seen.add(id), [{ message_id: id }])),
  };
  return new UnitOfWork({ transaction: async (work: (m: unknown) => Promise<unknown>) => work(manager) } as unknown as DataSource, {
    onEnqueued: () => undefined,
    onScheduled: () => undefined,
  });
}

function messagingOver(transport: MessageTransport, unitOfWork: UnitOfWork): Messaging {
  const idle = { start: () => undefined, stop: async () => undefined };
  const config = Object.assign(new BaseConfig(), { SHUTDOWN_GRACE_MS: 200, RABBITMQ_PREFETCH: 4 });
  return new Messaging(transport, idle as unknown as OutboxRelay, idle as unknown as TaskRunner, unitOfWork, silent, config);
}

async function scrape(registry: Registry) {
  return parsePrometheusText(await registry.metrics());
}

describe('MessagingMetrics', () => {
  it('counts deliveries by queue and outcome, times them, measures their age, and reads queue and dead-letter depths', async () => {
    const broker = new InProcessBroker();
    const transport = new InProcessTransport([orders, accounts], broker);
    const unitOfWork = memoryInbox();
    const messaging = messagingOver(transport, unitOfWork);
    const registry = new Registry();
    new MessagingMetrics(registry, messaging, { cacheMs: 0, timeoutMs: 500 });
    messaging.subscribe(orders, async (message) => {
      if ((message.payload as { poison?: boolean }).poison) throw new Error('poison');
      await unitOfWork.consumeOnce('orders', message, async () => undefined);
    });
    messaging.subscribe(accounts, async () => undefined);
    await messaging.onApplicationBootstrap();

    // Before any message: every subscribed queue has its three outcome series at 0.
    const before = await scrape(registry);
    expect(samplesOf(before, 'messaging_messages_handled_total').map((sample) => `${sample.labels.queue}:${sample.labels.outcome}=${sample.value}`).sort()).toEqual([
      'app.account-events:duplicate=0',
      'app.account-events:error=0',
      'app.account-events:ok=0',
      'app.order-events:duplicate=0',
      'app.order-events:error=0',
      'app.order-events:ok=0',
    ]);

    await transport.publish([{ messageId: 'o-1', routingKey: 'order.created', payload: {}, timestamp: new Date(Date.now() - 3_000) }]);
    await transport.publish([{ messageId: 'o-1', routingKey: 'order.created', payload: {}, timestamp: new Date() }]);
    await transport.publish([{ messageId: 'p-1', routingKey: 'order.created', payload: { poison: true } }]);

    const after = await scrape(registry);
    const handled = (queue: string, outcome: string) => samplesOf(after, 'messaging_messages_handled_total', { queue, outcome })[0].value;
    expect([handled(orders.name, 'ok'), handled(orders.name, 'duplicate'), handled(orders.name, 'error'), handled(accounts.name, 'ok')]).toEqual([1, 1, 2, 0]);
    expect(samplesOf(after, 'messaging_message_handling_seconds_count', { queue: orders.name })[0].value).toBe(4);
    // Age is known for the two messages that carried a publish time; the first was 3 s old.
    expect(samplesOf(after, 'messaging_message_age_seconds_count', { queue: orders.name })[0].value).toBe(2);
    expect(samplesOf(after, 'messaging_message_age_seconds_bucket', { queue: orders.name, le: '2' })[0].value).toBe(1);
    expect(samplesOf(after, 'messaging_message_age_seconds_bucket', { queue: orders.name, le: '5' })[0].value).toBe(2);
    expect(samplesOf(after, 'messaging_dead_letter_messages', { queue: orders.name })[0].value).toBe(1);
    expect(samplesOf(after, 'messaging_queue_messages', { queue: orders.name })[0].value).toBe(0);
    expect(samplesOf(after, 'metrics_source_up', { source: 'broker' })[0].value).toBe(1);
    // The in-process broker does not count consumers.
    expect(samplesOf(after, 'messaging_queue_consumers')).toEqual([]);
    await messaging.beforeApplicationShutdown();
  });

  it('reports the broker as down and the depths as NaN (not stale) while queue stats fail', async () => {
    let brokerUp = true;
    const transport = new InProcessTransport([orders], new InProcessBroker());
    const flaky: MessageTransport = Object.assign(Object.create(transport), {
      queueStats: async () => {
        if (!brokerUp) throw new Error('broker unavailable');
        return { ready: 7, deadLettered: 2, consumers: 3 };
      },
    });
    const messaging = messagingOver(flaky, memoryInbox());
    const registry = new Registry();
    new MessagingMetrics(registry, messaging, { cacheMs: 0, timeoutMs: 500 });
    messaging.subscribe(orders, async () => undefined);

    const up = await scrape(registry);
    expect(samplesOf(up, 'messaging_queue_messages', { queue: orders.name })[0].value).toBe(7);
    expect(samplesOf(up, 'messaging_dead_letter_messages', { queue: orders.name })[0].value).toBe(2);
    expect(samplesOf(up, 'messaging_queue_consumers', { queue: orders.name })[0].value).toBe(3);

    brokerUp = false;
    const down = await scrape(registry);
    expect(samplesOf(down, 'metrics_source_up', { source: 'broker' })[0].value).toBe(0);
    expect(samplesOf(down, 'messaging_queue_messages', { queue: orders.name })[0].value).toBeNaN();
    expect(samplesOf(down, 'messaging_dead_letter_messages', { queue: orders.name })[0].value).toBeNaN();
  });

  it('says whether the broker is reachable in an app that consumes nothing', async () => {
    let connected = false;
    const transport = new InProcessTransport([orders], new InProcessBroker());
    const publisherOnly: MessageTransport = Object.assign(Object.create(transport), { isReady: async () => connected });
    const registry = new Registry();
    new MessagingMetrics(registry, messagingOver(publisherOnly, memoryInbox()), { cacheMs: 0, timeoutMs: 500 });
    expect(samplesOf(await scrape(registry), 'metrics_source_up', { source: 'broker' })[0].value).toBe(0);
    connected = true;
    const samples = await scrape(registry);
    expect(samplesOf(samples, 'metrics_source_up', { source: 'broker' })[0].value).toBe(1);
    expect(samplesOf(samples, 'messaging_queue_messages')).toEqual([]);
  });
});
