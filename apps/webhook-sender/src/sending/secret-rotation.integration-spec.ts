import { createHmac } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { generateWebhookSigningSecret } from '@courier/crypto';
import { waitFor } from '@courier/testing';
import { deliveryIdOf, SenderApp, startSender, TestAccount } from '../../test/harness';
import { ReceivedRequest, startReceiver, TestReceiver, waitForRequests } from '../../test/receivers';

jest.setTimeout(60_000);

const hex = (secret: string, body: Buffer) => createHmac('sha256', secret).update(body).digest('hex');
const standardHeaders = (request: ReceivedRequest) => ({
  'webhook-id': String(request.headers['webhook-id']),
  'webhook-timestamp': String(request.headers['webhook-timestamp']),
  'webhook-signature': String(request.headers['webhook-signature']),
});
/** What a receiver using the `standardwebhooks` package holding `secret` concludes. */
const verifiesWith = (secret: string, request: ReceivedRequest): boolean => {
  try {
    new Webhook(secret).verify(request.body, standardHeaders(request));
    return true;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return false;
    throw error;
  }
};

/** A rotation's grace period as the sender sees it: the previous secret arrives in the account events with its end. */
describe('webhook signing during a secret rotation grace period', () => {
  let sender: SenderApp;
  let receiver: TestReceiver;
  let failing = new Set<string>();

  beforeAll(async () => {
    receiver = await startReceiver((request) => ({ status: [...failing].some((marker) => request.body.includes(marker)) ? 500 : 200 }));
    sender = await startSender({ env: { WEBHOOK_RETRY_SCHEDULE: '200ms,400ms', WEBHOOK_ALERT_AFTER: '1500ms', WEBHOOK_MAX_AGE: '3s' } });
  });
  afterAll(async () => {
    await sender?.close();
    await receiver?.close();
  });

  /** Publishes the rotation (new secret, old one valid until `validUntil`) and waits until the sender holds it. */
  const rotate = async (account: TestAccount, validUntil: Date): Promise<TestAccount> => {
    const rotated = await sender.changeAccount(account, { signingSecret: generateWebhookSigningSecret(), previousSigningSecret: { secret: account.signingSecret!, validUntil } });
    await waitFor('the rotation in the read model', async () => {
      const [row] = await sender.sql('SELECT version FROM webhook_accounts WHERE restaurant_id = $1', [account.restaurantId]);
      return row?.version === rotated.snapshot.version || undefined;
    });
    return rotated;
  };

  const sendOne = async (account: TestAccount, path: string): Promise<ReceivedRequest> => {
    const event = await sender.publishStatusChanged(account);
    const [request] = await waitForRequests(receiver, path, event.yemekKuryeOrderId);
    return request;
  };

  it('carries two v1 signatures, each verifiable by a receiver holding either secret; the hex header keeps the old secret, -New the new one', async () => {
    const account = await sender.createAccount({ statusUrl: receiver.url('/grace/status') });
    const before = await sendOne(account, '/grace/status');
    expect(String(before.headers['webhook-signature']).split(' ')).toHaveLength(1);

    const rotated = await rotate(account, new Date(Date.now() + 3_600_000));
    const during = await sendOne(rotated, '/grace/status');
    const signatures = String(during.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures.every((signature) => signature.startsWith('v1,'))).toBe(true);
    expect(verifiesWith(account.signingSecret!, during)).toBe(true);
    expect(verifiesWith(rotated.signingSecret!, during)).toBe(true);
    expect(verifiesWith(generateWebhookSigningSecret(), during)).toBe(false);
    expect(during.headers['x-service-signature']).toBe(hex(account.signingSecret!, during.body));
    expect(during.headers['x-service-signature-new']).toBe(hex(rotated.signingSecret!, during.body));
  });

  it('after the grace period, only the new secret signs', async () => {
    const account = await sender.createAccount({ statusUrl: receiver.url('/short/status') });
    const rotated = await rotate(account, new Date(Date.now() + 1_000));
    // Waits on what is sent, not on the clock: webhooks are sent until one carries a single signature.
    const after = await waitFor<ReceivedRequest | undefined>(
      'a webhook signed with the new secret only',
      async () => {
        const request = await sendOne(rotated, '/short/status');
        return String(request.headers['webhook-signature']).split(' ').length === 1 ? request : undefined;
      },
      20_000,
    ).then((request) => request!);
    expect(verifiesWith(rotated.signingSecret!, after)).toBe(true);
    expect(verifiesWith(account.signingSecret!, after)).toBe(false);
    expect(after.headers['x-service-signature']).toBe(hex(rotated.signingSecret!, after.body));
    expect(after.headers['x-service-signature-new']).toBeUndefined();
  });

  it('a webhook created before the rotation is signed, when redelivered, with the secrets valid then', async () => {
    const account = await sender.createAccount({ statusUrl: receiver.url('/early/status') });
    const event = await sender.publishStatusChanged(account);
    failing.add(event.yemekKuryeOrderId);
    const id = await deliveryIdOf(sender, event);
    const [first] = await waitForRequests(receiver, '/early/status', event.yemekKuryeOrderId);
    await sender.waitForDelivery(account, id, (delivery) => delivery.status === 'failed');
    expect(String(first.headers['webhook-signature']).split(' ')).toHaveLength(1);

    const rotated = await rotate(account, new Date(Date.now() + 3_600_000));
    failing = new Set();
    const seen = receiver.at('/early/status').filter((request) => request.body.includes(event.yemekKuryeOrderId)).length;
    await sender.http.post(`/api/v1/my/webhooks/deliveries/${id}/redeliver`).set({ 'X-API-Key': rotated.apiKey, 'X-API-Secret': rotated.apiSecret }).expect(202);
    const requests = await waitForRequests(receiver, '/early/status', event.yemekKuryeOrderId, seen + 1);
    const redelivered = requests[requests.length - 1];
    expect(redelivered.body.equals(first.body)).toBe(true);
    expect(String(redelivered.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifiesWith(account.signingSecret!, redelivered)).toBe(true);
    expect(verifiesWith(rotated.signingSecret!, redelivered)).toBe(true);
  });

  it('signs with the current secret alone when the account events carry no previous secret (signing turned off and on ends the grace period)', async () => {
    const account = await sender.createAccount({ statusUrl: receiver.url('/plain/status') });
    const rotated = await rotate(account, new Date(Date.now() + 3_600_000));
    const renewed = await sender.changeAccount(rotated, { signingSecret: generateWebhookSigningSecret(), previousSigningSecret: null });
    await waitFor('the change in the read model', async () => {
      const [row] = await sender.sql('SELECT version, previous_signing_secret_ciphertext FROM webhook_accounts WHERE restaurant_id = $1', [account.restaurantId]);
      return (row?.version === renewed.snapshot.version && row.previous_signing_secret_ciphertext === null) || undefined;
    });
    const request = await sendOne(renewed, '/plain/status');
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifiesWith(renewed.signingSecret!, request)).toBe(true);
    expect(request.headers['x-service-signature']).toBe(hex(renewed.signingSecret!, request.body));
  });
});
