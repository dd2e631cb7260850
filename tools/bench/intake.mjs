#!/usr/bin/env node
// Intake benchmark (npm run bench:intake): drives POST /webhook/third-party/order of the BUILT
// intake-api with autocannon (distinct orderIds, fixed duration) against a real PostgreSQL and
// RabbitMQ, and in the same run the NestJS hello-world endpoint (tools/bench/hello-app.mjs) as the
// baseline. Prints accepted orders/s, p50/p99, the ratio to the baseline and the app's peak RSS,
// then checks that every 202 became exactly one stored order (and one order.received event), and
// waits for the asynchronous processing to drain. Bounded: every phase has a duration or timeout,
// and both servers are child processes on 127.0.0.1 that are stopped at the end.
//
// Options: --duration <s> (15, per server)  --round <s> (5: the servers are loaded in alternating
// rounds of this length, so that other work on the machine weighs on both alike)
// --connections <n> (64)  --warmup <s> (3)  --redis (count the rate
// limit in Redis at REDIS_URL or redis://127.0.0.1:6379; default the PostgreSQL counter)
// --no-build  --cpu-prof <dir> (profile the intake process)  --json (one JSON line at the end)
// --request-path-only (diagnostic: no broker for intake, so no processing runs)
// Environment: BENCH_DATABASE_URL (server, default postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_RABBITMQ_URL (default amqp://guest:guest@127.0.0.1:5672).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import {
  BROKER_URL,
  build,
  commitCount,
  cpuMs,
  cpuProfArgs,
  createDatabase,
  deleteNamespace,
  freePort,
  loadAverage,
  log,
  machineDescription,
  newNamespace,
  parseArgs,
  peakRssMiB,
  requireBroker,
  sleep,
  startChild,
  stopChild,
  waitForHttp,
} from './lib.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const { Client } = require('pg');

const { option, flag } = parseArgs();

const settings = {
  duration: Number(option('duration', 15)),
  connections: Number(option('connections', 64)),
  warmup: Number(option('warmup', 3)),
  round: Number(option('round', 5)),
  redis: flag('redis'),
  build: !flag('no-build'),
  cpuProf: option('cpu-prof', undefined),
  json: flag('json'),
  // Diagnostic: the intake app gets an unreachable broker, so only the request path runs (the
  // events wait in the outbox) and its cost can be told apart from the asynchronous processing.
  requestPathOnly: flag('request-path-only'),
};
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ORDER_PATH = '/webhook/third-party/order';

/** One autocannon run; when `latencies` is given, every response time (ms) is appended to it. */
function run(options, latencies) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    if (latencies) instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
}

/** Merges autocannon results of several rounds: counts add up, latency percentiles from all samples. */
class Totals {
  constructor() {
    this.ok = 0;
    this.seconds = 0;
    this.cpuMs = 0;
    this.errors = 0;
    this.timeouts = 0;
    this.non2xx = 0;
    this.latencies = [];
  }

  add(result, okCount, seconds, cpu) {
    this.ok += okCount;
    this.seconds += seconds;
    this.cpuMs += cpu;
    this.errors += result.errors;
    this.timeouts += result.timeouts;
    this.non2xx += result.non2xx;
  }

  summary() {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const at = (q) => (sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10 : Number.NaN);
    return {
      okPerSecond: Math.round(this.ok / this.seconds),
      p50: at(0.5),
      p99: at(0.99),
      max: sorted.length ? Math.round(sorted.at(-1)) : Number.NaN,
      cpuMsPerRequest: Math.round((this.cpuMs / this.ok) * 1000) / 1000,
      errors: this.errors,
      timeouts: this.timeouts,
      non2xx: this.non2xx,
    };
  }
}

async function startBaseline(logFile) {
  const port = await freePort();
  const child = startChild('hello', 'tools/bench/hello-app.mjs', { PORT: String(port), NODE_ENV: 'production' }, logFile);
  await waitForHttp(`http://127.0.0.1:${port}/`, 30_000, child);
  const totals = new Totals();
  const round = async (seconds, measured) => {
    const cpu0 = cpuMs(child.pid);
    const result = await run({ url: `http://127.0.0.1:${port}/`, connections: settings.connections, duration: seconds }, measured ? totals.latencies : undefined);
    if (measured) totals.add(result, result['2xx'], seconds, cpuMs(child.pid) - cpu0);
  };
  return { child, round, totals };
}

