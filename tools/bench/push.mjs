#!/usr/bin/env node
// Status push benchmark (npm run bench:push): the BUILT status-dispatcher as a child process on a
// fresh PostgreSQL database and its own RabbitMQ namespace, against the PLATFORM_D simulator of
// libs/platforms (dist build) running in this process, and in the same run the raw rate and latency
// of plain Node HTTP calls straight to that simulator as the baseline.
//
//  1. setup: a PLATFORM_D integration (integration.upserted on the broker, secrets sealed as
//     integrations-api does) and enough platform orders, each placed through the simulator's order
//     webhook (POST /platforms/platform-d/orders of the dispatcher), as a real platform would.
//  2. baseline: from a separate Node process (as the dispatcher is one), the adapter's own call
//     (POST /Order/v2/UpdateOrderStatus, XApiKey, the encrypted { value } body) straight to the
//     simulator, repeating an approval (answered success without a change): at `--rate` per second
//     for `--raw-seconds` (open loop; latency send -> the simulator's receipt, one clock), then as
//     fast as `--raw-connections` keep-alive connections allow (the max rate).
//  3. steady: `--rate` (200) pushes/s for `--duration` (20) s (+ `--warmup` (3) s) to
//     POST /internal/orders/status, open loop (each send scheduled at its time, never waiting for an
//     earlier answer). Push k goes to order k mod N with its next action (VERIFY, PREPARE, HANDOVER,
//     DELIVER: PLATFORM_D has no hold), so an order's pushes are N / rate seconds apart. Latency =
//     the simulator's receipt of the platform call - the push's send (same clock, this process);
//     each call is matched to its push by platform order id and status.
// Checks that every 202 reached the simulator exactly once (and nothing else did): exit 1 if not.
// Bounded: every phase has a duration or a timeout; the child is stopped, the database dropped and
// the broker namespace deleted.
//
// Options: --rate <n> --duration <s> --warmup <s> --raw-seconds <s> (5) --raw-connections <n> (8)
// --no-build --json --cpu-prof <dir> (profile status-dispatcher)
// Environment: BENCH_DATABASE_URL (server, default postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_RABBITMQ_URL (default amqp://guest:guest@127.0.0.1:5672).
import { randomBytes, randomUUID } from 'node:crypto';
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
  loadAverage,
  log,
  machineDescription,
  newNamespace,
  now,
  parseArgs,
  postJson,
  processUsage,
  requireBroker,
  requireDist,
  round,
  runNodeScript,
  sleep,
  startChild,
  startPublisher,
  stopChild,
  summary,
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
  rawSeconds: Number(option('raw-seconds', 5)),
  rawConnections: Number(option('raw-connections', 8)),
  cpuProf: option('cpu-prof', undefined),
  build: !flag('no-build'),
  json: flag('json'),
};
for (const name of ['rate', 'duration', 'rawSeconds', 'rawConnections']) {
  if (!(settings[name] > 0)) throw new Error(`--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} must be a positive number`);
}
const INTERNAL_KEY = `bench-internal-${randomBytes(12).toString('hex')}`;
const STORE = { storeId: '23000000900001', storeGroupId: '511', apiKey: `migros-bench-key-${randomBytes(8).toString('hex')}` };
/** The actions of an order's life, in order; none is held on PLATFORM_D. */
const ACTIONS = ['VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER'];
const STATUS_PATH = '/Order/v2/UpdateOrderStatus';
/** Epoch milliseconds with sub-millisecond resolution, comparable across processes of this machine. */
const epochMs = () => performance.timeOrigin + performance.now();

/**
 * The raw client, in its own process: the adapter's call (same method, path, headers and body) to
 * the simulator, first open loop at `rate` for `seconds` (each request carries its send time for the
 * simulator, and the round trip is measured here), then closed loop on `connections` keep-alive
 * connections for `seconds` after a 1 s warm-up. Prints one JSON line.
 */
