import { randomBytes, randomUUID } from 'node:crypto';
import { AccountSnapshot, RoutingKey } from '@courier/contracts';
import { generateEncryptionKeyEntry, generateToken, generateWebhookSigningSecret, hashCredential, SecretBox, secretBinding } from '@courier/crypto';
import { MessageContext } from '@courier/messaging';
import { createMediumDatabase, MediumContext, MediumDatabase, newMediumContext, waitFor } from '@courier/testing';
import { WebhookAccountsService } from '../accounts/webhook-accounts.service';
import { PERSISTENCE } from '../app/persistence';
import { WebhookSenderConfig } from '../app/webhook-sender.config';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { DeliveriesService } from '../deliveries/deliveries.service';
import { OrderEventsConsumer } from '../deliveries/order-events.consumer';
import { statusChanged } from '../../test/order-events.fixture';
import { startReceiver, TestReceiver } from '../../test/receivers';
import { DeliveryPump } from './delivery-pump';

const KEY = generateEncryptionKeyEntry('medium1');

/**
 * The sender's core path with its real repositories, worker and HTTP client on PostgreSQL, no app or
 * broker: an order event becomes a delivery, the pump's claim sends it to a local receiver, the
 * attempt is recorded, a failure is retried on the schedule, and a redelivery keeps the webhook id.
 * The pump is never started (no poll): each claim is the test's `runDue()`.
 */
