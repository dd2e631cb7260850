import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

/** Availability metrics on the app's registry (served on /metrics). */
@Injectable()
export class AvailabilityMetrics {
  /** Commands ended, by platform, kind (store, product, price) and state (sent, failed, superseded). */
  readonly commands: Counter<'platform' | 'kind' | 'state'>;
  /** A platform reported a store closed that was asked to be open (or busy): once per change seen. */
  readonly closedByPlatform: Counter<'platform'>;
  /** Changes of a store's state by its platform published as restaurant.availability_changed, by how they were seen. */
  readonly platformChanges: Counter<'platform' | 'detected_by'>;
  /** Read-backs of a store's state, by platform and outcome (ok, retry, failed, no_budget). */
  readonly reads: Counter<'platform' | 'outcome'>;

  constructor(registry: Registry) {
    this.commands = new Counter({
      name: 'availability_commands_total',
      help: 'Availability and catalog commands ended, by platform, kind (store, product, price) and state (sent, failed, superseded).',
      labelNames: ['platform', 'kind', 'state'] as const,
      registers: [registry],
    });
    this.closedByPlatform = new Counter({
      name: 'platform_store_closed_by_platform_total',
      help: 'Stores a platform reported closed while they were asked to be open or busy, once per change seen, by platform.',
      labelNames: ['platform'] as const,
      registers: [registry],
    });
    this.platformChanges = new Counter({
      name: 'platform_store_availability_changes_total',
      help: 'Changes of a store\'s state made by its platform (restaurant.availability_changed published), by platform and how they were seen (read_back, platform_call).',
      labelNames: ['platform', 'detected_by'] as const,
      registers: [registry],
    });
    this.reads = new Counter({
      name: 'platform_store_reads_total',
      help: 'Read-backs of a store\'s state from its platform, by platform and outcome (ok, retry, failed, no_budget).',
      labelNames: ['platform', 'outcome'] as const,
      registers: [registry],
    });
  }
}
