import * as amqp from 'amqplib';
import { deleteTestTopology, describeWithBroker, silentLogger, testBrokerUrl, testNamespace, waitFor } from '@courier/testing';
import { AmqpTransport } from './amqp-transport';
import { IncomingMessage } from './transport';

describeWithBroker('AmqpTransport queue stats and message age (metrics)', () => {
  const namespace = testNamespace('stats');
  const queue = { name: 'stats.orders', bindings: ['stats.*'], deliveryLimit: 1 };
  let transport: AmqpTransport;

  beforeAll(async () => {
    transport = new AmqpTransport({ url: testBrokerUrl(), topology: [queue], connectionName: `${namespace}:stats`, namespace, logger: silentLogger, reconnectMinMs: 100 });
    transport.start();
    await waitFor('connection', () => transport.isReady());
  });

  afterAll(async () => {
    await transport?.close();
    await deleteTestTopology(namespace, [queue.name]);
  });

  it('counts ready, consumed and dead-lettered messages, and carries the publish time to the consumer', async () => {
    expect(await transport.queueStats(queue)).toEqual({ ready: 0, deadLettered: 0, consumers: 0 });
    const writtenAt = new Date(Date.now() - 5_000);
    await transport.publish([
      { messageId: 'a', routingKey: 'stats.x', payload: {}, timestamp: writtenAt },
      { messageId: 'b', routingKey: 'stats.x', payload: {} },
      { messageId: 'poison', routingKey: 'stats.x', payload: { poison: true } },
    ]);
    expect(await waitFor('three ready', async () => (await transport.queueStats(queue)).ready === 3 || undefined)).toBe(true);

    const received: IncomingMessage[] = [];
    await transport.consume(queue, async (message) => {
      received.push(message);
      if ((message.payload as { poison?: boolean }).poison) throw new Error('cannot handle');
    });
    const settled = await waitFor('queue drained into the dead-letter queue', async () => {
      const stats = await transport.queueStats(queue);
      return stats.ready === 0 && stats.deadLettered === 1 ? stats : undefined;
    }, 20_000);
    expect(settled).toEqual({ ready: 0, deadLettered: 1, consumers: 1 });

    const first = received.find((message) => message.messageId === 'a')!;
    // AMQP timestamps are whole seconds.
    expect(Math.abs(first.publishedAt!.getTime() - writtenAt.getTime())).toBeLessThan(1_000);
  });

  it('answers for a queue that is gone by rejecting, without disturbing publishing', async () => {
    const connection = await amqp.connect(testBrokerUrl());
    const channel = await connection.createChannel();
    await channel.assertQueue(`${namespace}.transient`, { durable: false, autoDelete: false });
    await channel.deleteQueue(`${namespace}.transient`);
    await connection.close();

    await expect(transport.queueStats({ name: 'transient', bindings: [] })).rejects.toThrow(/NOT_FOUND|404/);
    await transport.publish([{ messageId: 'after', routingKey: 'stats.x', payload: {} }]);
    expect(await transport.isReady()).toBe(true);
    expect(await waitFor('stats again', async () => (await transport.queueStats(queue)).consumers === 1 || undefined)).toBe(true);
  });
});
