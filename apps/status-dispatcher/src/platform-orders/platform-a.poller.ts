import { Injectable } from '@nestjs/common';
import { OnTask, ScheduledTask, TaskOutcome, UnitOfWork } from '@courier/messaging';
import { ParsedPlatformOrder, PlatformAAdapter, PlatformAdapters, PlatformOrder } from '@courier/platforms';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { DirectoryIntegration, IntegrationDirectory } from '../platform-sessions/integration-directory';
import { IntegrationPoller } from './integration-poller';
import { PlatformOrderOfAnotherIntegration, PlatformOrdersService } from './platform-orders.service';

const PLATFORM = 'PLATFORM_A';
export const PLATFORM_A_POLL_TASK = 'platform-a.poll';
export const PLATFORM_A_POLL_PLANNER_TASK = 'platform-a.poll-planner';

export function platformAPollTaskKey(integrationId: string): string {
  return `platform-a-poll:${integrationId}`;
}

/**
 * Getir's fallback for missed webhooks (docs/platform-dispatch.md, "PLATFORM_A fallback polling"):
 * every PLATFORM_A_POLL_INTERVAL_MS per active integration (IntegrationPoller: one task per
 * integration across replicas), the restaurant's unapproved, cancelled and active food orders. An
 * order we do not know becomes an order (PlatformOrdersService.receive is idempotent on the platform's
 * order id, so a webhook before or after changes nothing); a cancelled one cancels ours. No cursor:
 * Getir's lists take no time window.
 */
@Injectable()
export class PlatformAPoller extends IntegrationPoller {
  constructor(
    unitOfWork: UnitOfWork,
    directory: IntegrationDirectory,
    config: DispatcherConfig,
    private readonly adapters: PlatformAdapters,
    private readonly orders: PlatformOrdersService,
  ) {
    super(unitOfWork, directory, {
      platform: PLATFORM,
      pollTask: PLATFORM_A_POLL_TASK,
      plannerTask: PLATFORM_A_POLL_PLANNER_TASK,
      taskKey: platformAPollTaskKey,
      intervalMs: () => config.PLATFORM_A_POLL_INTERVAL_MS,
    });
  }

  @OnTask(PLATFORM_A_POLL_PLANNER_TASK)
  async onPlannerDue(): Promise<TaskOutcome> {
    return this.plan();
  }

  @OnTask(PLATFORM_A_POLL_TASK)
  async onPollDue(task: ScheduledTask<{ integrationId: string }>): Promise<TaskOutcome> {
    return this.pollIntegration(task.payload.integrationId);
  }

  async poll(integration: DirectoryIntegration): Promise<TaskOutcome> {
    const integrationId = integration.integrationId;
    const startedMs = Date.now();
    const credentials = this.credentials(integration);
    // A poll that did not go through says why in its task's last_error (scheduled_tasks) and in the log.
    if (!credentials) return { rescheduleAt: this.nextPollAt({ kind: 'failed' }, startedMs), note: 'the integration\'s secrets cannot be decrypted' };
    const adapter = this.adapters.get(PLATFORM) as PlatformAAdapter;
    const lists = await adapter.fetchFallbackOrders(credentials);
    if (lists.kind !== 'ok') {
      const error = lists.kind === 'failed' ? lists.reason : `the platform answered ${lists.answer.httpStatus ?? lists.answer.error}`;
      this.logger.warn({ integrationId, httpStatus: lists.answer.httpStatus, outcome: lists.kind }, 'PLATFORM_A fallback poll failed');
      return { rescheduleAt: this.nextPollAt(lists, startedMs), note: error };
    }

    let received = 0;
    let cancelled = 0;
    for (const order of this.usable(integration, [...lists.unapproved, ...lists.active])) {
      if (await this.received(integration, order)) received += 1;
    }
    for (const order of this.usable(integration, lists.cancelled)) {
      // Only this restaurant's orders: the list came with its token.
      if ((await this.orders.cancel(PLATFORM, order.platformOrderId, order.cancelNote, integration.providerRestaurantId)) === 'canceled') cancelled += 1;
    }
    if (received + cancelled > 0) this.logger.log({ integrationId, received, cancelled }, 'PLATFORM_A fallback poll found orders no webhook brought');
    return { rescheduleAt: this.nextPollAt(lists) };
  }

  /** Whether the order is new; one another integration holds is skipped (refused and logged by receive), the rest of the poll goes on. */
  private async received(integration: DirectoryIntegration, order: PlatformOrder): Promise<boolean> {
    try {
      return (await this.orders.receive(integration, order)).created;
    } catch (error) {
      if (error instanceof PlatformOrderOfAnotherIntegration) return false;
      throw error;
    }
  }

  /** The well-formed orders of this restaurant (the token is the restaurant's; another id would be Getir's mistake). */
  private usable(integration: DirectoryIntegration, parsed: ParsedPlatformOrder[]): PlatformOrder[] {
    const orders: PlatformOrder[] = [];
    for (const entry of parsed) {
      if (!entry.ok) {
        this.logger.warn({ integrationId: integration.integrationId, errors: entry.errors }, 'PLATFORM_A polled food order skipped: malformed');
      } else if (entry.order.providerRestaurantId !== '' && entry.order.providerRestaurantId !== integration.providerRestaurantId) {
        this.logger.warn({ integrationId: integration.integrationId, platformOrderId: entry.order.platformOrderId }, 'PLATFORM_A polled food order skipped: another restaurant\'s');
      } else {
        orders.push({ ...entry.order, providerRestaurantId: integration.providerRestaurantId });
      }
    }
    return orders;
  }
}
