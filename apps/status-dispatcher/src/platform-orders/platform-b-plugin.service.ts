import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { UnitOfWork } from '@courier/messaging';
import { isRecord, PlatformOrder } from '@courier/platforms';
import type { DirectoryIntegration } from '../platform-sessions/integration-directory';

/** A vendor closure as PLATFORM_B's middleware sends it (`PUT /remoteId/{remoteId}/availability`). */
export interface VendorClosure {
  reason: string;
  start: string;
  end?: string | null;
  changeable?: boolean;
}

/**
 * What PLATFORM_B's plugin keeps besides real orders: the platform's test orders (answered with an
 * id of ours, kept in their own table and never announced to the courier core: they must never be
 * cooked nor delivered) and the platform's open/closed state of each vendor.
 */
@Injectable()
export class PlatformBPluginService {
  private readonly logger = new Logger('PlatformBPlugin');

  constructor(private readonly unitOfWork: UnitOfWork) {}

  /** Stores a test order once (the middleware's retries find the first id). */
  async receiveTestOrder(integration: DirectoryIntegration, order: PlatformOrder): Promise<string> {
    const id = await this.unitOfWork.run(async (tx) => {
      const [row]: Array<{ id: string }> = await tx.manager.query(
        `WITH created AS (
           INSERT INTO platform_test_orders (id, provider, order_id, provider_restaurant_id, integration_id, order_number, details, platform_data, expires_at, received_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now()) ON CONFLICT (provider, order_id) DO NOTHING RETURNING id)
         SELECT id FROM created UNION ALL SELECT id FROM platform_test_orders WHERE provider = $2 AND order_id = $3 LIMIT 1`,
        [randomUUID(), integration.platform, order.platformOrderId, integration.providerRestaurantId, integration.integrationId, order.orderNumber, JSON.stringify(order.details), JSON.stringify(order.platformData), order.expiresAt ?? null],
      );
      if (row) return row.id;
      // A concurrent dispatch of the same order inserted it after this statement's snapshot: read it now.
      const [existing]: Array<{ id: string }> = await tx.manager.query('SELECT id FROM platform_test_orders WHERE provider = $1 AND order_id = $2', [integration.platform, order.platformOrderId]);
      return existing.id;
    });
    this.logger.log({ platform: integration.platform, platformOrderId: order.platformOrderId, testOrderId: id, integrationId: integration.integrationId }, 'platform test order received; kept apart, not passed on');
    return id;
  }

  /** A status from the platform for a test order (by our id): recorded; false when there is no such test order. */
  async testOrderStatus(provider: string, testOrderId: string, providerRestaurantId: string, status: string, message: string | undefined): Promise<boolean> {
    const updated: unknown[] = await this.unitOfWork.run((tx) =>
      tx.manager.query(
        `WITH updated AS (
           UPDATE platform_test_orders SET last_status = $4, last_status_message = $5, last_status_at = now()
            WHERE id = $1 AND provider = $2 AND provider_restaurant_id = $3 RETURNING id)
         SELECT id FROM updated`,
        [testOrderId, provider, providerRestaurantId, status, message?.slice(0, 500) ?? null],
      ),
    );
    return updated.length > 0;
  }

  /** The platform's availability of the vendor: open unless a closure covers now. The newest report wins. */
  async recordAvailability(integration: DirectoryIntegration, closures: VendorClosure[], platformTimestamp: Date | null): Promise<{ open: boolean }> {
    const now = Date.now();
    const open = !closures.some((closure) => Date.parse(closure.start) <= now && (!closure.end || Date.parse(closure.end) > now));
    await this.unitOfWork.run((tx) =>
      tx.manager.query(
        `INSERT INTO platform_vendor_availability (provider, provider_restaurant_id, integration_id, is_open, closures, platform_timestamp, received_at)
         VALUES ($1, $2, $3, $4, $5, $6, now())
         ON CONFLICT (provider, provider_restaurant_id) DO UPDATE
           SET integration_id = EXCLUDED.integration_id, is_open = EXCLUDED.is_open, closures = EXCLUDED.closures,
               platform_timestamp = EXCLUDED.platform_timestamp, received_at = EXCLUDED.received_at
         WHERE platform_vendor_availability.platform_timestamp IS NULL OR EXCLUDED.platform_timestamp IS NULL
            OR EXCLUDED.platform_timestamp >= platform_vendor_availability.platform_timestamp`,
        [integration.platform, integration.providerRestaurantId, integration.integrationId, open, JSON.stringify(closures), platformTimestamp],
      ),
    );
    this.logger.log({ platform: integration.platform, providerRestaurantId: integration.providerRestaurantId, integrationId: integration.integrationId, open, closures: closures.length }, open ? 'the platform opened the vendor' : 'the platform closed the vendor');
    return { open };
  }
}

/** `closures` of an availability body, each checked; a field error list when malformed. */
export function readClosures(body: unknown): { closures: VendorClosure[]; timestamp: Date | null } | { errors: Array<{ field: string; message: string }> } {
  if (!isRecord(body)) return { errors: [{ field: 'body', message: 'must be a JSON object' }] };
  const raw = body.closures ?? [];
  if (!Array.isArray(raw) || raw.length > 100) return { errors: [{ field: 'closures', message: 'must be an array of at most 100 closures' }] };
  const errors: Array<{ field: string; message: string }> = [];
  const closures: VendorClosure[] = [];
  raw.forEach((closure, index) => {
    const start = isRecord(closure) ? closure.start : undefined;
    const end = isRecord(closure) ? closure.end : undefined;
    if (!isRecord(closure) || typeof start !== 'string' || Number.isNaN(Date.parse(start)) || (end !== undefined && end !== null && (typeof end !== 'string' || Number.isNaN(Date.parse(end))))) {
      errors.push({ field: `closures[${index}]`, message: 'needs start (date-time) and, when given, end (date-time)' });
      return;
    }
    closures.push({ reason: typeof closure.reason === 'string' ? closure.reason.slice(0, 100) : 'UNKNOWN', start, end: (end as string | null | undefined) ?? null, changeable: closure.changeable === true });
  });
  const timestamp = typeof body.timestamp === 'string' && !Number.isNaN(Date.parse(body.timestamp)) ? new Date(body.timestamp) : null;
  return errors.length ? { errors } : { closures, timestamp };
}
