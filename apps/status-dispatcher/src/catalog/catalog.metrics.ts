import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

/** Catalog metrics on the app's registry (served on /metrics). */
@Injectable()
export class CatalogMetrics {
  /** Differences a re-import found on the platform's side, by platform and kind (price, name, status, added, removed, linked_removed). */
  readonly drift: Counter<'platform' | 'kind'>;
  /** Imports ended, by platform and state (done, failed). */
  readonly imports: Counter<'platform' | 'state'>;
  /** Menu reads, by platform and outcome (ok, retry, failed). */
  readonly reads: Counter<'platform' | 'outcome'>;

  constructor(registry: Registry) {
    this.drift = new Counter({
      name: 'catalog_drift_total',
      help: 'Differences a re-import of a menu found on the platform\'s side, by platform and kind (price, name, status, added, removed, linked_removed).',
      labelNames: ['platform', 'kind'] as const,
      registers: [registry],
    });
    this.imports = new Counter({
      name: 'catalog_imports_total',
      help: 'Menu imports ended, by platform and state (done, failed).',
      labelNames: ['platform', 'state'] as const,
      registers: [registry],
    });
    this.reads = new Counter({
      name: 'catalog_menu_reads_total',
      help: 'Menu reads from the platforms, by platform and outcome (ok, retry, failed).',
      labelNames: ['platform', 'outcome'] as const,
      registers: [registry],
    });
  }
}
