/** Statuses an order can be in. FAILED is for third-party orders whose asynchronous processing failed. */
export const ORDER_STATUSES = [
  'NEW',
  'VALIDATED',
  'ROUTED',
  'ASSIGNED',
  'ACCEPTED',
  'PREPARED',
  'ON_DELIVERY',
  'DELIVERED',
  'CANCELED',
  'FAILED',
] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Every order starts here, awaiting the restaurant's approval. */
export const INITIAL_ORDER_STATUS: OrderStatus = 'NEW';

/** Statuses with no outgoing move. */
export const FINAL_ORDER_STATUSES: readonly OrderStatus[] = ['DELIVERED', 'CANCELED', 'FAILED'];

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value);
}

export function isFinalOrderStatus(status: OrderStatus): boolean {
  return FINAL_ORDER_STATUSES.includes(status);
}
