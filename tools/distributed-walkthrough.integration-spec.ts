/**
 * The README's "Distributed mode" block, run as a newcomer pastes it: extracted from README.md
 * (the fenced block after `<!-- distributed-walkthrough -->`), run by bash against the local
 * PostgreSQL and RabbitMQ on free ports, a fresh database and its own broker namespace. Also: the
 * migration commands need nothing but DATABASE_URL.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { generateEncryptionKeyEntry } from '@courier/crypto';
import { createTestDatabase, describeWithBroker, dropTestDatabase, freePort, testBrokerUrl, testNamespace, testServerUrl, waitFor } from '@courier/testing';

const root = path.resolve(__dirname, '..');
const MARKER = '<!-- distributed-walkthrough -->';

/** The fenced sh block right after the marker in README.md. */
function walkthroughBlock(readme: string): string {
  const match = new RegExp(`${MARKER}\\s*\`\`\`sh\\n([\\s\\S]*?)\\n\`\`\``).exec(readme);
  if (!match) throw new Error(`README.md has no \`\`\`sh block after ${MARKER}`);
  return match[1];
}


/** The server's URL without a database: the block appends `/postgres` and `/$DB_NAME`. */
function serverWithoutDatabase(): string {
  const url = new URL(testServerUrl());
  url.pathname = '';
  return url.toString().replace(/\/$/, '');
}

