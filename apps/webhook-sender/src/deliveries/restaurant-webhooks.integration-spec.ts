import { createHmac, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { Queues, RoutingKey } from '@courier/contracts';
import { AmqpTransport, SUITE_TOPOLOGY } from '@courier/messaging';
import { deleteTestTopology, describeWithBroker, silentLogger, testBrokerUrl, testNamespace, waitFor } from '@courier/testing';
import { credentials, SenderApp, startSender, TestAccount } from '../../test/harness';
import { availabilityChanged } from '../../test/order-events.fixture';
import { ReceivedRequest, startReceiver, TestReceiver, waitForRequests } from '../../test/receivers';
import { availabilityWebhookId } from './restaurant-webhook-payload';

const expectSigned = (request: ReceivedRequest, secret: string, id: string) => {
  expect(request.headers['x-service-signature']).toBe(createHmac('sha256', secret).update(request.body).digest('hex'));
  const headers = { 'webhook-id': String(request.headers['webhook-id']), 'webhook-timestamp': String(request.headers['webhook-timestamp']), 'webhook-signature': String(request.headers['webhook-signature']) };
  expect(headers['webhook-id']).toBe(id);
  expect(new Webhook(secret).verify(request.body, headers)).toEqual(JSON.parse(request.body.toString('utf8')));
};

/** restaurant.availability_changed: one signed webhook to the status URL, sent, retried, logged and redelivered as order webhooks are. */
describe('restaurant.availability_changed webhooks', () => {
  let sender: SenderApp;
  let receiver: TestReceiver;

  beforeAll(async () => {
    receiver = await startReceiver((request) => (request.path.startsWith('/down') ? { status: 503, body: 'maintenance' } : { status: 200 }));
    sender = await startSender({ env: { WEBHOOK_RETRY_SCHEDULE: '200ms,400ms' } });
  });
  afterAll(async () => {
    await sender?.close();
    await receiver?.close();
  });

  const list = async (account: TestAccount, query: Record<string, string>) => {
    const response = await sender.http.get('/api/v1/my/webhooks/deliveries').query(query).set(credentials(account));
    expect(response.status).toBe(200);
    return response.body as { data: Array<Record<string, unknown>>; nextCursor: string | null };
  };

  it('a published change becomes one signed webhook at the status URL, its id derived from the change, listed under its event', async () => {
    const account = await sender.createAccount({ statusUrl: receiver.url('/hooks/status'), cancelUrl: receiver.url('/hooks/cancel') });
    const order = await sender.publishStatusChanged(account);
    const event = await sender.publishAvailabilityChanged(account, { until: '2026-11-21T13:00:00.000Z' });
    const [request] = await waitForRequests(receiver, '/hooks/status', event.changeEventId);
    const id = availabilityWebhookId(event.changeEventId);

    expect(request.body.toString('utf8')).toBe(
      JSON.stringify({
        event: 'restaurant.availability_changed',
        changeEventId: event.changeEventId,
        integrationId: event.integrationId,
        provider: availabilityChanged.provider,
        providerRestaurantId: availabilityChanged.providerRestaurantId,
        state: 'CLOSED',
        until: '2026-11-21T13:00:00.000Z',
        expectedState: 'OPEN',
        detectedBy: 'read_back',
        platformReason: availabilityChanged.platformReason,
        timestamp: event.occurredAt,
      }),
    );
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-webhook-id']).toBe(id);
    expect(request.headers['x-webhook-attempt']).toBe('1');
    expectSigned(request, account.signingSecret!, id);
    expect(receiver.at('/hooks/cancel').filter((r) => r.body.includes(event.changeEventId))).toHaveLength(0);

    const delivery = await sender.waitForDelivery(account, id, (d) => d.status === 'delivered');
    expect(delivery).toMatchObject({ id, event: 'restaurant.availability_changed', orderId: null, yemekKuryeOrderId: null, integrationId: event.integrationId, attemptCount: 1, url: receiver.url('/hooks/status') });
    expect(delivery.payload).toEqual(JSON.parse(request.body.toString('utf8')));

    // The event filter takes the new type and keeps the kinds apart; the unfiltered list shows both.
    await waitFor('order webhook delivered', async () => (await list(account, { event: 'order.status_changed' })).data.length === 1);
    const availability = await list(account, { event: 'restaurant.availability_changed' });
    expect(availability.data.map((entry) => entry.id)).toEqual([id]);
    const orders = await list(account, { event: 'order.status_changed' });
    expect(orders.data.map((entry) => entry.yemekKuryeOrderId)).toEqual([order.yemekKuryeOrderId]);
    expect(orders.data[0].integrationId).toBeNull();
    expect((await list(account, {})).data.map((entry) => entry.event).sort()).toEqual(['order.status_changed', 'restaurant.availability_changed']);
    const byOrder = await list(account, { orderId: order.orderId });
    expect(byOrder.data.map((entry) => entry.event)).toEqual(['order.status_changed']);
  });

  it('a receiver answering 5xx gets the webhook again with the same id, on the retry schedule, until it takes it', async () => {
    let calls = 0;
    const flaky = await startReceiver(() => ({ status: ++calls === 1 ? 503 : 200 }));
    try {
      const account = await sender.createAccount({ statusUrl: flaky.url('/status') });
      const event = await sender.publishAvailabilityChanged(account, { state: 'BUSY', expectedState: 'OPEN', detectedBy: 'platform_call', platformReason: null });
      const requests = await waitForRequests(flaky, '/status', event.changeEventId, 2);
      const id = availabilityWebhookId(event.changeEventId);
      expect(requests.map((request) => request.headers['x-webhook-id'])).toEqual([id, id]);
      expect(requests.map((request) => request.headers['x-webhook-attempt'])).toEqual(['1', '2']);
      expect(requests[1].body.equals(requests[0].body)).toBe(true);
      expectSigned(requests[1], account.signingSecret!, id);
      const delivery = await sender.waitForDelivery(account, id, (d) => d.status === 'delivered');
      expect(delivery.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([503, 200]);
      expect(delivery.attempts[0].error).toBe('HTTP 503 Service Unavailable');
    } finally {
      await flaky.close();
    }
  });

  it('one webhook per change: the same message twice or the change published again sends it once', async () => {
    const account = await sender.createAccount({ statusUrl: receiver.url('/once') });
    const event = await sender.publishAvailabilityChanged(account, {}, `msg-${randomUUID()}`);
    await sender.publishAvailabilityChanged(account, event, `msg-${randomUUID()}`);
    const messageId = `msg-${randomUUID()}`;
    await sender.publishAvailabilityChanged(account, { ...event, changeEventId: randomUUID() }, messageId);
    await sender.publishAvailabilityChanged(account, { ...event, changeEventId: randomUUID() }, messageId);
    await waitFor('two webhooks', () => receiver.at('/once').length === 2);
    const rows = await sender.sql<{ id: string; source_key: string }>('SELECT id, source_key FROM webhook_deliveries WHERE restaurant_id = $1', [account.restaurantId]);
    expect(rows).toHaveLength(2);
    expect(rows.map((row) => row.id)).toContain(availabilityWebhookId(event.changeEventId));
    // Both sends already happened; a late third would show in the log as a third row or attempt.
    const delivery = await sender.waitForDelivery(account, availabilityWebhookId(event.changeEventId), (d) => d.status === 'delivered');
    expect(delivery.attemptCount).toBe(1);
  });

  it('a redelivery sends the same id and body again; without a status URL the webhook is skipped until then', async () => {
    const account = await sender.createAccount({ statusUrl: null, cancelUrl: receiver.url('/cancel-only') });
    const event = await sender.publishAvailabilityChanged(account);
    const id = availabilityWebhookId(event.changeEventId);
    const skipped = await sender.waitForDelivery(account, id, (d) => d.status === 'skipped');
    expect(skipped.lastError).toBe('no status URL configured');
    expect(receiver.at('/cancel-only')).toHaveLength(0);

    await sender.changeAccount(account, { statusUrl: receiver.url('/later') });
    await waitFor('status URL known', async () => (await sender.sql('SELECT 1 FROM webhook_accounts WHERE restaurant_id = $1 AND status_url IS NOT NULL', [account.restaurantId])).length === 1);
    const redelivered = await sender.http.post(`/api/v1/my/webhooks/deliveries/${id}/redeliver`).set(credentials(account));
    expect(redelivered.status).toBe(202);
    expect(redelivered.body).toMatchObject({ id, event: 'restaurant.availability_changed', status: 'pending' });
    const [request] = await waitForRequests(receiver, '/later', event.changeEventId);
    expect(request.headers['x-webhook-id']).toBe(id);
    expect(JSON.parse(request.body.toString('utf8'))).toMatchObject({ event: 'restaurant.availability_changed', changeEventId: event.changeEventId });
    await sender.waitForDelivery(account, id, (d) => d.status === 'delivered');
  });

  it('a malformed event makes no webhook (it is dead-lettered) and the ones after it still go out', async () => {
    const account = await sender.createAccount({ statusUrl: receiver.url('/after-bad') });
    const bad = await sender.publishAvailabilityChanged(account, { state: 'PAUSED' as never });
    const good = await sender.publishAvailabilityChanged(account);
    await waitForRequests(receiver, '/after-bad', good.changeEventId);
    expect(receiver.at('/after-bad').filter((request) => request.body.includes(bad.changeEventId))).toHaveLength(0);
    expect(await sender.sql('SELECT 1 FROM webhook_deliveries WHERE source_key = $1', [`restaurant.availability_changed:${bad.changeEventId}`])).toHaveLength(0);
  });
});

/** The queue binding over RabbitMQ: status-dispatcher's publication reaches the sender's own queue. */
describeWithBroker('restaurant.availability_changed over RabbitMQ', () => {
  const namespace = testNamespace('wsa');
  const env = { RABBITMQ_URL: testBrokerUrl(), RABBITMQ_NAMESPACE: namespace };
  let receiver: TestReceiver;
  let sender: SenderApp | undefined;
  let publisher: AmqpTransport;

  beforeAll(async () => {
    receiver = await startReceiver();
    publisher = new AmqpTransport({ url: testBrokerUrl(), topology: SUITE_TOPOLOGY, connectionName: 'webhook-sender-availability-test', namespace, logger: silentLogger });
    publisher.start();
  });
  afterAll(async () => {
    await sender?.close();
    await publisher?.close();
    await receiver?.close();
    await deleteTestTopology(namespace, Object.values(Queues).map((queue) => queue.name));
  });

  it('is bound to webhook-sender.restaurant-events and delivered to the status URL', async () => {
    sender = await startSender({ env });
    const account = await sender.createAccount({ statusUrl: receiver.url('/status') });
    await waitFor('account in the read model', async () => (await sender!.sql('SELECT 1 FROM webhook_accounts WHERE restaurant_id = $1', [account.restaurantId])).length > 0);
    const event = { ...availabilityChanged, changeEventId: randomUUID(), restaurantId: account.restaurantId, occurredAt: new Date().toISOString() };
    await publisher.publish([{ messageId: randomUUID(), routingKey: RoutingKey.RestaurantAvailabilityChanged, payload: event }]);
    const [request] = await waitForRequests(receiver, '/status', event.changeEventId);
    expect(request.headers['x-webhook-id']).toBe(availabilityWebhookId(event.changeEventId));
    const [row] = await sender.sql<{ consumer: string }>('SELECT consumer FROM processed_messages WHERE consumer = $1', ['webhook-sender.restaurant-events']);
    expect(row).toEqual({ consumer: 'webhook-sender.restaurant-events' });
  });
});
