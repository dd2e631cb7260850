#!/usr/bin/env node
// `npm run format`: Prettier (.prettierrc.json) on the TypeScript and JavaScript files you changed
// against a base (default: main; uncommitted and untracked files count), so that a change is
// formatted without rewriting files nobody touched. `--check` only reports; `--base REV` changes the
// base; `--all` formats every source file of the repository; other arguments are files to format.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const all = args.includes('--all');
const baseAt = args.indexOf('--base');
const base = baseAt >= 0 ? args[baseAt + 1] : 'main';
const named = args.filter((arg, i) => !arg.startsWith('--') && (baseAt < 0 || i !== baseAt + 1));
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;

const git = (...gitArgs) => execFileSync('git', gitArgs, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);

function changedFiles() {
  const mergeBase = git('merge-base', base, 'HEAD')[0];
  return [
    ...new Set([...git('diff', '--name-only', '--diff-filter=ACMR', mergeBase), ...git('ls-files', '--others', '--exclude-standard')]),
  ];
}

const files = (named.length > 0 ? named : all ? git('ls-files') : changedFiles()).filter(
  (file) => SOURCE.test(file) && !file.startsWith('dist/') && existsSync(path.join(root, file)),
);
if (files.length === 0) {
  console.log('format: no changed source files');
  process.exit(0);
}
const prettier = path.join(root, 'node_modules/prettier/bin/prettier.cjs');
const result = spawnSync(process.execPath, [prettier, check ? '--check' : '--write', ...files], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
