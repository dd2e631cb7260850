#!/usr/bin/env node
// Webhook benchmark (npm run bench:webhooks): the BUILT webhook-sender (and status-dispatcher) as
// child processes on a real PostgreSQL and RabbitMQ, a local receiver answering 200 at once, and in
// the same run the raw rate of plain HTTP POSTs from Node to that receiver as the baseline.
//
//  1. baseline: keep-alive POSTs of a webhook-sized body to the receiver, as many as `--raw-connections`
//     (default 4 = WEBHOOK_MAX_CONCURRENCY_PER_HOST, the sender's limit for one receiver) allow, from
//     a separate Node process (as the sender is one); also from the receiver's process, for reference.
//  2. steady: `--rate` (200) transitions/s for `--duration` (20) s through status-dispatcher's
//     POST /internal/orders/{id}/transitions (orders created first from order.created events);
//     latency = the receiver's receipt of the webhook - the transition's 200 (same clock, this
//     process). `--via events` publishes order.status_changed to the broker instead (latency from
//     the broker's confirm).
//  3. capacity: `--burst` (4000) order.status_changed events published at once; deliveries/s =
//     webhooks received / time from the first to the last receipt.
// Every webhook's X-Service-Signature is checked and duplicates counted. Bounded: every phase has a
// duration or timeout; children are stopped, the database dropped and the broker namespace deleted.
//
// Options: --rate <n> --duration <s> --warmup <s> (3) --burst <n> --raw-seconds <s> (5)
// --raw-connections <n> --via dispatcher|events --no-build --json --cpu-prof <dir> (profile the sender, in <dir>/webhook-sender,
// and the dispatcher, in <dir>/status-dispatcher)
// Environment: BENCH_DATABASE_URL (server, default postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_RABBITMQ_URL (default amqp://guest:guest@127.0.0.1:5672).
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import {
  BROKER_URL,
  allLibs,
  build,
  commitCount,
  cpuProfArgs,
  createPublisher,
  createDatabase,
  deleteNamespace,
  freePort,
  log,
  machineDescription,
  newNamespace,
  now,
  parseArgs,
  postJson,
  percentile,
  processUsage,
  requireBroker,
  requireDist,
  round,
  runNodeScript,
  sleep,
  startChild,
  startPublisher,
  stopChild,
  waitForHttp,
  waitUntil,
} from './lib.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');

const { option, flag } = parseArgs();

const settings = {
  rate: Number(option('rate', 200)),
  duration: Number(option('duration', 20)),
  warmup: Number(option('warmup', 3)),
  burst: Number(option('burst', 4000)),
  rawSeconds: Number(option('raw-seconds', 5)),
  rawConnections: Number(option('raw-connections', 4)),
  via: option('via', 'dispatcher'),
  cpuProf: option('cpu-prof', undefined),
  build: !flag('no-build'),
  json: flag('json'),
};
if (!['dispatcher', 'events'].includes(settings.via)) throw new Error('--via must be dispatcher or events');
const INTERNAL_KEY = `bench-internal-${randomBytes(12).toString('hex')}`;
const TRIGGERS = [
  ['APPROVE', 'VALIDATED'],
  ['ROUTE', 'ROUTED'],
  ['ASSIGN', 'ASSIGNED'],
  ['ACCEPT', 'ACCEPTED'],
  ['PREPARE', 'PREPARED'],
  ['PICK_UP', 'ON_DELIVERY'],
  ['DELIVER', 'DELIVERED'],
];
/** The receiver: answers 200 at once; records when each webhook arrived, checks its signature, counts duplicates. */
function startReceiver(signingSecret) {
  const receipts = new Map();
  const seenIds = new Set();
  const counters = { webhooks: 0, badSignatures: 0, duplicates: 0, raw: 0 };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const at = now();
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"received":true}');
      if (req.url === '/raw') {
        counters.raw += 1;
        return;
      }
      const body = Buffer.concat(chunks);
      counters.webhooks += 1;
      const id = req.headers['x-webhook-id'];
      if (seenIds.has(id)) counters.duplicates += 1;
      seenIds.add(id);
      if (req.headers['x-service-signature'] !== createHmac('sha256', signingSecret).update(body).digest('hex')) counters.badSignatures += 1;
      const webhook = JSON.parse(body.toString('utf8'));
      const key = `${webhook.yemekKuryeOrderId}:${webhook.status}`;
      if (!receipts.has(key)) receipts.set(key, at);
    });
  });
  server.keepAliveTimeout = 30_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: server.address().port, receipts, counters })));
}

