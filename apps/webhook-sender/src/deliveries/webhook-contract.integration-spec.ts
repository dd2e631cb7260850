import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { waitFor } from '@courier/testing';
import { deliveryIdOf, SenderApp, startSender } from '../../test/harness';
import { hostKeySql } from '../repositories/deliveries.repository';
import { hostKey } from '../sending/host-limiter';
import { startReceiver, TestReceiver, waitForRequests } from '../../test/receivers';

/** What a receiver gets, per event: the bytes, the headers and both signatures (decisions.md, "Webhooks"). */
describe('webhook payload and header contract', () => {
  let sender: SenderApp;
  let receiver: TestReceiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    sender = await startSender({ env: { WEBHOOK_SIGNATURE_HEADER: 'X-Yemekkurye-Signature' } });
  });
  afterAll(async () => {
    await sender?.close();
    await receiver?.close();
  });

  const expectSigned = (request: { headers: Record<string, unknown>; body: Buffer }, secret: string, id: string) => {
    expect(request.headers['x-yemekkurye-signature']).toBe(createHmac('sha256', secret).update(request.body).digest('hex'));
    const headers = { 'webhook-id': String(request.headers['webhook-id']), 'webhook-timestamp': String(request.headers['webhook-timestamp']), 'webhook-signature': String(request.headers['webhook-signature']) };
    expect(headers['webhook-id']).toBe(id);
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(new Webhook(secret).verify(request.body, headers)).toEqual(JSON.parse(request.body.toString('utf8')));
  };

  it('order.status_changed goes to the status URL: exact compact JSON, ids, attempt, both signatures', async () => {
    const account = await sender.createAccount({ statusUrl: receiver.url('/hooks/status'), cancelUrl: receiver.url('/hooks/cancel') });
    const event = await sender.publishStatusChanged(account, { status: 'ASSIGNED', previousStatus: 'VALIDATED', orderNumber: '42' });
    const [request] = await waitForRequests(receiver, '/hooks/status', event.yemekKuryeOrderId);
    const id = await deliveryIdOf(sender, event);

    expect(request.method).toBe('POST');
    expect(request.body.toString('utf8')).toBe(
      JSON.stringify({
        event: 'order.status_changed',
        orderId: event.orderId,
        yemekKuryeOrderId: event.yemekKuryeOrderId,
        orderNumber: '42',
        status: 'ASSIGNED',
        previousStatus: 'VALIDATED',
        timestamp: event.timestamp,
        provider: 'THIRD_PARTY',
        providerRestaurantId: 'pos-rest-9',
      }),
    );
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toMatch(/^Courier-Webhooks\//);
    expect(request.headers['x-webhook-id']).toBe(id);
    expect(request.headers['x-webhook-attempt']).toBe('1');
    expectSigned(request, account.signingSecret!, id);
    expect(receiver.at('/hooks/cancel').filter((r) => r.body.includes(event.yemekKuryeOrderId))).toHaveLength(0);

    const delivery = await sender.waitForDelivery(account, id, (d) => d.status === 'delivered');
    expect(delivery).toMatchObject({ event: 'order.status_changed', orderId: event.orderId, attemptCount: 1, lastStatusCode: 200, url: receiver.url('/hooks/status') });
    expect(delivery.attempts).toEqual([expect.objectContaining({ attempt: 1, statusCode: 200, error: null, url: receiver.url('/hooks/status') })]);
  });

  it('order.canceled goes to the cancel URL only, with reason, cancelReasonId and canceledBy', async () => {
    const account = await sender.createAccount({ statusUrl: receiver.url('/hooks/status'), cancelUrl: receiver.url('/hooks/cancel') });
    const event = await sender.publishCanceled(account, { reason: 'Adres bulunamadı', cancelReasonId: 'WRONG_ADDRESS', canceledBy: 'Courier' });
    const [request] = await waitForRequests(receiver, '/hooks/cancel', event.yemekKuryeOrderId);
    const id = await deliveryIdOf(sender, event, 'order.canceled');
    expect(request.body.toString('utf8')).toBe(
      JSON.stringify({
        event: 'order.canceled',
        orderId: event.orderId,
        yemekKuryeOrderId: event.yemekKuryeOrderId,
        reason: 'Adres bulunamadı',
        cancelReasonId: 'WRONG_ADDRESS',
        canceledBy: 'Courier',
        timestamp: event.timestamp,
      }),
    );
    expect(Buffer.byteLength('Adres bulunamadı', 'utf8')).toBeGreaterThan('Adres bulunamadı'.length);
    expect(request.headers['content-length']).toBe(String(request.body.length));
    expect(request.headers['x-webhook-id']).toBe(id);
    expectSigned(request, account.signingSecret!, id);
    expect(receiver.at('/hooks/status').filter((r) => r.body.includes(event.yemekKuryeOrderId))).toHaveLength(0);
  });

  it('without a signing secret: no signatures, but the ids and the Standard Webhooks timestamp', async () => {
    const account = await sender.createAccount({ statusUrl: receiver.url('/unsigned'), signingSecret: null });
    const event = await sender.publishStatusChanged(account);
    const [request] = await waitForRequests(receiver, '/unsigned', event.yemekKuryeOrderId);
    expect(request.headers['x-yemekkurye-signature']).toBeUndefined();
    expect(request.headers['x-service-signature']).toBeUndefined();
    expect(request.headers['webhook-signature']).toBeUndefined();
    expect(request.headers['x-webhook-id']).toBe(request.headers['webhook-id']);
    expect(request.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
  });

  it('one webhook per change: a redelivered message or a second publication of the same change sends nothing more', async () => {
    const account = await sender.createAccount({ statusUrl: receiver.url('/once') });
    const event = await sender.publishStatusChanged(account, {}, 'msg-fixed-id-1');
    await sender.publishStatusChanged(account, event, 'msg-fixed-id-1');
    await sender.publishStatusChanged(account, event, 'msg-other-id-2');
    await waitFor('webhook', () => receiver.at('/once').length === 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.at('/once')).toHaveLength(1);
    expect(await sender.sql('SELECT id FROM webhook_deliveries WHERE yemek_kurye_order_id = $1', [event.yemekKuryeOrderId])).toHaveLength(1);
  });

  it('keys receivers the same way in SQL and in the limiter', async () => {
    for (const url of ['https://Hooks.Example.com:8443/a?b#c', 'http://127.0.0.1:4444/webhook/status', 'https://[::1]/x', 'https://x.example', 'HTTPS://X.EXAMPLE:443/']) {
      const [{ key }] = await sender.sql(`SELECT ${hostKeySql('$1')} AS key`, [url]);
      expect(key).toBe(hostKey(url));
    }
  });
});
