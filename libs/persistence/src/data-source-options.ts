import { DataSourceOptions } from 'typeorm';
import type { MixedList, EntitySchema } from 'typeorm';

export interface AppDataSourceSettings {
  /** The app's own PostgreSQL schema: its tables and its migrations table live there. */
  schema: string;
  url: string;
  entities: MixedList<Function | string | EntitySchema>;
  migrations: MixedList<Function | string>;
  poolSize?: number;
  applicationName?: string;
}

/**
 * TypeORM options of one app: its own schema (also first on the search_path, so raw SQL needs no
 * prefix), its own migrations table, `synchronize` never on, a bounded pool with timeouts.
 */
export function appDataSourceOptions(settings: AppDataSourceSettings): DataSourceOptions {
  return {
    type: 'postgres',
    url: settings.url,
    schema: settings.schema,
    entities: settings.entities,
    migrations: settings.migrations,
    migrationsTableName: 'migrations',
    migrationsRun: false,
    synchronize: false,
    logging: ['error', 'warn'],
    applicationName: settings.applicationName ?? settings.schema,
    extra: {
      max: settings.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      statement_timeout: 30_000,
      options: `-c search_path=${settings.schema},public`,
    },
  };
}