/**
 * The baseline: plain keep-alive HTTP POSTs of the same body from Node to the same receiver,
 * `--raw-connections` at a time, for `--raw-seconds` after a 1 s warm-up. Run in a child process,
 * like the sender (`separate`), and in this process, next to the receiver (`inProcess`, no
 * cross-process hop: an upper bound).
 */
const RAW_CLIENT = `
const http = require('node:http');
const [port, connections, seconds, body] = [Number(process.argv[1]), Number(process.argv[2]), Number(process.argv[3]), Buffer.from(process.argv[4])];
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const post = () => new Promise((resolve, reject) => {
  const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/raw', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': body.length } }, (res) => { res.resume(); res.on('end', resolve); });
  req.on('error', reject);
  req.end(body);
});
const loop = async (until) => { let count = 0; await Promise.all(Array.from({ length: connections }, async () => { while (performance.now() < until) { await post(); count += 1; } })); return count; };
(async () => {
  await loop(performance.now() + 1000);
  const started = performance.now();
  const count = await loop(started + seconds * 1000);
  process.stdout.write(String(Math.round(count / ((performance.now() - started) / 1000))));
  agent.destroy();
})();
`;

async function rawRate(port, body) {
  const separate = Number(await runNodeScript(RAW_CLIENT, [port, settings.rawConnections, settings.rawSeconds, body.toString()]));
  const agent = new http.Agent({ keepAlive: true, maxSockets: settings.rawConnections });
  const post = () =>
    new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/raw', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': body.length } }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(body);
    });
  const loop = async (until) => {
    let count = 0;
    await Promise.all(
      Array.from({ length: settings.rawConnections }, async () => {
        while (now() < until) {
          await post();
          count += 1;
        }
      }),
    );
    return count;
  };
  await loop(now() + 1_000);
  const started = now();
  const count = await loop(started + settings.rawSeconds * 1_000);
  agent.destroy();
  return { separate, inProcess: Math.round(count / ((now() - started) / 1000)) };
}

function statusChangedEvent(order, status, previousStatus, sequence) {
  return {
    yemekKuryeOrderId: order.yemekKuryeOrderId,
    orderId: order.orderId,
    restaurantId: order.restaurantId,
    orderNumber: String(order.number),
    status,
    previousStatus,
    timestamp: new Date().toISOString(),
    provider: 'THIRD_PARTY',
    providerRestaurantId: 'bench-pos-1',
    sequence,
  };
}

