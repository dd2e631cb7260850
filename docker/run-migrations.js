// One-shot migration runner of the `migrations` image (the docker compose `migrate` service): runs
// every app's migration command, dist/apps/<app>/src/migrate.js, one after the other, and stops at
// the first failure with its exit code. Each app migrates its own schema under an advisory lock.
// SIGTERM/SIGINT are passed on to the running migration so that it can roll back and exit.
'use strict';
const { spawn } = require('node:child_process');
const { existsSync, readdirSync } = require('node:fs');
const path = require('node:path');

const appsDir = path.resolve(process.argv[2] || 'dist/apps');

function migrationScripts() {
  if (!existsSync(appsDir)) return [];
  return readdirSync(appsDir)
    .sort()
    .map((app) => ({ app, script: path.join(appsDir, app, 'src', 'migrate.js') }))
    .filter(({ script }) => existsSync(script));
}

function run(script) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { stdio: 'inherit' });
    const forward = (signal) => child.kill(signal);
    process.on('SIGTERM', forward);
    process.on('SIGINT', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGTERM', forward);
      process.off('SIGINT', forward);
      resolve(code ?? (signal ? 128 + (require('node:os').constants.signals[signal] || 0) : 1));
    });
  });
}

async function main() {
  const scripts = migrationScripts();
  if (scripts.length === 0) {
    process.stderr.write(`run-migrations: no dist/apps/*/src/migrate.js under ${appsDir}\n`);
    return 1;
  }
  for (const { app, script } of scripts) {
    process.stdout.write(`run-migrations: ${app}\n`);
    const code = await run(script);
    if (code !== 0) {
      process.stderr.write(`run-migrations: ${app} failed with exit code ${code}\n`);
      return code;
    }
  }
  process.stdout.write(`run-migrations: ${scripts.length} app(s) migrated\n`);
  return 0;
}

main().then((code) => {
  process.exitCode = code;
});
