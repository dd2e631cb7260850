import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { appDataSourceOptions } from '@courier/persistence';
import { createTestDatabase, messagingDataSource, parsePrometheusText, samplesOf, TestDatabase } from '@courier/testing';
import { DatabaseMetrics } from './database-metrics';

describe('DatabaseMetrics (outbox backlog and due tasks of the app\'s schema)', () => {
  let db: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase('obs_db');
    dataSource = await messagingDataSource(db.url, 'obs');
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  const outboxRow = (ageSeconds: number, published: boolean) =>
    dataSource.query(
      `INSERT INTO outbox_messages (id, routing_key, payload, created_at, published_at)
       VALUES ($1, 'order.created', '{}', now() - ($2::int * interval '1 second'), CASE WHEN $3 THEN now() END)`,
      [randomUUID(), ageSeconds, published],
    );
  const task = (kind: string, dueInSeconds: number, leasedForSeconds?: number) =>
    dataSource.query(
      `INSERT INTO scheduled_tasks (id, kind, payload, due_at, lease_until)
       VALUES ($1, $2, '{}', now() + ($3::int * interval '1 second'), CASE WHEN $4::int IS NULL THEN NULL ELSE now() + ($4::int * interval '1 second') END)`,
      [randomUUID(), kind, dueInSeconds, leasedForSeconds ?? null],
    );

  it('reports pending outbox rows and their age, and due tasks no runner holds by kind; drained kinds stay at 0', async () => {
    await outboxRow(60, false);
    await outboxRow(1, false);
    await outboxRow(600, true);
    await task('webhook.deliver', -30);
    await task('webhook.deliver', -5);
    await task('webhook.deliver', 3_600);
    await task('order.final_approval', -10, 60); // running: its lease holds it
    await task('order.hold', -1);
    const registry = new Registry();
    new DatabaseMetrics(registry, dataSource, { cacheMs: 0, timeoutMs: 1_000 });

    const samples = parsePrometheusText(await registry.metrics());
    const value = (name: string, labels: Record<string, string> = {}) => samplesOf(samples, name, labels)[0]?.value;
    expect(value('outbox_pending_messages')).toBe(2);
    expect(value('outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(59);
    expect(value('outbox_oldest_pending_age_seconds')).toBeLessThan(120);
    expect(value('scheduled_tasks_due', { kind: 'webhook.deliver' })).toBe(2);
    expect(value('scheduled_tasks_due', { kind: 'order.hold' })).toBe(1);
    expect(value('scheduled_tasks_due', { kind: 'order.final_approval' })).toBeUndefined();
    expect(value('scheduled_tasks_oldest_due_age_seconds', { kind: 'webhook.deliver' })).toBeGreaterThanOrEqual(29);
    expect(value('metrics_source_up', { source: 'database' })).toBe(1);

    await dataSource.query('UPDATE outbox_messages SET published_at = now()');
    await dataSource.query(`DELETE FROM scheduled_tasks WHERE due_at <= now()`);
    const drained = parsePrometheusText(await registry.metrics());
    expect(samplesOf(drained, 'outbox_pending_messages')[0].value).toBe(0);
    expect(samplesOf(drained, 'outbox_oldest_pending_age_seconds')[0].value).toBe(0);
    expect(samplesOf(drained, 'scheduled_tasks_due').map((sample) => [sample.labels.kind, sample.value]).sort()).toEqual([
      ['order.hold', 0],
      ['webhook.deliver', 0],
    ]);
  });

  it('says the database is unreadable (source down, NaN) rather than reporting an empty backlog', async () => {
    // A schema without the messaging tables: every read fails.
    const options = appDataSourceOptions({ schema: 'no_such_schema', url: db.url, entities: [], migrations: [], poolSize: 2 });
    const broken = await new DataSource({ ...options, logging: false }).initialize();
    try {
      const registry = new Registry();
      new DatabaseMetrics(registry, broken, { cacheMs: 0, timeoutMs: 1_000 });
      const samples = parsePrometheusText(await registry.metrics());
      expect(samplesOf(samples, 'metrics_source_up', { source: 'database' })[0].value).toBe(0);
      expect(samplesOf(samples, 'outbox_pending_messages')[0].value).toBeNaN();
      expect(samplesOf(samples, 'scheduled_tasks_due')).toEqual([]);
    } finally {
      await broken.destroy();
    }
  });
});