const RAW_CLIENT = `
const http = require('node:http');
const [port, rate, connections, seconds, apiKey, body] = [Number(process.argv[1]), Number(process.argv[2]), Number(process.argv[3]), Number(process.argv[4]), process.argv[5], Buffer.from(process.argv[6])];
const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(connections, 64) });
const epochMs = () => performance.timeOrigin + performance.now();
const send = () => new Promise((resolve, reject) => {
  const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '${STATUS_PATH}', agent,
    headers: { 'Content-Type': 'application/json', 'Content-Length': body.length, XApiKey: apiKey, 'X-Bench-Sent-At': String(epochMs()) } }, (res) => {
    res.resume();
    res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error('HTTP ' + res.statusCode))));
  });
  req.on('error', reject);
  req.end(body);
});
(async () => {
  const roundTrips = [];
  const inFlight = [];
  let errors = 0;
  const started = performance.now();
  const total = Math.round(rate * seconds);
  for (let k = 0; k < total; k += 1) {
    const due = started + (k * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const at = performance.now();
    inFlight.push(send().then(() => roundTrips.push(performance.now() - at), () => (errors += 1)));
  }
  await Promise.all(inFlight);
  const loop = async (until) => { let count = 0; await Promise.all(Array.from({ length: connections }, async () => { while (performance.now() < until) { await send(); count += 1; } })); return count; };
  await loop(performance.now() + 1000);
  const maxStarted = performance.now();
  const count = await loop(maxStarted + seconds * 1000);
  process.stdout.write(JSON.stringify({ sent: total, errors, roundTrips, maxRate: Math.round(count / ((performance.now() - maxStarted) / 1000)) }));
  agent.destroy();
})().catch((error) => { process.stderr.write(String(error.stack || error)); process.exit(1); });
`;

async function runRawClient(port, body) {
  return JSON.parse(await runNodeScript(RAW_CLIENT, [port, settings.rate, settings.rawConnections, settings.rawSeconds, STORE.apiKey, body]));
}

/**
 * The PLATFORM_D simulator of libs/platforms, unchanged, with a note of when each status call
 * arrived (this process's clock) before the simulator answers it.
 */
function benchSimulator(PlatformDSimulator) {
  return class BenchPlatformD extends PlatformDSimulator {
    constructor(options) {
      super(options);
      /** `orderId:status` -> receipt times (performance.now()) of the status calls of the dispatcher. */
      this.receipts = new Map();
      /** One-way latencies (ms) of the raw client's calls, from their X-Bench-Sent-At. */
      this.rawOneWay = [];
      this.rawCalls = 0;
    }

    route(request) {
      if (request.method !== 'POST' || request.path !== STATUS_PATH) return super.route(request);
      const sentAt = request.headers['x-bench-sent-at'];
      const at = now();
      const oneWay = epochMs() - Number(sentAt);
      const readBefore = this.received.length;
      const response = super.route(request);
      if (sentAt) {
        this.rawCalls += 1;
        this.rawOneWay.push(oneWay);
      } else if (this.received.length > readBefore) {
        // The body is encrypted: the simulator's decrypted copy names the order and the status.
        const body = this.received.at(-1).body;
        const key = `${body.orderId}:${body.orderStatus}`;
        const list = this.receipts.get(key);
        if (list) list.push(at);
        else this.receipts.set(key, [at]);
      }
      // The call log and the decrypted bodies are not needed here: keep memory flat over long runs.
      if (this.calls.length > 1000) this.calls.splice(0, this.calls.length - 100);
      if (this.received.length > 1000) this.received.splice(0, this.received.length - 100);
      return response;
    }
  };
}

