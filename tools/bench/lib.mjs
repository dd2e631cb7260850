// Shared helpers of the benchmark scripts (intake.mjs, webhooks.mjs, push.mjs): option parsing,
// building, the built apps as child processes, a fresh database and broker namespace per run, and
// the readings (CPU, RSS, transaction counts, load average, percentiles) they report.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
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

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The PostgreSQL server the benchmarks create their databases on (BENCH_DATABASE_URL). */
export const DATABASE_SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The RabbitMQ broker (BENCH_RABBITMQ_URL). */
export const BROKER_URL = process.env.BENCH_RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

/** Command-line options: `option('rate', 200)` is the value after `--rate` (or the fallback); `flag('json')` is whether `--json` is given. */
export function parseArgs(args = process.argv.slice(2)) {
  return {
    option: (name, fallback) => {
      const index = args.indexOf(`--${name}`);
      return index === -1 ? fallback : args[index + 1];
    },
    flag: (name) => args.includes(`--${name}`),
  };
}

/** A line on stderr (progress; the results go to stdout). */
export const log = (line) => process.stderr.write(`${line}\n`);
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** This process's monotonic clock, in ms. */
export const now = () => performance.now();

/** Builds with tools/build.mjs (`targets` such as `apps/status-dispatcher`; none: everything). */
export function build(targets = []) {
  const built = spawnSync(process.execPath, [path.join(ROOT, 'tools/build.mjs'), ...targets], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) throw new Error('build failed');
}

/** Every library as a build target (`libs/<name>`). */
export function allLibs() {
  return readdirSync(path.join(ROOT, 'libs'))
    .filter((name) => existsSync(path.join(ROOT, 'libs', name, 'src')))
    .map((name) => `libs/${name}`);
}

/** Fails with a clear message when the broker cannot be reached. */
export async function requireBroker() {
  const connection = await amqp.connect(BROKER_URL).catch((error) => {
    throw new Error(`RabbitMQ is needed at ${BROKER_URL} (BENCH_RABBITMQ_URL): ${error.message}`);
  });
  await connection.close();
}

/** `N cores (model), N GiB, node vX`: the start of each script's machine line. */
export function machineDescription() {
  return `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`;
}

/** The 1, 5 and 15 minute load averages, space-separated, with `digits` decimals. */
export const loadAverage = (digits) => os.loadavg().map((load) => load.toFixed(digits)).join(' ');

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Waits until `url` answers 2xx; fails when `child` exits first or after `timeoutMs`. */
export async function waitForHttp(url, timeoutMs, child) {
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

/** Waits until `probe()` is truthy, checking every 100 ms; fails after `timeoutMs`. */
export async function waitUntil(what, probe, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Starts `node [nodeArgs] <ROOT>/<script>` with `env` added, its output appended to `logFile`. */
export function startChild(name, script, env, logFile, nodeArgs = []) {
  const out = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...nodeArgs, path.join(ROOT, script)], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', out, out] });
  child.on('error', (error) => log(`${name}: ${error.message}`));
  return child;
}

/** SIGTERM, then SIGKILL if the child has not exited within 15 s. */
export async function stopChild(child) {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** Node arguments that write a CPU profile into `dir` (created); none when `dir` is not given. */
export function cpuProfArgs(dir) {
  // BENCH_NODE_ARGS: extra flags for the server under test, e.g. "--trace-gc" (not allowed in NODE_OPTIONS).
  const extra = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  if (!dir) return extra;
  mkdirSync(dir, { recursive: true });
  return [...extra, '--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`];
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU time (user + system) a process has used, in ms: comparable even when other work shares the machine. */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** Peak resident set size of a process (VmHWM), in MiB (NaN if not found). */
export function peakRssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN);
  return Math.round((kib / 1024) * 10) / 10;
}

/** CPU seconds (user + system) a process has used so far, and its peak RSS in MiB. */
export function processUsage(pid) {
  return { cpuSeconds: cpuMs(pid) / 1000, peakRssMiB: peakRssMiB(pid) };
}

/** Nearest-rank percentile `p` (0-100) of an ascending array; NaN when empty. */
export const percentile = (sorted, p) => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
/** `value` rounded to `digits` decimals. */
export const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
/** Count, p50, p99 and max (ms, one decimal) of unsorted values. */
export const summary = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted[sorted.length - 1] ?? Number.NaN) };
};

/** Transactions committed so far in the database `db` is connected to (pg_stat_database). */
export async function commitCount(db) {
  return Number((await db.query('SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()')).rows[0].xact_commit);
}

/** A fresh database `<prefix>_<time>_<random>` on DATABASE_SERVER: its name, its URL and `drop()`. */
export async function createDatabase(prefix) {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: DATABASE_SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(DATABASE_SERVER);
  url.pathname = `/${name}`;
  const drop = async () => {
    const dropper = new Client({ connectionString: DATABASE_SERVER });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await dropper.end();
  };
  return { name, url: url.toString(), drop };
}

/** A fresh broker namespace name (`bench-<time>-<random>`). */
export const newNamespace = () => `bench-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;

/** Deletes the suite's queues and exchanges of `namespace` from the broker; failures are logged, not thrown. */
export async function deleteNamespace(namespace) {
  try {
    const connection = await amqp.connect(BROKER_URL);
    try {
      const channel = await connection.createChannel();
      for (const queue of ['intake-api.account-events', 'intake-api.order-events', 'status-dispatcher.account-events', 'status-dispatcher.order-events', 'webhook-sender.account-events', 'webhook-sender.order-events', 'webhook-sender.restaurant-events']) {
        await channel.deleteQueue(`${namespace}.${queue}`);
        await channel.deleteQueue(`${namespace}.${queue}.dead`);
      }
      await channel.deleteExchange(`${namespace}.courier.events`);
      await channel.deleteExchange(`${namespace}.courier.dead-letter`);
      await channel.close();
    } finally {
      await connection.close();
    }
  } catch (error) {
    log(`could not delete broker namespace ${namespace}: ${error.message}`);
  }
}

/** POSTs `body` as JSON to 127.0.0.1:`port` through `agent`; resolves to the status and the answer's body. */
export function postJson(agent, port, pathname, body, headers) {
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

/** Runs `node -e <source> ...args` and resolves to what it printed on stdout (rejects on a non-zero exit). */
export function runNodeScript(source, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', source, ...args.map(String)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`raw client exited with ${code}`))));
  });
}

/** A built library of this repository (`dist/libs/<name>`, or its secondary entry point `entry`; run a build first). */
export function requireDist(name, entry = '') {
  require('reflect-metadata'); // the dist libs carry decorators
  const folder = path.join(ROOT, 'dist/libs', name, 'src', entry, 'index.js');
  return require(entry && !existsSync(folder) ? path.join(ROOT, 'dist/libs', name, 'src', `${entry}.js`) : folder);
}

/** A publisher on the suite's topology in `namespace` (the messaging lib's AmqpTransport, silent); start it with `startPublisher`. */
export function createPublisher(connectionName, namespace) {
  const { AmqpTransport, SUITE_TOPOLOGY } = requireDist('messaging');
  return new AmqpTransport({ url: BROKER_URL, topology: SUITE_TOPOLOGY, connectionName, namespace, logger: require('pino')({ level: 'silent' }) });
}

/** Starts `publisher` and waits (10 s at most) until it is connected. */
export async function startPublisher(publisher) {
  publisher.start();
  await waitUntil('the broker connection', () => publisher.isReady(), 10_000);
}