async function bench(logFile) {
  const { SecretBox, generateEncryptionKeyEntry, generateWebhookSigningSecret } = requireDist('crypto');
  const keys = generateEncryptionKeyEntry('bench');
  const signingSecret = generateWebhookSigningSecret();
  const receiver = await startReceiver(signingSecret);
  const sampleBody = Buffer.from(JSON.stringify(statusChangedEvent({ yemekKuryeOrderId: randomUUID(), orderId: 'bench-order-000001', restaurantId: 'rest_x', number: 1 }, 'VALIDATED', 'NEW', 1)));

  log(`baseline: plain HTTP POSTs to the receiver, ${settings.rawConnections} at a time, ${settings.rawSeconds} s (from a child process, then from this one) ...`);
  const raw = await rawRate(receiver.port, sampleBody);

  const database = await createDatabase('bench_webhooks');
  const namespace = newNamespace();
  const common = { NODE_ENV: 'production', DATABASE_URL: database.url, RABBITMQ_URL: BROKER_URL, RABBITMQ_NAMESPACE: namespace, LOG_LEVEL: 'warn', SECRETS_ENCRYPTION_KEYS: keys };
  const senderPort = await freePort();
  const dispatcherPort = await freePort();
  const children = [];
  const db = new Client({ connectionString: database.url });
  const publisher = createPublisher('bench-webhooks', namespace);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  try {
    // One at a time: both run their migrations at start.
    const profile = (app) => cpuProfArgs(settings.cpuProf && path.join(settings.cpuProf, app));
    const sender = startChild('webhook-sender', 'dist/apps/webhook-sender/src/main.js', { ...common, WEBHOOK_SENDER_PORT: String(senderPort), WEBHOOK_ALLOW_INSECURE_URLS: 'true' }, logFile, profile('webhook-sender'));
    children.push(sender);
    await waitForHttp(`http://127.0.0.1:${senderPort}/health/ready`, 60_000, sender);
    let dispatcher;
    if (settings.via === 'dispatcher') {
      dispatcher = startChild('status-dispatcher', 'dist/apps/status-dispatcher/src/main.js', { ...common, STATUS_DISPATCHER_PORT: String(dispatcherPort), INTERNAL_API_KEYS: INTERNAL_KEY }, logFile, profile('status-dispatcher'));
      children.push(dispatcher);
      await waitForHttp(`http://127.0.0.1:${dispatcherPort}/health/ready`, 60_000, dispatcher);
    }
    await db.connect();
    await startPublisher(publisher);

    const restaurantId = `rest_${randomBytes(15).toString('base64url')}`;
    const sha256 = (text) => createHash('sha256').update(text).digest('hex');
    const account = {
      restaurantId,
      name: 'Bench Kebab House',
      status: 'active',
      apiKeyHash: sha256(randomBytes(32).toString('hex')),
      apiSecretHash: sha256(randomBytes(32).toString('hex')),
      thirdParty: { integrationId: randomUUID(), providerRestaurantId: 'bench-pos-1', isActive: true },
      webhooks: { statusUrl: `http://127.0.0.1:${receiver.port}/status`, cancelUrl: `http://127.0.0.1:${receiver.port}/cancel`, signingSecretCiphertext: SecretBox.fromKeyList(keys).encrypt(signingSecret) },
      version: 1,
      createdAt: new Date().toISOString(),
      occurredAt: new Date().toISOString(),
    };
    await publisher.publish([{ messageId: randomUUID(), routingKey: 'account.created', payload: account }]);
    await waitUntil('the account in the sender', async () => (await db.query('SELECT 1 FROM webhooks.webhook_accounts WHERE restaurant_id = $1', [restaurantId])).rowCount > 0, 30_000);

    // Orders: enough for every transition of the steady phase, each moved every orders/rate seconds.
    const total = Math.ceil(settings.rate * (settings.duration + settings.warmup));
    const orderCount = Math.ceil(total / TRIGGERS.length) + 1;
    const orders = Array.from({ length: orderCount }, (_, index) => ({
      yemekKuryeOrderId: randomUUID(),
      orderId: `bench-order-${String(index).padStart(6, '0')}`,
      restaurantId,
      number: index + 1,
    }));
    if (settings.via === 'dispatcher') {
      log(`creating ${orderCount} orders in status-dispatcher (order.created) ...`);
      for (let i = 0; i < orders.length; i += 200) {
        await publisher.publish(
          orders.slice(i, i + 200).map((order) => ({
            messageId: randomUUID(),
            routingKey: 'order.created',
            payload: {
              yemekKuryeOrderId: order.yemekKuryeOrderId,
              orderId: order.orderId,
              restaurantId,
              provider: 'THIRD_PARTY',
              providerRestaurantId: 'bench-pos-1',
              receivedAt: new Date().toISOString(),
              details: { customerName: 'Ayşe Yılmaz', deliveryAddress: 'Bağdat Cd. 10, Kadıköy, İstanbul', currency: 'TRY', total: 320, items: [{ productCode: 'SKU-1', productName: 'Adana kebab', quantity: 2, unitPrice: 160, totalAmount: 320 }] },
            },
          })),
        );
      }
      await waitUntil('the orders in status-dispatcher', async () => Number((await db.query('SELECT count(*) AS n FROM dispatcher.orders WHERE restaurant_id = $1', [restaurantId])).rows[0].n) >= orderCount, 120_000);
    }

    // Steady phase: transition k goes to order k mod N (its next trigger), paced to `rate` per second.
    log(`steady: ${settings.rate}/s for ${settings.duration} s (+${settings.warmup} s warm-up) via ${settings.via === 'dispatcher' ? 'POST /internal/orders/{id}/transitions' : 'order.status_changed on the broker'} ...`);
    const sent = new Map();
    const failures = {};
    const inFlight = new Set();
    const warmupEnd = settings.warmup * settings.rate;
    const senderBefore = processUsage(sender.pid);
    const dispatcherBefore = dispatcher ? processUsage(dispatcher.pid) : undefined;
    let measuredStart = 0;
    const started = now();
    for (let k = 0; k < total; k += 1) {
      const due = started + (k * 1000) / settings.rate;
      if (due > now()) await sleep(due - now());
      if (k === warmupEnd) measuredStart = now();
      const order = orders[k % orderCount];
      const step = Math.floor(k / orderCount);
      const [trigger, status] = TRIGGERS[step];
      const key = `${order.yemekKuryeOrderId}:${status}`;
      const work = (async () => {
        if (settings.via === 'dispatcher') {
          const { status: code } = await postJson(agent, dispatcherPort, `/internal/orders/${order.yemekKuryeOrderId}/transitions`, { trigger }, { 'X-Internal-Api-Key': INTERNAL_KEY });
          if (code !== 200) failures[code] = (failures[code] ?? 0) + 1;
          else if (k >= warmupEnd) sent.set(key, now());
        } else {
          await publisher.publish([{ messageId: randomUUID(), routingKey: 'order.status_changed', payload: statusChangedEvent(order, status, step === 0 ? 'NEW' : TRIGGERS[step - 1][1], step + 1) }]);
          if (k >= warmupEnd) sent.set(key, now());
        }
      })().catch((error) => {
        failures[error.code ?? error.message] = (failures[error.code ?? error.message] ?? 0) + 1;
      });
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
    }
    const offeredSeconds = (now() - measuredStart) / 1000;
    await Promise.all([...inFlight]);
    const drainDeadline = now() + 30_000;
    while (now() < drainDeadline && [...sent.keys()].some((key) => !receiver.receipts.has(key))) await sleep(50);
    const senderAfter = processUsage(sender.pid);
    const dispatcherAfter = dispatcher ? processUsage(dispatcher.pid) : undefined;
    const latencies = [...sent].filter(([key]) => receiver.receipts.has(key)).map(([key, at]) => receiver.receipts.get(key) - at);
    latencies.sort((a, b) => a - b);
    const steady = {
      transitions: sent.size,
      offeredPerSecond: round(sent.size / offeredSeconds),
      missing: sent.size - latencies.length,
      p50: round(percentile(latencies, 50)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies[latencies.length - 1] ?? Number.NaN),
      failures,
      senderCpuPercent: round(((senderAfter.cpuSeconds - senderBefore.cpuSeconds) / ((now() - started) / 1000)) * 100, 0),
      // status-dispatcher's CPU per transition of the steady phase (warm-up included: every request of it).
      dispatcherCpuMsPerTransition: dispatcher ? round(((dispatcherAfter.cpuSeconds - dispatcherBefore.cpuSeconds) * 1000) / total, 2) : undefined,
    };

    // Capacity phase: a burst of events published at once; the sender drains it as fast as it can.
    log(`capacity: ${settings.burst} order.status_changed events at once ...`);
    const burstOrders = Array.from({ length: settings.burst }, (_, index) => ({ yemekKuryeOrderId: randomUUID(), orderId: `bench-burst-${index}`, restaurantId, number: orderCount + index + 1 }));
    const burstKeys = burstOrders.map((order) => `${order.yemekKuryeOrderId}:VALIDATED`);
    const burstCpu = processUsage(sender.pid).cpuSeconds;
    const burstCommits = await commitCount(db);
    const burstStarted = now();
    for (let i = 0; i < burstOrders.length; i += 500) {
      await publisher.publish(burstOrders.slice(i, i + 500).map((order) => ({ messageId: randomUUID(), routingKey: 'order.status_changed', payload: statusChangedEvent(order, 'VALIDATED', 'NEW', 1) })));
    }
    const published = now();
    const burstDeadline = now() + 180_000;
    while (now() < burstDeadline && burstKeys.some((key) => !receiver.receipts.has(key))) await sleep(50);
    const burstTimes = burstKeys.filter((key) => receiver.receipts.has(key)).map((key) => receiver.receipts.get(key));
    const firstReceipt = Math.min(...burstTimes);
    const lastReceipt = Math.max(...burstTimes);
    const capacity = {
      senderCpuMsPerDelivery: round(((processUsage(sender.pid).cpuSeconds - burstCpu) * 1000) / Math.max(1, burstTimes.length), 2),
      // Every transaction in the bench database during the burst (the sender's, and this script's few), per webhook.
      transactionsPerDelivery: round(((await commitCount(db)) - burstCommits) / Math.max(1, burstTimes.length), 2),
      events: settings.burst,
      received: burstTimes.length,
      publishSeconds: round((published - burstStarted) / 1000, 2),
      deliveriesPerSecond: Math.round(burstTimes.length / ((lastReceipt - firstReceipt) / 1000)),
      fromPublishPerSecond: Math.round(burstTimes.length / ((lastReceipt - burstStarted) / 1000)),
    };
    const stored = (await db.query(`SELECT status, count(*)::int AS n, sum(attempts)::int AS attempts FROM webhooks.webhook_deliveries GROUP BY status`)).rows;
    // Where the time goes in the steady phase, from the sender's own records: change -> delivery stored
    // (the event's timestamp is the change's commit time), stored -> first attempt, and the exchange.
    const [breakdown] = (
      await db.query(`
        SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY extract(epoch FROM d.created_at - (d.body::json->>'timestamp')::timestamptz) * 1000) AS to_stored,
               percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY extract(epoch FROM a.started_at - d.created_at) * 1000) AS to_attempt,
               percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY a.latency_ms) AS exchange
          FROM webhooks.webhook_deliveries d JOIN webhooks.webhook_attempts a ON a.delivery_id = d.id AND a.attempt = 1
         WHERE d.order_id NOT LIKE 'bench-burst-%'`)
    ).rows.map((row) => Object.fromEntries(Object.entries(row).map(([name, values]) => [name, values.map((value) => round(value))])));
    // status-dispatcher's share: its outbox rows, from the transition's commit to the broker's confirm.
    const relay =
      settings.via === 'dispatcher'
        ? (
            await db.query(`SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY extract(epoch FROM published_at - created_at) * 1000) AS ms
                              FROM dispatcher.outbox_messages WHERE routing_key = 'order.status_changed' AND published_at IS NOT NULL`)
          ).rows[0].ms.map((value) => round(value))
        : undefined;
    const usage = processUsage(sender.pid);
    return { raw, steady, capacity, stored, breakdown, relay, receiver: receiver.counters, senderPeakRssMiB: usage.peakRssMiB };
  } finally {
    agent.destroy();
    await publisher.close().catch(() => undefined);
    await db.end().catch(() => undefined);
    for (const child of children.reverse()) await stopChild(child);
    receiver.server.closeAllConnections();
    receiver.server.close();
    await database.drop();
    await deleteNamespace(namespace);
  }
}

