import amqp from 'amqplib';
import { Queues, RoutingKey } from '@courier/contracts';
import { deadLetterQueueName, topologyNames } from '@courier/messaging';
import { describeWithBroker, testBrokerUrl, testNamespace, waitFor } from '@courier/testing';
import { internal, orderCreatedEvent, startTestApp, TestApp } from '../../test/harness';

jest.setTimeout(60_000);

/** The same flow over RabbitMQ: order.created in through the broker, the events out through it. */
describeWithBroker('order lifecycle over RabbitMQ', () => {
  const namespace = testNamespace('sd');
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { RABBITMQ_URL: testBrokerUrl(), RABBITMQ_NAMESPACE: namespace } });
  });
  afterAll(async () => {
    await t?.close();
    // The run's namespace is its own: remove its queues and exchanges from the shared broker.
    const connection = await amqp.connect(testBrokerUrl());
    const channel = await connection.createChannel();
    const names = topologyNames(namespace);
    for (const spec of Object.values(Queues)) {
      const queue = names.queue(spec).name;
      await channel.deleteQueue(queue);
      await channel.deleteQueue(deadLetterQueueName(queue));
    }
    await channel.deleteExchange(names.events);
    await channel.deleteExchange(names.deadLetter);
    await connection.close();
  });

  it('creates the order from the queue once, and hands its events to the sender and intake queues', async () => {
    const event = orderCreatedEvent();
    await t.deliver(RoutingKey.OrderCreated, event, 'same-message');
    await t.deliver(RoutingKey.OrderCreated, event, 'same-message');
    const order = await waitFor('order created', async () => {
      const response = await t.http.get(`/internal/orders/${event.yemekKuryeOrderId}`).set(internal());
      return response.status === 200 ? response.body : undefined;
    });
    expect(order).toMatchObject({ status: 'NEW', orderNumber: '1' });

    expect((await t.transition(order.id, { trigger: 'APPROVE' })).status).toBe(200);
    expect((await t.transition(order.id, { trigger: 'CANCEL', cancelReasonId: 'OUT_OF_STOCK' })).status).toBe(200);

    const mine = () => t.delivered.filter((message) => (message.payload as { yemekKuryeOrderId?: string }).yemekKuryeOrderId === order.id);
    await waitFor('events through the broker', () => mine().length >= 5);
    expect(mine().map((message) => `${message.queue} ${message.routingKey}`).sort()).toEqual([
      'intake-api.order-events order.canceled',
      'intake-api.order-events order.opened',
      'intake-api.order-events order.status_changed',
      'webhook-sender.order-events order.canceled',
      'webhook-sender.order-events order.status_changed',
    ]);
    expect(await t.sql('SELECT id FROM orders WHERE restaurant_id = $1', [event.restaurantId])).toHaveLength(1);
  });
});
