import { randomUUID } from 'node:crypto';
import { RoutingKey } from '@courier/contracts';
import { MESSAGE_TRANSPORT, MessageTransport } from '@courier/messaging';
import { waitFor } from '@courier/testing';
import { credentials, deliveryIdOf, SenderApp, startSender } from '../../test/harness';
import { statusChanged } from '../../test/order-events.fixture';
import { startReceiver, TestReceiver, waitForRequests } from '../../test/receivers';

jest.setTimeout(120_000);

/**
 * X-Correlation-Id of outbound webhooks: the id of the order event the delivery was made from,
 * stored with the delivery, so that retries run later by the pump (outside the event's scope) and
 * redeliveries carry the same id, and the sender's log lines about the delivery name it.
 */
describe('webhook correlation ids', () => {
  let sender: SenderApp;
  let receiver: TestReceiver;
  const calls = new Map<string, number>();

  beforeAll(async () => {
    // Each order's first two attempts fail, the third succeeds.
    receiver = await startReceiver((request) => {
      const orderId = String(JSON.parse(request.body.toString()).orderId);
      const count = (calls.get(orderId) ?? 0) + 1;
      calls.set(orderId, count);
      return count <= 2 ? { status: 503, body: 'not yet' } : { status: 200 };
    });
    sender = await startSender({ env: { WEBHOOK_RETRY_SCHEDULE: '200ms,400ms' } });
  });
  afterAll(async () => {
    await sender?.close();
    await receiver?.close();
  });

  it('sends the status change\'s correlation id on every attempt, retries and a redelivery included, and logs it', async () => {
    const account = await sender.createAccount({ statusUrl: receiver.url('/status') });
    const correlationId = `corr-${randomUUID()}`;
    const event = { ...statusChanged, yemekKuryeOrderId: randomUUID(), orderId: `pos-corr-${randomUUID()}`, restaurantId: account.restaurantId, timestamp: new Date().toISOString() };
    // As status-dispatcher's outbox publishes it: the request's id in the message header.
    await sender.app.get<MessageTransport>(MESSAGE_TRANSPORT).publish([{ messageId: randomUUID(), routingKey: RoutingKey.OrderStatusChanged, payload: event, headers: { 'x-correlation-id': correlationId } }]);

    const requests = await waitForRequests(receiver, '/status', event.orderId, 3, 30_000);
    const id = await deliveryIdOf(sender, event);
    expect(requests.map((request) => request.headers['x-webhook-attempt'])).toEqual(['1', '2', '3']);
    expect(requests.map((request) => request.headers['x-correlation-id'])).toEqual([correlationId, correlationId, correlationId]);
    await sender.waitForDelivery(account, id, (delivery) => delivery.status === 'delivered', 30_000);
    expect(await sender.sql('SELECT correlation_id FROM webhook_deliveries WHERE id = $1', [id])).toEqual([{ correlation_id: correlationId }]);

    // A redelivery asked for later, in a request of its own, still names the change that caused the webhook.
    await sender.http.post(`/api/v1/my/webhooks/deliveries/${id}/redeliver`).set(credentials(account)).set('X-Request-Id', 'redeliver-request-1').expect(202);
    const again = await waitForRequests(receiver, '/status', event.orderId, 4, 30_000);
    expect(again[3].headers['x-webhook-attempt']).toBe('4');
    expect(again[3].headers['x-correlation-id']).toBe(correlationId);

    // The failed attempts are logged with the delivery and the correlation id.
    const logged = await waitFor(
      'log lines of the failed attempts',
      () => {
        const lines = sender.logLines.map((line) => JSON.parse(line)).filter((line) => line.deliveryId === id && line.msg === 'webhook attempt failed');
        return lines.length >= 2 ? lines : undefined;
      },
      30_000,
    );
    expect(logged!.map((line) => line.correlationId)).toEqual([correlationId, correlationId]);
  });

  it('a webhook from another change carries that change\'s id, not the previous one\'s', async () => {
    const account = await sender.createAccount({ statusUrl: receiver.url('/status') });
    const transport = sender.app.get<MessageTransport>(MESSAGE_TRANSPORT);
    const events = [1, 2].map(() => ({ ...statusChanged, yemekKuryeOrderId: randomUUID(), orderId: `pos-corr-${randomUUID()}`, restaurantId: account.restaurantId, timestamp: new Date().toISOString() }));
    const ids = events.map(() => `corr-${randomUUID()}`);
    // Published together: the consumer stores them in one batch.
    await transport.publish(events.map((event, index) => ({ messageId: randomUUID(), routingKey: RoutingKey.OrderStatusChanged, payload: event, headers: { 'x-correlation-id': ids[index] } })));
    for (const [index, event] of events.entries()) {
      const requests = await waitForRequests(receiver, '/status', event.orderId, 3, 30_000);
      expect(new Set(requests.map((request) => request.headers['x-correlation-id']))).toEqual(new Set([ids[index]]));
    }
  });
});
