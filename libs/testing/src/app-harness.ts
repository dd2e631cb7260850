import { INestApplication } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { Pool } from 'pg';
import request from 'supertest';
import { Queues } from '@courier/contracts';
import { IncomingMessage, MESSAGE_TRANSPORT, MessageTransport } from '@courier/messaging';
import { createTestDatabase, TestDatabase } from './test-database';

/**
 * Sets `env` in process.env (undefined deletes a variable) for an app a test creates, whose config
 * is read from process.env; returns the function that puts the previous values back.
 */
export function setEnv(env: Record<string, string | undefined>): () => void {
  const previous: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) {
    previous[name] = process.env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  return () => {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/** A log destination for an app under test that keeps every line written to it, in order. */
export function captureLogLines(): { lines: string[]; destination: Writable } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(...String(chunk).split('\n').filter((line) => line.length > 0));
      callback();
    },
  });
  return { lines, destination };
}

/** A real app of the suite under test, on a fresh database (or a given one), through HTTP. */
export interface AppUnderTest {
  app: INestApplication;
  http: ReturnType<typeof request>;
  database: TestDatabase;
  /** Every log line the app wrote through its pino logger. */
  logLines: string[];
  /** Messages delivered to the queues given a recording consumer (`consumers: 'record'`), a copy per queue. */
  delivered: Array<IncomingMessage & { queue: string }>;
  transport: MessageTransport;
  /** SQL on the app's database, its schema first on the search_path; rows loosely typed, as tests read them. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  sql<T = any>(text: string, params?: unknown[]): Promise<T[]>;
  /** With `listen`: the app's own URL on 127.0.0.1. */
  baseUrl: string;
  /** Stops the app (and drops the database unless keepDatabase). */
  close(options?: { keepDatabase?: boolean }): Promise<void>;
}

export interface AppUnderTestOptions {
  /** Prefix of the fresh database's name; unused when `database` is given (restart scenarios). */
  databasePrefix: string;
  database?: TestDatabase;
  /** The app's PostgreSQL schema (first on the search_path of `sql`). */
  schema: string;
  /** process.env while the app is created (its config is read then); DATABASE_URL defaults to the database's. */
  env: Record<string, string | undefined>;
  /** Put process.env back once the app is created (default: when it is closed, for apps that read it later). */
  restoreEnvAfterCreate?: boolean;
  /** Builds the app (`createHttpApp(createAppModule({ logDestination }), ...)`); the harness inits or listens. */
  create(logDestination: Writable): Promise<INestApplication>;
  /** Listen on a random port of 127.0.0.1 (for callers outside the process, such as the platform simulators). */
  listen?: boolean;
  /**
   * Consumers on the suite's queues the app does not consume itself (`ownQueues`), standing in for the
   * other apps so the relay can hand events over: `record` keeps every message in `delivered`, `drop`
   * (in-process broker only) takes them and forgets them, `none` adds none. Default `record`.
   */
  consumers?: 'record' | 'drop' | 'none';
  ownQueues?: string[];
  /** Connections of the `sql` pool (default 2). */
  poolMax?: number;
}

/**
 * The one app harness of the integration tests: env set, fresh database, app created with its logs
 * captured, stand-in consumers, an SQL pool on the app's schema, and a close that undoes it all. Each
 * app's test/harness.ts adds its own fixtures (accounts, orders, events) on top.
 */
export async function startAppUnderTest(options: AppUnderTestOptions): Promise<AppUnderTest> {
  const database = options.database ?? (await createTestDatabase(options.databasePrefix));
  const restoreEnv = setEnv({ DATABASE_URL: database.url, ...options.env });
  const { lines: logLines, destination: logDestination } = captureLogLines();
  let app: INestApplication;
  try {
    app = await options.create(logDestination);
    if (options.listen) await app.listen(0, '127.0.0.1');
    else await app.init();
  } catch (error) {
    restoreEnv();
    if (!options.database) await database.drop();
    throw error;
  } finally {
    if (options.restoreEnvAfterCreate) restoreEnv();
  }

  const transport = app.get<MessageTransport>(MESSAGE_TRANSPORT);
  const delivered: Array<IncomingMessage & { queue: string }> = [];
  const consumers = options.consumers ?? 'record';
  const own = new Set(options.ownQueues ?? []);
  if (consumers === 'record' || (consumers === 'drop' && transport.kind === 'in-process')) {
    for (const queue of Object.values(Queues)) {
      if (own.has(queue.name)) continue;
      await transport.consume(queue, async (message) => {
        if (consumers === 'record') delivered.push({ ...message, queue: queue.name });
      });
    }
  }

  const pool = new Pool({ connectionString: database.url, max: options.poolMax ?? 2, options: `-c search_path=${options.schema},public` });
  // pool.end() resolves before its sockets close; dropping the database then terminates them.
  pool.on('error', () => undefined);
  const address = options.listen ? (app.getHttpServer().address() as AddressInfo) : undefined;

  return {
    app,
    http: request(app.getHttpServer()),
    database,
    logLines,
    delivered,
    transport,
    sql: async <T>(text: string, params: unknown[] = []): Promise<T[]> => (await pool.query(text, params)).rows as T[],
    baseUrl: address ? `http://127.0.0.1:${address.port}` : '',
    close: async ({ keepDatabase = false } = {}) => {
      try {
        await app.close();
      } finally {
        await pool.end();
        if (!options.restoreEnvAfterCreate) restoreEnv();
        if (!keepDatabase) await database.drop();
      }
    },
  };
}