describe('webhook delivery (medium)', () => {
  let db: MediumDatabase;
  let ctx: MediumContext;
  let receiver: TestReceiver;
  let answer = 200;
  let sequence = 100;

  beforeAll(async () => {
    receiver = await startReceiver(() => ({ status: answer, body: answer === 200 ? '{"received":true}' : 'not yet' }));
    db = await createMediumDatabase('webhook_sender', PERSISTENCE);
    ctx = await newMediumContext({
      database: db,
      config: {
        schema: WebhookSenderConfig,
        env: { NODE_ENV: 'test', DATABASE_URL: db.database.url, SECRETS_ENCRYPTION_KEYS: KEY, WEBHOOK_ALLOW_INSECURE_URLS: 'true', WEBHOOK_RETRY_SCHEDULE: '200ms,400ms', WEBHOOK_MAX_AGE: '2s', SHUTDOWN_GRACE_MS: '2000' },
      },
      imports: [DeliveriesModule.forRoot()],
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await db?.close();
    await receiver?.close();
  });

  /** An account of the read model (as account.created stores it) whose status webhooks go to the receiver. */
  async function account(statusUrl: string | null = receiver.url('/status')) {
    const restaurantId = `rest_${randomBytes(15).toString('base64url')}`;
    const signingSecret = generateWebhookSigningSecret();
    const now = new Date().toISOString();
    const snapshot: AccountSnapshot = {
      restaurantId,
      name: 'Medium Kebab House',
      status: 'active',
      apiKeyHash: hashCredential(generateToken(32, 'cik_')),
      apiSecretHash: hashCredential(generateToken(32, 'cis_')),
      thirdParty: { integrationId: randomUUID(), providerRestaurantId: 'pos-rest-9', isActive: true },
      webhooks: { statusUrl, cancelUrl: null, signingSecretCiphertext: SecretBox.fromKeyList(KEY).encrypt(signingSecret, secretBinding.webhookSigningSecret(restaurantId)) },
      version: 1,
      createdAt: now,
      occurredAt: now,
    };
    expect(await ctx.get(WebhookAccountsService).applySnapshot(snapshot)).toBe(true);
    return restaurantId;
  }

  /** order.status_changed through the consumer (as the broker hands it over); returns the delivery's id. */
  async function orderEvent(restaurantId: string, messageId = randomUUID()) {
    sequence += 1;
    const event = { ...statusChanged, yemekKuryeOrderId: randomUUID(), orderId: `pos-${sequence}`, restaurantId, sequence, timestamp: new Date().toISOString() };
    const message = { messageId, routingKey: RoutingKey.OrderStatusChanged, payload: event, headers: {}, deliveryCount: 1 };
    await ctx.get(OrderEventsConsumer).onOrderEvent(new MessageContext([message, 'sender-order-events']));
    const rows = await db.sql<{ id: string }>('SELECT id FROM webhook_deliveries WHERE yemek_kurye_order_id = $1', [event.yemekKuryeOrderId]);
    expect(rows).toHaveLength(1);
    return { id: rows[0].id, event, message };
  }

  const deliveries = () => ctx.get(DeliveriesService);
  const pump = () => ctx.get(DeliveryPump);
  const settled = (restaurantId: string, id: string, done: (delivery: Awaited<ReturnType<DeliveriesService['get']>>) => boolean) =>
    waitFor(`delivery ${id}`, async () => {
      const delivery = await deliveries().get(restaurantId, id);
      return done(delivery) ? delivery : undefined;
    });

  it('creates one pending delivery per order event (a redelivered message adds nothing)', async () => {
    const restaurantId = await account();
    const { id, event, message } = await orderEvent(restaurantId);

    const delivery = await deliveries().get(restaurantId, id);
    expect(delivery).toMatchObject({ status: 'pending', attemptCount: 0, url: receiver.url('/status'), event: 'order.status_changed', yemekKuryeOrderId: event.yemekKuryeOrderId, attempts: [] });
    expect(delivery.payload).toMatchObject({ event: 'order.status_changed' });

    await ctx.get(OrderEventsConsumer).onOrderEvent(new MessageContext([message, 'sender-order-events']));
    expect(await db.sql('SELECT id FROM webhook_deliveries WHERE yemek_kurye_order_id = $1', [event.yemekKuryeOrderId])).toHaveLength(1);
  });

  it('claims a due delivery, sends it, and records the attempt', async () => {
    answer = 200;
    const restaurantId = await account();
    const { id, event } = await orderEvent(restaurantId);

    await expect(pump().runDue()).resolves.toBeGreaterThanOrEqual(1);

    const delivered = await settled(restaurantId, id, (delivery) => delivery.status === 'delivered');
    expect(delivered).toMatchObject({ attemptCount: 1, lastStatusCode: 200, lastError: null, nextAttemptAt: null });
    expect(delivered.attempts).toEqual([expect.objectContaining({ attempt: 1, statusCode: 200, error: null, url: receiver.url('/status') })]);
    const [request] = receiver.at('/status').filter((received) => received.body.toString().includes(event.yemekKuryeOrderId));
    expect(request.headers['webhook-id']).toEqual(expect.any(String));
    expect(request.headers['webhook-signature']).toMatch(/^v1,/);
  });

  it('retries a failed attempt on the schedule (its last step repeating), then gives up after WEBHOOK_MAX_AGE', async () => {
    answer = 500;
    const restaurantId = await account();
    const { id } = await orderEvent(restaurantId);

    const waits: Array<{ wait: number; untilMaxAge: number }> = [];
    let delivery = await deliveries().get(restaurantId, id);
    // Each round: once due, one claim sends it again and the failure is recorded with the next due time.
    for (let round = 1; delivery.status !== 'failed'; round += 1) {
      if (round > 20) throw new Error(`still ${delivery.status} after ${delivery.attemptCount} attempts`);
      const due = delivery.nextAttemptAt;
      if (due) await waitFor('the delivery to fall due', async () => Date.now() > Date.parse(due) || undefined);
      await pump().runDue();
      const attempts = delivery.attemptCount;
      delivery = await settled(restaurantId, id, (current) => current.attemptCount > attempts);
      expect(delivery).toMatchObject({ lastStatusCode: 500, lastError: 'HTTP 500 Internal Server Error' });
      if (delivery.status === 'retrying') {
        const lastAttemptAt = Date.parse(delivery.lastAttemptAt!);
        waits.push({ wait: Date.parse(delivery.nextAttemptAt!) - lastAttemptAt, untilMaxAge: Date.parse(delivery.createdAt) + 2_000 - lastAttemptAt });
      }
    }

    expect(waits.length).toBeGreaterThanOrEqual(2);
    expect(waits[0].wait).toBeGreaterThanOrEqual(200);
    expect(waits[0].wait).toBeLessThan(400);
    // Then 400 ms each time, or less when WEBHOOK_MAX_AGE comes first (the last attempt is at the limit).
    for (const { wait, untilMaxAge } of waits.slice(1)) expect(wait).toBeGreaterThanOrEqual(Math.min(400, untilMaxAge) - 5);
    expect(delivery).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(delivery.attempts.map((attempt) => attempt.statusCode)).toEqual(Array(delivery.attemptCount).fill(500));
    expect(Date.parse(delivery.lastAttemptAt!) - Date.parse(delivery.createdAt)).toBeGreaterThanOrEqual(2_000 - 50);
  });

  it('redelivers with the same webhook id', async () => {
    answer = 200;
    const restaurantId = await account();
    const { id, event } = await orderEvent(restaurantId);
    await pump().runDue();
    await settled(restaurantId, id, (delivery) => delivery.status === 'delivered');

    const redelivered = await deliveries().redeliver(restaurantId, id);
    expect(redelivered).toMatchObject({ id, status: 'pending' });
    await pump().runDue();
    await settled(restaurantId, id, (delivery) => delivery.status === 'delivered' && delivery.attemptCount >= 1 && delivery.attempts.length === 2);

    const requests = receiver.at('/status').filter((received) => received.body.toString().includes(event.yemekKuryeOrderId));
    expect(requests).toHaveLength(2);
    expect(requests[1].headers['webhook-id']).toBe(requests[0].headers['webhook-id']);
    expect(requests[1].body.equals(requests[0].body)).toBe(true);
  });

  it('keeps an event of an account without a URL as skipped, and answers 404 for an unknown delivery', async () => {
    const restaurantId = await account(null);
    const { id } = await orderEvent(restaurantId);
    await expect(deliveries().get(restaurantId, id)).resolves.toMatchObject({ status: 'skipped', attemptCount: 0 });

    const other = await account();
    await expect(deliveries().get(other, id)).rejects.toMatchObject({ code: 'DELIVERY_NOT_FOUND' });
  });
});
