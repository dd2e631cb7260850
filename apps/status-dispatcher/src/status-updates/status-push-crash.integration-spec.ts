import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import { PLATFORM_D_PATHS } from '@courier/platforms';
import { createTestDatabase, freePort, sleep, TestDatabase, waitFor } from '@courier/testing';
import { INTERNAL_KEY, internal, SECRETS_KEYS } from '../../test/harness';
import { CREDENTIALS, Platforms, startPlatformApp, startPlatforms, upsertIntegration } from '../../test/platforms';

jest.setTimeout(180_000);

const ROOT = path.resolve(__dirname, '../../../..');
const MAIN = path.join(ROOT, 'dist/apps/status-dispatcher/src/main.js');
/** Scaled down so that the fallback (due 2 × this + 6 s after acceptance) comes in ~8 s instead of ~26 s. */
const PLATFORM_HTTP_TIMEOUT_MS = 1_000;


/**
 * A stalled network path to the platform: it accepts connections and never answers nor forwards a
 * byte (the platform never sees the call). `onConnection` runs in the same tick a connection is
 * accepted, i.e. while the app's platform call is under way.
 */
async function stalledPlatform(onConnection: () => void): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    onConnection();
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    connections: () => accepted,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A queued status update is sent right after its push commits, in the same process; its
 * durable task, written in the same statement, is the fallback. The BUILT dispatcher is SIGKILLed
 * while that immediate send is under way, and a fresh process on the same database must send the
 * update through the fallback task, exactly once.
 */
