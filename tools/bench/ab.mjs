#!/usr/bin/env node
// A/B benchmark (npm run bench:ab): runs one bench (intake, webhooks or push) alternately from two
// source trees, A, B, A, B, ..., so that whatever else the machine does weighs on both alike. Each
// run is that tree's own tools/bench/<bench>.mjs with --no-build --json, from that tree (its dist/),
// one at a time under `flock /tmp/bench.lock` when flock exists. Prints each pair's headline figures
// with the 1-minute load average at its start, and the median ratio B/A of each figure. Exit 1 if a
// run failed or its exactness check did.
//
// Usage: node tools/bench/ab.mjs --a <dir> --b <dir> --bench intake|webhooks|push [--rounds 3]
//   [--build] (node tools/build.mjs in each tree first) [--a-env K=V,K=V] [--b-env K=V,...]
//   [--out <file>] (the runs as JSON) [-- <options for the bench, e.g. --duration 10>]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { log, round } from './lib.mjs';

const separator = process.argv.indexOf('--');
const own = separator === -1 ? process.argv.slice(2) : process.argv.slice(2, separator);
const benchArgs = separator === -1 ? [] : process.argv.slice(separator + 1);
const option = (name, fallback) => {
  const index = own.indexOf(`--${name}`);
  return index === -1 ? fallback : own[index + 1];
};
if (benchArgs.some((arg) => ['--a', '--b', '--bench', '--rounds', '--out', '--a-env', '--b-env', '--build'].includes(arg))) {
  throw new Error("bench:ab's own options go before `--`; what follows `--` is passed to the bench");
}
const envOf = (text) => Object.fromEntries((text ?? '').split(',').filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));

/** Per bench: the headline figures of a run's JSON (name -> value; `higher` says which way is better) and its exactness check. */
const BENCHES = {
  intake: {
    figures: (r) => ({ 'intake 202/s': r.intake.okPerSecond, 'baseline 2xx/s': r.baseline.okPerSecond, ratio: r.ratio, 'intake p99 ms': r.intake.p99, 'intake CPU ms/202': r.intake.cpuMsPerRequest, 'tx/order': r.check.transactionsPerOrder }),
    higher: { 'intake 202/s': true, 'baseline 2xx/s': true, ratio: true },
    exact: (r) => r.pass.exactlyOnce && r.check.pendingAfterDrain === 0,
  },
  webhooks: {
    figures: (r) => ({
      'deliveries/s': r.capacity.deliveriesPerSecond,
      'raw POSTs/s': r.raw.separate,
      ratio: r.ratio,
      'steady p50 ms': r.steady.p50,
      'steady p99 ms': r.steady.p99,
      'sender CPU ms/delivery': r.capacity.senderCpuMsPerDelivery,
      'dispatcher CPU ms/transition': r.steady.dispatcherCpuMsPerTransition,
      'tx/delivery': r.capacity.transactionsPerDelivery,
    }),
    higher: { 'deliveries/s': true, 'raw POSTs/s': true, ratio: true },
    exact: (r) => r.pass.complete && r.receiver.duplicates === 0,
  },
  push: {
    figures: (r) => ({
      'push->platform p50 ms': r.steady.latency.p50,
      'push->platform p99 ms': r.steady.latency.p99,
      '202 p99 ms': r.steady.answer.p99,
      'dispatcher CPU ms/push': r.steady.dispatcherCpuMsPerPush,
      'tx/push': r.steady.transactionsPerPush,
      'late sends': r.steady.lateSends,
    }),
    higher: {},
    exact: (r) => r.pass.exactlyOnce,
  },
};

