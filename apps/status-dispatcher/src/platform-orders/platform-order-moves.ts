import { RoutingKey } from '@courier/contracts';
import { Cancellation, OrderStatus } from '@courier/domain';
import { orderCanceledEvent, orderStatusChangedEvent } from '../orders/order-events';
import type { Order, OrderStatusChange } from '../orders/order.model';

/** The order of statuses a platform order moves forward through (CANCELED apart). */
const RANK: Partial<Record<OrderStatus, number>> = { NEW: 0, VALIDATED: 1, ROUTED: 2, ASSIGNED: 3, ACCEPTED: 4, PREPARED: 5, ON_DELIVERY: 6, DELIVERED: 7 };

/** The moves of a platform order through a path: its history entries and their events, not yet written. */
export interface PlannedMoves {
  /** The order after the moves (unchanged when there are none). */
  order: Order;
  steps: Array<{ change: OrderStatusChange; event: { routingKey: string; payload: unknown } }>;
}

/**
 * Plans the moves of a platform order through `path`, forward only: a status it has passed is not
 * entered again, nothing leaves a final status, CANCELED is reachable from any other status. Each
 * step gets a history entry and its event, with strictly increasing timestamps (as the lifecycle of
 * THIRD_PARTY orders does). Pure: the caller writes them (PlatformOrdersService, or a push's one statement).
 */
export function planMoves(order: Order, path: OrderStatus[], trigger: string, cancellation?: Cancellation & { reason: string }, now = new Date()): PlannedMoves {
  let current = order;
  const steps: PlannedMoves['steps'] = [];
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
    const event =
      status === 'CANCELED'
        ? { routingKey: RoutingKey.OrderCanceled, payload: orderCanceledEvent(moved, current.status, cancellation ?? { cancelReasonId: 'OTHER', canceledBy: 'System', reason: 'Cancelled' }) }
        : { routingKey: RoutingKey.OrderStatusChanged, payload: orderStatusChangedEvent(moved, current.status) };
    steps.push({ change, event });
    current = moved;
  }
  return { order: current, steps };
}

