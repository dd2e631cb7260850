import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import pino from 'pino';
import { appDataSourceOptions, runMigrationsLocked } from '@courier/persistence';
import { addOutboxLease, createMessagingTables, dropMessagingTables, MESSAGING_ENTITIES, MessageTransport, Outbox, OutboxRelay, TaskRunner, UnitOfWork } from '@courier/messaging';

class TestMessagingTables1700000000000 implements MigrationInterface {
  name = 'TestMessagingTables1700000000000';
  async up(queryRunner: QueryRunner): Promise<void> {
    await createMessagingTables(queryRunner);
    await addOutboxLease(queryRunner);
    await queryRunner.query('CREATE TABLE effects (message_id text NOT NULL, note text)');
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE effects');
    await dropMessagingTables(queryRunner);
  }
}

export const silentLogger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** A data source on `url` with the messaging tables (and an `effects` table for consumers' effects). */
export async function messagingDataSource(url: string, schema = 'msgtest'): Promise<DataSource> {
  const dataSource = await new DataSource(
    appDataSourceOptions({ schema, url, entities: MESSAGING_ENTITIES, migrations: [TestMessagingTables1700000000000], poolSize: 8 }),
  ).initialize();
  await runMigrationsLocked(dataSource, schema);
  return dataSource;
}

/** Outbox relay, task runner and unit of work on one data source and transport, as an app wires them. */
export function messagingStack(dataSource: DataSource, transport: MessageTransport, pollMs = 50) {
  const relay = new OutboxRelay(dataSource, transport, silentLogger, { pollMs });
  const tasks = new TaskRunner(dataSource, silentLogger, { pollMs, retryDelayMs: () => 50 });
  const outbox = new Outbox(() => relay.nudge());
  const unitOfWork = new UnitOfWork(dataSource, { onEnqueued: () => outbox.committed(true), onScheduled: () => tasks.nudge() });
  return { relay, tasks, unitOfWork, outbox };
}
