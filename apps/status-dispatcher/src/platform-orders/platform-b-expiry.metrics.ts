import { Injectable } from '@nestjs/common';
import { Gauge, Registry } from 'prom-client';
import { CachedSample } from '@courier/observability';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { PlatformOrderRepository } from './platform-order.repository';

/** Platforms whose orders carry an expiry (always reported, 0 when none). */
const EXPIRING_PLATFORMS = ['PLATFORM_B'] as const;

/**
 * `platform_orders_expiring{platform}`: platform orders nobody has answered yet (no accept or
 * reject reached the platform) whose expiryDate is less than PLATFORM_B_EXPIRY_WARNING_MS away or
 * passed within the last hour. DH cancels an order unanswered at its expiry, and repeated expiries
 * close the store (alert CourierPlatformOrdersExpiring). Read when Prometheus scrapes (cached 5 s).
 */
@Injectable()
export class PlatformBExpiryMetrics {
  constructor(registry: Registry, orders: PlatformOrderRepository, config: DispatcherConfig) {
    const sample = new CachedSample(() => orders.countExpiring(config.PLATFORM_B_EXPIRY_WARNING_MS), { maxAgeMs: 5_000, timeoutMs: 1_500 });
    new Gauge({
      name: 'platform_orders_expiring',
      help: 'Platform orders not yet accepted or rejected on the platform whose expiryDate is near (PLATFORM_B_EXPIRY_WARNING_MS) or passed within the last hour.',
      labelNames: ['platform'] as const,
      registers: [registry],
      async collect() {
        const current = await sample.get().catch(() => undefined);
        for (const platform of EXPIRING_PLATFORMS) this.set({ platform }, current ? (current.get(platform) ?? 0) : Number.NaN);
      },
    });
  }
}

