#!/usr/bin/env node
// `npm test`: builds (some tests start the built apps), finds PostgreSQL and RabbitMQ, then runs the
// unit tests, the medium tests (services on PostgreSQL, no app or broker) and the integration tests
// (serially) and prints one closing line with the counts.
// - PostgreSQL: DATABASE_URL, else 127.0.0.1:5432, else an embedded server started for the run
//   (on TEST_PG_PORT, default 54330).
// - RabbitMQ: RABBITMQ_URL, else 127.0.0.1:5672; when none answers the broker tests are skipped
//   with one line saying so, except under CI=true, where a missing broker fails the run.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanupTestTopology, describeCleanup } from './broker/cleanup.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const extraArgs = process.argv.slice(2);

function reachable(url, fallbackPort) {
  const parsed = new URL(url);
  const port = Number(parsed.port || fallbackPort);
  return new Promise((resolve) => {
    const socket = net.connect({ host: parsed.hostname, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function run(command, args, env) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  return result.status ?? 1;
}

const env = { ...process.env };
if (run(process.execPath, ['tools/build.mjs'], env) !== 0) process.exit(1);

let embedded;
if (!env.DATABASE_URL) {
  if (await reachable('postgres://127.0.0.1:5432', 5432)) {
    env.DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
  } else {
    // CommonJS built by SWC: its exports are not seen as named ESM exports (import() gave undefined), so require it.
    const { startEmbeddedPostgres, EmbeddedPostgresPortInUseError } = createRequire(import.meta.url)(path.join(root, 'dist/libs/persistence/src/embedded-postgres.js'));
    console.log('tests: no PostgreSQL at 127.0.0.1:5432; starting an embedded server for this run');
    const dataDir = path.join(root, '.local/test-pgdata');
    mkdirSync(path.dirname(dataDir), { recursive: true });
    // Its own port and data directory (superuser password in .local/test-pgdata-passwords.json), beside `npm start`'s.
    const port = Number(env.TEST_PG_PORT || 54330);
    try {
      embedded = await startEmbeddedPostgres({ dataDir, port, portSetting: 'TEST_PG_PORT', databases: [] });
    } catch (error) {
      if (!(error instanceof EmbeddedPostgresPortInUseError)) throw error;
      console.error(`tests: ${error.message}`);
      process.exit(1);
    }
    // The tests create a database each: the superuser's URL.
    env.DATABASE_URL = embedded.url('postgres');
  }
}

/** Whether RabbitMQ completes an AMQP handshake (a TCP accept alone is not enough: see tools/broker/cleanup.mjs). */
async function amqpHandshake(url) {
  const { default: amqp } = await import('amqplib');
  try {
    const connection = await amqp.connect(url, { timeout: 10_000 });
    await connection.close();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const brokerUrl = env.RABBITMQ_URL || 'amqp://guest:guest@127.0.0.1:5672';
// Names the broker namespaces of this run, which are deleted when it ends.
env.TEST_RUN_ID = randomBytes(4).toString('hex');
let brokerProblem;
if (await reachable(brokerUrl, 5672)) {
  // Earlier runs that were killed, or benchmarks, may have left queues behind; too many of them stop
  // a local broker from accepting connections. Runs of the last hour may still be going: kept.
  console.log(describeCleanup(cleanupTestTopology({ olderThanMs: 60 * 60_000 }), 'test namespaces older than 60 minutes'));
  brokerProblem = await amqpHandshake(brokerUrl);
  if (brokerProblem) {
    // A broker that accepts TCP but not AMQP is (on a test machine) usually one with too many quorum
    // queues: every connection hangs anyway, so nothing still running can lose by their removal.
    console.log(`tests: RabbitMQ at ${new URL(brokerUrl).host} accepts TCP but not an AMQP connection (${brokerProblem}); removing all test namespaces`);
    console.log(describeCleanup(cleanupTestTopology({ all: true }), 'all test namespaces'));
    brokerProblem = await amqpHandshake(brokerUrl);
  }
} else {
  brokerProblem = 'not reachable';
}
if (!brokerProblem) {
  env.RABBITMQ_URL = brokerUrl;
  env.BROKER_TESTS = 'run';
} else if (env.CI === 'true') {
  console.error(`tests: RabbitMQ at ${new URL(brokerUrl).host}: ${brokerProblem}; under CI=true the broker tests must run`);
  process.exit(1);
} else {
  env.BROKER_TESTS = 'skip';
  console.log(`tests: RabbitMQ at ${new URL(brokerUrl).host}: ${brokerProblem}; broker tests skipped`);
}
// Tests start apps themselves; the URL above is for the broker tests, not a default for every app.
env.TEST_RABBITMQ_URL = env.RABBITMQ_URL;
delete env.RABBITMQ_URL;

const reports = path.join(root, 'tmp/test-results');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const jest = path.join(root, 'node_modules/jest/bin/jest.js');
// --selectProjects takes every word after it: it comes first, so extra arguments (a test path) stay test paths.
const common = ['-c', 'jest.config.js', '--ci', '--json'];
const unit = run(process.execPath, [jest, '--selectProjects', 'unit', ...common, '--outputFile', path.join(reports, 'unit.json'), ...extraArgs], env);
// A database per test file, no broker: files may run side by side.
const medium = run(process.execPath, [jest, '--selectProjects', 'medium', ...common, '--outputFile', path.join(reports, 'medium.json'), '--forceExit', ...(extraArgs.length > 0 ? ['--passWithNoTests'] : []), ...extraArgs], env);
// Every answer the apps give during the integration tests is logged, then checked against docs/openapi.
const responseLog = path.join(reports, 'responses');
// --forceExit: a test that leaves a socket open must not hang CI; open handles are still reported by jest.
const integration = run(
  process.execPath,
  [jest, '--selectProjects', 'integration', ...common, '--outputFile', path.join(reports, 'integration.json'), '--runInBand', '--forceExit', ...extraArgs],
  { ...env, OPENAPI_RESPONSE_LOG_DIR: responseLog },
);
await embedded?.stop();
if (env.BROKER_TESTS === 'run') console.log(describeCleanup(cleanupTestTopology({ runId: env.TEST_RUN_ID }), `this run's namespaces, r${env.TEST_RUN_ID}`));

let passed = 0;
let failed = 0;
let skipped = 0;
for (const name of ['unit.json', 'medium.json', 'integration.json']) {
  const file = path.join(reports, name);
  if (!existsSync(file)) continue;
  const result = JSON.parse(readFileSync(file, 'utf8'));
  passed += result.numPassedTests;
  failed += result.numFailedTests + (result.numRuntimeErrorTestSuites ?? 0);
  skipped += result.numPendingTests + result.numTodoTests;
}
// The published contract: a response of a documented operation that its document does not allow fails the run.
mkdirSync(responseLog, { recursive: true });
const contract = run(process.execPath, ['tools/openapi-responses.mjs', responseLog], env);
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(unit !== 0 || medium !== 0 || integration !== 0 || contract !== 0 ? 1 : 0);
