import { Injectable } from '@nestjs/common';
import { OnTask, ScheduledTask, TaskOutcome, UnitOfWork } from '@courier/messaging';
import { IntegrationPoller } from '../common/integration-poller';
import type { IntegrationCredentials, ParsedPlatformOrder, PlatformOrder } from '../common/platform-adapter';
import { PlatformAdapters } from '../common/platform-adapters';
import { InboundIntegration, PlatformOrderIntake, PlatformOrderOfAnotherIntegration } from '../common/platform-order-intake';
import type { PlatformAActiveOrders, PlatformAAdapter } from './getir.adapter';
import { GetirInboundConfig } from './getir.inbound.config';

const PLATFORM = 'PLATFORM_A';
export const PLATFORM_A_POLL_TASK = 'platform-a.poll';
export const PLATFORM_A_POLL_PLANNER_TASK = 'platform-a.poll-planner';

export function platformAPollTaskKey(integrationId: string): string {
  return `platform-a-poll:${integrationId}`;
}

/**
 * Getir's fallback for missed webhooks (docs/platform-dispatch.md, "PLATFORM_A fallback polling"):
 * every PLATFORM_A_POLL_INTERVAL_MS per active integration (IntegrationPoller: one task per
 * integration across replicas), the restaurant's unapproved and cancelled food orders (exempt from
 * Getir's rate limit), and its active ones (rate limited) only when that can find something: the
 * integration has orders that are not final (Getir's webhooks announce new and cancelled orders only)
 * and the call budget has room now. An order we do not know becomes an order
 * (PlatformOrdersService.receive is idempotent on the platform's order id, so a webhook before or
 * after changes nothing); a cancelled one cancels ours. No cursor: Getir's lists take no time window.
 */
@Injectable()
export class PlatformAPoller extends IntegrationPoller {
  constructor(
    unitOfWork: UnitOfWork,
    private readonly orders: PlatformOrderIntake,
    config: GetirInboundConfig,
    private readonly adapters: PlatformAdapters,
  ) {
    super(unitOfWork, orders, {
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

  async poll(integration: InboundIntegration): Promise<TaskOutcome> {
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
    for (const order of this.usable(integration, lists.unapproved)) {
      if (await this.received(integration, order)) received += 1;
    }
    for (const order of this.usable(integration, lists.cancelled)) {
      // Only this restaurant's orders: the list came with its token.
      if ((await this.orders.cancel(PLATFORM, order.platformOrderId, order.cancelNote, integration.providerRestaurantId)) === 'canceled') cancelled += 1;
    }
    const active = await this.pollActive(integration, credentials);
    if (active.kind === 'ok') {
      for (const order of this.usable(integration, active.active)) {
        if (await this.received(integration, order)) received += 1;
      }
    }
    if (received + cancelled > 0) this.logger.log({ integrationId, received, cancelled }, 'PLATFORM_A fallback poll found orders no webhook brought');
    if (active.kind === 'retry' || active.kind === 'failed') {
      const error = active.kind === 'failed' ? active.reason : `the platform answered ${active.answer.httpStatus ?? active.answer.error} on /food-orders/active`;
      this.logger.warn({ integrationId, httpStatus: active.answer.httpStatus, outcome: active.kind }, 'PLATFORM_A active orders poll failed');
      return { rescheduleAt: this.nextPollAt({ kind: 'ok', retryAfterMs: active.kind === 'retry' ? active.retryAfterMs : undefined }, startedMs), note: error };
    }
    return { rescheduleAt: this.nextPollAt(lists) };
  }

  /**
   * `POST /food-orders/active`, rate limited on Getir: read only when it can find something (the
   * integration has orders that are not final: their state may have changed on Getir, which sends no
   * webhook for that, and an order approved on Getir's own panel is listed only there) and when the
   * call budget has room now (a poll never waits for a slot nor delays status calls).
   */
  private async pollActive(integration: InboundIntegration, credentials: IntegrationCredentials): Promise<PlatformAActiveOrders | { kind: 'skipped' }> {
    if (!(await this.orders.hasOpenOrders(integration.integrationId))) return { kind: 'skipped' };
    if ((await this.orders.bookCallNow(PLATFORM, credentials, 'poll:active')) === false) {
      this.logger.debug({ integrationId: integration.integrationId }, 'PLATFORM_A active orders poll skipped: no room in the call budget now');
      return { kind: 'skipped' };
    }
    return (this.adapters.get(PLATFORM) as PlatformAAdapter).fetchActiveOrders(credentials);
  }

  /** Whether the order is new; one another integration holds is skipped (refused and logged by receive), the rest of the poll goes on. */
  private async received(integration: InboundIntegration, order: PlatformOrder): Promise<boolean> {
    try {
      return (await this.orders.receive(integration, order)).created;
    } catch (error) {
      if (error instanceof PlatformOrderOfAnotherIntegration) return false;
      throw error;
    }
  }

  /** The well-formed orders of this restaurant (the token is the restaurant's; another id would be Getir's mistake). */
  private usable(integration: InboundIntegration, parsed: ParsedPlatformOrder[]): PlatformOrder[] {
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
