import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

/**
 * `catalog_unmapped_order_items_total{platform}`: items of platform orders whose product maps to no
 * restaurant code when the order is received (kept, marked `mapped: false`, listed by
 * GET /api/v1/my/catalog/unmapped until the operator links the product; docs/catalog.md).
 */
@Injectable()
export class CatalogOrderItemMetrics {
  readonly unmappedItems: Counter<'platform'>;

  constructor(registry: Registry) {
    this.unmappedItems = new Counter({
      name: 'catalog_unmapped_order_items_total',
      help: 'Items of platform orders received with no restaurant product code (no catalog link, no code from the platform), by platform.',
      labelNames: ['platform'] as const,
      registers: [registry],
    });
  }
}
