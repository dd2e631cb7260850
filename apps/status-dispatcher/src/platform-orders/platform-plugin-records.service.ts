import { Injectable, Logger } from '@nestjs/common';
import { UnitOfWork } from '@courier/messaging';
import type { PlatformOrder, VendorClosure } from '@courier/platforms';
import type { DirectoryIntegration } from '../account-directory/account-directory.model';
import { PlatformPluginRecordsRepository } from './platform-plugin-records.repository';

/**
 * What the platforms' inbound pieces keep besides real orders: the platforms' test orders (answered with an
 * id of ours, kept in their own table and never announced to the courier core: they must never be
 * cooked nor delivered) and the platform's open/closed state of each vendor.
 */
@Injectable()
export class PlatformPluginRecordsService {
  private readonly logger = new Logger('PlatformPluginRecords');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly records: PlatformPluginRecordsRepository,
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
