import { DataSource } from 'typeorm';
import { validateConfig, MigrationConfig } from '@courier/config';
import { appDataSourceOptions } from './data-source-options';
import { runMigrationsLocked } from './migrations';
import type { PersistenceSettings } from './persistence.module';

/**
 * Body of each app's `migrate.js`: runs that app's pending migrations alone (Kubernetes Job,
 * compose one-shot service, a first run by hand) under the same advisory lock the apps take at
 * start, prints JSON, and exits non-zero on failure. It validates only what migrating needs
 * (DATABASE_URL): the app's keys and tokens are checked when the app starts.
 */
export async function runMigrationsCommand(settings: PersistenceSettings): Promise<void> {
  let dataSource: DataSource | undefined;
  try {
    const config = validateConfig(MigrationConfig);
    dataSource = await new DataSource(appDataSourceOptions({ ...settings, url: config.DATABASE_URL, poolSize: 2 })).initialize();
    const applied = await runMigrationsLocked(dataSource, settings.schema);
    process.stdout.write(`${JSON.stringify({ schema: settings.schema, applied })}\n`);
  } catch (error) {
    process.stderr.write(`${JSON.stringify({ schema: settings.schema, error: error instanceof Error ? error.message : String(error) })}\n`);
    process.exitCode = 1;
  } finally {
    await dataSource?.destroy().catch(() => undefined);
  }
}
