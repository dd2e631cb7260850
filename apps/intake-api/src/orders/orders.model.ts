import type { IntakeAccount } from '../accounts/intake-account';
import type { IntakeOrder } from './intake-order';

/** An order about to be accepted (first time, or again after a failure). */
export interface AcceptedOrder {
  restaurantId: string;
  orderId: string;
  yemekKuryeOrderId: string;
  payloadHash: string;
  payload: Record<string, unknown>;
  receivedAt: Date;
  /** The request's correlation id, carried into the event's headers. */
  correlationId?: string;
  /** The request's trace context (traceparent, when tracing is on), carried into the event's headers. */
  trace?: Record<string, string>;
  /** Set when this replica processes the order itself (see LocalClaim). */
  localClaim?: LocalClaim;
}

/** An order.received written claimed for `leaseMs` (the relay's lease), under the id `receivedEventId`. */
export interface LocalClaim {
  receivedEventId: string;
  leaseMs: number;
}

/** An order to process, with its restaurant's account (null when intake does not know it). */
export interface OrderToProcess {
  order: IntakeOrder;
  account: IntakeAccount | null;
}
