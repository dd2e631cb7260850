import { Injectable, Logger } from '@nestjs/common';
import { OrderAcceptanceDueEvent, RoutingKey } from '@courier/contracts';
import { isFinalOrderStatus } from '@courier/domain';
import { OnTask, ScheduledTask, TaskOutcome, TransactionContext, UnitOfWork } from '@courier/messaging';
import { acceptanceWarningAt, PlatformAdapters, PlatformOrder } from '@courier/platforms';
import { PlatformAcceptanceMetrics } from './platform-acceptance.metrics';
import type { AcceptanceState } from './platform-order.model';
import { PlatformOrderRepository } from './platform-order.repository';

export const ACCEPTANCE_DUE_TASK = 'order.acceptance-due';

export interface AcceptanceDueTaskPayload {
  yemekKuryeOrderId: string;
}

/** Why an order gets no acceptance warning, or null when it gets one (pure: the handler's decision). */
export function acceptanceWarningSkipReason(order: Pick<AcceptanceState, 'acceptBy' | 'acceptanceWarnedAt' | 'answered' | 'status'> | undefined): string | null {
  if (!order) return 'unknown order';
  if (!order.acceptBy) return 'no accept-by time';
  if (order.acceptanceWarnedAt) return 'already warned';
  if (isFinalOrderStatus(order.status)) return 'order finished';
  if (order.answered) return 'answered on the platform';
  return null;
}

/**
 * Accept-by warnings: an order received from a platform gets, in its receiving transaction, a
 * durable task due at its platform's warning time; when it runs, an order still unanswered on the
 * platform gets order.acceptance_due once (marked on the order in the same transaction, so a task
 * run again after a crash, or by another replica, publishes nothing).
 */
@Injectable()
export class OrderAcceptanceScheduler {
  private readonly logger = new Logger('OrderAcceptance');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly orders: PlatformOrderRepository,
    private readonly adapters: PlatformAdapters,
    private readonly metrics: PlatformAcceptanceMetrics,
  ) {}

  /** The platform's accept-by time of an order received now (null: nothing to answer, or no adapter). */
  acceptBy(platform: string, order: PlatformOrder, receivedAt: Date): Date | null {
    return this.adapters.get(platform)?.orders.acceptBy(order, receivedAt) ?? null;
  }

  /** In the receiving transaction, so that an order is never stored without its warning. */
  async schedule(tx: TransactionContext, platform: string, yemekKuryeOrderId: string, acceptBy: Date, receivedAt: Date): Promise<void> {
    const warningMs = this.adapters.get(platform)?.orders.acceptanceWarningMs ?? 0;
    await tx.schedule({
      kind: ACCEPTANCE_DUE_TASK,
      dueAt: acceptanceWarningAt(acceptBy, receivedAt, warningMs),
      payload: { yemekKuryeOrderId } satisfies AcceptanceDueTaskPayload,
      dedupeKey: `order-acceptance-due:${yemekKuryeOrderId}`,
    });
  }

  @OnTask(ACCEPTANCE_DUE_TASK)
  async onAcceptanceDue(task: ScheduledTask<AcceptanceDueTaskPayload>): Promise<TaskOutcome> {
    const { yemekKuryeOrderId } = task.payload;
    const warned = await this.unitOfWork.run(async (tx): Promise<AcceptanceState | undefined> => {
      const order = await this.orders.lockAcceptance(tx.manager, yemekKuryeOrderId);
      const skip = acceptanceWarningSkipReason(order);
      if (skip || !order?.acceptBy) {
        this.logger.log({ yemekKuryeOrderId, reason: skip }, 'no acceptance warning needed');
        return undefined;
      }
      if (order.withheld) {
        // Not the account's (its integration is not verified): no event to it; operators see the order in the withheld list.
        this.logger.warn({ yemekKuryeOrderId, platform: order.provider, acceptBy: order.acceptBy.toISOString() }, 'withheld platform order near its accept-by time');
        return undefined;
      }
      const now = new Date();
      await this.orders.markAcceptanceWarned(tx.manager, order.id, now);
      await tx.publish(RoutingKey.OrderAcceptanceDue, acceptanceDueEvent(order, order.acceptBy, now));
      this.logger.warn({ yemekKuryeOrderId, platform: order.provider, acceptBy: order.acceptBy.toISOString() }, 'platform order near its accept-by time and not answered on the platform');
      return order;
    });
    // Counted after the commit: a rolled-back warning was never published.
    if (warned) this.metrics.warnings.inc({ platform: warned.provider });
  }
}

function acceptanceDueEvent(order: AcceptanceState, acceptBy: Date, now: Date): OrderAcceptanceDueEvent {
  return {
    yemekKuryeOrderId: order.id,
    orderId: order.orderId,
    restaurantId: order.restaurantId,
    provider: order.provider,
    providerRestaurantId: order.providerRestaurantId,
    integrationId: order.integrationId,
    orderNumber: order.orderNumber,
    status: order.status,
    acceptBy: acceptBy.toISOString(),
    occurredAt: now.toISOString(),
  };
}
