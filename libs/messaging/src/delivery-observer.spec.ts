import { Writable } from 'node:stream';
import type { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import { BaseConfig } from '@courier/config';
import { createLogger, CORRELATION_HEADER } from '@courier/logging';
import { InProcessBroker, InProcessTransport } from './in-process-transport';
import { Messaging } from './messaging.service';
import type { OutboxRelay } from './outbox-relay';
import type { TaskRunner } from './task-runner';
import { HandledMessage } from './transport';
import { UnitOfWork } from './unit-of-work';

const queue = { name: 'q.orders', bindings: ['order.*'], deliveryLimit: 1 };

/** A UnitOfWork over a fake transaction whose inbox insert answers as if `seen` ids were recorded. */
function inboxOf(seen: Set<string>): UnitOfWork {
  const manager = {
    query: async (_sql: string, [, messageId]: [string, string]) => {
      if (seen.has(messageId)) return [];
      seen.add(messageId);
      return [{ message_id: messageId }];
    },
  };
  const dataSource = { transaction: async (work: (m: unknown) => Promise<unknown>) => work(manager) } as unknown as DataSource;
  return new UnitOfWork(dataSource, { onEnqueued: () => undefined, onScheduled: () => undefined });
}

function messagingOn(transport: InProcessTransport, logger: Logger, unitOfWork: UnitOfWork): Messaging {
  const idle = { start: () => undefined, stop: async () => undefined };
  const config = Object.assign(new BaseConfig(), { SHUTDOWN_GRACE_MS: 500, RABBITMQ_PREFETCH: 4 });
  return new Messaging(transport, idle as unknown as OutboxRelay, idle as unknown as TaskRunner, unitOfWork, logger, config);
}

function logSink(): { lines: () => Array<Record<string, unknown>>; logger: Logger } {
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      raw.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  });
  return { lines: () => raw.map((line) => JSON.parse(line)), logger: createLogger({ service: 'test', destination }) };
}

describe('Messaging delivery reports (consumer metrics hook)', () => {
  it('reports ok, duplicate (inbox hit) and error outcomes per queue, with the handling time and the message age', async () => {
    const broker = new InProcessBroker();
    const transport = new InProcessTransport([queue], broker);
    const seen = new Set<string>();
    const unitOfWork = inboxOf(seen);
    const messaging = messagingOn(transport, logSink().logger, unitOfWork);
    const handled: HandledMessage[] = [];
    messaging.onMessageHandled((report) => handled.push(report));
    messaging.onMessageHandled(() => {
      throw new Error('a broken listener changes nothing');
    });
    messaging.subscribe(queue, async (message) => {
      if ((message.payload as { poison?: boolean }).poison) throw new Error('poison');
      await unitOfWork.consumeOnce('test-consumer', message, async () => undefined);
    });
    await messaging.onApplicationBootstrap();

    const writtenAt = new Date(Date.now() - 2_000);
    await transport.publish([{ messageId: 'm1', routingKey: 'order.created', payload: {}, timestamp: writtenAt }]);
    await transport.publish([{ messageId: 'm1', routingKey: 'order.created', payload: {} }]);
    await transport.publish([{ messageId: 'p1', routingKey: 'order.created', payload: { poison: true } }]);

    expect(handled.map(({ queue: name, outcome }) => `${name}:${outcome}`)).toEqual(['q.orders:ok', 'q.orders:duplicate', 'q.orders:error', 'q.orders:error']);
    expect(handled[0].ageMs).toBeGreaterThanOrEqual(2_000);
    expect(handled[1].ageMs).toBeUndefined();
    for (const report of handled) expect(report.durationMs).toBeGreaterThanOrEqual(0);
    expect(broker.deadLetters('q.orders').map((message) => message.messageId)).toEqual(['p1']);
    expect(messaging.subscribedQueues()).toEqual([queue]);
    await messaging.beforeApplicationShutdown();
  });

  it('leaves the handler\'s result alone: a throw still reaches the transport (redelivery, then dead letter)', async () => {
    const broker = new InProcessBroker();
    const transport = new InProcessTransport([queue], broker);
    const messaging = messagingOn(transport, logSink().logger, inboxOf(new Set()));
    const deliveries: number[] = [];
    messaging.subscribe(queue, async (message) => {
      deliveries.push(message.deliveryCount);
      throw new Error('always');
    });
    await messaging.onApplicationBootstrap();
    await transport.publish([{ messageId: 'x', routingKey: 'order.created', payload: {} }]);
    expect(deliveries).toEqual([1, 2]);
    expect(await transport.queueStats(queue)).toEqual({ ready: 0, deadLettered: 1 });
    await messaging.beforeApplicationShutdown();
  });
});

describe('correlation id of a consumed message', () => {
  it('is on every log line the handler writes, taken from the message header', async () => {
    const transport = new InProcessTransport([queue], new InProcessBroker());
    const sink = logSink();
    const messaging = messagingOn(transport, sink.logger, inboxOf(new Set()));
    messaging.subscribe(queue, async (message) => {
      sink.logger.info({ messageId: message.messageId }, 'order event handled');
      await Promise.resolve();
      sink.logger.info('after an await');
    });
    await messaging.onApplicationBootstrap();
    await transport.publish([{ messageId: 'c1', routingKey: 'order.created', payload: {}, headers: { [CORRELATION_HEADER]: 'abc' } }]);
    await transport.publish([{ messageId: 'c2', routingKey: 'order.created', payload: {} }]);

    const lines = sink.lines();
    expect(lines.map((line) => [line.msg, line.correlationId])).toEqual([
      ['order event handled', 'abc'],
      ['after an await', 'abc'],
      ['order event handled', expect.stringMatching(/^[0-9a-f-]{36}$/)],
      ['after an await', lines[2].correlationId],
    ]);
    // A message without the header gets an id of its own, not the previous message's.
    expect(lines[2].correlationId).not.toBe('abc');
    await messaging.beforeApplicationShutdown();
  });
});
