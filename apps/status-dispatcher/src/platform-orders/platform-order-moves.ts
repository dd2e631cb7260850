import { RoutingKey } from '@courier/contracts';
import { Cancellation, OrderStatus } from '@courier/domain';
import type { TransactionContext } from '@courier/messaging';
import { orderCanceledEvent, orderStatusChangedEvent } from '../orders/order-events';
import type { Order, OrderStatusChange } from '../orders/order.model';
import { recordMove } from '../orders/order.store';

/** The order of statuses a platform order moves forward through (CANCELED apart). */
const RANK: Partial<Record<OrderStatus, number>> = { NEW: 0, VALIDATED: 1, ROUTED: 2, ASSIGNED: 3, ACCEPTED: 4, PREPARED: 5, ON_DELIVERY: 6, DELIVERED: 7 };

/**
 * Moves a platform order (locked by the caller) through `path`, forward only: a status it has passed
 * is not entered again, nothing leaves a final status, CANCELED is reachable from any other status.
 * Each step gets a history entry and its event in the caller's transaction, with strictly increasing
 * timestamps (as the lifecycle of THIRD_PARTY orders does). Returns the order after the moves.
 */
export async function moveOrder(
  tx: TransactionContext,
  order: Order,
  path: OrderStatus[],
  trigger: string,
  cancellation?: Cancellation & { reason: string },
  now = new Date(),
): Promise<Order> {
  let current = order;
  for (const status of path) {
    if (current.status === 'DELIVERED' || current.status === 'CANCELED' || current.status === 'FAILED') break;
    if (status !== 'CANCELED' && (RANK[status] ?? -1) <= (RANK[current.status] ?? -1)) continue;
    const occurredAt = new Date(Math.max(now.getTime(), current.statusChangedAt.getTime() + 1));
    const change: OrderStatusChange = {
      sequence: current.sequence + 1,
      status,
      previousStatus: current.status,
      // The push action (VERIFY, ...) or PLATFORM_CANCEL: the history says what moved the order.
      trigger: trigger as OrderStatusChange['trigger'],
      occurredAt,
      reason: status === 'CANCELED' ? (cancellation?.reason ?? null) : null,
      cancelReasonId: status === 'CANCELED' ? (cancellation?.cancelReasonId ?? null) : null,
      canceledBy: status === 'CANCELED' ? (cancellation?.canceledBy ?? null) : null,
    };
    const moved: Order = { ...current, status, sequence: change.sequence, statusChangedAt: occurredAt };
    await recordMove(tx.manager, order.id, change);
    if (status === 'CANCELED') {
      await tx.publish(RoutingKey.OrderCanceled, orderCanceledEvent(moved, current.status, cancellation ?? { cancelReasonId: 'OTHER', canceledBy: 'System', reason: 'Cancelled' }));
    } else {
      await tx.publish(RoutingKey.OrderStatusChanged, orderStatusChangedEvent(moved, current.status));
    }
    current = moved;
  }
  return current;
}