async function main() {
  if (settings.build) build([...allLibs(), 'apps/webhook-sender', 'apps/status-dispatcher']);
  await requireBroker();

  const logFile = path.join(os.tmpdir(), `webhooks-bench-${Date.now()}.log`);
  log(`machine: ${machineDescription()}; server logs in ${logFile}`);
  const result = await bench(logFile);
  const { steady, capacity } = result;
  const ratio = round(capacity.deliveriesPerSecond / result.raw.separate, 2);
  const pass = {
    ratio: ratio >= 0.3,
    p99: steady.p99 <= 100,
    complete: steady.missing === 0 && capacity.received === capacity.events && result.receiver.badSignatures === 0,
  };
  console.log(
    `baseline: plain Node HTTP POSTs to the receiver, ${settings.rawConnections} keep-alive connections: ${result.raw.separate}/s from another process (the baseline), ${result.raw.inProcess}/s from the receiver's own process`,
  );
  console.log(
    `steady (${settings.via}): ${steady.transitions} transitions at ${steady.offeredPerSecond}/s, ${steady.transitions - steady.missing} webhooks received; ` +
      `latency ${settings.via === 'dispatcher' ? "transition's 200" : 'broker confirm'} -> receipt p50 ${steady.p50} ms, p99 ${steady.p99} ms, max ${steady.max} ms; ` +
      `${steady.missing} missing; sender CPU ${steady.senderCpuPercent} %${steady.dispatcherCpuMsPerTransition === undefined ? '' : `; dispatcher CPU ${steady.dispatcherCpuMsPerTransition} ms per transition`}${Object.keys(steady.failures).length ? `; failures ${JSON.stringify(steady.failures)}` : ''}`,
  );
  console.log(
    `capacity: ${capacity.received}/${capacity.events} webhooks, ${capacity.deliveriesPerSecond} deliveries/s first to last receipt (${capacity.fromPublishPerSecond}/s from the first publish; ` +
      `publishing took ${capacity.publishSeconds} s); sender CPU ${capacity.senderCpuMsPerDelivery} ms and ${capacity.transactionsPerDelivery} database transactions per delivery`,
  );
  console.log(`ratio deliveries/raw: ${ratio} (target >= 0.3: ${pass.ratio ? 'met' : 'MISSED'}); p99 ${steady.p99} ms at ${settings.rate}/s (target <= 100: ${pass.p99 ? 'met' : 'MISSED'})`);
  console.log(
    `checks: ${result.receiver.webhooks} webhooks received, ${result.receiver.duplicates} duplicates, ${result.receiver.badSignatures} bad signatures; deliveries ${JSON.stringify(result.stored)}; sender peak RSS ${result.senderPeakRssMiB} MiB -> ${pass.complete ? 'OK' : 'FAILED'}`,
  );
  const b = result.breakdown;
  console.log(
    `where the time goes in the steady phase (p50 / p99 ms): ${result.relay ? `dispatcher outbox row -> published ${result.relay.join(' / ')}; ` : ''}` +
      `change -> delivery stored ${b.to_stored.join(' / ')}, stored -> first attempt ${b.to_attempt.join(' / ')}, exchange ${b.exchange.join(' / ')}`,
  );
  if (settings.json) console.log(JSON.stringify({ settings, machine: { cores: os.cpus().length, node: process.version }, ...result, ratio, pass }));
  if (!pass.complete) process.exitCode = 1;
}

main().catch((error) => {
  log(`bench:webhooks failed: ${error.stack ?? error.message}`);
  process.exitCode = 1;
});
