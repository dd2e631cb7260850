import amqp from 'amqplib';
import { createHmac, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { CatalogDriftDetectedEvent, Queues, RoutingKey } from '@courier/contracts';
import { AmqpTransport, deadLetterQueueName, SUITE_TOPOLOGY, topologyNames } from '@courier/messaging';
import { deleteTestTopology, describeWithBroker, silentLogger, testBrokerUrl, testNamespace, waitFor } from '@courier/testing';
import { credentials, SenderApp, startSender, TestAccount } from '../../test/harness';
import { catalogDriftDetected } from '../../test/order-events.fixture';
import { ReceivedRequest, startReceiver, TestReceiver, waitForRequests } from '../../test/receivers';
import { catalogDriftWebhookId } from './restaurant-webhook-payload';

const expectSigned = (request: ReceivedRequest, secret: string, id: string) => {
  expect(request.headers['x-service-signature']).toBe(createHmac('sha256', secret).update(request.body).digest('hex'));
  const headers = { 'webhook-id': String(request.headers['webhook-id']), 'webhook-timestamp': String(request.headers['webhook-timestamp']), 'webhook-signature': String(request.headers['webhook-signature']) };
  expect(headers['webhook-id']).toBe(id);
  expect(new Webhook(secret).verify(request.body, headers)).toEqual(JSON.parse(request.body.toString('utf8')));
};

/** catalog.drift_detected published on RabbitMQ as status-dispatcher does: one signed webhook at the status URL, its id fixed by the drift. */
describeWithBroker('catalog.drift_detected webhooks over RabbitMQ', () => {
  const namespace = testNamespace('wcd');
  const env = { RABBITMQ_URL: testBrokerUrl(), RABBITMQ_NAMESPACE: namespace };
  let receiver: TestReceiver;
  let sender: SenderApp;
  let publisher: AmqpTransport;

  beforeAll(async () => {
    receiver = await startReceiver();
    publisher = new AmqpTransport({ url: testBrokerUrl(), topology: SUITE_TOPOLOGY, connectionName: 'webhook-sender-catalog-drift-test', namespace, logger: silentLogger });
    publisher.start();
    sender = await startSender({ env });
  });
  afterAll(async () => {
    await sender?.close();
    await publisher?.close();
    await receiver?.close();
    await deleteTestTopology(namespace, Object.values(Queues).map((queue) => queue.name));
  });

  const newAccount = async (statusUrl: string) => {
    const account = await sender.createAccount({ statusUrl, cancelUrl: receiver.url('/cancel') });
    await waitFor('account in the read model', async () => (await sender.sql('SELECT 1 FROM webhook_accounts WHERE restaurant_id = $1', [account.restaurantId])).length > 0);
    return account;
  };

  const driftOf = (account: TestAccount, fields: Partial<CatalogDriftDetectedEvent> = {}): CatalogDriftDetectedEvent => ({
    ...catalogDriftDetected,
    driftEventId: randomUUID(),
    restaurantId: account.restaurantId,
    integrationId: randomUUID(),
    importId: randomUUID(),
    detectedAt: new Date().toISOString(),
    ...fields,
  });

  const publish = (payload: unknown, messageId: string = randomUUID()) => publisher.publish([{ messageId, routingKey: RoutingKey.CatalogDriftDetected, payload }]);

  const inboxHas = (messageId: string) =>
    waitFor(`message ${messageId} in the inbox`, async () => (await sender.sql('SELECT 1 FROM processed_messages WHERE consumer = $1 AND message_id = $2', ['webhook-sender.restaurant-events', messageId])).length === 1);

  it('becomes one signed webhook at the status URL with the event’s fields, listed under its event', async () => {
    const account = await newAccount(receiver.url('/status'));
    const event = driftOf(account);
    await publish(event);
    const [request] = await waitForRequests(receiver, '/status', event.driftEventId);
    const id = catalogDriftWebhookId(event.driftEventId);

    expect(request.body.toString('utf8')).toBe(
      JSON.stringify({
        event: 'catalog.drift_detected',
        driftEventId: event.driftEventId,
        integrationId: event.integrationId,
        provider: catalogDriftDetected.provider,
        providerRestaurantId: catalogDriftDetected.providerRestaurantId,
        importId: event.importId,
        changes: catalogDriftDetected.changes,
        omittedChanges: 0,
        timestamp: event.detectedAt,
      }),
    );
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-webhook-id']).toBe(id);
    expect(request.headers['x-webhook-attempt']).toBe('1');
    expectSigned(request, account.signingSecret!, id);
    expect(receiver.at('/cancel').filter((r) => r.body.includes(event.driftEventId))).toHaveLength(0);

    const delivery = await sender.waitForDelivery(account, id, (d) => d.status === 'delivered');
    expect(delivery).toMatchObject({ id, event: 'catalog.drift_detected', orderId: null, yemekKuryeOrderId: null, integrationId: event.integrationId, attemptCount: 1, url: receiver.url('/status') });
    expect(delivery.payload).toEqual(JSON.parse(request.body.toString('utf8')));
    const listed = await sender.http.get('/api/v1/my/webhooks/deliveries').query({ event: 'catalog.drift_detected' }).set(credentials(account));
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((entry: { id: string }) => entry.id)).toEqual([id]);
  });

  it('keeps one webhook id across redeliveries: the same message twice, the drift published again, a redelivery from the log', async () => {
    const account = await newAccount(receiver.url('/again'));
    const event = driftOf(account);
    const messageId = randomUUID();
    await publish(event, messageId);
    const id = catalogDriftWebhookId(event.driftEventId);
    const [first] = await waitForRequests(receiver, '/again', event.driftEventId);
    await sender.waitForDelivery(account, id, (d) => d.status === 'delivered');

    // The broker handing the message over again, and status-dispatcher's outbox publishing the drift again.
    await publish(event, messageId);
    const republished = randomUUID();
    await publish(event, republished);
    await inboxHas(republished);
    expect(await sender.sql('SELECT id FROM webhook_deliveries WHERE source_key = $1', [`catalog.drift_detected:${event.driftEventId}`])).toEqual([{ id }]);

    const redelivered = await sender.http.post(`/api/v1/my/webhooks/deliveries/${id}/redeliver`).set(credentials(account));
    expect(redelivered.status).toBe(202);
    expect(redelivered.body).toMatchObject({ id, event: 'catalog.drift_detected', status: 'pending' });
    const requests = await waitForRequests(receiver, '/again', event.driftEventId, 2);
    expect(requests.map((request) => request.headers['x-webhook-id'])).toEqual([id, id]);
    expect(requests.map((request) => request.headers['x-webhook-attempt'])).toEqual(['1', '2']);
    expect(requests[1].body.equals(first.body)).toBe(true);
    expectSigned(requests[1], account.signingSecret!, id);
    const delivery = await sender.waitForDelivery(account, id, (d) => d.status === 'delivered' && d.attemptCount === 2);
    expect(delivery.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([200, 200]);
  });

  it('dead-letters a malformed drift, and the ones after it still go out', async () => {
    const account = await newAccount(receiver.url('/after-bad'));
    const before = await publisher.queueStats(Queues.senderRestaurantEvents);
    const bad = driftOf(account, { changes: [] });
    const badMessageId = randomUUID();
    await publish(bad, badMessageId);
    const good = driftOf(account);
    await publish(good);
    await waitForRequests(receiver, '/after-bad', good.driftEventId);

    await waitFor('malformed drift in the dead-letter queue', async () => (await publisher.queueStats(Queues.senderRestaurantEvents)).deadLettered === before.deadLettered + 1);
    // The dead-lettered message is the malformed drift, as published (the transport logs each failed delivery with the error).
    const connection = await amqp.connect(testBrokerUrl());
    try {
      const channel = await connection.createChannel();
      const dead = await channel.get(deadLetterQueueName(topologyNames(namespace).queue(Queues.senderRestaurantEvents).name), { noAck: false });
      expect(dead && dead.properties.messageId).toBe(badMessageId);
      expect(dead && JSON.parse(dead.content.toString('utf8'))).toMatchObject({ driftEventId: bad.driftEventId, changes: [] });
      if (dead) channel.nack(dead, false, true);
    } finally {
      await connection.close();
    }
    expect(receiver.at('/after-bad').filter((request) => request.body.includes(bad.driftEventId))).toHaveLength(0);
    expect(await sender.sql('SELECT 1 FROM webhook_deliveries WHERE source_key = $1', [`catalog.drift_detected:${bad.driftEventId}`])).toHaveLength(0);
  });
});
