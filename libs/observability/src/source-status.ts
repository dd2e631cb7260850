import { Gauge, Registry } from 'prom-client';

export type MetricsSource = 'database' | 'broker';

const bySource = new WeakMap<Registry, Map<MetricsSource, () => Promise<unknown>>>();

/**
 * `metrics_source_up{source}`: 1 when the current read of a source's figures (outbox and task
 * backlog from the database, queue depths from the broker) succeeded, 0 when it failed or timed
 * out. While it is 0 those figures are NaN (or absent) rather than stale numbers that look healthy.
 * `read` is the source's cached read, so checking it costs nothing more.
 */
export function registerMetricsSource(registry: Registry, source: MetricsSource, read: () => Promise<unknown>): void {
  let sources = bySource.get(registry);
  if (!sources) {
    const known = new Map<MetricsSource, () => Promise<unknown>>();
    sources = known;
    bySource.set(registry, known);
    new Gauge({
      name: 'metrics_source_up',
      help: 'Whether the read of a metrics source (database: outbox and tasks, broker: queue depths) succeeded (1) or failed (0).',
      labelNames: ['source'] as const,
      registers: [registry],
      async collect() {
        for (const [name, check] of known) {
          this.set(
            { source: name },
            await check().then(
              () => 1,
              () => 0,
            ),
          );
        }
      },
    });
  }
  sources.set(source, read);
}
