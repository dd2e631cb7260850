import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, describeWithBroker, freePort, testBrokerUrl, TestDatabase, testNamespace, waitFor } from '@courier/testing';
import { deleteBrokerNamespace, newAccountSnapshot, validOrder } from '../../test/harness';

const ROOT = path.resolve(__dirname, '../../../..');
const MAIN = path.join(ROOT, 'dist/apps/intake-api/src/main.js');


describeWithBroker('SIGKILL of the built intake-api during a burst', () => {
  const namespace = testNamespace('intake-kill');
  let database: TestDatabase;
  let db: Client;
  let port: number;
  let child: ChildProcess | undefined;
  const output: string[] = [];

  const start = async () => {
    const env = {
      ...process.env,
      DATABASE_URL: database.url,
      RABBITMQ_URL: testBrokerUrl(),
      RABBITMQ_NAMESPACE: namespace,
      INTAKE_PORT: String(port),
      INTAKE_RATE_LIMIT_PER_MINUTE: '1000000',
      REDIS_URL: '',
      GEOCODER_URL: '',
      LOG_LEVEL: 'warn',
      // Orders taken into local processing when the process dies wait for their claim to run out,
      // then go through the broker: a short claim keeps the test short and proves that path.
      INTAKE_LOCAL_PROCESSING_LEASE_MS: '3000',
    };
    child = spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk) => output.push(String(chunk)));
    child.stderr!.on('data', (chunk) => output.push(String(chunk)));
    const started = child;
    await waitFor(
      'intake-api ready',
      async () => {
        if (started.exitCode !== null) throw new Error(`exited ${started.exitCode}: ${output.join('')}`);
        return (await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined))?.ok;
      },
      30_000,
      100,
    );
  };

  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(ROOT, 'tools/build.mjs'), 'libs/config', 'libs/contracts', 'libs/crypto', 'libs/domain', 'libs/health', 'libs/http', 'libs/logging', 'libs/messaging', 'libs/persistence', 'libs/platforms', 'apps/intake-api'], { cwd: ROOT, stdio: 'ignore' });
    database = await createTestDatabase('intake_api_kill');
    db = new Client({ connectionString: database.url, options: '-c search_path=intake,public' });
    await db.connect();
    port = await freePort();
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await db?.end();
    await database?.drop();
    await deleteBrokerNamespace(namespace).catch(() => undefined);
  });

  it('loses no order that got a 202, stores each once, and processes them all after the restart', async () => {
    await start();
    const { snapshot, apiKey } = newAccountSnapshot();
    await db.query(
      `INSERT INTO accounts (restaurant_id, status, api_key_hash, api_secret_hash, third_party_integration_id, third_party_provider_restaurant_id, third_party_active, version)
       VALUES ($1, 'active', $2, $3, $4, $5, true, 1)`,
      [snapshot.restaurantId, snapshot.apiKeyHash, snapshot.apiSecretHash, snapshot.thirdParty!.integrationId, snapshot.thirdParty!.providerRestaurantId],
    );

    const orders = Array.from({ length: 600 }, () => validOrder(snapshot.restaurantId, { orderId: `kill-${randomUUID()}` }));
    const accepted = new Set<string>();
    const unanswered: typeof orders = [];
    let next = 0;
    let killed = false;
    const send = async (order: (typeof orders)[number]) => {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/webhook/third-party/order`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey },
          body: JSON.stringify(order),
        });
        if (response.status === 202) accepted.add(((await response.json()) as { orderId: string }).orderId);
        else unanswered.push(order);
      } catch {
        unanswered.push(order);
      }
      // Kill mid-burst: requests are in flight, some committed without their answer yet.
      if (!killed && accepted.size >= 150) {
        killed = true;
        child!.kill('SIGKILL');
      }
    };
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < orders.length) await send(orders[next++]);
      }),
    );
    expect(killed).toBe(true);
    expect(accepted.size).toBeGreaterThanOrEqual(150);
    expect(unanswered.length).toBeGreaterThan(0);

    await start();
    // Every 202 is stored, exactly once (the primary key) and with exactly one order.received.
    const { rows } = await db.query(
      `SELECT o.order_id, (SELECT count(*)::int FROM outbox_messages m WHERE m.routing_key = 'order.received' AND m.payload->>'orderId' = o.order_id) AS events
         FROM orders o WHERE o.order_id = ANY($1)`,
      [[...accepted]],
    );
    expect(rows).toHaveLength(accepted.size);
    expect(rows.filter((row) => row.events !== 1)).toEqual([]);

    // ...and processed after the restart, each into one order.created.
    await waitFor(
      'every accepted order processed',
      async () => (await db.query(`SELECT count(*)::int AS n FROM orders WHERE order_id = ANY($1) AND state = 'PROCESSED'`, [[...accepted]])).rows[0].n === accepted.size,
      45_000,
      200,
    );
    const created = await db.query(
      `SELECT payload->>'orderId' AS order_id, count(*)::int AS n FROM outbox_messages WHERE routing_key = 'order.created' AND payload->>'orderId' = ANY($1) GROUP BY 1`,
      [[...accepted]],
    );
    expect(created.rows).toHaveLength(accepted.size);
    expect(created.rows.filter((row) => row.n !== 1)).toEqual([]);

    // The client retries what got no answer: each is stored once, whether it had committed or not.
    for (const order of unanswered) {
      const response = await fetch(`http://127.0.0.1:${port}/webhook/third-party/order`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey },
        body: JSON.stringify(order),
      });
      expect(response.status).toBe(202);
    }
    const total = await db.query('SELECT count(*)::int AS n FROM orders WHERE restaurant_id = $1', [snapshot.restaurantId]);
    expect(total.rows[0].n).toBe(accepted.size + unanswered.length);
    child!.kill('SIGTERM');
  });
});