const settings = {
  a: path.resolve(option('a', '.')),
  b: path.resolve(option('b', '.')),
  bench: option('bench', 'intake'),
  rounds: Number(option('rounds', 3)),
  build: own.includes('--build'),
  env: { A: envOf(option('a-env')), B: envOf(option('b-env')) },
  out: option('out', undefined),
};
const spec = BENCHES[settings.bench];
if (!spec) throw new Error(`--bench must be one of ${Object.keys(BENCHES).join(', ')}`);
for (const dir of [settings.a, settings.b]) {
  if (!existsSync(path.join(dir, 'tools/bench', `${settings.bench}.mjs`))) throw new Error(`${dir} has no tools/bench/${settings.bench}.mjs`);
}
const revision = (dir) => spawnSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim() || '?';
const dirty = (dir) => spawnSync('git', ['-C', dir, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).stdout.trim() !== '';
const hasFlock = spawnSync('flock', ['--version']).status === 0;

/** One run of the bench from `dir`; resolves to its JSON result, the load at its start and its exit code. */
function runOnce(label, dir, env) {
  const script = [process.execPath, path.join(dir, 'tools/bench', `${settings.bench}.mjs`), '--no-build', '--json', ...benchArgs];
  const [command, ...args] = hasFlock ? ['flock', '/tmp/bench.lock', ...script] : script;
  return new Promise((resolve) => {
    let load;
    const child = spawn(command, args, { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => {
      // The load once the lock is held: the bench's first line on stderr.
      load ??= os.loadavg()[0];
      process.stderr.write(`  [${label}] ${chunk}`.replace(/\n(?=.)/g, `\n  [${label}] `));
    });
    child.on('exit', (code) => {
      const line = out.trim().split('\n').reverse().find((candidate) => candidate.startsWith('{'));
      let result;
      try {
        result = line ? JSON.parse(line) : undefined;
      } catch {
        result = undefined;
      }
      resolve({ label, code, load: round(load ?? os.loadavg()[0], 2), loadAfter: round(os.loadavg()[0], 2), result, text: out });
    });
  });
}

const median = (values) => {
  const sorted = values.filter(Number.isFinite).sort((x, y) => x - y);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function main() {
  const trees = { A: settings.a, B: settings.b };
  if (settings.build) {
    for (const [label, dir] of Object.entries(trees)) {
      log(`building ${label} (${dir}) ...`);
      const built = spawnSync(process.execPath, [path.join(dir, 'tools/build.mjs')], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
      if (built.status !== 0) throw new Error(`build of ${dir} failed`);
    }
  }
  const describe = (label) => `${label} = ${trees[label]} @ ${revision(trees[label])}${dirty(trees[label]) ? ' (+ uncommitted changes)' : ''}${Object.keys(settings.env[label]).length ? ` with ${JSON.stringify(settings.env[label])}` : ''}`;
  log(`bench:ab ${settings.bench}, ${settings.rounds} pairs; ${describe('A')}; ${describe('B')}; bench options: ${benchArgs.join(' ') || '(defaults)'}`);
  const pairs = [];
  for (let index = 1; index <= settings.rounds; index += 1) {
    const pair = {};
    for (const label of ['A', 'B']) {
      log(`pair ${index}/${settings.rounds}: ${label} ...`);
      const run = await runOnce(`${label}${index}`, trees[label], settings.env[label]);
      run.figures = run.result ? spec.figures(run.result) : {};
      run.exact = Boolean(run.code === 0 && run.result && spec.exact(run.result));
      pair[label] = run;
    }
    pairs.push(pair);
  }

  const names = Object.keys(pairs.find((pair) => pair.A.result)?.A.figures ?? pairs.find((pair) => pair.B.result)?.B.figures ?? {});
  const header = ['run', 'load', ...names, 'exact'];
  const rows = pairs.flatMap((pair, index) => ['A', 'B'].map((label) => [`${label}${index + 1}`, pair[label].load, ...names.map((name) => pair[label].figures[name] ?? '–'), pair[label].exact ? 'OK' : 'FAILED']));
  const ratios = names.map((name) => round(median(pairs.map((pair) => pair.B.figures[name] / pair.A.figures[name])), 3));
  rows.push(['median B/A', '', ...ratios, '']);
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|\n${rows.map((row) => `| ${row.join(' | ')} |`).join('\n')}`);
  console.log(`${describe('A')}\n${describe('B')}`);
  const main = names[0];
  const ratio = ratios[0];
  if (Number.isFinite(ratio)) {
    const cost = spec.higher[main] ? 1 - ratio : ratio - 1;
    console.log(`${main}: median B/A ${ratio} -> B is ${round(Math.abs(cost) * 100, 1)} % ${cost > 0 ? 'worse' : 'better'} than A`);
  }
  if (settings.out) writeFileSync(settings.out, JSON.stringify({ settings, revisions: { A: revision(settings.a), B: revision(settings.b) }, pairs: pairs.map((pair) => ({ A: { ...pair.A, text: undefined }, B: { ...pair.B, text: undefined } })) }, null, 1));
  const failed = pairs.flatMap((pair) => [pair.A, pair.B]).filter((run) => !run.exact);
  if (failed.length > 0) {
    console.log(`FAILED: ${failed.map((run) => `${run.label} (exit ${run.code}${run.result ? ', exactness check failed' : ', no result'})`).join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  log(`bench:ab failed: ${error.stack ?? error.message}`);
  process.exitCode = 1;
});