/** Whether any process of the group is still alive (signal 0 only checks). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function requireBuilt(): void {
  for (const app of ['intake-api', 'integrations-api', 'status-dispatcher', 'webhook-sender', 'mock-receiver']) {
    const entry = path.join(root, 'dist/apps', app, 'src/main.js');
    if (!existsSync(entry)) throw new Error(`${entry} is missing: run "node tools/build.mjs" first (npm test does)`);
  }
}

describe('migrating needs only DATABASE_URL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    requireBuilt();
    db = await createTestDatabase('migrate_only');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('docker/run-migrations.js migrates every app with no key, token or broker in the environment', () => {
    const run = spawnSync(process.execPath, ['docker/run-migrations.js'], { cwd: root, env: { PATH: process.env.PATH, DATABASE_URL: db.url }, encoding: 'utf8', timeout: 120_000 });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toContain('4 app(s) migrated');
    const applied = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { schema: string; applied: string[] });
    expect(applied.map((entry) => entry.schema).sort()).toEqual(['dispatcher', 'intake', 'integrations', 'webhooks']);
    for (const entry of applied) expect(entry.applied.length).toBeGreaterThan(0);
  });

  it('names DATABASE_URL when it is missing', () => {
    const run = spawnSync(process.execPath, [path.join(root, 'dist/apps/intake-api/src/migrate.js')], { env: { PATH: process.env.PATH }, encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('DATABASE_URL');
  });
});

describeWithBroker("README's distributed mode, pasted into bash", () => {
  const databaseName = `walkthrough_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const namespace = testNamespace('walk');
  // Set before the block runs (it keeps keys already set), so that the test can call the APIs too.
  // Two internal keys, as during a rotation: the block calls with the first.
  const internalKeys = [randomBytes(24).toString('base64url'), randomBytes(24).toString('base64url')];
  const keys = {
    ADMIN_TOKEN: randomBytes(24).toString('base64url'),
    INTERNAL_API_KEYS: internalKeys.join(','),
    SECRETS_ENCRYPTION_KEYS: generateEncryptionKeyEntry('walk'),
  };
  const runDir = mkdtempSync(path.join(tmpdir(), 'distributed-walkthrough-'));
  let shell: ChildProcess | undefined;
  let output = '';

  afterAll(async () => {
    // The block leaves the apps running in the background, in the shell's process group: end them all.
    if (shell?.pid !== undefined && groupAlive(shell.pid)) {
      process.kill(-shell.pid, 'SIGTERM');
      const pgid = shell.pid;
      await waitFor('every process of the walkthrough ended', async () => !groupAlive(pgid), 30_000, 100).catch(() => process.kill(-pgid, 'SIGKILL'));
    }
    // The block created the database itself (its step 1).
    await dropTestDatabase(databaseName);
    spawnSync(process.execPath, [path.join(root, 'tools/broker/cleanup.mjs'), '--namespace', namespace], { stdio: 'ignore', timeout: 120_000 });
    rmSync(runDir, { recursive: true, force: true });
  });

  it('creates the database, migrates, starts every app and the receiver; the order is DELIVERED and each move reached the receiver, signed', async () => {
    requireBuilt();
    const block = walkthroughBlock(readFileSync(path.join(root, 'README.md'), 'utf8'));
    const ports = { INTAKE_PORT: await freePort(), POS_PORT: await freePort(), STATUS_DISPATCHER_PORT: await freePort(), WEBHOOK_SENDER_PORT: await freePort(), RECEIVER_PORT: await freePort() };
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PG_URL: serverWithoutDatabase(),
      DB_NAME: databaseName,
      RABBITMQ_URL: testBrokerUrl(),
      RABBITMQ_NAMESPACE: namespace,
      RUN_DIR: runDir,
      LOG_LEVEL: 'warn',
      ...keys,
      ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
    };
    // detached: its own process group, so that afterAll reaches the apps the block put in the background.
    shell = spawn('bash', ['-euo', 'pipefail', '-c', block], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    shell.stdout!.on('data', (chunk) => (output += chunk));
    shell.stderr!.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => shell!.once('exit', (exitCode) => resolve(exitCode)));
    const logs = () => ['integrations-api', 'intake-api', 'status-dispatcher', 'webhook-sender', 'mock-receiver'].map((app) => {
      const file = path.join(runDir, `${app}.log`);
      return `--- ${app}.log\n${existsSync(file) ? readFileSync(file, 'utf8').slice(-2000) : '(none)'}`;
    });
    expect({ code, output: code === 0 ? '' : [output, ...logs()].join('\n') }).toEqual({ code: 0, output: '' });
    for (const trigger of ['APPROVE', 'ASSIGN', 'ACCEPT', 'PREPARE', 'PICK_UP', 'DELIVER']) expect(output).toContain(`${trigger}: ok`);

    // The order reached the lifecycle (status-dispatcher's /internal) and went through its life.
    const accepted = JSON.parse(readFileSync(path.join(runDir, 'accepted.json'), 'utf8')) as { yemekKuryeOrderId: string };
    const order = await fetch(`http://127.0.0.1:${ports.STATUS_DISPATCHER_PORT}/internal/orders/${accepted.yemekKuryeOrderId}`, { headers: { 'X-Internal-Api-Key': internalKeys[1] } });
    expect(order.status).toBe(200);
    const lifecycle = (await order.json()) as { orderId: string; status: string; history: Array<{ status: string }> };
    expect(lifecycle).toMatchObject({ orderId: 'pos-1001', status: 'DELIVERED' });
    expect(lifecycle.history.map((entry) => entry.status)).toEqual(['NEW', 'VALIDATED', 'ASSIGNED', 'ACCEPTED', 'PREPARED', 'ON_DELIVERY', 'DELIVERED']);

    // The receiver got a webhook for each move, both signatures verified.
    const webhooks = await waitFor(
      'six status webhooks at the receiver',
      async () => {
        const answer = (await (await fetch(`http://127.0.0.1:${ports.RECEIVER_PORT}/api/webhooks?limit=50`)).json()) as {
          data: Array<{ event: string; status: string; yemekKuryeOrderId: string; httpStatus: number; verdicts: Record<string, { state: string }> }>;
        };
        const ours = answer.data.filter((webhook) => webhook.yemekKuryeOrderId === accepted.yemekKuryeOrderId);
        return ours.length >= 6 ? ours : false;
      },
      60_000,
      200,
    );
    if (!webhooks) throw new Error('no webhooks');
    expect(webhooks.map((webhook) => webhook.status).sort()).toEqual(['ACCEPTED', 'ASSIGNED', 'DELIVERED', 'ON_DELIVERY', 'PREPARED', 'VALIDATED']);
    for (const webhook of webhooks) {
      expect({ event: webhook.event, answered: webhook.httpStatus, service: webhook.verdicts.serviceSignature.state, standard: webhook.verdicts.standardWebhooks.state }).toEqual({
        event: 'order.status_changed',
        answered: 200,
        service: 'valid',
        standard: 'valid',
      });
    }
  }, 300_000);
});
