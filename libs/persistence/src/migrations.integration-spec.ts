import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@courier/testing';
import { appDataSourceOptions } from './data-source-options';
import { runMigrationsLocked } from './migrations';

class CreateLedger1700000000001 implements MigrationInterface {
  name = 'CreateLedger1700000000001';
  async up(queryRunner: QueryRunner): Promise<void> {
    // Slow on purpose: replicas that do not wait for the lock would run it too and fail or double it.
    await queryRunner.query('SELECT pg_sleep(0.3)');
    await queryRunner.query('CREATE TABLE ledger (id serial PRIMARY KEY, note text)');
    await queryRunner.query("INSERT INTO ledger (note) VALUES ('created once')");
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE ledger');
  }
}

class AddLedgerColumn1700000000002 implements MigrationInterface {
  name = 'AddLedgerColumn1700000000002';
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE ledger ADD COLUMN amount int NOT NULL DEFAULT 0');
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE ledger DROP COLUMN amount');
  }
}

describe('runMigrationsLocked', () => {
  let db: TestDatabase;
  const sources: DataSource[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('migr');
  });

  afterAll(async () => {
    await Promise.all(sources.map((source) => source.destroy()));
    await db?.drop();
  });

  async function replica(schema: string): Promise<DataSource> {
    const source = await new DataSource(
      appDataSourceOptions({ schema, url: db.url, entities: [], migrations: [CreateLedger1700000000001, AddLedgerColumn1700000000002], poolSize: 3 }),
    ).initialize();
    sources.push(source);
    return source;
  }

  it('applies each migration exactly once when several replicas start together, in the app schema', async () => {
    const replicas = await Promise.all([replica('app_one'), replica('app_one'), replica('app_one'), replica('app_one')]);
    const applied = await Promise.all(replicas.map((source) => runMigrationsLocked(source, 'app_one')));
    expect(applied.flat().sort()).toEqual(['AddLedgerColumn1700000000002', 'CreateLedger1700000000001']);
    const rows = await replicas[0].query('SELECT note, amount FROM app_one.ledger');
    expect(rows).toEqual([{ note: 'created once', amount: 0 }]);
    const history = await replicas[0].query('SELECT name FROM app_one.migrations ORDER BY id');
    expect(history.map((row: { name: string }) => row.name)).toEqual(['CreateLedger1700000000001', 'AddLedgerColumn1700000000002']);
  });

  it('keeps each app in its own schema with its own migrations table', async () => {
    const other = await replica('app_two');
    expect(await runMigrationsLocked(other, 'app_two')).toHaveLength(2);
    const [{ count }] = await other.query(`SELECT count(*)::int AS count FROM information_schema.tables WHERE table_schema IN ('app_one', 'app_two') AND table_name = 'migrations'`);
    expect(count).toBe(2);
    expect(await runMigrationsLocked(other, 'app_two')).toEqual([]);
  });
});
