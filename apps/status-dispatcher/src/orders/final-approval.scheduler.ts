import { Injectable, Logger } from '@nestjs/common';
import { RoutingKey } from '@courier/contracts';
import { isFinalApprovalDue, isFinalOrderStatus } from '@courier/domain';
import { OnTask, ScheduledTask, TaskOutcome, TransactionContext, UnitOfWork } from '@courier/messaging';
import { orderFinalApprovalDueEvent } from './order-events';
import { OrderRepository } from './order.repository';

export const FINAL_APPROVAL_TASK = 'order.final-approval';

export interface FinalApprovalTaskPayload {
  yemekKuryeOrderId: string;
}

export function finalApprovalDedupeKey(yemekKuryeOrderId: string): string {
  return `order-final-approval:${yemekKuryeOrderId}`;
}

/**
 * The final approval of scheduled orders: a durable task per order, stored with the order and due
 * at delivery time minus one hour, marks the approval and publishes order.final_approval_due.
 */
@Injectable()
export class FinalApprovalScheduler {
  private readonly logger = new Logger('FinalApproval');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly orders: OrderRepository,
  ) {}

  @OnTask(FINAL_APPROVAL_TASK)
  async onFinalApprovalDue(task: ScheduledTask<FinalApprovalTaskPayload>): Promise<TaskOutcome> {
    return this.markFinalApproval(task.payload.yemekKuryeOrderId);
  }

  /** In the creating transaction, so that an order is never stored without its task. */
  async schedule(tx: TransactionContext, yemekKuryeOrderId: string, dueAt: Date): Promise<void> {
    await tx.schedule({
      kind: FINAL_APPROVAL_TASK,
      dueAt,
      payload: { yemekKuryeOrderId } satisfies FinalApprovalTaskPayload,
      dedupeKey: finalApprovalDedupeKey(yemekKuryeOrderId),
    });
  }

  /**
   * Runs under the order's row lock, so it cannot interleave with a transition. Idempotent: a
   * second run (crash after commit) finds the approval marked. A finished order gets no event.
   */
  async markFinalApproval(yemekKuryeOrderId: string): Promise<TaskOutcome> {
    return this.unitOfWork.run(async (tx): Promise<TaskOutcome> => {
      const order = await this.orders.lock(tx.manager, yemekKuryeOrderId);
      if (!order || !order.finalApprovalDueAt || order.finalApprovedAt || isFinalOrderStatus(order.status)) {
        this.logger.log({ yemekKuryeOrderId, status: order?.status ?? null }, 'final approval not needed');
        return;
      }
      const now = new Date();
      // The runner's clock (the database's) may be a little ahead of ours: come back when due.
      if (!isFinalApprovalDue({ scheduledDeliveryTime: order.scheduledDeliveryTime, acceptedAt: order.receivedAt, finalApprovedAt: null }, now)) {
        return { rescheduleAt: order.finalApprovalDueAt };
      }
      await this.orders.markFinalApproved(tx.manager, order.id, now);
      await tx.publish(RoutingKey.OrderFinalApprovalDue, orderFinalApprovalDueEvent(order));
      this.logger.log({ yemekKuryeOrderId, dueAt: order.finalApprovalDueAt.toISOString() }, 'final approval marked');
    });
  }
}