async function bench(logFile) {
  const { SecretBox, generateEncryptionKeyEntry } = requireDist('crypto');
  const { PLATFORM_D_STEP_STATUS, encryptPlatformDBody } = requireDist('platforms');
  const { PlatformDSimulator } = requireDist('platforms', 'simulators');
  const keys = generateEncryptionKeyEntry('bench');
  const Simulator = benchSimulator(PlatformDSimulator);
  const simulator = new Simulator({ stores: [STORE] });
  await simulator.start();
  const simulatorPort = Number(new URL(simulator.baseUrl).port);

  const database = await createDatabase('bench_push');
  const namespace = newNamespace();
  const dispatcherPort = await freePort();
  let dispatcher;
  const db = new Client({ connectionString: database.url });
  const publisher = createPublisher('bench-push', namespace);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  try {
    dispatcher = startChild(
      'status-dispatcher',
      'dist/apps/status-dispatcher/src/main.js',
      {
        NODE_ENV: 'production',
        DATABASE_URL: database.url,
        RABBITMQ_URL: BROKER_URL,
        RABBITMQ_NAMESPACE: namespace,
        SECRETS_ENCRYPTION_KEYS: keys,
        STATUS_DISPATCHER_PORT: String(dispatcherPort),
        INTERNAL_API_KEYS: INTERNAL_KEY,
        PLATFORM_D_BASE_URL: simulator.baseUrl,
        // The run measures the dispatcher, not PLATFORM_D's call budget (60 calls / 61 s per credentials): a budget it never reaches.
        PLATFORM_CALL_BUDGETS: 'PLATFORM_D:credentials=1000000/1000',
      },
      logFile,
      cpuProfArgs(settings.cpuProf),
    );
    await waitForHttp(`http://127.0.0.1:${dispatcherPort}/health/ready`, 60_000, dispatcher);
    simulator.options.orderWebhookUrl = `http://127.0.0.1:${dispatcherPort}/platforms/platform-d/orders`;
    await db.connect();
    await startPublisher(publisher);

    // The integration, as integrations-api announces it (secrets sealed with the shared keys).
    const integrationId = randomUUID();
    const restaurantId = `rest_${randomBytes(15).toString('base64url')}`;
    const at = new Date().toISOString();
    await publisher.publish([
      {
        messageId: randomUUID(),
        routingKey: 'integration.upserted',
        payload: {
          integrationId,
          restaurantId,
          platform: 'PLATFORM_D',
          providerRestaurantId: STORE.storeId,
          isActive: true,
          settings: { providerMerchantId: STORE.storeGroupId },
          secrets: { apiKey: SecretBox.fromKeyList(keys).encrypt(STORE.apiKey) },
          // Verified by its platform, as integrations-api announces it once the check passed (an
          // unverified integration's orders are withheld, and their pushes refused).
          verification: 'verified',
          verifiedAt: at,
          version: 1,
          createdAt: at,
          updatedAt: at,
          occurredAt: at,
        },
      },
    ]);
    await waitUntil('the integration in status-dispatcher', async () => (await db.query('SELECT 1 FROM dispatcher.integrations WHERE integration_id = $1', [integrationId])).rowCount > 0, 30_000);

    // Orders through the platform's order webhook, 16 at a time.
    const total = Math.ceil(settings.rate * (settings.duration + settings.warmup));
    const orderCount = Math.ceil(total / ACTIONS.length);
    log(`creating ${orderCount} PLATFORM_D orders through the simulator's order webhook ...`);
    const orders = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < orderCount) {
          next += 1;
          const { order, response } = await simulator.placeOrder(STORE.storeId);
          if (response.status !== 200) throw new Error(`order webhook answered ${response.status} ${JSON.stringify(response.body)}`);
          orders.push(order.id);
        }
      }),
    );

    // Baseline: the adapter's call straight to the simulator, from another process.
    // The raw calls repeat the approval of an approved order: answered success without a change.
    const rawOrder = simulator.createOrder(STORE.storeId, { status: 'Approved' });
    log(`baseline: plain Node POST ${STATUS_PATH} to the simulator, ${settings.rate}/s for ${settings.rawSeconds} s, then ${settings.rawConnections} connections flat out for ${settings.rawSeconds} s ...`);
    const rawClient = await runRawClient(simulatorPort, JSON.stringify(encryptPlatformDBody({ orderId: rawOrder.id, storeId: Number(STORE.storeId), orderStatus: 'Approved' }, STORE.apiKey)));
    const steadyRaw = simulator.rawOneWay.slice(0, rawClient.sent);
    const raw = { atRate: summary(steadyRaw), roundTrip: summary(rawClient.roundTrips), errors: rawClient.errors, maxRate: rawClient.maxRate };
    simulator.rawOneWay.length = 0;

    // Steady phase: push k -> order k mod N, its next action; sends scheduled at k / rate (open loop).
    log(`steady: ${settings.rate} pushes/s for ${settings.duration} s (+${settings.warmup} s warm-up) to POST /internal/orders/status ...`);
    const pushes = new Map(); // `orderId:status` -> { sentAt, measured, answeredAt, status, statusUpdateId }
    const failures = {};
    const inFlight = new Set();
    const warmupEnd = Math.round(settings.warmup * settings.rate);
    const before = processUsage(dispatcher.pid);
    const commitsBefore = await commitCount(db);
    let late = 0;
    let measuredStart = 0;
    const started = now();
    for (let k = 0; k < total; k += 1) {
      const due = started + (k * 1000) / settings.rate;
      if (due > now()) await sleep(due - now());
      else if (now() - due > 5) late += 1;
      if (k === warmupEnd) measuredStart = now();
      const orderId = orders[k % orderCount];
      const action = ACTIONS[Math.floor(k / orderCount)];
      const push = { orderId, action, key: `${orderId}:${PLATFORM_D_STEP_STATUS[action]}`, measured: k >= warmupEnd, sentAt: now(), sentEpochMs: Date.now() };
      const work = postJson(agent, dispatcherPort, '/internal/orders/status', { providerOrderId: String(orderId), platform: 'PLATFORM_D', action }, { 'X-Internal-Api-Key': INTERNAL_KEY })
        .then((response) => {
          push.answeredAt = now();
          push.status = response.status;
          if (response.status === 202) {
            push.statusUpdateId = JSON.parse(response.body).statusUpdateId;
            pushes.set(push.key, push);
          } else failures[response.status] = (failures[response.status] ?? 0) + 1;
        })
        .catch((error) => {
          failures[error.code ?? error.message] = (failures[error.code ?? error.message] ?? 0) + 1;
        });
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
    }
    const offeredSeconds = (now() - measuredStart) / 1000;
    const measuredSent = total - warmupEnd;
    await Promise.all([...inFlight]);
    const answeredEnd = now();
    // Every 202 should reach the simulator; wait for the last ones, then a little longer for any repeat.
    const drainDeadline = now() + 60_000;
    while (now() < drainDeadline && [...pushes.keys()].some((key) => !simulator.receipts.has(key))) await sleep(50);
    await sleep(2_000);
    const after = processUsage(dispatcher.pid);
    const commitsAfter = await commitCount(db);

    const measured = [...pushes.values()].filter((push) => push.measured);
    const latencies = measured.filter((push) => simulator.receipts.has(push.key)).map((push) => simulator.receipts.get(push.key)[0] - push.sentAt);
    const accepted202 = measured.length;
    const missing = [...pushes.keys()].filter((key) => !simulator.receipts.has(key));
    const repeated = [...simulator.receipts].filter(([, list]) => list.length > 1).map(([key, list]) => `${key} x${list.length}`);
    const unexpected = [...simulator.receipts.keys()].filter((key) => !pushes.has(key));
    const steady = {
      sent: measuredSent,
      offeredPerSecond: round(measuredSent / offeredSeconds),
      acceptedPerSecond: round(accepted202 / offeredSeconds),
      accepted: accepted202,
      answer: summary(measured.map((push) => push.answeredAt - push.sentAt)),
      latency: summary(latencies),
      lateSends: late,
      failures,
      dispatcherCpuMsPerPush: round(((after.cpuSeconds - before.cpuSeconds) * 1000) / pushes.size, 2),
      transactionsPerPush: round((commitsAfter - commitsBefore) / pushes.size, 2),
      drainedAfterMs: Math.round(Math.max(0, Math.max(...[...pushes.values()].map((push) => simulator.receipts.get(push.key)?.[0] ?? 0)) - answeredEnd)),
      peakRssMiB: after.peakRssMiB,
    };
    const check = { accepted: pushes.size, received: pushes.size - missing.length, missing: missing.length, repeated, unexpected: unexpected.length };

    // Where the time goes, from the dispatcher's own rows (its clock = this machine's): push sent ->
    // accepted (request path until the decision), accepted -> first attempt (0 when the push's own
    // statement claimed it; else write, wake-up, claim), first attempt -> the simulator's receipt
    // (the push's write and the adapter call, or the call alone).
    const rows = (await db.query('SELECT id, provider_order_id, action, state, attempts, accepted_at, first_attempt_at FROM dispatcher.status_updates')).rows;
    const byId = new Map(rows.map((row) => [row.id, row]));
    const toAccepted = [];
    const toAttempt = [];
    const toReceipt = [];
    const states = {};
    let multipleAttempts = 0;
    for (const row of rows) {
      states[row.state] = (states[row.state] ?? 0) + 1;
      if (row.attempts > 1) multipleAttempts += 1;
    }
    for (const push of measured) {
      const row = byId.get(push.statusUpdateId);
      const receipt = simulator.receipts.get(push.key)?.[0];
      if (!row || !row.first_attempt_at || receipt === undefined) continue;
      const receiptEpoch = performance.timeOrigin + receipt;
      toAccepted.push(row.accepted_at.getTime() - (performance.timeOrigin + push.sentAt));
      toAttempt.push(row.first_attempt_at.getTime() - row.accepted_at.getTime());
      toReceipt.push(receiptEpoch - row.first_attempt_at.getTime());
    }
    const breakdown = { toAccepted: summary(toAccepted), toAttempt: summary(toAttempt), toReceipt: summary(toReceipt), states, multipleAttempts };
    return { raw, steady, check, breakdown };
  } finally {
    agent.destroy();
    await publisher.close().catch(() => undefined);
    await db.end().catch(() => undefined);
    await stopChild(dispatcher);
    await simulator.stop();
    await database.drop();
    await deleteNamespace(namespace);
  }
}

