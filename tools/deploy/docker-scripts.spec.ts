/**
 * The two scripts the images run besides the apps: docker/healthcheck.js (HEALTHCHECK) against a
 * server on 127.0.0.1, and docker/run-migrations.js (the compose `migrate` service) on a fake
 * dist/ tree.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { workspacePath } from './deployables';

function runNode(script: string, args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: options.cwd, env: { PATH: process.env.PATH ?? '', ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('docker/healthcheck.js', () => {
  const script = workspacePath('docker/healthcheck.js');
  let server: Server;
  let port: number;
  const seenPaths: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      seenPaths.push(request.url ?? '');
      if (request.url === '/health') response.writeHead(200).end('{"status":"ok"}');
      else if (request.url === '/health/ready') response.writeHead(503).end('{"status":"error"}');
      else if (request.url === '/slow') setTimeout(() => response.writeHead(200).end(), 2000);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("succeeds on a 2xx from /health on the port named by the app's own variable", async () => {
    const result = await runNode(script, [], { env: { HEALTHCHECK_PORT_VARIABLE: 'INTAKE_PORT', INTAKE_PORT: String(port), HEALTHCHECK_DEFAULT_PORT: '1' } });
    expect(result.code).toBe(0);
    expect(seenPaths).toContain('/health');
  });

  it('falls back to the default port when the variable is unset', async () => {
    const result = await runNode(script, [], { env: { HEALTHCHECK_PORT_VARIABLE: 'INTAKE_PORT', HEALTHCHECK_DEFAULT_PORT: String(port) } });
    expect(result.code).toBe(0);
  });

  it('fails on a non-2xx answer (e.g. readiness down)', async () => {
    const result = await runNode(script, ['/health/ready'], { env: { HEALTHCHECK_DEFAULT_PORT: String(port) } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('503');
  });

  it('fails when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freePort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await runNode(script, [], { env: { HEALTHCHECK_DEFAULT_PORT: String(freePort) } });
    expect(result.code).toBe(1);
  });

  it('fails when the answer takes longer than the timeout', async () => {
    const result = await runNode(script, ['/slow'], { env: { HEALTHCHECK_DEFAULT_PORT: String(port), HEALTHCHECK_TIMEOUT_MS: '200' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('did not answer');
  });

  it('refuses to run without a usable port', async () => {
    const result = await runNode(script, [], { env: { HEALTHCHECK_PORT_VARIABLE: 'NOPE' } });
    expect(result.code).toBe(2);
  });
});

describe('docker/run-migrations.js', () => {
  const script = workspacePath('docker/run-migrations.js');
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'run-migrations-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function fakeApp(app: string, body?: string): void {
    mkdirSync(path.join(dir, 'dist/apps', app, 'src'), { recursive: true });
    if (body !== undefined) writeFileSync(path.join(dir, 'dist/apps', app, 'src', 'migrate.js'), body);
  }
  const marks = (app: string) => `require('node:fs').appendFileSync(${JSON.stringify(path.join('LOG'))}, ${JSON.stringify(app + '\n')});`;

  it("runs every app's migrate.js in name order, skipping apps without one", async () => {
    fakeApp('b-app', marks('b-app'));
    fakeApp('a-app', marks('a-app'));
    fakeApp('receiver');
    const result = await runNode(script, [], { cwd: dir });
    expect(result.code).toBe(0);
    expect(readFileSync(path.join(dir, 'LOG'), 'utf8')).toBe('a-app\nb-app\n');
    expect(result.stdout).toContain('2 app(s) migrated');
  });

  it('stops at the first failure with its exit code', async () => {
    fakeApp('a-app', marks('a-app'));
    fakeApp('b-app', 'process.exit(3);');
    fakeApp('c-app', marks('c-app'));
    const result = await runNode(script, [], { cwd: dir });
    expect(result.code).toBe(3);
    expect(readFileSync(path.join(dir, 'LOG'), 'utf8')).toBe('a-app\n');
    expect(result.stderr).toContain('b-app failed with exit code 3');
  });

  it('fails when there is nothing to run (a wrong image or path)', async () => {
    const result = await runNode(script, [], { cwd: dir });
    expect(result.code).toBe(1);
    expect(existsSync(path.join(dir, 'LOG'))).toBe(false);
  });

  it('passes SIGTERM on to the running migration', async () => {
    fakeApp('a-app', "process.on('SIGTERM', () => { require('node:fs').writeFileSync('TERM', 'x'); process.exit(143); }); console.log('ready'); setInterval(() => {}, 1000);");
    const child = spawn(process.execPath, [script], { cwd: dir });
    let stdout = '';
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes('ready')) resolve();
      }),
    );
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(143);
    expect(existsSync(path.join(dir, 'TERM'))).toBe(true);
  });
});
