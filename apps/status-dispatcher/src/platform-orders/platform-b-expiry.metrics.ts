import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Gauge, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { CachedSample } from '@courier/observability';
import { DispatcherConfig } from '../app/status-dispatcher.config';

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
  constructor(registry: Registry, @InjectDataSource() dataSource: DataSource, config: DispatcherConfig) {
    const sample = new CachedSample(() => readExpiring(dataSource, config.PLATFORM_B_EXPIRY_WARNING_MS), { maxAgeMs: 5_000, timeoutMs: 1_500 });
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

/** Unanswered = not final, and no VERIFY, REJECT or CANCEL of it sent to the platform yet. */
export async function readExpiring(db: Pick<DataSource, 'query'>, warningMs: number): Promise<Map<string, number>> {
  const rows: Array<{ platform: string; count: number }> = await db.query(
    `SELECT o.provider AS platform, count(*)::int AS count FROM orders o
      WHERE o.platform_expires_at IS NOT NULL
        AND o.platform_expires_at <= now() + make_interval(secs => $1::float8 / 1000) AND o.platform_expires_at > now() - interval '1 hour'
        AND o.status NOT IN ('CANCELED', 'FAILED', 'DELIVERED')
        AND NOT EXISTS (SELECT 1 FROM status_updates u WHERE u.order_id = o.id AND u.action IN ('VERIFY', 'REJECT', 'CANCEL') AND u.state = 'sent')
      GROUP BY o.provider`,
    [warningMs],
  );
  return new Map(rows.map((row) => [row.platform, row.count]));
}
