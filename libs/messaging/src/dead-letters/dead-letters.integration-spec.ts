import { Queues, RoutingKey } from '@courier/contracts';
import { deleteTestTopology, describeWithBroker, silentLogger, testBrokerUrl, testNamespace, waitFor } from '@courier/testing';
import { AmqpTransport } from '../amqp-transport';
import { SUITE_TOPOLOGY } from '../messaging.module';
import { IncomingMessage } from '../transport';
import { runDeadLettersCli } from './dead-letters-cli';

describeWithBroker('dead-letters CLI against RabbitMQ', () => {
  const namespace = testNamespace('dl');
  const env = { RABBITMQ_URL: testBrokerUrl(), RABBITMQ_NAMESPACE: namespace };
  const queue = Queues.senderOrderEvents;
  let transport: AmqpTransport;
  let healed = false;
  const handled: IncomingMessage[] = [];

  async function cli(...argv: string[]): Promise<{ code: number; out: any; err: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runDeadLettersCli(argv, env, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
    return { code, out: stdout ? JSON.parse(stdout) : undefined, err: stderr };
  }

  beforeAll(async () => {
    transport = new AmqpTransport({ url: testBrokerUrl(), topology: SUITE_TOPOLOGY, connectionName: `${namespace}:sender`, namespace, logger: silentLogger, reconnectMinMs: 100 });
    transport.start();
    await waitFor('connection', () => transport.isReady());
    // A consumer that fails every message until "the bug is fixed".
    await transport.consume(queue, async (message) => {
      if (!healed) throw new Error('consumer bug');
      handled.push(message);
    });
    await transport.publish(
      ['d1', 'd2', 'd3'].map((id) => ({
        messageId: id,
        routingKey: RoutingKey.OrderStatusChanged,
        payload: { yemekKuryeOrderId: `order-${id}`, status: 'ACCEPTED' },
        headers: { 'x-correlation-id': `corr-${id}` },
        timestamp: new Date('2026-01-02T03:04:05Z'),
      })),
    );
  });

  afterAll(async () => {
    await transport?.close();
    await deleteTestTopology(namespace, SUITE_TOPOLOGY.map((spec) => spec.name));
  });

  it('lists the dead letters with their original routing key, reason and correlation id, and leaves them in place', async () => {
    const listed = (await waitFor('three dead letters', async () => {
      const result = await cli('list', queue.name);
      return result.out?.count === 3 ? result : undefined;
    }, 40_000, 250))!;
    expect(listed.code).toBe(0);
    expect(listed.out.deadLetterQueue).toBe(`${namespace}.${queue.name}.dead`);
    expect(listed.out.messages.map((message: any) => message.messageId).sort()).toEqual(['d1', 'd2', 'd3']);
    for (const message of listed.out.messages) {
      expect(message).toMatchObject({
        routingKey: RoutingKey.OrderStatusChanged,
        reason: expect.stringMatching(/delivery_limit|rejected/),
        correlationId: `corr-${message.messageId}`,
        publishedAt: '2026-01-02T03:04:05.000Z',
        deadLetteredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect(message).not.toHaveProperty('payload');
    }
    // Looking twice consumes nothing.
    expect((await cli('list', queue.name, '--limit', '2')).out).toMatchObject({ count: 3, messages: [expect.anything(), expect.anything()] });
    expect((await cli('list', queue.name)).out.count).toBe(3);

    const shown = await cli('show', queue.name, 'd2');
    expect(shown.code).toBe(0);
    expect(shown.out).toMatchObject({ messageId: 'd2', payload: { yemekKuryeOrderId: 'order-d2', status: 'ACCEPTED' }, headers: { 'x-correlation-id': 'corr-d2' } });
    expect(Object.keys(shown.out.headers).filter((name) => name.startsWith('x-death'))).toEqual([]);
    expect((await cli('show', queue.name, 'nope')).code).toBe(1);
  });

  it('replays chosen messages to the events exchange with the same message id and routing key, once the consumer is fixed', async () => {
    healed = true;
    const replayed = await cli('replay', queue.name, '--id', 'd1', '--id', 'missing');
    expect(replayed.code).toBe(1);
    expect(replayed.out).toMatchObject({ countBefore: 3, replayed: ['d1'], notFound: ['missing'], skipped: [], discarded: [] });
    const redelivered = await waitFor('d1 handled', () => handled.find((message) => message.messageId === 'd1'));
    expect(redelivered).toMatchObject({
      routingKey: RoutingKey.OrderStatusChanged,
      payload: { yemekKuryeOrderId: 'order-d1', status: 'ACCEPTED' },
      headers: { 'x-correlation-id': 'corr-d1', 'x-replayed-from': `${namespace}.${queue.name}.dead` },
    });
    expect((await cli('list', queue.name)).out.messages.map((message: any) => message.messageId).sort()).toEqual(['d2', 'd3']);
  });

  it('discards one for good, replays the rest with --all, and refuses ambiguous or unknown requests', async () => {
    expect((await cli('discard', queue.name, '--all')).code).toBe(2);
    expect((await cli('replay', queue.name)).code).toBe(2);
    expect((await cli('list', 'no-such-queue')).code).toBe(2);

    const discarded = await cli('discard', queue.name, '--id', 'd3');
    expect(discarded).toMatchObject({ code: 0, out: { discarded: ['d3'], replayed: [] } });
    const all = await cli('replay', queue.name, '--all');
    expect(all).toMatchObject({ code: 0, out: { replayed: ['d2'], discarded: [] } });
    await waitFor('d2 handled', () => handled.some((message) => message.messageId === 'd2'));
    expect(handled.map((message) => message.messageId).sort()).toEqual(['d1', 'd2']);
    expect((await cli('list', queue.name)).out.count).toBe(0);

    const overview = await cli('queues');
    expect(overview.code).toBe(0);
    expect(overview.out).toEqual(SUITE_TOPOLOGY.map((spec) => ({ queue: spec.name, deadLetters: 0 })));
  });
});
