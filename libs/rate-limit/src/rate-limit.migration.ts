import type { QueryRunner } from 'typeorm';

/** The counters of PostgresRateLimitStore, in the calling app's schema (its search_path). */
export async function createRateLimitCountersTable(queryRunner: QueryRunner): Promise<void> {
  // UNLOGGED: no WAL for a counter that lives one minute; a crash forgetting it is harmless.
  await queryRunner.query(`
    CREATE UNLOGGED TABLE IF NOT EXISTS rate_limit_counters (
      scope text NOT NULL,
      key_hash text NOT NULL,
      window_start bigint NOT NULL,
      count int NOT NULL,
      PRIMARY KEY (scope, key_hash, window_start)
    )`);
}

export async function dropRateLimitCountersTable(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query('DROP TABLE IF EXISTS rate_limit_counters');
}