describe('status push: the immediate send cut off by a crash (SIGKILL of the built status-dispatcher)', () => {
  let platforms: Platforms;
  let database: TestDatabase;
  let db: Client;
  const children: ChildProcess[] = [];
  const output: string[] = [];

  const startBuilt = async (platformDBaseUrl: string): Promise<{ child: ChildProcess; url: string }> => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      STATUS_DISPATCHER_PORT: String(port),
      INTERNAL_API_KEYS: INTERNAL_KEY,
      SECRETS_ENCRYPTION_KEYS: SECRETS_KEYS,
      LOG_LEVEL: 'info',
      LOG_PRETTY: 'false',
      TASK_POLL_MS: '100',
      OUTBOX_POLL_MS: '100',
      SHUTDOWN_GRACE_MS: '500',
      STATUS_PUSH_RETRY_BASE_MS: '50',
      STATUS_PUSH_RETRY_MAX_DELAY_MS: '200',
      ...platforms.env,
      PLATFORM_HTTP_TIMEOUT_MS: String(PLATFORM_HTTP_TIMEOUT_MS),
      PLATFORM_D_BASE_URL: platformDBaseUrl,
    };
    const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    child.stdout!.on('data', (chunk) => output.push(String(chunk)));
    child.stderr!.on('data', (chunk) => output.push(String(chunk)));
    const url = `http://127.0.0.1:${port}`;
    await waitFor(
      'status-dispatcher ready',
      async () => {
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited ${child.exitCode ?? child.signalCode}: ${output.join('')}`);
        return (await fetch(`${url}/health/ready`).catch(() => undefined))?.ok;
      },
      60_000,
      100,
    );
    return { child, url };
  };

  const exited = (child: ChildProcess) =>
    child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const getUpdate = async (url: string, id: string): Promise<any> => {
    const response = await fetch(`${url}/internal/status-updates/${id}`, { headers: internal() });
    return response.json();
  };

  const rowOf = async (id: string) =>
    (
      await db.query(
        `SELECT su.state, su.attempts, su.sending_until, su.accepted_at, t.due_at AS task_due_at
           FROM status_updates su LEFT JOIN scheduled_tasks t ON t.dedupe_key = 'status-update:' || su.id::text WHERE su.id = $1`,
        [id],
      )
    ).rows[0];

  /** The status calls the platform read for the order (bodies decrypted). */
  const statusCallsOf = (orderId: number) => platforms.d.received.filter((call) => call.path === PLATFORM_D_PATHS.updateOrderStatus && call.body.orderId === orderId);

  beforeAll(async () => {
    execFileSync(
      process.execPath,
      [path.join(ROOT, 'tools/build.mjs'), 'libs/config', 'libs/contracts', 'libs/crypto', 'libs/domain', 'libs/health', 'libs/http', 'libs/logging', 'libs/messaging', 'libs/observability', 'libs/persistence', 'libs/platforms', 'libs/rate-limit', 'apps/status-dispatcher'],
      { cwd: ROOT, stdio: 'ignore' },
    );
    platforms = await startPlatforms();
    database = await createTestDatabase('status_dispatcher_crash');
    // The schema and the PLATFORM_D integration (read model) through an in-process app, closed before the crash test.
    const seed = await startPlatformApp(platforms, { database });
    try {
      await upsertIntegration(seed, 'PLATFORM_D');
    } finally {
      await seed.close({ keepDatabase: true });
    }
    db = new Client({ connectionString: database.url, options: '-c search_path=dispatcher,public' });
    await db.connect();
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(children.map(exited));
    await db?.end();
    await database?.drop();
    await platforms?.stop();
  });

  /**
   * A PLATFORM_D order, VERIFY pushed to a built dispatcher whose platform path stalls, and that
   * process SIGKILLed in the tick its immediate send connects to the platform. Answers what it left.
   */
  const crashDuringImmediateSend = async () => {
    let crashed: ChildProcess | undefined;
    // SIGKILL in the very tick the platform call connects: the claim is taken, the call is under way (its timeout not run out).
    const stalled = await stalledPlatform(() => {
      if (crashed?.exitCode === null && crashed.signalCode === null) crashed.kill('SIGKILL');
    });
    try {
      const first = await startBuilt(stalled.url);
      platforms.d.options.orderWebhookUrl = `${first.url}/platforms/platform-d/orders`;
      const { order, response } = await platforms.d.placeOrder(CREDENTIALS.PLATFORM_D.providerRestaurantId);
      expect(response.status).toBe(200);

      crashed = first.child;
      // Connections the process made before the push (another read of the platform's, stalled too) are not the send's.
      const before = stalled.connections();
      const pushed = await fetch(`${first.url}/internal/orders/status`, {
        method: 'POST',
        headers: { ...internal(), 'Content-Type': 'application/json' },
        body: JSON.stringify({ providerOrderId: String(order.id), platform: 'PLATFORM_D', action: 'VERIFY' }),
      });
      expect(pushed.status).toBe(202);
      const id = ((await pushed.json()) as any).statusUpdateId as string;
      await waitFor('the immediate send to reach the (stalled) platform', async () => stalled.connections() > before, 30_000, 10);
      await exited(first.child);
      expect(first.child.signalCode).toBe('SIGKILL');
      expect(stalled.connections() - before).toBe(1);

      // What the crash left: the update claimed by the dead process (being sent, attempt 1), its
      // fallback task due after that claim runs out, and nothing at the platform.
      const left = await rowOf(id);
      expect(left).toMatchObject({ state: 'queued', attempts: 1 });
      expect(left.sending_until).not.toBeNull();
      expect(left.task_due_at).not.toBeNull();
      expect(left.task_due_at.getTime()).toBeGreaterThan(left.sending_until.getTime());
      expect(statusCallsOf(order.id)).toHaveLength(0);
      return { order, id, sendingUntil: left.sending_until as Date };
    } finally {
      await stalled.close();
    }
  };

  /** Waits (polling GET /internal/status-updates/{id} of `url`) until the update has ended; returns it. */
  const waitForEnd = async (url: string, id: string): Promise<any> => {
    let last: any;
    await waitFor(
      `status update ${id} ended (sent or failed)`,
      async () => {
        last = await getUpdate(url, id);
        return ['sent', 'failed', 'skipped'].includes(last.state);
      },
      60_000,
      100,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; last seen: ${JSON.stringify(last)}`);
    });
    return last;
  };

  const expectSentOnceAfterTheClaim = async (url: string, order: { id: number }, id: string, sendingUntil: Date) => {
    const sent = await waitForEnd(url, id);
    expect(sent).toMatchObject({ state: 'sent', attempts: 2, platformAnswer: { httpStatus: 200, outcome: 'done' } });
    // Not before the dead process's claim had run out (the claim is the only guard against a double call).
    expect(Date.parse(sent.sentAt)).toBeGreaterThanOrEqual(sendingUntil.getTime());
    const calls = statusCallsOf(order.id);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ body: { orderId: order.id, orderStatus: 'Approved' } });
    expect(platforms.d.orders.get(String(order.id))!.status).toBe('Approved');
    // Ended: its task is deleted with it, nothing is left to wake it again.
    expect((await rowOf(id)).task_due_at).toBeNull();
  };

  const stop = async (child: ChildProcess) => {
    child.kill('SIGTERM');
    await exited(child);
  };

  it('a fresh process sends the update through its fallback task after the claim ran out: sent, one platform call, no task left', async () => {
    const { order, id, sendingUntil } = await crashDuringImmediateSend();
    // A fresh process on the same database, the platform reachable again.
    const restarted = await startBuilt(platforms.d.baseUrl);
    await expectSentOnceAfterTheClaim(restarted.url, order, id, sendingUntil);
    await stop(restarted.child);
  });

  it('two fresh replicas racing on the fallback task: the update reaches the platform once', async () => {
    const { order, id, sendingUntil } = await crashDuringImmediateSend();
    const [one, two] = await Promise.all([startBuilt(platforms.d.baseUrl), startBuilt(platforms.d.baseUrl)]);
    await expectSentOnceAfterTheClaim(one.url, order, id, sendingUntil);
    // Both replicas poll the tasks every 100 ms: give the other one time to act on a wake-up it might still hold.
    await sleep(2_000);
    expect(statusCallsOf(order.id)).toHaveLength(1);
    expect(await getUpdate(two.url, id)).toMatchObject({ state: 'sent', attempts: 2 });
    await Promise.all([stop(one.child), stop(two.child)]);
  });
});
