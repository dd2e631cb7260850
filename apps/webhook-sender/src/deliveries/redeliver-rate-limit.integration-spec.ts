import { awayFromWindowEdge, sleep } from '@courier/testing';
import { credentials, deliveryIdOf, SenderApp, startSender } from '../../test/harness';
import { startReceiver, TestReceiver, waitForRequests } from '../../test/receivers';

const REDELIVER_LIMIT = 4;
const PER_ADDRESS = 5;

/** Redeliveries are limited per account (each is an outbound request at once); wrong credentials per address. */
describe('webhook-sender limits', () => {
  let sender: SenderApp;
  let receiver: TestReceiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    sender = await startSender({ env: { WEBHOOK_REDELIVER_LIMIT_PER_MINUTE: String(REDELIVER_LIMIT), AUTH_FAILURE_LIMIT_PER_MINUTE: String(PER_ADDRESS) } });
  });
  afterAll(async () => {
    await sender?.close();
    await receiver?.close();
  });

  it('takes WEBHOOK_REDELIVER_LIMIT_PER_MINUTE redeliveries a minute per account: 30 calls make 4 more POSTs, then 429 with Retry-After and RateLimit headers', async () => {
    await awayFromWindowEdge(20_000);
    const account = await sender.createAccount({ statusUrl: receiver.url('/status') });
    const other = await sender.createAccount({ statusUrl: receiver.url('/status') });
    const event = await sender.publishStatusChanged(account);
    const id = await deliveryIdOf(sender, event);
    await sender.waitForDelivery(account, id, (delivery) => delivery.status === 'delivered');

    const redeliver = () => sender.http.post(`/api/v1/my/webhooks/deliveries/${id}/redeliver`).set(credentials(account));
    const statuses: number[] = [];
    for (let call = 0; call < 30; call += 1) {
      const response = await redeliver();
      statuses.push(response.status);
      // An accepted redelivery is sent before the next call (one attempt each, none coalesced).
      if (response.status === 202) await sender.waitForDelivery(account, id, (delivery) => delivery.status === 'delivered' && delivery.attemptCount === call + 2);
    }
    expect(statuses).toEqual([...Array(REDELIVER_LIMIT).fill(202), ...Array(30 - REDELIVER_LIMIT).fill(429)]);
    const refused = await redeliver();
    expect(refused.body).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED' });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers['ratelimit-policy']).toBe(`"redeliveries";q=${REDELIVER_LIMIT};w=60`);
    expect(refused.headers['ratelimit']).toBe(`"redeliveries";r=0;t=${retryAfter}`);

    // The first send and the 4 accepted redeliveries reached the receiver, and no more.
    await waitForRequests(receiver, '/status', event.yemekKuryeOrderId, 1 + REDELIVER_LIMIT);
    await sleep(300);
    expect(receiver.at('/status').filter((request) => request.body.toString().includes(event.yemekKuryeOrderId))).toHaveLength(1 + REDELIVER_LIMIT);
    // Other accounts have their own count; reading the log is not limited.
    const otherEvent = await sender.publishStatusChanged(other);
    const otherId = await deliveryIdOf(sender, otherEvent);
    await sender.waitForDelivery(other, otherId, (delivery) => delivery.status === 'delivered');
    expect((await sender.http.post(`/api/v1/my/webhooks/deliveries/${otherId}/redeliver`).set(credentials(other))).status).toBe(202);
    expect((await sender.http.get(`/api/v1/my/webhooks/deliveries/${id}`).set(credentials(account))).status).toBe(200);
  });

  it('answers an address past AUTH_FAILURE_LIMIT_PER_MINUTE wrong secrets 429, never its right credentials', async () => {
    await awayFromWindowEdge(20_000);
    const account = await sender.createAccount({ statusUrl: receiver.url('/status') });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt += 1) {
      statuses.push((await sender.http.get('/api/v1/my/webhooks/deliveries').set({ 'X-API-Key': `key_guess_${attempt}`, 'X-API-Secret': 'wrong' })).status);
    }
    expect(statuses).toEqual([...Array(PER_ADDRESS).fill(401), ...Array(10 - PER_ADDRESS).fill(429)]);
    expect((await sender.http.get('/api/v1/my/webhooks/deliveries').set(credentials(account))).status).toBe(200);
    const refused = await sender.http.get('/api/v1/my/webhooks/deliveries').set({ ...credentials(account), 'X-API-Secret': 'wrong' });
    expect(refused.status).toBe(429);
    expect(refused.headers['ratelimit-policy']).toBe(`"failures";q=${PER_ADDRESS};w=60`);
    expect(refused.headers['ratelimit']).toBe(`"failures";r=0;t=${refused.headers['retry-after']}`);
  });
});