async function startIntake(logFile) {
  const database = await createDatabase('bench_intake');
  const namespace = newNamespace();
  const port = await freePort();
  const env = {
    NODE_ENV: 'production',
    DATABASE_URL: database.url,
    RABBITMQ_URL: settings.requestPathOnly ? 'amqp://127.0.0.1:1' : BROKER_URL,
    RABBITMQ_NAMESPACE: namespace,
    INTAKE_PORT: String(port),
    // The benchmark measures capacity, not the limit: every request is still counted.
    INTAKE_RATE_LIMIT_PER_MINUTE: '1000000000',
    REDIS_URL: settings.redis ? REDIS_URL : '',
    GEOCODER_URL: '',
  };
  const child = startChild('intake-api', 'dist/apps/intake-api/src/main.js', env, logFile, cpuProfArgs(settings.cpuProf));
  const db = new Client({ connectionString: database.url });
  // PostgreSQL transactions (each statement outside a transaction is one) per stored order, from the
  // start to the end of the drain: a count of round trips, whatever else the machine is doing.
  let commitsAtStart = 0;
  const cleanup = async () => {
    await db.end().catch(() => undefined);
    await stopChild(child);
    await database.drop();
    await deleteNamespace(namespace);
  };
  try {
    await waitForHttp(`http://127.0.0.1:${port}/health/ready`, 60_000, child);
    await db.connect();
    commitsAtStart = await commitCount(db);
  } catch (error) {
    await cleanup();
    throw error;
  }
  const apiKey = `cik_${randomBytes(32).toString('base64url')}`;
  const restaurantId = `rest_${randomBytes(15).toString('base64url')}`;
  const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
  await db.query(
    `INSERT INTO intake.accounts (restaurant_id, status, api_key_hash, api_secret_hash, third_party_integration_id,
      third_party_provider_restaurant_id, third_party_active, version) VALUES ($1, 'active', $2, $3, $4, 'bench-pos', true, 1)`,
    [restaurantId, sha256(apiKey), sha256('unused'), randomUUID()],
  );
  const template = JSON.stringify({
    orderId: '__ORDER_ID__',
    restaurantId,
    customerName: 'Ayşe Yılmaz',
    customerPhone: '+905321234567',
    deliveryAddress: 'Bağdat Cd. 10, Kadıköy, İstanbul',
    deliveryLatitude: 40.9812,
    deliveryLongitude: 29.0567,
    paymentMethod: 'CARD_POS',
    subtotal: 300,
    deliveryFee: 20,
    total: 320,
    currency: 'TRY',
    items: [
      { productCode: 'SKU-1', productName: 'Adana kebab', quantity: 2, unitPrice: 130, totalAmount: 260 },
      { productCode: 'SKU-7', productName: 'Ayran', quantity: 2, unitPrice: 20, totalAmount: 40 },
    ],
  });
  const accepted = new Set();
  const refused = {};
  let sequence = 0;
  const totals = new Totals();
  const round = async (seconds, measured) => {
    const before = accepted.size;
    const cpu0 = cpuMs(child.pid);
    const result = await run(
      {
        url: `http://127.0.0.1:${port}`,
        connections: settings.connections,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            path: ORDER_PATH,
            headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
            // A distinct orderId per request.
            setupRequest: (request) => ({ ...request, body: template.replace('__ORDER_ID__', `order-${(sequence += 1)}`) }),
            onResponse: (status, body) => {
              if (status === 202) accepted.add(JSON.parse(body).orderId);
              else refused[status] = (refused[status] ?? 0) + 1;
            },
          },
        ],
      },
      measured ? totals.latencies : undefined,
    );
    if (measured) totals.add(result, accepted.size - before, seconds, cpuMs(child.pid) - cpu0);
  };

  const check = async () => {
    // Requests cut off by the end of a round may still commit: wait until the count stands still.
    let count = -1;
    for (let stable = 0; stable < 2; ) {
      await sleep(500);
      const now = (await db.query('SELECT count(*)::int AS n FROM intake.orders')).rows[0].n;
      stable = now === count ? stable + 1 : 0;
      count = now;
    }
    // Every 202 is a stored order, exactly once, with exactly one order.received.
    const stored = new Set((await db.query('SELECT order_id FROM intake.orders WHERE restaurant_id = $1', [restaurantId])).rows.map((row) => row.order_id));
    const lost = [...accepted].filter((orderId) => !stored.has(orderId));
    const storedWithout202 = [...stored].filter((orderId) => !accepted.has(orderId)).length;
    const events = await db.query(
      `SELECT count(*) FILTER (WHERE n <> 1)::int AS wrong, count(*)::int AS orders FROM
        (SELECT payload->>'orderId' AS order_id, count(*) AS n FROM intake.outbox_messages WHERE routing_key = 'order.received' GROUP BY 1) counts`,
    );
    // The asynchronous half: how long until every stored order is processed.
    const drainStarted = Date.now();
    let pending = Number.NaN;
    while (!settings.requestPathOnly && Date.now() - drainStarted < 180_000) {
      pending = (await db.query(`SELECT count(*)::int AS n FROM intake.orders WHERE state = 'ACCEPTED'`)).rows[0].n;
      if (pending === 0) break;
      await sleep(250);
    }
    const drainSeconds = (Date.now() - drainStarted) / 1000;
    const commits = (await commitCount(db)) - commitsAtStart;
    const [{ processed, created, local }] = (
      await db.query(
        `SELECT (SELECT count(*)::int FROM intake.orders WHERE state = 'PROCESSED') AS processed,
                (SELECT count(*)::int FROM intake.outbox_messages WHERE routing_key = 'order.created') AS created,
                -- an order.received marked done without ever being sent: processed by the accepting process (fast path)
                (SELECT count(*)::int FROM intake.outbox_messages WHERE routing_key = 'order.received' AND published_at IS NOT NULL AND attempts = 0) AS local`,
      )
    ).rows;
    return {
      accepted: accepted.size,
      stored: stored.size,
      lost: lost.length,
      duplicatedEvents: events.rows[0].wrong,
      eventOrders: events.rows[0].orders,
      storedWithout202,
      pendingAfterDrain: pending,
      processed,
      orderCreatedEvents: created,
      processedLocally: local,
      transactionsPerOrder: Math.round((commits / Math.max(1, stored.size)) * 100) / 100,
      drainSeconds,
      peakRssMiB: peakRssMiB(child.pid),
      refused,
    };
  };
  return { child, round, totals, check, cleanup };
}

