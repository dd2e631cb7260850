#!/usr/bin/env node
// Removes the RabbitMQ queues and exchanges that test and benchmark runs leave behind.
//
// Why: every test namespace declares a dozen quorum queues, and a local RabbitMQ with the usual file
// limit (1024) stops accepting connections after a few hundred of them (the AMQP handshake never
// completes, amqplib: "connect ETIMEDOUT"; the threshold: docs/operations.md).
//
// Test namespaces are `<prefix>-<Date.now() base 36>-<6 hex>[-r<run id>]` (libs/testing
// testNamespace, tools/bench). Listing and deleting goes through `rabbitmqctl` (Erlang distribution,
// not AMQP), so it also works while the broker refuses AMQP connections. Without rabbitmqctl (a
// broker in a container, a non-root user without the Erlang cookie) it says so and does nothing.
//
// CLI: node tools/broker/cleanup.mjs [--older-than-minutes N | --all | --run <id> | --namespace <ns>]
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

const NAMESPACE = /^([a-z][a-z0-9]*)-([0-9a-z]{8,9})-([0-9a-f]{6})(?:-r([0-9a-z]{4,12}))?\./;

/** Parses a queue or exchange name of a test namespace, or undefined for any other name. */
export function parseTestName(name) {
  const match = NAMESPACE.exec(name);
  if (!match) return undefined;
  const createdAt = parseInt(match[2], 36);
  // Sanity: a base-36 millisecond timestamp after 2020 and not in the future (a day of clock skew allowed).
  if (!(createdAt > 1_577_836_800_000 && createdAt < Date.now() + 86_400_000)) return undefined;
  return { namespace: name.slice(0, match[0].length - 1), createdAt, runId: match[4] };
}

/** Which of `names` a cleanup selects: `{ all }`, `{ runId }`, `{ namespace }` or `{ olderThanMs, now }`. */
export function selectTestNames(names, selection) {
  return names.filter((name) => {
    const parsed = parseTestName(name);
    if (!parsed) return false;
    if (selection.all) return true;
    if (selection.runId) return parsed.runId === selection.runId;
    if (selection.namespace) return parsed.namespace === selection.namespace;
    return (selection.now ?? Date.now()) - parsed.createdAt > selection.olderThanMs;
  });
}

function rabbitmqctl(args, timeoutMs = 120_000) {
  const result = spawnSync('rabbitmqctl', args, { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  if (result.error || result.status !== 0) {
    const reason = result.error ? result.error.message : (result.stderr || result.stdout || '').trim().split('\n').pop();
    return { ok: false, reason: reason || `exit ${result.status}` };
  }
  return { ok: true, stdout: result.stdout };
}

const erlangBinaries = (names) => `[${names.map((name) => `<<"${name.replace(/["\\]/g, '')}">>`).join(',')}]`;

/**
 * Deletes the selected test queues and exchanges. Returns `{ queues, exchanges }` deleted, or
 * `{ skipped: reason }` when rabbitmqctl is not usable here.
 */
export function cleanupTestTopology(selection) {
  const queues = rabbitmqctl(['-q', 'list_queues', '--no-table-headers', 'name']);
  if (!queues.ok) return { skipped: `rabbitmqctl list_queues failed: ${queues.reason}` };
  const exchanges = rabbitmqctl(['-q', 'list_exchanges', '--no-table-headers', 'name']);
  if (!exchanges.ok) return { skipped: `rabbitmqctl list_exchanges failed: ${exchanges.reason}` };
  const lines = (text) => text.split('\n').map((line) => line.trim()).filter(Boolean);
  const doomedQueues = selectTestNames(lines(queues.stdout), selection);
  const doomedExchanges = selectTestNames(lines(exchanges.stdout), selection);
  let deletedQueues = 0;
  let deletedExchanges = 0;
  for (let i = 0; i < doomedQueues.length; i += 500) {
    const batch = doomedQueues.slice(i, i + 500);
    const expression =
      `Names = ${erlangBinaries(batch)}, ` +
      `Doomed = [Q || Q <- rabbit_amqqueue:list(), lists:member(element(4, amqqueue:get_name(Q)), Names)], ` +
      `[rabbit_amqqueue:delete(Q, false, false, <<"test-cleanup">>) || Q <- Doomed], length(Doomed).`;
    const result = rabbitmqctl(['eval', expression]);
    if (!result.ok) return { skipped: `deleting queues failed: ${result.reason}`, queues: deletedQueues };
    deletedQueues += Number.parseInt(result.stdout.trim(), 10) || 0;
  }
  for (let i = 0; i < doomedExchanges.length; i += 500) {
    const batch = doomedExchanges.slice(i, i + 500);
    const expression =
      `[rabbit_exchange:delete(rabbit_misc:r(<<"/">>, exchange, N), false, <<"test-cleanup">>) || N <- ${erlangBinaries(batch)}], ${batch.length}.`;
    const result = rabbitmqctl(['eval', expression]);
    if (!result.ok) return { skipped: `deleting exchanges failed: ${result.reason}`, queues: deletedQueues };
    deletedExchanges += batch.length;
  }
  return { queues: deletedQueues, exchanges: deletedExchanges };
}

/** Describes a cleanup result in one line. */
export function describeCleanup(result, what) {
  if (result.skipped) return `broker cleanup (${what}) skipped: ${result.skipped}`;
  return `broker cleanup (${what}): deleted ${result.queues} queues and ${result.exchanges} exchanges`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  let selection = { olderThanMs: 60 * 60_000 };
  let what = 'test namespaces older than 60 minutes';
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--all') {
      selection = { all: true };
      what = 'all test namespaces';
    } else if (args[i] === '--run') {
      selection = { runId: args[++i] };
      what = `run ${selection.runId}`;
    } else if (args[i] === '--namespace') {
      // One test's own namespace: a test file cleans up after itself without touching its run's others.
      selection = { namespace: args[++i] };
      what = `namespace ${selection.namespace}`;
    } else if (args[i] === '--older-than-minutes') {
      const minutes = Number(args[++i]);
      if (!Number.isFinite(minutes) || minutes < 0) throw new Error('--older-than-minutes needs a number');
      selection = { olderThanMs: minutes * 60_000 };
      what = `test namespaces older than ${minutes} minutes`;
    } else {
      console.error(`unknown argument ${args[i]}; usage: tools/broker/cleanup.mjs [--older-than-minutes N | --all | --run <id> | --namespace <ns>]`);
      process.exit(2);
    }
  }
  const result = cleanupTestTopology(selection);
  console.log(describeCleanup(result, what));
}
