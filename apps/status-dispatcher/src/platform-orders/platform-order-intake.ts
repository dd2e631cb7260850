import { Injectable } from '@nestjs/common';
import type { BudgetedCall, CancellationResult, InboundIntegration, IntegrationCredentials, PlatformOrder, PlatformOrderIntake, ReceivedOrder, VendorClosure } from '@courier/platforms';
import { AvailabilityService } from '../availability/availability.service';
import type { DirectoryIntegration } from '../account-directory/account-directory.model';
import { IntegrationDirectory } from '../platform-sessions/integration-directory';
import { PlatformCallBudgets } from '../platform-sessions/platform-call-budgets';
import { PlatformOrdersService } from './platform-orders.service';
import { PlatformPluginRecordsService } from './platform-plugin-records.service';
import { PlatformPollCursorRepository } from './platform-poll-cursor.repository';

/**
 * status-dispatcher's side of the PlatformOrderIntake port: the platforms' controllers and pollers
 * (libs/platforms) reach the orders, the integrations and their tables only through it. Every
 * integration it is handed is one it returned (a DirectoryIntegration).
 */
@Injectable()
export class DispatcherOrderIntake implements PlatformOrderIntake {
  constructor(
    private readonly directory: IntegrationDirectory,
    private readonly orders: PlatformOrdersService,
    private readonly records: PlatformPluginRecordsService,
    private readonly cursors: PlatformPollCursorRepository,
    private readonly budgets: PlatformCallBudgets,
    private readonly availability: AvailabilityService,
  ) {}

  forPlatformRestaurant(platform: string, providerRestaurantId: string): Promise<DirectoryIntegration | undefined> {
    return this.directory.forPlatformRestaurant(platform, providerRestaurantId);
  }

  formerlyHeld(platform: string, providerRestaurantId: string): Promise<boolean> {
    return this.directory.formerlyHeld(platform, providerRestaurantId);
  }

  integrationById(integrationId: string): Promise<DirectoryIntegration | undefined> {
    return this.directory.byId(integrationId);
  }

  activeIntegrationIds(platform: string): Promise<string[]> {
    return this.directory.activeIds(platform);
  }

  credentials(integration: InboundIntegration): IntegrationCredentials {
    return this.directory.credentials(integration as DirectoryIntegration);
  }

  receive(integration: InboundIntegration, order: PlatformOrder): Promise<ReceivedOrder> {
    return this.orders.receive(integration as DirectoryIntegration, order);
  }

  cancel(platform: string, platformOrderId: string, note?: string, providerRestaurantId?: string): Promise<CancellationResult> {
    return this.orders.cancel(platform, platformOrderId, note, providerRestaurantId);
  }

  cancelById(platform: string, yemekKuryeOrderId: string, providerRestaurantId: string, note?: string): Promise<CancellationResult> {
    return this.orders.cancelById(platform, yemekKuryeOrderId, providerRestaurantId, note);
  }

  pickedUpById(platform: string, yemekKuryeOrderId: string, providerRestaurantId: string): Promise<'picked_up' | 'already' | 'unknown'> {
    return this.orders.pickedUpById(platform, yemekKuryeOrderId, providerRestaurantId);
  }

  existsById(platform: string, yemekKuryeOrderId: string, providerRestaurantId: string): Promise<boolean> {
    return this.orders.existsById(platform, yemekKuryeOrderId, providerRestaurantId);
  }

  hasOpenOrders(integrationId: string): Promise<boolean> {
    return this.orders.hasOpenOrders(integrationId);
  }

  receiveTestOrder(integration: InboundIntegration, order: PlatformOrder): Promise<string> {
    return this.records.receiveTestOrder(integration as DirectoryIntegration, order);
  }

  testOrderStatus(platform: string, testOrderId: string, providerRestaurantId: string, status: string, message: string | undefined): Promise<boolean> {
    return this.records.testOrderStatus(platform, testOrderId, providerRestaurantId, status, message);
  }

  /** Recorded as the platform reported it, then compared with what the restaurant asked (a change of the platform's own is published once). */
  async recordAvailability(integration: InboundIntegration, closures: VendorClosure[], platformTimestamp: Date | null): Promise<{ open: boolean }> {
    const { open } = await this.records.recordAvailability(integration as DirectoryIntegration, closures, platformTimestamp);
    const now = Date.now();
    const covering = closures.filter((closure) => Date.parse(closure.start) <= now && (!closure.end || Date.parse(closure.end) > now));
    // Closed until the last covering closure ends; open-ended when any of them is.
    const until = covering.length > 0 && covering.every((closure) => closure.end) ? new Date(Math.max(...covering.map((closure) => Date.parse(closure.end!)))) : null;
    await this.availability.recordPlatformReport(integration as DirectoryIntegration, { state: open ? 'OPEN' : 'CLOSED', until, reason: covering[0]?.reason ?? null, source: 'platform_call' });
    return { open };
  }

  pollCursor(integrationId: string): Promise<number | undefined> {
    return this.cursors.cursorOf(integrationId);
  }

  savePollCursor(integrationId: string, cursorMs: number, error: string | null): Promise<void> {
    return this.cursors.save(integrationId, cursorMs, error);
  }

  bookCallNow(platform: string, credentials: IntegrationCredentials, call: BudgetedCall): Promise<boolean | undefined> {
    return this.budgets.bookNow(platform, credentials, call);
  }
}
