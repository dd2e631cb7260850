import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Gauge, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { CachedSample } from '@courier/observability';

/** Open deliveries are counted up to this: a scrape must stay cheap however large the backlog. */
export const OPEN_DELIVERIES_COUNT_CAP = 100_000;

export interface DeliveryBacklog {
  open: number;
  overdueSeconds: number;
}

/**
 * The retry backlog: `webhook_deliveries_open` (deliveries pending or retrying, i.e. the rows of
 * webhook_delivery_queue) and `webhook_deliveries_overdue_seconds` (how far past its due time the
 * oldest delivery no process works on is: the pump's lag). Read when Prometheus scrapes, cached
 * 5 s and shared by the replicas' figures (aggregate with max); NaN while the database is unreadable.
 */
@Injectable()
export class DeliveryBacklogMetrics {
  constructor(registry: Registry, @InjectDataSource() dataSource: DataSource) {
    const sample = new CachedSample(() => readDeliveryBacklog(dataSource), { maxAgeMs: 5_000, timeoutMs: 1_500 });
    const read = (value: (backlog: DeliveryBacklog) => number) =>
      async function collect(this: Gauge) {
        const current = await sample.get().catch(() => undefined);
        this.set(current ? value(current) : Number.NaN);
      };
    new Gauge({
      name: 'webhook_deliveries_open',
      help: `Webhook deliveries pending or retrying (counted up to ${OPEN_DELIVERIES_COUNT_CAP}).`,
      registers: [registry],
      collect: read((backlog) => backlog.open),
    });
    new Gauge({
      name: 'webhook_deliveries_overdue_seconds',
      help: 'How far past its due time the oldest open delivery no process works on is (0 when none is due).',
      registers: [registry],
      collect: read((backlog) => backlog.overdueSeconds),
    });
  }
}

/** One statement: the capped count and the oldest due time of the unleased rows (the pump's own look-up, on the due_at index). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- DataSource.query's own result type
export async function readDeliveryBacklog(db: { query(text: string, params?: unknown[]): Promise<any> }): Promise<DeliveryBacklog> {
  const [row]: Array<{ open: number; overdue_seconds: number | string }> = await db.query(
    `SELECT (SELECT count(*)::int FROM (SELECT 1 FROM webhook_delivery_queue LIMIT $1) capped) AS open,
            greatest(0, coalesce(EXTRACT(EPOCH FROM now() - (SELECT min(due_at) FROM webhook_delivery_queue WHERE lease_until IS NULL OR lease_until < now())), 0))::float8 AS overdue_seconds`,
    [OPEN_DELIVERIES_COUNT_CAP],
  );
  return { open: row.open, overdueSeconds: Number(row.overdue_seconds) };
}
