import * as amqp from 'amqplib';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import {
  createTestDatabase,
  describeWithBroker,
  messagingDataSource,
  messagingStack,
  silentLogger,
  testBrokerUrl,
  testNamespace,
  TestDatabase,
  waitFor,
} from '@courier/testing';
import { AmqpTransport } from './amqp-transport';
import { deadLetterQueueName, IncomingMessage } from './transport';

const run = promisify(execFile);

/** Connections of this test run, closed from the broker side as an operator (or a restart) would. */
async function closeBrokerConnections(prefix: string): Promise<void> {
  const { stdout } = await run('rabbitmqctl', ['-q', 'list_connections', 'pid', 'client_properties'], { timeout: 30_000 });
  const pids = stdout
    .split('\n')
    .filter((line) => line.includes(prefix))
    .map((line) => line.split('\t')[0]);
  for (const pid of pids) await run('rabbitmqctl', ['-q', 'close_connection', pid, 'test: broker-side close'], { timeout: 30_000 }).catch(() => undefined);
}

describeWithBroker('AmqpTransport against RabbitMQ', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const transports: AmqpTransport[] = [];

  function newTransport(namespace: string, name: string, queues: { name: string; bindings: string[]; deliveryLimit?: number }[]) {
    const transport = new AmqpTransport({
      url: testBrokerUrl(),
      topology: queues,
      connectionName: `${namespace}:${name}`,
      namespace,
      logger: silentLogger,
      prefetch: 10,
      reconnectMinMs: 100,
      reconnectMaxMs: 1000,
    });
    transport.start();
    transports.push(transport);
    return transport;
  }

  async function effectsOf(messageId?: string): Promise<number> {
    const [row] = await dataSource.query(`SELECT count(*)::int AS n FROM effects ${messageId ? 'WHERE message_id = $1' : ''}`, messageId ? [messageId] : []);
    return row.n;
  }

  beforeAll(async () => {
    db = await createTestDatabase('msg');
    dataSource = await messagingDataSource(db.url);
  });

  afterEach(async () => {
    await Promise.all(transports.splice(0).map((transport) => transport.close()));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('resolves publish only after broker confirms and the messages are in the durable queue', async () => {
    const ns = testNamespace();
    const queue = { name: 'confirms', bindings: ['probe.*'] };
    const transport = newTransport(ns, 'publisher', [queue]);
    await waitFor('connection', () => transport.isReady());
    await transport.publish(Array.from({ length: 500 }, (_, i) => ({ messageId: `m${i}`, routingKey: 'probe.sent', payload: { i } })));
    const connection = await amqp.connect(testBrokerUrl());
    const channel = await connection.createChannel();
    const { messageCount } = await channel.checkQueue(`${ns}.confirms`);
    await connection.close();
    expect(messageCount).toBe(500);
  });

  it('redelivers to another consumer when one dies after its commit but before its ack; the effect happens once', async () => {
    const ns = testNamespace();
    const queue = { name: 'work', bindings: ['job.*'] };
    const first = newTransport(ns, 'consumer-a', [queue]);
    await waitFor('connection', () => first.isReady());
    const { unitOfWork } = messagingStack(dataSource, first);
    const deliveries: number[] = [];

    let killed = false;
    await first.consume(queue, async (message: IncomingMessage) => {
      deliveries.push(message.deliveryCount);
      await unitOfWork.consumeOnce('work-consumer', message, async (tx) => {
        await tx.manager.query('INSERT INTO effects (message_id, note) VALUES ($1, $2)', [message.messageId, 'a']);
      });
      // The process "dies" here: TCP connection torn down after the commit, before the ack.
      killed = true;
      const socket = (first as unknown as { connection: { connection: { stream: { destroy(): void } } } }).connection.connection.stream;
      socket.destroy();
      // The ack that follows goes nowhere: the broker saw the connection die with the message unacked.
    });
    await first.publish([{ messageId: 'job-1', routingKey: 'job.run', payload: {} }]).catch(() => undefined);
    await waitFor('first consumer to die', () => killed);

    const second = newTransport(ns, 'consumer-b', [queue]);
    const redelivered: IncomingMessage[] = [];
    await second.consume(queue, async (message) => {
      redelivered.push(message);
      await unitOfWork.consumeOnce('work-consumer', message, async (tx) => {
        await tx.manager.query('INSERT INTO effects (message_id, note) VALUES ($1, $2)', [message.messageId, 'b']);
      });
    });
    await waitFor('redelivery', () => redelivered.length > 0, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(redelivered[0].messageId).toBe('job-1');
    expect(await effectsOf('job-1')).toBe(1);
  });

  it('dead-letters a poison message after the delivery limit while the others flow', async () => {
    const ns = testNamespace();
    const queue = { name: 'mixed', bindings: ['mixed.*'], deliveryLimit: 2 };
    const transport = newTransport(ns, 'consumer', [queue]);
    await waitFor('connection', () => transport.isReady());
    const handled: string[] = [];
    const attempts = new Map<string, number>();
    await transport.consume(queue, async (message) => {
      attempts.set(message.messageId, (attempts.get(message.messageId) ?? 0) + 1);
      if ((message.payload as { poison?: boolean }).poison) throw new Error('cannot handle');
      handled.push(message.messageId);
    });
    await transport.publish([
      { messageId: 'poison', routingKey: 'mixed.x', payload: { poison: true } },
      ...Array.from({ length: 20 }, (_, i) => ({ messageId: `ok-${i}`, routingKey: 'mixed.x', payload: {} })),
    ]);
    await waitFor('healthy messages', () => handled.length === 20);

    const connection = await amqp.connect(testBrokerUrl());
    const channel = await connection.createChannel();
    const dead = await waitFor('dead letter', async () => (await channel.get(deadLetterQueueName(`${ns}.mixed`), { noAck: true })) || undefined, 20_000);
    await connection.close();
    expect(dead && dead.properties.messageId).toBe('poison');
    expect(attempts.get('poison')).toBe(3);
    expect(new Set(handled).size).toBe(20);
  });

  it('loses no confirmed message when the broker closes every connection in the middle of an outbox stream', async () => {
    const ns = testNamespace();
    const queue = { name: 'stream', bindings: ['stream.*'] };
    const producer = newTransport(ns, 'producer', [queue]);
    const consumer = newTransport(ns, 'consumer', [queue]);
    await waitFor('connections', async () => (await producer.isReady()) && (await consumer.isReady()));
    const { relay, unitOfWork } = messagingStack(dataSource, producer, 20);
    const received = new Set<string>();
    await consumer.consume(queue, async (message) => {
      await unitOfWork.consumeOnce('stream-consumer', message, async (tx) => {
        await tx.manager.query('INSERT INTO effects (message_id, note) VALUES ($1, $2)', [message.messageId, 'stream']);
      });
      received.add(message.messageId);
    });
    relay.start();
    const total = 600;
    const ids: string[] = [];
    const writer = (async () => {
      for (let i = 0; i < total; i += 1) {
        ids.push(await unitOfWork.run((tx) => tx.publish('stream.item', { i })));
        if (i % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await waitFor('some traffic', () => received.size > 50, 20_000);
    await closeBrokerConnections(ns);
    await writer;
    await waitFor('every outbox row published', async () => (await relay.backlog()) === 0, 60_000);
    await waitFor('every message consumed', () => received.size === total, 60_000);
    await relay.stop();
    const [row] = await dataSource.query(`SELECT count(DISTINCT message_id)::int AS distinct_ids, count(*)::int AS n FROM effects WHERE note = 'stream'`);
    expect(row).toEqual({ distinct_ids: total, n: total });
    expect(ids.every((id) => received.has(id))).toBe(true);
  }, 120_000);
});
