import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

/**
 * `platform_order_id_collisions_total{platform}`: platform orders whose platform order id another
 * platform store (or another integration of the store) already holds. Each is kept apart as the
 * order of its own store, or refused when it cannot be (docs/platform-dispatch.md, "One owner per
 * platform order"); a real platform never repeats an order id across stores, so any count is worth a look.
 */
@Injectable()
export class PlatformOrderMetrics {
  readonly collisions: Counter<'platform'>;

  constructor(registry: Registry) {
    this.collisions = new Counter({
      name: 'platform_order_id_collisions_total',
      help: 'Platform orders whose platform order id was already an order of another platform store or integration (kept apart, or refused), by platform.',
      labelNames: ['platform'] as const,
      registers: [registry],
    });
  }
}
