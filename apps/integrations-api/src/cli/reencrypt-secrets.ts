import 'reflect-metadata';
import { Matches } from 'class-validator';
import { DataSource } from 'typeorm';
import { ConfigurationError, validateConfig } from '@courier/config';
import { SecretBox } from '@courier/crypto';
import { UnitOfWork } from '@courier/messaging';
import { appDataSourceOptions } from '@courier/persistence';
import { IsEncryptionKeyList } from '../app/integrations-api.config';
import { PERSISTENCE } from '../app/persistence';
import { AccountsRepository } from '../repositories/accounts.repository';
import { IntegrationsRepository } from '../repositories/integrations.repository';
import { SecretsReencryption } from '../secrets/secrets-reencryption';

/** What the command needs: the database and the keyring (first key encrypts). */
class ReencryptConfig {
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL!: string;

  @IsEncryptionKeyList()
  SECRETS_ENCRYPTION_KEYS!: string;
}

/**
 * `npm run secrets:reencrypt`: re-encrypts every stored secret under the first key of
 * SECRETS_ENCRYPTION_KEYS, straight in the database (the running app need not be up; its outbox
 * relay publishes the resulting events when it runs). Prints a JSON report; exit code 1 when a
 * secret could not be opened.
 */
export async function main(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let config: ReencryptConfig;
  try {
    config = validateConfig(ReencryptConfig, env);
  } catch (error) {
    process.stderr.write(`${error instanceof ConfigurationError ? error.message : String(error)}\n`);
    return 2;
  }
  const dataSource = new DataSource(appDataSourceOptions({ ...PERSISTENCE, url: config.DATABASE_URL, poolSize: 2, applicationName: 'integrations-reencrypt' }));
  try {
    await dataSource.initialize();
    const unitOfWork = new UnitOfWork(dataSource, { onEnqueued: () => undefined, onScheduled: () => undefined });
    const integrations = new IntegrationsRepository(dataSource);
    const accounts = new AccountsRepository(dataSource, integrations);
    const report = await new SecretsReencryption(accounts, integrations, unitOfWork, SecretBox.fromKeyList(config.SECRETS_ENCRYPTION_KEYS)).run();
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return report.failures.length > 0 ? 1 : 0;
  } catch (error) {
    process.stderr.write(`${JSON.stringify({ error: 're-encryption failed', detail: (error as Error).message })}\n`);
    return 1;
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
  }
}

if (require.main === module) {
  void main().then((code) => {
    process.exitCode = code;
  });
}
