import type { Logger } from 'pino';
import { Gauge, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { CachedSample } from './cached-sample';
import { registerMetricsSource } from './source-status';

/** Pending outbox rows are counted up to this many: the count stays cheap during a long broker outage. */
export const OUTBOX_COUNT_CAP = 100_000;

export interface DatabaseSample {
  outboxPending: number;
  /** Seconds since the oldest unpublished outbox row was written (0 when none). */
  outboxOldestAgeSeconds: number;
  /** Due tasks no runner holds, by kind. */
  dueTasks: Array<{ kind: string; due: number; oldestAgeSeconds: number }>;
}

/** Reads the backlog figures in one short read-only transaction bounded by a statement timeout. */
export async function readDatabaseSample(dataSource: DataSource, statementTimeoutMs: number): Promise<DatabaseSample> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    await runner.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.trunc(statementTimeoutMs))}`);
    const [outbox] = await runner.query(
      `SELECT (SELECT count(*)::int FROM (SELECT 1 FROM outbox_messages WHERE published_at IS NULL LIMIT ${OUTBOX_COUNT_CAP}) pending) AS pending,
              coalesce(EXTRACT(EPOCH FROM now() - (SELECT min(created_at) FROM outbox_messages WHERE published_at IS NULL)), 0)::float8 AS oldest`,
    );
    const tasks: Array<{ kind: string; due: number; oldest: number }> = await runner.query(
      `SELECT kind, count(*)::int AS due, EXTRACT(EPOCH FROM now() - min(due_at))::float8 AS oldest
         FROM scheduled_tasks
        WHERE due_at <= now() AND (lease_until IS NULL OR lease_until < now())
        GROUP BY kind`,
    );
    await runner.commitTransaction();
    return {
      outboxPending: outbox.pending,
      outboxOldestAgeSeconds: Math.max(0, outbox.oldest),
      dueTasks: tasks.map((row) => ({ kind: row.kind, due: row.due, oldestAgeSeconds: Math.max(0, row.oldest) })),
    };
  } finally {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    await runner.release();
  }
}

/**
 * The app's outbox backlog and due scheduled tasks, from its own schema, read when Prometheus
 * scrapes (cached for a few seconds, bounded by a timeout).
 */
export class DatabaseMetrics {
  private readonly sample: CachedSample<DatabaseSample>;
  /** Kinds seen due since start: reported as 0 once drained, so their series do not vanish. */
  private readonly kindsSeen = new Set<string>();

  constructor(registry: Registry, dataSource: DataSource, options: { cacheMs: number; timeoutMs: number; logger?: Logger }) {
    let failures = 0;
    this.sample = new CachedSample(
      async () => {
        try {
          const sample = await readDatabaseSample(dataSource, options.timeoutMs);
          failures = 0;
          return sample;
        } catch (error) {
          failures += 1;
          if (failures === 1 || failures % 60 === 0) options.logger?.warn({ err: error, failures }, 'metrics: database figures unavailable');
          throw error;
        }
      },
      { maxAgeMs: options.cacheMs, timeoutMs: options.timeoutMs + 500 },
    );
    registerMetricsSource(registry, 'database', () => this.sample.get());
    const read = (): Promise<DatabaseSample | undefined> => this.sample.get().catch(() => undefined);
    // Each gauge reads the shared sample, so the figures of one scrape come from one read.
    const sampleOf = <T extends string>(set: (gauge: Gauge<T>, sample: DatabaseSample | undefined) => void) =>
      async function collect(this: Gauge<T>) {
        set(this, await read());
      };

    new Gauge({
      name: 'outbox_pending_messages',
      help: `Outbox rows not yet published to the broker (counted up to ${OUTBOX_COUNT_CAP}).`,
      registers: [registry],
      collect: sampleOf((gauge, sample) => gauge.set(sample ? sample.outboxPending : Number.NaN)),
    });
    new Gauge({
      name: 'outbox_oldest_pending_age_seconds',
      help: 'Age of the oldest unpublished outbox row (0 when the outbox is drained).',
      registers: [registry],
      collect: sampleOf((gauge, sample) => gauge.set(sample ? sample.outboxOldestAgeSeconds : Number.NaN)),
    });
    new Gauge({
      name: 'scheduled_tasks_due',
      help: 'Scheduled tasks whose due time has passed and that no runner holds, by kind.',
      labelNames: ['kind'] as const,
      registers: [registry],
      collect: sampleOf<'kind'>((gauge, sample) => this.setByKind(gauge, sample, (task) => task.due)),
    });
    new Gauge({
      name: 'scheduled_tasks_oldest_due_age_seconds',
      help: 'How long the oldest due task no runner holds has been due, by kind.',
      labelNames: ['kind'] as const,
      registers: [registry],
      collect: sampleOf<'kind'>((gauge, sample) => this.setByKind(gauge, sample, (task) => task.oldestAgeSeconds)),
    });
  }

  private setByKind(gauge: Gauge<'kind'>, sample: DatabaseSample | undefined, value: (task: DatabaseSample['dueTasks'][number]) => number): void {
    gauge.reset();
    if (!sample) return;
    for (const task of sample.dueTasks) this.kindsSeen.add(task.kind);
    for (const kind of this.kindsSeen) {
      const task = sample.dueTasks.find((candidate) => candidate.kind === kind);
      gauge.set({ kind }, task ? value(task) : 0);
    }
  }
}
