import { Injectable, Logger } from '@nestjs/common';
import { UnitOfWork } from '@courier/messaging';
import { isRecord, PlatformOrder } from '@courier/platforms';
import type { DirectoryIntegration } from '../platform-sessions/integration-directory';
import { PlatformBPluginRepository, VendorClosure } from './platform-b-plugin.repository';

/**
 * What PLATFORM_B's plugin keeps besides real orders: the platform's test orders (answered with an
 * id of ours, kept in their own table and never announced to the courier core: they must never be
 * cooked nor delivered) and the platform's open/closed state of each vendor.
 */
@Injectable()
export class PlatformBPluginService {
  private readonly logger = new Logger('PlatformBPlugin');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly records: PlatformBPluginRepository,
  ) {}

  /** Stores a test order once per vendor (the middleware's retries find the first id; another vendor's test order with the same token is its own). */
  async receiveTestOrder(integration: DirectoryIntegration, order: PlatformOrder): Promise<string> {
    const id = await this.unitOfWork.run(async (tx) => {
      const stored = await this.records.insertTestOrder(tx.manager, integration, order);
      if (stored) return stored;
      // A concurrent dispatch of the same order inserted it after this statement's snapshot: read it now.
      return (await this.records.testOrderId(tx.manager, integration.platform, integration.providerRestaurantId, order.platformOrderId))!;
    });
    this.logger.log({ platform: integration.platform, platformOrderId: order.platformOrderId, testOrderId: id, integrationId: integration.integrationId }, 'platform test order received; kept apart, not passed on');
    return id;
  }

  /** A status from the platform for a test order (by our id): recorded; false when there is no such test order. */
  async testOrderStatus(provider: string, testOrderId: string, providerRestaurantId: string, status: string, message: string | undefined): Promise<boolean> {
    return this.unitOfWork.run((tx) => this.records.recordTestOrderStatus(tx.manager, provider, testOrderId, providerRestaurantId, status, message?.slice(0, 500) ?? null));
  }

  /** The platform's availability of the vendor: open unless a closure covers now. The newest report wins. */
  async recordAvailability(integration: DirectoryIntegration, closures: VendorClosure[], platformTimestamp: Date | null): Promise<{ open: boolean }> {
    const now = Date.now();
    const open = !closures.some((closure) => Date.parse(closure.start) <= now && (!closure.end || Date.parse(closure.end) > now));
    await this.unitOfWork.run((tx) => this.records.recordAvailability(tx.manager, integration, open, closures, platformTimestamp));
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
