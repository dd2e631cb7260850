// Docker HEALTHCHECK of every app image: GET http://127.0.0.1:<port><path>, exit 0 on a 2xx answer.
// The port is read from the variable the app itself listens on (HEALTHCHECK_PORT_VARIABLE names it,
// e.g. INTAKE_PORT), so overriding the app's port in compose keeps the check right.
// Usage: node healthcheck.js [path]   (default /health, the liveness endpoint)
'use strict';
const http = require('node:http');

const variable = process.env.HEALTHCHECK_PORT_VARIABLE;
const port = Number((variable && process.env[variable]) || process.env.HEALTHCHECK_DEFAULT_PORT);
const path = process.argv[2] || process.env.HEALTHCHECK_PATH || '/health';
const timeoutMs = Number(process.env.HEALTHCHECK_TIMEOUT_MS) || 3000;

if (!Number.isInteger(port) || port <= 0 || port > 65535) {
  process.stderr.write(`healthcheck: no valid port (HEALTHCHECK_PORT_VARIABLE=${variable})\n`);
  process.exit(2);
}

const request = http.get({ host: '127.0.0.1', port, path, timeout: timeoutMs }, (response) => {
  response.resume();
  const healthy = response.statusCode >= 200 && response.statusCode < 300;
  if (!healthy) process.stderr.write(`healthcheck: ${path} answered ${response.statusCode}\n`);
  process.exit(healthy ? 0 : 1);
});
request.on('timeout', () => {
  process.stderr.write(`healthcheck: ${path} did not answer within ${timeoutMs} ms\n`);
  request.destroy();
  process.exit(1);
});
request.on('error', (error) => {
  process.stderr.write(`healthcheck: ${error.message}\n`);
  process.exit(1);
});
