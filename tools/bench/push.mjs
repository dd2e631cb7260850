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
//     (PATCH /courier-order/status, X-API-Key) straight to the simulator: at `--rate` per second
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
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const amqp = require('amqplib');
const pino = require('pino');
require('reflect-metadata'); // the dist libs below carry decorators

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : args[index + 1];
};
const flag = (name) => args.includes(`--${name}`);

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
const DATABASE_SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BROKER_URL = process.env.BENCH_RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const INTERNAL_KEY = `bench-internal-${randomBytes(12).toString('hex')}`;
const MERCHANT = { merchantId: 'm-bench-1', restaurantId: 'migros-bench-rest-1', apiKey: `migros-bench-key-${randomBytes(8).toString('hex')}` };
/** The actions of an order's life, in order; none is held on PLATFORM_D. */
const ACTIONS = ['VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER'];
const STATUS_PATH = '/courier-order/status';
const log = (line) => process.stderr.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const now = () => performance.now();
/** Epoch milliseconds with sub-millisecond resolution, comparable across processes of this machine. */
const epochMs = () => performance.timeOrigin + performance.now();

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url, timeoutMs, child) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} not ready after ${timeoutMs} ms`);
    await sleep(100);
  }
}

function startChild(name, script, env, logFile, nodeArgs = []) {
  const out = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...nodeArgs, path.join(ROOT, script)], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', out, out] });
  child.on('error', (error) => log(`${name}: ${error.message}`));
  return child;
}

async function stopChild(child) {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** CPU seconds (user + system) a process has used so far, and its peak RSS in MiB. */
function processUsage(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = 100; // USER_HZ on Linux
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { cpuSeconds: (Number(stat[11]) + Number(stat[12])) / ticks, peakRssMiB: Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 102.4) / 10 };
}

const percentile = (sorted, p) => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const summary = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted[sorted.length - 1] ?? Number.NaN) };
};

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
  const req = http.request({ host: '127.0.0.1', port, method: 'PATCH', path: '${STATUS_PATH}', agent,
    headers: { 'Content-Type': 'application/json', 'Content-Length': body.length, 'X-API-Key': apiKey, 'X-Bench-Sent-At': String(epochMs()) } }, (res) => {
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

function runRawClient(port, body) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', RAW_CLIENT, String(port), String(settings.rate), String(settings.rawConnections), String(settings.rawSeconds), MERCHANT.apiKey, body], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`raw client exited with ${code}`))));
  });
}

function postJson(agent, port, pathname, body, headers) {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: 'POST', path: pathname, agent, headers: { 'Content-Type': 'application/json', 'Content-Length': payload.length, ...headers } },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function waitUntil(what, probe, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function deleteNamespace(namespace) {
  const connection = await amqp.connect(BROKER_URL);
  try {
    const channel = await connection.createChannel();
    for (const queue of ['intake-api.account-events', 'intake-api.order-events', 'status-dispatcher.account-events', 'status-dispatcher.order-events', 'webhook-sender.account-events', 'webhook-sender.order-events']) {
      await channel.deleteQueue(`${namespace}.${queue}`);
      await channel.deleteQueue(`${namespace}.${queue}.dead`);
    }
    await channel.deleteExchange(`${namespace}.courier.events`);
    await channel.deleteExchange(`${namespace}.courier.dead-letter`);
    await channel.close();
  } finally {
    await connection.close();
  }
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
      if (request.method === 'PATCH' && request.path === STATUS_PATH) {
        const sentAt = request.headers['x-bench-sent-at'];
        if (sentAt) {
          this.rawCalls += 1;
          this.rawOneWay.push(epochMs() - Number(sentAt));
        } else {
          const key = `${request.body?.orderId}:${request.body?.status}`;
          const list = this.receipts.get(key);
          if (list) list.push(now());
          else this.receipts.set(key, [now()]);
        }
        // The call log is not needed here: keep memory flat over long runs.
        if (this.calls.length > 1000) this.calls.splice(0, this.calls.length - 100);
      }
      return super.route(request);
    }
  };
}

async function bench(logFile) {
  const { SecretBox, generateEncryptionKeyEntry } = require(path.join(ROOT, 'dist/libs/crypto/src/index.js'));
  const { AmqpTransport, SUITE_TOPOLOGY } = require(path.join(ROOT, 'dist/libs/messaging/src/index.js'));
  const { PlatformDSimulator, PLATFORM_D_STATUSES } = require(path.join(ROOT, 'dist/libs/platforms/src/index.js'));
  const keys = generateEncryptionKeyEntry('bench');
  const Simulator = benchSimulator(PlatformDSimulator);
  const simulator = new Simulator({ merchants: [MERCHANT] });
  await simulator.start();
  const simulatorPort = Number(new URL(simulator.baseUrl).port);

  const dbName = `bench_push_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const namespace = `bench-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: DATABASE_SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  await admin.end();
  const dbUrl = new URL(DATABASE_SERVER);
  dbUrl.pathname = `/${dbName}`;
  const dispatcherPort = await freePort();
  let dispatcher;
  const db = new Client({ connectionString: dbUrl.toString() });
  const publisher = new AmqpTransport({ url: BROKER_URL, topology: SUITE_TOPOLOGY, connectionName: 'bench-push', namespace, logger: pino({ level: 'silent' }) });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  try {
    const nodeArgs = [];
    if (settings.cpuProf) {
      mkdirSync(settings.cpuProf, { recursive: true });
      nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${path.resolve(settings.cpuProf)}`);
    }
    dispatcher = startChild(
      'status-dispatcher',
      'dist/apps/status-dispatcher/src/main.js',
      {
        NODE_ENV: 'production',
        DATABASE_URL: dbUrl.toString(),
        RABBITMQ_URL: BROKER_URL,
        RABBITMQ_NAMESPACE: namespace,
        SECRETS_ENCRYPTION_KEYS: keys,
        STATUS_DISPATCHER_PORT: String(dispatcherPort),
        INTERNAL_API_KEYS: INTERNAL_KEY,
        PLATFORM_D_BASE_URL: simulator.baseUrl,
      },
      logFile,
      nodeArgs,
    );
    await waitForHttp(`http://127.0.0.1:${dispatcherPort}/health/ready`, 60_000, dispatcher);
    simulator.options.webhookUrl = `http://127.0.0.1:${dispatcherPort}/platforms/platform-d/orders`;
    await db.connect();
    publisher.start();
    await waitUntil('the broker connection', () => publisher.isReady(), 10_000);

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
          providerRestaurantId: MERCHANT.restaurantId,
          isActive: true,
          settings: { providerMerchantId: MERCHANT.merchantId },
          secrets: { apiKey: SecretBox.fromKeyList(keys).encrypt(MERCHANT.apiKey) },
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
          const { order, response } = await simulator.placeOrder(MERCHANT.merchantId);
          if (response.status !== 200) throw new Error(`order webhook answered ${response.status} ${JSON.stringify(response.body)}`);
          orders.push(order.id);
        }
      }),
    );

    // Baseline: the adapter's call straight to the simulator, from another process.
    const rawOrder = simulator.createOrder(MERCHANT.merchantId);
    rawOrder.status = 'accepted'; // the raw calls repeat 'accepted': answered 200 without a change
    log(`baseline: plain Node PATCH ${STATUS_PATH} to the simulator, ${settings.rate}/s for ${settings.rawSeconds} s, then ${settings.rawConnections} connections flat out for ${settings.rawSeconds} s ...`);
    const rawClient = await runRawClient(simulatorPort, JSON.stringify({ merchantId: MERCHANT.merchantId, orderId: rawOrder.id, status: 'accepted' }));
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
    const commitsBefore = Number((await db.query('SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()')).rows[0].xact_commit);
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
      const push = { orderId, action, key: `${orderId}:${PLATFORM_D_STATUSES[action]}`, measured: k >= warmupEnd, sentAt: now(), sentEpochMs: Date.now() };
      const work = postJson(agent, dispatcherPort, '/internal/orders/status', { providerOrderId: orderId, platform: 'PLATFORM_D', action }, { 'X-Internal-Api-Key': INTERNAL_KEY })
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
    const commitsAfter = Number((await db.query('SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()')).rows[0].xact_commit);

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
    // accepted (request path until the decision), accepted -> first attempt (commit, task wake-up,
    // claim), first attempt -> the simulator's receipt (adapter call).
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
    const cleanup = new Client({ connectionString: DATABASE_SERVER });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await cleanup.end();
    await deleteNamespace(namespace).catch((error) => log(`could not delete broker namespace ${namespace}: ${error.message}`));
  }
}

