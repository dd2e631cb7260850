import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { generateEncryptionKeyEntry } from '@courier/crypto';
import { createTestDatabase, describeWithBroker, testBrokerUrl, testNamespace, TestDatabase, freePort, transitionRightAfterFirstNew, waitFor } from '@courier/testing';

const root = path.resolve(__dirname, '..');
const APPS = [
  { name: 'intake-api', portVar: 'INTAKE_PORT' },
  { name: 'integrations-api', portVar: 'POS_PORT' },
  { name: 'status-dispatcher', portVar: 'STATUS_DISPATCHER_PORT' },
  { name: 'webhook-sender', portVar: 'WEBHOOK_SENDER_PORT' },
];

interface Started {
  child: ChildProcess;
  output: () => string;
  /** Exit code, or the signal name when Nest re-raised the signal after its shutdown hooks ran. */
  exited: Promise<number | string | null>;
}

function startBuilt(app: string, env: NodeJS.ProcessEnv): Started {
  const entry = path.join(root, 'dist/apps', app, 'src/main.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run "node tools/build.mjs" first (npm test does)`);
  let output = '';
  const child = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return { child, output: () => output, exited };
}

function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, LOG_LEVEL: 'warn', SHUTDOWN_GRACE_MS: '3000', ...extra };
  return env;
}

const secrets = {
  ADMIN_TOKEN: 'startup-test-admin-token-0123456789',
  INTERNAL_API_KEYS: 'startup-test-internal-key-0123456789',
  SECRETS_ENCRYPTION_KEYS: generateEncryptionKeyEntry('startup'),
};

describe('each app started alone from the built code', () => {
  it.each(APPS)('$name refuses to start without DATABASE_URL and names it', async ({ name }) => {
    const started = startBuilt(name, baseEnv({ ...secrets }));
    const code = await started.exited;
    expect(code).toBe(1);
    expect(started.output()).toContain('DATABASE_URL');
  });

  it.each(APPS)('$name refuses a malformed port and names the variable', async ({ name, portVar }) => {
    const started = startBuilt(name, baseEnv({ ...secrets, DATABASE_URL: 'postgres://127.0.0.1:5432/x', [portVar]: 'eighty' }));
    expect(await started.exited).toBe(1);
    expect(started.output()).toContain(portVar);
  });
});

describeWithBroker('distributed mode: each app alone against DATABASE_URL and RABBITMQ_URL', () => {
  let db: TestDatabase;
  const namespace = testNamespace('startup');

  beforeAll(async () => {
    db = await createTestDatabase('startup');
  });

  afterAll(async () => {
    await db?.drop();
  });

  it.each(APPS)(
    '$name answers /health and /health/ready (database and broker up) and stops gracefully on SIGTERM',
    async ({ name, portVar }) => {
      const port = await freePort();
      const started = startBuilt(
        name,
        baseEnv({ ...secrets, DATABASE_URL: db.url, RABBITMQ_URL: testBrokerUrl(), RABBITMQ_NAMESPACE: namespace, [portVar]: String(port) }),
      );
      try {
        const ready = await waitFor(
          `${name} ready`,
          async () => {
            if (started.child.exitCode !== null) throw new Error(`exited early:\n${started.output()}`);
            const response = await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined);
            return response?.status === 200 ? response.json() : undefined;
          },
          30_000,
          200,
        );
        expect(ready).toMatchObject({ status: 'ok', info: { database: { status: 'up' }, broker: { status: 'up', transport: 'amqp' } } });
        expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
        const docs = await fetch(`http://127.0.0.1:${port}/docs-json`);
        expect(((await docs.json()) as { openapi: string }).openapi).toMatch(/^3\./);
      } finally {
        started.child.kill('SIGTERM');
      }
      // Nest runs the shutdown hooks (stop consuming, drain, close connections), then re-raises SIGTERM.
      const ending = await Promise.race([started.exited, new Promise<string>((resolve) => setTimeout(() => resolve('timeout'), 15_000))]);
      expect([0, 'SIGTERM']).toContain(ending);
      expect(started.output()).not.toMatch(/"level":(50|60)/);
    },
  );
});

describeWithBroker('distributed mode: read-your-writes between intake and the lifecycle service', () => {
  let db: TestDatabase;
  const namespace = testNamespace('ryw');
  const started: Started[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('ryw');
  });

  afterAll(async () => {
    for (const app of started) app.child.kill('SIGTERM');
    await Promise.all(started.map((app) => app.exited));
    await db?.drop();
  });

  it('a transition sent in the same tick as the first NEW of intake\'s read finds the order, 200 times', async () => {
    const ports = { intake: await freePort(), pos: await freePort(), dispatcher: await freePort() };
    const common = { ...secrets, DATABASE_URL: db.url, RABBITMQ_URL: testBrokerUrl(), RABBITMQ_NAMESPACE: namespace, INTAKE_RATE_LIMIT_PER_MINUTE: '100000' };
    started.push(startBuilt('integrations-api', baseEnv({ ...common, POS_PORT: String(ports.pos) })));
    // Each app migrates its own schema at start under an advisory lock; started one after the other here to keep the log readable.
    await waitFor('integrations-api ready', async () => (await fetch(`http://127.0.0.1:${ports.pos}/health/ready`).catch(() => undefined))?.status === 200, 180_000, 200);
    started.push(startBuilt('intake-api', baseEnv({ ...common, INTAKE_PORT: String(ports.intake) })));
    started.push(startBuilt('status-dispatcher', baseEnv({ ...common, STATUS_DISPATCHER_PORT: String(ports.dispatcher) })));
    // Started together on a loaded machine, each migrates its schema first: give them time, and say
    // why when one stops instead.
    for (const [index, [name, port]] of ([['intake-api', ports.intake], ['status-dispatcher', ports.dispatcher]] as const).entries()) {
      const app = started[index + 1];
      await waitFor(`${name} ready`, async () => {
        if (app.child.exitCode !== null) throw new Error(`${name} exited early:\n${app.output()}`);
        return (await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined))?.status === 200;
      }, 180_000, 200).catch((error) => {
        throw new Error(`${(error as Error).message}\n${name} output:\n${app.output().slice(-4000)}`);
      });
    }
    const created = await fetch(`http://127.0.0.1:${ports.pos}/admin/v1/restaurants`, {
      method: 'POST',
      headers: { 'X-Admin-Token': secrets.ADMIN_TOKEN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Read Your Writes' }),
    });
    expect(created.status).toBe(201);
    const account = (await created.json()) as { restaurantId: string; apiKey: string };
    // intake learns the account from integrations-api's events: wait until its key is known there.
    await waitFor('the account known to intake', async () => (await fetch(`http://127.0.0.1:${ports.intake}/api/v1/orders/none`, { headers: { 'X-API-Key': account.apiKey } })).status === 404, 30_000, 100);

    const result = await transitionRightAfterFirstNew(
      { intakeUrl: `http://127.0.0.1:${ports.intake}`, internalUrl: `http://127.0.0.1:${ports.dispatcher}`, restaurantId: account.restaurantId, apiKey: account.apiKey, internalApiKey: secrets.INTERNAL_API_KEYS },
      200,
    );
    expect(result.refused).toEqual([]);
    expect(result.transitionStatuses).toHaveLength(200);
  }, 600_000);
});
