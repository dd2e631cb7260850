import { InProcessBroker, InProcessTransport } from './in-process-transport';
import { IncomingMessage, topicMatches } from './transport';

const queue = { name: 'q.orders', bindings: ['order.*'], deliveryLimit: 2 };

function transport() {
  return new InProcessTransport([queue], new InProcessBroker());
}

describe('InProcessTransport', () => {
  it('routes by topic and resolves publish only after the handler finished', async () => {
    const bus = transport();
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await bus.consume(queue, async (message) => {
      await gate;
      seen.push(message.messageId);
    });
    let settled = false;
    const published = bus.publish([{ messageId: 'm1', routingKey: 'order.created', payload: { a: 1 } }]).then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    release();
    await published;
    expect(seen).toEqual(['m1']);
  });

  it('ignores keys no queue is bound to', async () => {
    const bus = transport();
    const seen: string[] = [];
    await bus.consume(queue, async (message) => void seen.push(message.messageId));
    await bus.publish([{ messageId: 'x', routingKey: 'account.created', payload: {} }]);
    await bus.publish([{ messageId: 'y', routingKey: 'order.created', payload: {} }]);
    expect(seen).toEqual(['y']);
  });

  it('redelivers a failed message with a growing delivery count, then dead-letters it', async () => {
    const broker = new InProcessBroker();
    const bus = new InProcessTransport([queue], broker);
    const counts: number[] = [];
    await bus.consume(queue, async (message) => {
      counts.push(message.deliveryCount);
      throw new Error('poison');
    });
    await bus.publish([{ messageId: 'p', routingKey: 'order.created', payload: {} }]);
    expect(counts).toEqual([1, 2, 3]);
    expect(broker.deadLetters('q.orders').map((message) => message.messageId)).toEqual(['p']);
  });

  it('keeps other messages flowing while one is poison', async () => {
    const broker = new InProcessBroker();
    const bus = new InProcessTransport([queue], broker);
    const ok: string[] = [];
    await bus.consume(queue, async (message: IncomingMessage) => {
      if ((message.payload as { poison?: boolean }).poison) throw new Error('poison');
      ok.push(message.messageId);
    });
    await bus.publish([
      { messageId: 'bad', routingKey: 'order.created', payload: { poison: true } },
      { messageId: 'g1', routingKey: 'order.created', payload: {} },
      { messageId: 'g2', routingKey: 'order.updated', payload: {} },
    ]);
    expect(ok).toEqual(['g1', 'g2']);
    expect(broker.deadLetters('q.orders')).toHaveLength(1);
  });

  it('gives consumers a copy, never the producer object', async () => {
    const bus = transport();
    const payload = { nested: { value: 1 } };
    let received: unknown;
    await bus.consume(queue, async (message) => void (received = message.payload));
    await bus.publish([{ messageId: 'c', routingKey: 'order.created', payload }]);
    payload.nested.value = 2;
    expect(received).toEqual({ nested: { value: 1 } });
  });

  it('refuses a publish while a bound queue has no consumer, so the outbox keeps the message', async () => {
    const bus = transport();
    await expect(bus.publish([{ messageId: 'early', routingKey: 'order.created', payload: {} }])).rejects.toThrow(/no consumer/);
    const seen: string[] = [];
    await bus.consume(queue, async (message) => void seen.push(message.messageId));
    await bus.publish([{ messageId: 'early', routingKey: 'order.created', payload: {} }]);
    expect(seen).toEqual(['early']);
  });
});

describe('topicMatches', () => {
  it.each([
    ['order.created', 'order.created', true],
    ['order.*', 'order.created', true],
    ['order.*', 'order.created.x', false],
    ['order.#', 'order.created.x', true],
    ['#', 'anything.at.all', true],
    ['*.created', 'order.created', true],
    ['order.created', 'order.canceled', false],
  ])('%s vs %s -> %s', (pattern, key, expected) => {
    expect(topicMatches(pattern, key)).toBe(expected);
  });
});
