import { Injectable } from '@nestjs/common';
import { OnTask, ScheduledTask, TaskOutcome, UnitOfWork } from '@courier/messaging';
import { IntegrationPoller } from '../common/integration-poller';
import { PlatformAdapters } from '../common/platform-adapters';
import type { PlatformCAdapter } from './trendyol-go.adapter';
import { InboundIntegration, PlatformOrderIntake, PlatformOrderOfAnotherIntegration } from '../common/platform-order-intake';
import { TrendyolGoInboundConfig } from './trendyol-go.inbound.config';

const PLATFORM = 'PLATFORM_C';
export const PLATFORM_C_POLL_TASK = 'platform-c.poll';
export const PLATFORM_C_POLL_PLANNER_TASK = 'platform-c.poll-planner';

/** Modifications may become visible a little late on the platform: each window overlaps the last one. */
export const POLL_OVERLAP_MS = 60_000;

export function pollTaskKey(integrationId: string): string {
  return `platform-c-poll:${integrationId}`;
}

/**
 * PLATFORM_C's orders are polled: one durable task per active integration (`platform-c.poll`, due
 * every PLATFORM_C_POLL_INTERVAL_MS; IntegrationPoller), reading the packages modified since the
 * stored cursor. A test package (`testPackage: true`) is kept apart with the platforms' other test
 * orders (platform_test_orders, with its last package status), never made an order.
 */
@Injectable()
export class PlatformCPoller extends IntegrationPoller {
  constructor(
    unitOfWork: UnitOfWork,
    private readonly orders: PlatformOrderIntake,
    private readonly config: TrendyolGoInboundConfig,
    private readonly adapters: PlatformAdapters,
  ) {
    super(unitOfWork, orders, {
      platform: PLATFORM,
      pollTask: PLATFORM_C_POLL_TASK,
      plannerTask: PLATFORM_C_POLL_PLANNER_TASK,
      taskKey: pollTaskKey,
      intervalMs: () => config.PLATFORM_C_POLL_INTERVAL_MS,
    });
  }

  @OnTask(PLATFORM_C_POLL_PLANNER_TASK)
  async onPlannerDue(): Promise<TaskOutcome> {
    return this.plan();
  }

  @OnTask(PLATFORM_C_POLL_TASK)
  async onPollDue(task: ScheduledTask<{ integrationId: string }>): Promise<TaskOutcome> {
    return this.pollIntegration(task.payload.integrationId);
  }

  async poll(integration: InboundIntegration): Promise<TaskOutcome> {
    const integrationId = integration.integrationId;
    const adapter = this.adapters.get(PLATFORM) as PlatformCAdapter;
    const untilMs = Date.now();
    const cursor = await this.orders.pollCursor(integrationId);
    const sinceMs = cursor !== undefined ? cursor - POLL_OVERLAP_MS : untilMs - this.config.PLATFORM_C_POLL_LOOKBACK_MS;

    const credentials = this.credentials(integration);
    if (!credentials) {
      await this.orders.savePollCursor(integrationId, cursor ?? sinceMs, 'the integration\'s secrets cannot be decrypted');
      return { rescheduleAt: this.nextPollAt({ kind: 'failed' }, untilMs), note: 'secrets cannot be decrypted' };
    }
    const result = await adapter.pollOrders(credentials, sinceMs, untilMs);
    if (result.kind !== 'ok') {
      const error = result.kind === 'failed' ? result.reason : `the platform answered ${result.answer.httpStatus ?? result.answer.error}`;
      await this.orders.savePollCursor(integrationId, cursor ?? sinceMs, error);
      this.logger.warn({ integrationId, httpStatus: result.answer.httpStatus, outcome: result.kind }, 'PLATFORM_C poll failed; the cursor stays');
      return { rescheduleAt: this.nextPollAt(result, untilMs), note: error };
    }

    let received = 0;
    for (const parsed of result.orders) {
      if (!parsed.ok) {
        this.logger.warn({ integrationId, errors: parsed.errors }, 'PLATFORM_C package skipped: malformed');
        continue;
      }
      const order = parsed.order;
      if (order.test) {
        const testOrderId = await this.orders.receiveTestOrder(integration, order);
        const packageStatus = typeof order.platformData.packageStatus === 'string' ? order.platformData.packageStatus : order.state;
        await this.orders.testOrderStatus(PLATFORM, testOrderId, integration.providerRestaurantId, packageStatus, order.state === 'canceled' ? order.cancelNote : undefined);
      } else if (order.state === 'canceled') {
        // Only this integration's orders: the list came with its credentials (as PLATFORM_A's poller).
        await this.orders.cancel(PLATFORM, order.platformOrderId, order.cancelNote, integration.providerRestaurantId);
      } else {
        try {
          if ((await this.orders.receive(integration, order)).created) received += 1;
        } catch (error) {
          // Held by another integration: refused and logged by receive; the cursor still moves on.
          if (!(error instanceof PlatformOrderOfAnotherIntegration)) throw error;
        }
      }
    }
    await this.orders.savePollCursor(integrationId, result.cursorMs, null);
    if (received > 0) this.logger.log({ integrationId, received, seen: result.orders.length }, 'PLATFORM_C packages polled');
    return { rescheduleAt: this.nextPollAt({ kind: 'ok' }) };
  }
}
