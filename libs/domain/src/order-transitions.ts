import { OrderStatus } from './order-status';
import { PLATFORM_MOVE_TRIGGERS, STATUS_PUSH_ACTIONS } from './status-push-actions';

/** What the courier core can ask of a third-party order (POST /internal/orders/{id}/transitions). */
export const ORDER_TRIGGERS = ['APPROVE', 'ROUTE', 'ASSIGN', 'ACCEPT', 'PREPARE', 'PICK_UP', 'DELIVER', 'CANCEL'] as const;

export type OrderTrigger = (typeof ORDER_TRIGGERS)[number];

/** Which webhook a move emits: a move into CANCELED sends only order.canceled. */
export type TransitionEffect = 'status_webhook' | 'cancel_webhook';

export interface OrderTransition {
  readonly from: OrderStatus;
  readonly trigger: OrderTrigger;
  readonly to: OrderStatus;
  readonly effect: TransitionEffect;
}

export type TransitionResult =
  | { ok: true; next: OrderStatus; effect: TransitionEffect }
  | { ok: false; reason: 'INVALID_TRANSITION'; current: OrderStatus };

/** The order status table of interface.md, row for row, in its order. */
export const ORDER_TRANSITIONS: readonly OrderTransition[] = [
  { from: 'NEW', trigger: 'APPROVE', to: 'VALIDATED', effect: 'status_webhook' },
  { from: 'NEW', trigger: 'CANCEL', to: 'CANCELED', effect: 'cancel_webhook' },
  { from: 'VALIDATED', trigger: 'ROUTE', to: 'ROUTED', effect: 'status_webhook' },
  { from: 'VALIDATED', trigger: 'ASSIGN', to: 'ASSIGNED', effect: 'status_webhook' },
  { from: 'VALIDATED', trigger: 'PREPARE', to: 'PREPARED', effect: 'status_webhook' },
  { from: 'VALIDATED', trigger: 'CANCEL', to: 'CANCELED', effect: 'cancel_webhook' },
  { from: 'ROUTED', trigger: 'ASSIGN', to: 'ASSIGNED', effect: 'status_webhook' },
  { from: 'ROUTED', trigger: 'CANCEL', to: 'CANCELED', effect: 'cancel_webhook' },
  { from: 'ASSIGNED', trigger: 'ACCEPT', to: 'ACCEPTED', effect: 'status_webhook' },
  { from: 'ASSIGNED', trigger: 'CANCEL', to: 'CANCELED', effect: 'cancel_webhook' },
  { from: 'ACCEPTED', trigger: 'PREPARE', to: 'PREPARED', effect: 'status_webhook' },
  { from: 'ACCEPTED', trigger: 'CANCEL', to: 'CANCELED', effect: 'cancel_webhook' },
  { from: 'PREPARED', trigger: 'PICK_UP', to: 'ON_DELIVERY', effect: 'status_webhook' },
  { from: 'PREPARED', trigger: 'CANCEL', to: 'CANCELED', effect: 'cancel_webhook' },
  { from: 'ON_DELIVERY', trigger: 'DELIVER', to: 'DELIVERED', effect: 'status_webhook' },
  { from: 'ON_DELIVERY', trigger: 'CANCEL', to: 'CANCELED', effect: 'cancel_webhook' },
];

export function isOrderTrigger(value: unknown): value is OrderTrigger {
  return typeof value === 'string' && (ORDER_TRIGGERS as readonly string[]).includes(value);
}

/** The move the table allows for this status and trigger; anything not in the table is refused. */
export function applyTrigger(current: OrderStatus, trigger: OrderTrigger): TransitionResult {
  const row = ORDER_TRANSITIONS.find((transition) => transition.from === current && transition.trigger === trigger);
  return row ? { ok: true, next: row.to, effect: row.effect } : { ok: false, reason: 'INVALID_TRANSITION', current };
}

/** Triggers the table accepts in this status (empty for a final status). */
export function allowedTriggers(current: OrderStatus): OrderTrigger[] {
  return ORDER_TRANSITIONS.filter((transition) => transition.from === current).map((transition) => transition.trigger);
}

/**
 * Every trigger an order's history can name: the lifecycle's (THIRD_PARTY orders), the status push's
 * actions and the platforms' own moves (platform orders).
 */
export const HISTORY_TRIGGERS: readonly string[] = [...new Set<string>([...ORDER_TRIGGERS, ...STATUS_PUSH_ACTIONS, ...PLATFORM_MOVE_TRIGGERS])];
