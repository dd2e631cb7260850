import { INestApplication, Injectable } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { Test } from '@nestjs/testing';
import { IsInt, IsString, Min } from 'class-validator';
import type { DataSource } from 'typeorm';
import pino from 'pino';
import { BaseConfig } from '@courier/config';
import { InProcessBroker, InProcessTransport } from './in-process-transport';
import { connectMessageHandlers, MalformedMessageError, MessageConsumer, MessageContext, MessageServer } from './message-handlers';
import { Messaging } from './messaging.service';
import type { OutboxRelay } from './outbox-relay';
import { OnTask, TaskHandlerExplorer } from './task-handlers';
import { ScheduledTask, TaskHandler, TaskRunner } from './task-runner';
import { HandledMessage } from './transport';
import { UnitOfWork } from './unit-of-work';

const orders = { name: 'probe.orders', bindings: ['order.created', 'order.noted', 'order.flaky'], deliveryLimit: 2 }; // redeliveries before dead-lettering

class OrderCreated {
  @IsString()
  orderId!: string;

  @IsInt()
  @Min(1)
  items!: number;
}

interface Seen {
  event: unknown;
  routingKey: string;
  deliveryCount: number;
}

@MessageConsumer()
class ProbeConsumer {
  readonly seen: Seen[] = [];

  @EventPattern('order.created', { queue: orders })
  async onOrderCreated(@Payload() event: OrderCreated, @Ctx() context: MessageContext): Promise<void> {
    this.seen.push({ event, routingKey: context.routingKey, deliveryCount: context.deliveryCount });
  }

  @EventPattern('order.flaky', { queue: orders })
  async onFlaky(@Ctx() context: MessageContext): Promise<void> {
    if (context.deliveryCount === 1) throw new Error('first delivery fails');
    this.seen.push({ event: context.message.payload, routingKey: context.routingKey, deliveryCount: context.deliveryCount });
  }
}

@MessageConsumer()
class UnboundConsumer {
  @EventPattern('order.shipped', { queue: orders })
  async onShipped(): Promise<void> {}
}

function messagingOn(transport: InProcessTransport): Messaging {
  const idle = { start: () => undefined, stop: async () => undefined };
  const config = Object.assign(new BaseConfig(), { SHUTDOWN_GRACE_MS: 500, RABBITMQ_PREFETCH: 4 });
  const unitOfWork = new UnitOfWork({} as DataSource, { onEnqueued: () => undefined, onScheduled: () => undefined });
  return new Messaging(
    transport,
    idle as unknown as OutboxRelay,
    idle as unknown as TaskRunner,
    unitOfWork,
    pino({ level: 'silent' }),
    config,
  );
}

async function appWith(consumer: new () => object, transport: InProcessTransport, messaging: Messaging): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    controllers: [consumer],
    providers: [{ provide: Messaging, useValue: messaging }, MessageServer],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await connectMessageHandlers(app);
  await app.init();
  return app;
}

