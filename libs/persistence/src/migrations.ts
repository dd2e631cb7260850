import { DataSource } from 'typeorm';
import { createHash } from 'node:crypto';

/** A stable 64-bit advisory lock key for one schema's migrations. */
export function migrationLockKey(schema: string): string {
  return BigInt.asIntN(64, BigInt('0x' + createHash('sha256').update(`migrations:${schema}`).digest('hex').slice(0, 16))).toString();
}

/**
 * Creates the schema and runs pending migrations exactly once across replicas: every starter takes
 * the same session-level advisory lock, so the others wait and then find nothing to do.
 * Returns the names of the migrations this call applied.
 */
export async function runMigrationsLocked(dataSource: DataSource, schema: string): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [migrationLockKey(schema)]);
    try {
      // Only when missing: even IF NOT EXISTS needs CREATE on the database, which an app role that
      // owns just its schema (made for it beforehand) does not have.
      const exists = await runner.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
      if (exists.length === 0) await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((migration) => migration.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [migrationLockKey(schema)]);
    }
  } finally {
    await runner.release();
  }
}
