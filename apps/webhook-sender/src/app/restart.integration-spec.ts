import { sleep } from '@courier/testing';
import { deliveryIdOf, SenderApp, startSender } from '../../test/harness';
import { startReceiver, TestReceiver, waitForRequests } from '../../test/receivers';

/** The retry state is rows in PostgreSQL: a new instance on the same database takes over. */
describe('a retry pending when the sender stops', () => {
  let receiver: TestReceiver;
  let second: SenderApp | undefined;

  beforeAll(async () => {
    receiver = await startReceiver(() => ({ status: 503 }));
  });
  afterAll(async () => {
    await second?.close();
    await receiver?.close();
  });

  it('is delivered, with the same webhook id, by a new instance started on the same database', async () => {
    const first = await startSender({ env: { WEBHOOK_RETRY_SCHEDULE: '1500ms' } });
    const account = await first.createAccount({ statusUrl: receiver.url('/status') });
    const event = await first.publishStatusChanged(account);
    const [failed] = await waitForRequests(receiver, '/status', event.yemekKuryeOrderId);
    const id = await deliveryIdOf(first, event);
    await first.waitForDelivery(account, id, (delivery) => delivery.status === 'retrying');
    await first.close({ keepDatabase: true });

    receiver.behave(() => ({ status: 200 }));
    // Nothing sends while no instance runs, even past the due time.
    await sleep(2_000);
    expect(receiver.at('/status')).toHaveLength(1);

    second = await startSender({ database: first.database, env: { WEBHOOK_RETRY_SCHEDULE: '1500ms' } });
    const [, retried] = await waitForRequests(receiver, '/status', event.yemekKuryeOrderId, 2);
    expect(retried.headers['x-webhook-id']).toBe(failed.headers['x-webhook-id']);
    expect(retried.headers['x-webhook-id']).toBe(id);
    expect(retried.headers['x-webhook-attempt']).toBe('2');
    expect(retried.body.equals(failed.body)).toBe(true);
    // The read model survived too: the account still authenticates and sees its delivery.
    const delivery = await second.waitForDelivery(account, id, (found) => found.status === 'delivered');
    expect(delivery.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([503, 200]);
  });

  it('a delivery leased by a process that died is taken over when the lease ends, not before', async () => {
    receiver.behave(() => ({ status: 200 }));
    second ??= await startSender();
    const account = await second.createAccount({ statusUrl: receiver.url('/leased') });
    // Stop the pump from taking new work on its own, then play a crashed process's lease on a due delivery.
    const event = await second.publishStatusChanged(account);
    await waitForRequests(receiver, '/leased', event.yemekKuryeOrderId);
    const id = await deliveryIdOf(second, event);
    await second.sql(`UPDATE webhook_deliveries SET status = 'retrying' WHERE id = $1`, [id]);
    await second.sql(`INSERT INTO webhook_delivery_queue (delivery_id, host, due_at, lease_until) VALUES ($1, '', now() - interval '1 second', now() + interval '1500 milliseconds')`, [id]);
    second.pump.nudge();
    await sleep(800);
    expect(receiver.at('/leased')).toHaveLength(1);
    const [, takenOver] = await waitForRequests(receiver, '/leased', event.yemekKuryeOrderId, 2, 5_000);
    expect(takenOver.headers['x-webhook-id']).toBe(id);
    expect(takenOver.headers['x-webhook-attempt']).toBe('2');
    await second.waitForDelivery(account, id, (delivery) => delivery.status === 'delivered' && delivery.attemptCount === 2);
    expect(await second.sql('SELECT * FROM webhook_delivery_queue WHERE delivery_id = $1', [id])).toEqual([]);
  });
});