async function main() {
  if (settings.build) build([...allLibs(), 'apps/status-dispatcher']);
  await requireBroker();

  const logFile = path.join(os.tmpdir(), `push-bench-${Date.now()}.log`);
  const loadBefore = loadAverage(2);
  log(`machine: ${machineDescription()}, load average ${loadBefore}; server logs in ${logFile}`);
  const result = await bench(logFile);
  const loadAfter = loadAverage(2);
  const { raw, steady, check, breakdown } = result;
  const pass = {
    p99: steady.latency.p99 <= 100,
    exactlyOnce: check.missing === 0 && check.repeated.length === 0 && check.unexpected === 0,
  };
  const table = [
    ['', 'rate (/s)', 'p50 (ms)', 'p99 (ms)', 'max (ms)'],
    [`raw: Node POST -> simulator receipt, ${settings.rate}/s open loop`, `${settings.rate}`, raw.atRate.p50, raw.atRate.p99, raw.atRate.max],
    ['raw: same, round trip (answer back)', '', raw.roundTrip.p50, raw.roundTrip.p99, raw.roundTrip.max],
    [`raw: max rate, ${settings.rawConnections} keep-alive connections`, raw.maxRate, '', '', ''],
    ['push: 202 answer', steady.acceptedPerSecond, steady.answer.p50, steady.answer.p99, steady.answer.max],
    ['push -> simulator receipt', `${steady.offeredPerSecond} offered`, steady.latency.p50, steady.latency.p99, steady.latency.max],
    ['  push sent -> accepted (read, decision)', '', breakdown.toAccepted.p50, breakdown.toAccepted.p99, breakdown.toAccepted.max],
    ['  accepted -> first attempt (0: claimed by the push)', '', breakdown.toAttempt.p50, breakdown.toAttempt.p99, breakdown.toAttempt.max],
    ['  first attempt -> simulator receipt (write, call)', '', breakdown.toReceipt.p50, breakdown.toReceipt.p99, breakdown.toReceipt.max],
  ];
  const width = [52, 14, 9, 9, 9];
  console.log(table.map((row) => row.map((cell, index) => String(cell).padEnd(width[index])).join(' | ')).join('\n'));
  console.log(
    `steady: ${steady.sent} pushes measured (+${Math.round(settings.warmup * settings.rate)} warm-up), ${steady.accepted} answered 202 (${steady.acceptedPerSecond}/s at ${steady.offeredPerSecond}/s offered)` +
      `${Object.keys(steady.failures).length ? `, failures ${JSON.stringify(steady.failures)}` : ''}; ${steady.lateSends} sends > 5 ms behind schedule; ` +
      `dispatcher CPU ${steady.dispatcherCpuMsPerPush} ms and ${steady.transactionsPerPush} database transactions per push, peak RSS ${steady.peakRssMiB} MiB; ` +
      `last call ${steady.drainedAfterMs} ms after the last 202; raw errors ${raw.errors}`,
  );
  console.log(`p99 push -> simulator ${steady.latency.p99} ms at ${settings.rate}/s (target <= 100: ${pass.p99 ? 'met' : 'MISSED'})`);
  console.log(
    `exactly once: ${check.accepted} pushes got 202 (warm-up included), ${check.received} reached the simulator, ${check.missing} missing, ${check.repeated.length} more than once` +
      `${check.repeated.length ? ` (${check.repeated.slice(0, 5).join(', ')})` : ''}, ${check.unexpected} calls without a 202; updates ${JSON.stringify(breakdown.states)}, ` +
      `${breakdown.multipleAttempts} with more than one attempt -> ${pass.exactlyOnce ? 'OK' : 'FAILED'}`,
  );
  console.log(`load average before ${loadBefore}, after ${loadAfter}`);
  if (settings.json) console.log(JSON.stringify({ settings, machine: { cores: os.cpus().length, node: process.version, loadBefore, loadAfter }, ...result, pass }));
  if (!pass.exactlyOnce) process.exitCode = 1;
}

main().catch((error) => {
  log(`bench:push failed: ${error.stack ?? error.message}`);
  process.exitCode = 1;
});