describe('message handlers (@EventPattern on our transport)', () => {
  let broker: InProcessBroker;
  let transport: InProcessTransport;
  let messaging: Messaging;
  let handled: HandledMessage[];

  /** The app with `consumer` started, `check` run, and the consumers stopped again. */
  async function running(consumer: new () => object, check: (app: INestApplication) => Promise<void>): Promise<void> {
    const app = await appWith(consumer, transport, messaging);
    try {
      await check(app);
    } finally {
      await messaging.beforeApplicationShutdown();
      await app.close();
    }
  }

  beforeEach(() => {
    broker = new InProcessBroker();
    transport = new InProcessTransport([orders], broker);
    messaging = messagingOn(transport);
    handled = [];
    messaging.onMessageHandled((report) => handled.push(report));
  });

  it('hands each delivery to the handler of its routing key, with the payload validated into its contract class', async () => {
    await running(ProbeConsumer, async (app) => {
      await transport.publish([{ messageId: 'm1', routingKey: 'order.created', payload: { orderId: 'A-1', items: 2, extra: 'kept' } }]);
      const consumer = app.get(ProbeConsumer);
      expect(consumer.seen).toHaveLength(1);
      expect(consumer.seen[0].event).toBeInstanceOf(OrderCreated);
      expect(consumer.seen[0]).toMatchObject({
        event: { orderId: 'A-1', items: 2, extra: 'kept' },
        routingKey: 'order.created',
        deliveryCount: 1,
      });
      expect(handled.map((report) => `${report.queue}:${report.outcome}`)).toEqual(['probe.orders:ok']);
      expect(broker.deadLetters(orders.name)).toEqual([]);
    });
  });

  it('dead-letters a payload that breaks its contract after the delivery limit, without calling the handler', async () => {
    await running(ProbeConsumer, async (app) => {
      await transport.publish([{ messageId: 'bad', routingKey: 'order.created', payload: { orderId: 'A-2', items: 0 } }]);
      expect(app.get(ProbeConsumer).seen).toEqual([]);
      expect(handled.map((report) => report.outcome)).toEqual(['error', 'error', 'error']); // the first delivery and two redeliveries
      expect(broker.deadLetters(orders.name).map((message) => message.messageId)).toEqual(['bad']);
    });
  });

  it('redelivers when the handler throws, and acknowledges once it resolves', async () => {
    await running(ProbeConsumer, async (app) => {
      await transport.publish([{ messageId: 'f1', routingKey: 'order.flaky', payload: { n: 1 } }]);
      expect(app.get(ProbeConsumer).seen).toEqual([{ event: { n: 1 }, routingKey: 'order.flaky', deliveryCount: 2 }]);
      expect(handled.map((report) => report.outcome)).toEqual(['error', 'ok']);
      expect(broker.deadLetters(orders.name)).toEqual([]);
    });
  });

  it('acknowledges a routing key bound to the queue that no handler takes', async () => {
    await running(ProbeConsumer, async (app) => {
      await transport.publish([{ messageId: 'n1', routingKey: 'order.noted', payload: {} }]);
      expect(app.get(ProbeConsumer).seen).toEqual([]);
      expect(handled.map((report) => report.outcome)).toEqual(['ok']);
      expect(broker.deadLetters(orders.name)).toEqual([]);
    });
  });

  it('refuses to start when a handler names a queue not bound to its routing key', async () => {
    await expect(appWith(UnboundConsumer, transport, messaging)).rejects.toThrow(
      "@EventPattern('order.shipped'): queue probe.orders is not bound to it",
    );
  });

  it('describes a broken payload by its contract and fields', () => {
    expect(new MalformedMessageError('OrderCreated', ['items: items must not be less than 1']).message).toBe(
      'OrderCreated: malformed payload (items: items must not be less than 1)',
    );
  });
});

@Injectable()
class ProbeTasks {
  @OnTask('probe.remind')
  async remind(task: ScheduledTask<{ who: string }>): Promise<{ rescheduleAt: Date; note: string }> {
    return { rescheduleAt: new Date(0), note: `reminded ${task.payload.who}` };
  }
}

describe('@OnTask methods', () => {
  it('are found at start and run by the task runner under their kind', async () => {
    const registered = new Map<string, TaskHandler>();
    const runner = { register: (kind: string, handler: TaskHandler) => registered.set(kind, handler) };
    const moduleRef = await Test.createTestingModule({
      imports: [DiscoveryModule],
      providers: [ProbeTasks, TaskHandlerExplorer, { provide: TaskRunner, useValue: runner }],
    }).compile();
    await moduleRef.init();
    expect([...registered.keys()]).toEqual(['probe.remind']);
    const outcome = await registered.get('probe.remind')!({
      id: 't1',
      kind: 'probe.remind',
      payload: { who: 'ops' },
      dueAt: new Date(),
      attempt: 1,
      headers: {},
    });
    expect(outcome).toEqual({ rescheduleAt: new Date(0), note: 'reminded ops' });
    await moduleRef.close();
  });
});