async function main() {
  if (settings.build) build();
  await requireBroker();

  const logFile = path.join(os.tmpdir(), `intake-bench-${Date.now()}.log`);
  const rounds = Math.max(1, Math.round(settings.duration / settings.round));
  const roundSeconds = settings.duration / rounds;
  log(`machine: ${machineDescription()}, load average ${loadAverage(1)}`);
  log(
    `settings: ${settings.connections} connections, ${settings.duration} s per server in ${rounds} alternating rounds (+${settings.warmup} s warm-up each), ` +
      `rate-limit store ${settings.redis ? 'Redis' : 'PostgreSQL'}; server logs in ${logFile}`,
  );
  const baseline = await startBaseline(logFile);
  let intake;
  try {
    intake = await startIntake(logFile);
  } catch (error) {
    await stopChild(baseline.child);
    throw error;
  }
  let check;
  try {
    if (settings.warmup > 0) {
      await baseline.round(settings.warmup, false);
      await intake.round(settings.warmup, false);
    }
    // Alternating rounds: background load on a shared machine affects both servers alike.
    for (let index = 0; index < rounds; index += 1) {
      log(`round ${index + 1}/${rounds}: baseline, then intake (${roundSeconds} s each)`);
      await baseline.round(roundSeconds, true);
      await intake.round(roundSeconds, true);
    }
    baseline.totals.peakRssMiB = peakRssMiB(baseline.child.pid);
    check = await intake.check();
  } finally {
    await stopChild(baseline.child);
    await intake.cleanup();
  }

  const b = baseline.totals.summary();
  const i = intake.totals.summary();
  const ratio = Math.round((i.okPerSecond / b.okPerSecond) * 100) / 100;
  const pass = {
    ratio: ratio >= 0.5,
    p99: i.p99 <= 50,
    exactlyOnce: check.lost === 0 && check.duplicatedEvents === 0 && check.eventOrders === check.stored && check.stored === check.accepted + check.storedWithout202,
  };
  const rows = [
    ['', 'baseline (hello world)', 'intake (POST order)'],
    ['2xx per second', b.okPerSecond, i.okPerSecond],
    ['latency p50 (ms)', b.p50, i.p50],
    ['latency p99 (ms)', b.p99, i.p99],
    ['latency max (ms)', b.max, i.max],
    ['CPU per 2xx (ms, server process)', b.cpuMsPerRequest, i.cpuMsPerRequest],
    ['errors / timeouts / non-2xx', `${b.errors} / ${b.timeouts} / ${b.non2xx}`, `${i.errors} / ${i.timeouts} / ${i.non2xx}`],
    ['peak RSS (MiB)', baseline.totals.peakRssMiB, check.peakRssMiB],
  ];
  const width = [33, 24, 22];
  console.log(rows.map((row) => row.map((cell, index) => String(cell).padEnd(width[index])).join(' | ')).join('\n'));
  console.log(`ratio intake/baseline: ${ratio} (target >= 0.5: ${pass.ratio ? 'met' : 'MISSED'}); p99 ${i.p99} ms (target <= 50: ${pass.p99 ? 'met' : 'MISSED'})`);
  console.log(
    `exactly once: ${check.accepted} orders got 202, ${check.stored} stored, ${check.lost} lost, ${check.duplicatedEvents} with other than one order.received, ` +
      `${check.storedWithout202} stored whose answer was cut off by the end of a round -> ${pass.exactlyOnce ? 'OK' : 'FAILED'}`,
  );
  console.log(
    `processing: ${check.processed} processed (${check.orderCreatedEvents} order.created; ${check.processedLocally} in the accepting process, the rest through the broker), ${check.pendingAfterDrain} still pending, ` +
      `drained ${check.drainSeconds.toFixed(1)} s after the load stopped; ${check.transactionsPerOrder} PostgreSQL transactions per stored order (the bench's own queries included)`,
  );
  if (Object.keys(check.refused).length > 0) console.log(`non-202 answers: ${JSON.stringify(check.refused)}`);
  if (settings.json) console.log(JSON.stringify({ settings, machine: { cores: os.cpus().length, node: process.version }, baseline: b, intake: i, check, ratio, pass }));
  if (!pass.exactlyOnce) process.exitCode = 1;
}

main().catch((error) => {
  log(`bench:intake failed: ${error.stack ?? error.message}`);
  process.exitCode = 1;
});
