import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import { CachedSample } from '@courier/observability';
import { PlatformAdapters } from '@courier/platforms';
import { PlatformOrderRepository } from './platform-order.repository';

/**
 * `platform_orders_expiring{platform}`: platform orders nobody has answered yet (no VERIFY, REJECT
 * or CANCEL reached the platform) whose accept-by time is less than their platform's warning time
 * (`PLATFORM_*_ACCEPT_WARNING_MS`) away or passed within the last hour. Every platform is reported
 * (0 when none): each gives up on an unanswered order and may close the store (alerts
 * CourierPlatform*OrdersUnanswered). Read when Prometheus scrapes (cached 5 s).
 */
@Injectable()
export class PlatformAcceptanceMetrics {
  /** `platform_order_acceptance_warnings_total{platform}`: order.acceptance_due events this process published. */
  readonly warnings: Counter<'platform'>;

  constructor(registry: Registry, orders: PlatformOrderRepository, adapters: PlatformAdapters) {
    this.warnings = new Counter({
      name: 'platform_order_acceptance_warnings_total',
      help: 'order.acceptance_due events published: platform orders still unanswered on their platform at its warning time.',
      labelNames: ['platform'] as const,
      registers: [registry],
    });
    const warningMs = Object.fromEntries(adapters.codes().map((code) => [code, adapters.get(code)!.orders.acceptanceWarningMs]));
    const sample = new CachedSample(() => orders.countExpiring(warningMs), { maxAgeMs: 5_000, timeoutMs: 1_500 });
    new Gauge({
      name: 'platform_orders_expiring',
      help: 'Platform orders not yet accepted or rejected on the platform whose accept-by time is near (PLATFORM_*_ACCEPT_WARNING_MS) or passed within the last hour.',
      labelNames: ['platform'] as const,
      registers: [registry],
      async collect() {
        const current = await sample.get().catch(() => undefined);
        for (const platform of Object.keys(warningMs)) this.set({ platform }, current ? (current.get(platform) ?? 0) : Number.NaN);
      },
    });
  }
}
