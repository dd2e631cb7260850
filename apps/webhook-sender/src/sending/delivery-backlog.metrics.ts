import { Injectable } from '@nestjs/common';
import { Gauge, Registry } from 'prom-client';
import { CachedSample } from '@courier/observability';
import { DeliveriesRepository, OPEN_DELIVERIES_COUNT_CAP } from '../repositories/deliveries.repository';
import type { DeliveryBacklog } from '../repositories/delivery.model';

/**
 * The retry backlog: `webhook_deliveries_open` (deliveries pending or retrying, i.e. the rows of
 * webhook_delivery_queue) and `webhook_deliveries_overdue_seconds` (how far past its due time the
 * oldest delivery no process works on is: the pump's lag). Read when Prometheus scrapes, cached
 * 5 s and shared by the replicas' figures (aggregate with max); NaN while the database is unreadable.
 */
@Injectable()
export class DeliveryBacklogMetrics {
  constructor(registry: Registry, deliveries: DeliveriesRepository) {
    const sample = new CachedSample(() => deliveries.backlog(), { maxAgeMs: 5_000, timeoutMs: 1_500 });
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