async function main() {
  if (settings.build) {
    const libs = readdirSync(path.join(ROOT, 'libs')).filter((name) => existsSync(path.join(ROOT, 'libs', name, 'src'))).map((name) => `libs/${name}`);
    const built = spawnSync(process.execPath, [path.join(ROOT, 'tools/build.mjs'), ...libs, 'apps/status-dispatcher'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    if (built.status !== 0) throw new Error('build failed');
  }
  const connection = await amqp.connect(BROKER_URL).catch((error) => {
    throw new Error(`RabbitMQ is needed at ${BROKER_URL} (BENCH_RABBITMQ_URL): ${error.message}`);
  });
  await connection.close();

  const logFile = path.join(os.tmpdir(), `push-bench-${Date.now()}.log`);
  const loadBefore = os.loadavg().map((load) => load.toFixed(2)).join(' ');
  log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}, load average ${loadBefore}; server logs in ${logFile}`);
  const result = await bench(logFile);
  const loadAfter = os.loadavg().map((load) => load.toFixed(2)).join(' ');
  const { raw, steady, check, breakdown } = result;
  const pass = {
    p99: steady.latency.p99 <= 100,
    exactlyOnce: check.missing === 0 && check.repeated.length === 0 && check.unexpected === 0,
  };
  const table = [
    ['', 'rate (/s)', 'p50 (ms)', 'p99 (ms)', 'max (ms)'],
    [`raw: Node PATCH -> simulator receipt, ${settings.rate}/s open loop`, `${settings.rate}`, raw.atRate.p50, raw.atRate.p99, raw.atRate.max],
    ['raw: same, round trip (answer back)', '', raw.roundTrip.p50, raw.roundTrip.p99, raw.roundTrip.max],
    [`raw: max rate, ${settings.rawConnections} keep-alive connections`, raw.maxRate, '', '', ''],
    ['push: 202 answer', steady.acceptedPerSecond, steady.answer.p50, steady.answer.p99, steady.answer.max],
    ['push -> simulator receipt', `${steady.offeredPerSecond} offered`, steady.latency.p50, steady.latency.p99, steady.latency.max],
    ['  push sent -> accepted (decision in tx)', '', breakdown.toAccepted.p50, breakdown.toAccepted.p99, breakdown.toAccepted.max],
    ['  accepted -> first attempt (commit, wake-up, claim)', '', breakdown.toAttempt.p50, breakdown.toAttempt.p99, breakdown.toAttempt.max],
    ['  first attempt -> simulator receipt (adapter call)', '', breakdown.toReceipt.p50, breakdown.toReceipt.p99, breakdown.toReceipt.max],
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
