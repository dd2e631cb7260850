import { OrderStatus } from './order-status';

/** What an internal caller reports about a platform order (POST /internal/orders/status). */
export const STATUS_PUSH_ACTIONS = ['VERIFY', 'PREPARE', 'HANDOVER', 'DELIVER', 'CANCEL', 'REJECT'] as const;

export type StatusPushAction = (typeof STATUS_PUSH_ACTIONS)[number];

/** The order status each action leads to (decisions.md, "Internal status push"). */
export const STATUS_PUSH_TARGETS: Readonly<Record<StatusPushAction, OrderStatus>> = {
  VERIFY: 'VALIDATED',
  PREPARE: 'PREPARED',
  HANDOVER: 'ON_DELIVERY',
  DELIVER: 'DELIVERED',
  CANCEL: 'CANCELED',
  REJECT: 'CANCELED',
};

export function isStatusPushAction(value: unknown): value is StatusPushAction {
  return typeof value === 'string' && (STATUS_PUSH_ACTIONS as readonly string[]).includes(value);
}

/**
 * The statuses the order passes through, in order, when the action is applied in `current`.
 * DELIVER straight from PREPARED passes ON_DELIVERY, so that no status of the table is skipped.
 */
export function statusPushPath(action: StatusPushAction, current: OrderStatus): OrderStatus[] {
  if (action === 'DELIVER' && current === 'PREPARED') return ['ON_DELIVERY', 'DELIVERED'];
  return [STATUS_PUSH_TARGETS[action]];
}

/** What the platform itself did to one of its orders (its cancellation, its rider collecting it). */
export const PLATFORM_MOVE_TRIGGERS = ['PLATFORM_CANCEL', 'PLATFORM_PICKED_UP'] as const;

export type PlatformMoveTrigger = (typeof PLATFORM_MOVE_TRIGGERS)[number];
