import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** Server the integration tests use: DATABASE_URL, else the local PostgreSQL of CI and dev machines. */
export function testServerUrl(): string {
  return process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database on the test server for one test file, so test files (and parallel
 * developers) never share state. Dropped by `drop()` (connections are terminated first).
 */
export async function createTestDatabase(prefix = 'test'): Promise<TestDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`.toLowerCase();
  const admin = new Client({ connectionString: testServerUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: withDatabase(testServerUrl(), name),
    drop: () => dropTestDatabase(name),
  };
}

/** Drops a database of the test server (its connections terminated first); also for databases a test had created by other means. */
export async function dropTestDatabase(name: string): Promise<void> {
  const client = new Client({ connectionString: testServerUrl() });
  await client.connect();
  try {
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    await client.query(`DROP DATABASE IF EXISTS "${name}"`);
  } finally {
    await client.end();
  }
}
