#!/usr/bin/env node
// Compiles TypeScript sources to dist/ with SWC, keeping the tree (dist/apps/x/src/..., dist/libs/y/src/...)
// so that the path aliases, rewritten to relative imports, resolve the same way at run time.
// Usage: node tools/build.mjs [projectRoot ...]   (no argument: every app and lib)
import { createRequire } from 'node:module';
import { readdirSync, statSync, mkdirSync, writeFileSync, existsSync, cpSync } from 'node:fs';
import path from 'node:path';

const require = createRequire(import.meta.url);
const swc = require('@swc/core');
const { swcOptions, workspaceRoot } = require('./swc-options.cjs');

const SKIP = /\.(spec|integration-spec|medium-spec|test)\.ts$|\.d\.ts$/;

function listSources(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const stat = statSync(full);
    if (stat.isDirectory()) {
      if (name === 'node_modules' || name === '__fixtures__') continue;
      out.push(...listSources(full));
    } else if (name.endsWith('.ts') && !SKIP.test(name)) {
      out.push(full);
    }
  }
  return out;
}

function projectRoots() {
  const roots = [];
  for (const group of ['libs', 'apps']) {
    const base = path.join(workspaceRoot, group);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base)) {
      if (existsSync(path.join(base, name, 'src'))) roots.push(path.join(group, name));
    }
  }
  return roots;
}

const roots = process.argv.slice(2).length ? process.argv.slice(2) : projectRoots();
const options = swcOptions({ withPaths: true });
let count = 0;
const started = Date.now();
for (const root of roots) {
  const srcDir = path.join(workspaceRoot, root, 'src');
  for (const file of listSources(srcDir)) {
    const rel = path.relative(workspaceRoot, file);
    const outFile = path.join(workspaceRoot, 'dist', rel.replace(/\.ts$/, '.js'));
    const result = await swc.transformFile(file, {
      ...options,
      filename: file,
      sourceFileName: path.relative(path.dirname(outFile), file),
      swcrc: false,
      configFile: false,
    });
    mkdirSync(path.dirname(outFile), { recursive: true });
    writeFileSync(outFile, result.code + `\n//# sourceMappingURL=${path.basename(outFile)}.map\n`);
    if (result.map) writeFileSync(outFile + '.map', result.map);
    count += 1;
  }
  // Static files an app serves (e.g. the mock-receiver dashboard) are copied as they are.
  const assetsDir = path.join(srcDir, 'assets');
  if (existsSync(assetsDir)) cpSync(assetsDir, path.join(workspaceRoot, 'dist', path.relative(workspaceRoot, assetsDir)), { recursive: true });
}
console.log(`build: ${count} files from ${roots.length} project(s) in ${Date.now() - started} ms`);
