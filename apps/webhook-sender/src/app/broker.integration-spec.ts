import amqp from 'amqplib';
import { randomUUID } from 'node:crypto';
import { Queues, RoutingKey } from '@courier/contracts';
import { AmqpTransport, deadLetterQueueName, SUITE_TOPOLOGY, topologyNames } from '@courier/messaging';
import { describeWithBroker, silentLogger, testBrokerUrl, testNamespace, waitFor } from '@courier/testing';
import { statusChanged } from '../../test/order-events.fixture';
import { deliveryIdOf, SenderApp, startSender } from '../../test/harness';
import { startReceiver, TestReceiver, waitForRequests } from '../../test/receivers';

/** The same flow over RabbitMQ, with the sender down while an order event is published. */
describeWithBroker('webhook sender over RabbitMQ', () => {
  const namespace = testNamespace('ws');
  const env = { RABBITMQ_URL: testBrokerUrl(), RABBITMQ_NAMESPACE: namespace };
  let receiver: TestReceiver;
  let sender: SenderApp | undefined;
  let publisher: AmqpTransport;

  beforeAll(async () => {
    receiver = await startReceiver();
    publisher = new AmqpTransport({ url: testBrokerUrl(), topology: SUITE_TOPOLOGY, connectionName: 'webhook-sender-test-publisher', namespace, logger: silentLogger });
    publisher.start();
  });
  afterAll(async () => {
    await sender?.close();
    await publisher?.close();
    await receiver?.close();
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

  it('delivers an event published while the sender was down, once it is back', async () => {
    const first = await startSender({ env });
    const account = await first.createAccount({ statusUrl: receiver.url('/status') });
    await waitFor('account in the read model', async () => (await first.sql('SELECT 1 FROM webhook_accounts WHERE restaurant_id = $1', [account.restaurantId])).length > 0);
    await first.close({ keepDatabase: true });

    const event = { ...statusChanged, yemekKuryeOrderId: randomUUID(), restaurantId: account.restaurantId, timestamp: new Date().toISOString() };
    await publisher.publish([{ messageId: randomUUID(), routingKey: RoutingKey.OrderStatusChanged, payload: event }]);

    sender = await startSender({ database: first.database, env });
    const [request] = await waitForRequests(receiver, '/status', event.yemekKuryeOrderId);
    const id = await deliveryIdOf(sender, event);
    expect(request.headers['x-webhook-id']).toBe(id);
    await sender.waitForDelivery(account, id, (delivery) => delivery.status === 'delivered');
  });
});
