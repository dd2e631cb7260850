import { randomUUID } from 'node:crypto';
import { RoutingKey } from '@courier/contracts';
import { createTestDatabase, describeWithBroker, sleep, testBrokerUrl, testNamespace, TestDatabase, waitFor } from '@courier/testing';
import { deleteBrokerNamespace, keyHeader, newAccountSnapshot, startIntakeApp, validOrder } from '../../test/harness';

const ORDER = '/webhook/third-party/order';

describeWithBroker('intake-api over RabbitMQ', () => {
  const namespace = testNamespace('intake');
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('intake_api_broker');
  });
  afterAll(async () => {
    await database?.drop();
    await deleteBrokerNamespace(namespace).catch(() => undefined);
  });

  // With the fast path (default) orders are processed while the broker is down and their
  // order.created waits in the outbox; without it (limit 0) their order.received waits there.
  it.each([
    ['in the accepting process', '256', RoutingKey.OrderCreated, 'PROCESSED'],
    ['through the broker', '0', RoutingKey.OrderReceived, 'ACCEPTED'],
  ])('answers 202 while the broker is down, keeps the events, and delivers them once it is back (processing %s)', async (_path, limit, waiting, stateWhileDown) => {
    // The account is in the read model already (fed earlier); the broker is then unreachable.
    const { snapshot, apiKey } = newAccountSnapshot();
    const env = { RABBITMQ_NAMESPACE: namespace, INTAKE_LOCAL_PROCESSING_LIMIT: limit };
    const down = await startIntakeApp({ database, env: { ...env, RABBITMQ_URL: 'amqp://guest:guest@127.0.0.1:1' }, recordOtherQueues: false });
    const orders = Array.from({ length: 5 }, () => validOrder(snapshot.restaurantId));
    const orderIds = orders.map((order) => order.orderId).sort();
    const countIn = async (app: typeof down, state: string) =>
      (await app.sql(`SELECT count(*)::int AS n FROM orders WHERE order_id = ANY($1) AND state = $2`, [orderIds, state]))[0].n;
    try {
      await down.sql(
        `INSERT INTO accounts (restaurant_id, status, api_key_hash, api_secret_hash, third_party_integration_id, third_party_provider_restaurant_id, third_party_active, version)
         VALUES ($1, 'active', $2, $3, $4, $5, true, 1)`,
        [snapshot.restaurantId, snapshot.apiKeyHash, snapshot.apiSecretHash, snapshot.thirdParty!.integrationId, snapshot.thirdParty!.providerRestaurantId],
      );
      for (const order of orders) expect((await down.http.post(ORDER).set({ 'X-API-Key': apiKey }).send(order)).status).toBe(202);
      // Readiness does not depend on the broker: intake stays in service.
      expect((await down.http.get('/health/ready')).status).toBe(200);
      await sleep(500);
      const pending = await down.sql(`SELECT payload->>'orderId' AS order_id FROM outbox_messages WHERE routing_key = $1 AND published_at IS NULL AND payload->>'orderId' = ANY($2)`, [
        waiting,
        orderIds,
      ]);
      expect(pending.map((row) => row.order_id).sort()).toEqual(orderIds);
      expect(await countIn(down, stateWhileDown)).toBe(5);
    } finally {
      await down.close({ keepDatabase: true });
    }

    const up = await startIntakeApp({ database, env: { ...env, RABBITMQ_URL: testBrokerUrl() } });
    try {
      await waitFor('orders processed', async () => (await countIn(up, 'PROCESSED')) === 5, 30_000);
      const createdFor = () => up.delivered.filter((message) => message.routingKey === RoutingKey.OrderCreated && orderIds.includes((message.payload as any).orderId));
      await waitFor('order.created delivered', () => createdFor().length === 5, 30_000);
      // The relay marks rows published after the confirms, a moment after the consumers saw them.
      await waitFor('outbox drained', async () => (await up.sql('SELECT count(*)::int AS n FROM outbox_messages WHERE published_at IS NULL'))[0].n === 0, 30_000);
      await sleep(300);
      expect(createdFor()).toHaveLength(5);
    } finally {
      await up.close({ keepDatabase: true });
    }
  });

  it('enforces a deactivation within one second of account.updated on the broker', async () => {
    const t = await startIntakeApp({ database, env: { RABBITMQ_URL: testBrokerUrl(), RABBITMQ_NAMESPACE: namespace } });
    try {
      await waitFor('broker connected', () => t.transport.isReady());
      const account = await t.createAccount();
      expect((await t.http.post(ORDER).set(keyHeader(account)).send(validOrder(account.restaurantId))).status).toBe(202);
      const published = Date.now();
      await t.transport.publish([
        { messageId: randomUUID(), routingKey: RoutingKey.AccountUpdated, payload: { ...account.snapshot, version: 2, thirdParty: { ...account.snapshot.thirdParty!, isActive: false } } },
      ]);
      let status = 0;
      while (Date.now() - published < 1000) {
        status = (await t.http.post(ORDER).set(keyHeader(account)).send(validOrder(account.restaurantId))).status;
        if (status === 403) break;
        await sleep(20);
      }
      expect(status).toBe(403);
      expect(Date.now() - published).toBeLessThan(1000);
    } finally {
      await t.close({ keepDatabase: true });
    }
  });
});
