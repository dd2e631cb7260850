import { IntakeOrder } from './intake-order';

/** What an order request does when its (restaurantId, orderId) is already taken. */
export type TakenOrderIdDecision = 'read-again' | 'accept-again' | 'replay' | 'conflict';

/**
 * The order stored under the request's orderId decides: gone meanwhile, read again; FAILED,
 * accepted again (a new yemekKuryeOrderId); the same payload (canonical JSON hash), the first 202
 * again; a different payload, 409.
 */
export function takenOrderIdDecision(existing: Pick<IntakeOrder, 'state' | 'payloadHash'> | undefined, payloadHash: string): TakenOrderIdDecision {
  if (!existing) return 'read-again';
  if (existing.state === 'FAILED') return 'accept-again';
  return existing.payloadHash === payloadHash ? 'replay' : 'conflict';
}
