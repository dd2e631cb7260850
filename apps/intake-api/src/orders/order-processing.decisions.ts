import { OrderCanceledEvent, OrderCreatedEvent, RoutingKey } from '@courier/contracts';
import { PROCESSING_FAILURE_CANCELLATION } from '@courier/domain';
import { IntakeAccount } from '../accounts/intake-account';
import type { Coordinates } from '../geocoding/geocoder';
import { CoordinatesSource, IntakeOrder, IntakeOrderState } from './intake-order';
import { orderDetails } from './order-details';

const THIRD_PARTY = 'THIRD_PARTY';

export type LocatedCoordinates = Coordinates & { source: CoordinatesSource };

/** What processing reads of an order (a stored one, or one this replica just accepted). */
export type OrderFacts = Pick<IntakeOrder, 'restaurantId' | 'orderId' | 'yemekKuryeOrderId' | 'payload' | 'receivedAt'>;

/** How an order's processing ended, with the event that says so. */
export interface ProcessingOutcome {
  yemekKuryeOrderId: string;
  state: 'PROCESSED' | 'FAILED';
  at: Date;
  failureReason?: string;
  coordinates?: LocatedCoordinates;
  event: { routingKey: RoutingKey; payload: unknown; headers: Record<string, string> };
  /** Processed in the accepting process: its claimed order.received row, marked done with the state move. */
  receivedEventId?: string;
}

export type ProcessingDecision = { decision: 'skip' } | { decision: 'fail'; reason: string } | { decision: 'process' };

/**
 * What an order.received leads to: nothing for an order that is gone or no longer ACCEPTED
 * (processed or failed already, or replaced by a retry with a new id), FAILED when the account
 * refuses it, else processing.
 */
export function processingDecision(order: { state: IntakeOrderState } | undefined, account: IntakeAccount | null): ProcessingDecision {
  if (!order || order.state !== 'ACCEPTED') return { decision: 'skip' };
  const reason = refusalOf(account);
  return reason ? { decision: 'fail', reason } : { decision: 'process' };
}

/**
 * After processing threw: redelivered with backoff until the queue's last delivery, which ends an
 * ACCEPTED order FAILED rather than leaving it in a dead-letter queue. An order not read (the read
 * failed) or no longer ACCEPTED is only redelivered.
 */
export function afterProcessingError(facts: { deliveryCount: number; deliveryLimit: number; state: IntakeOrderState | undefined }): 'redeliver' | 'fail' {
  return facts.deliveryCount >= facts.deliveryLimit && facts.state === 'ACCEPTED' ? 'fail' : 'redeliver';
}

/**
 * Why an accepted order cannot become a courier order, if it cannot. An inactive THIRD_PARTY
 * integration is not a reason: the order was valid when accepted, deactivation pauses new intake.
 */
export function refusalOf(account: IntakeAccount | null): string | undefined {
  if (!account) return 'The restaurant account is unknown.';
  if (account.status !== 'active') return 'The restaurant account is disabled.';
  if (!account.thirdParty) return 'The restaurant has no THIRD_PARTY integration.';
  return undefined;
}

/** The order as a NEW courier order: PROCESSED at `at` with order.created. */
export function success(
  order: OrderFacts,
  account: IntakeAccount,
  coordinates: LocatedCoordinates | undefined,
  headers: Record<string, string>,
  at: Date,
): ProcessingOutcome {
  const event: OrderCreatedEvent = {
    yemekKuryeOrderId: order.yemekKuryeOrderId,
    orderId: order.orderId,
    restaurantId: order.restaurantId,
    provider: THIRD_PARTY,
    providerRestaurantId: account.thirdParty!.providerRestaurantId,
    receivedAt: order.receivedAt.toISOString(),
    details: orderDetails(order.payload, coordinates),
  };
  return { yemekKuryeOrderId: order.yemekKuryeOrderId, state: 'PROCESSED', at, coordinates, event: { routingKey: RoutingKey.OrderCreated, payload: event, headers } };
}

/** The order FAILED at `at`, with the order.canceled (OTHER, System) that tells the restaurant's receiver. */
export function failure(order: OrderFacts, account: IntakeAccount | null, reason: string, headers: Record<string, string>, at: Date): ProcessingOutcome {
  const event: OrderCanceledEvent = {
    yemekKuryeOrderId: order.yemekKuryeOrderId,
    orderId: order.orderId,
    restaurantId: order.restaurantId,
    orderNumber: null,
    previousStatus: null,
    reason,
    ...PROCESSING_FAILURE_CANCELLATION,
    timestamp: at.toISOString(),
    provider: THIRD_PARTY,
    // integrations-api defaults providerRestaurantId to the restaurantId; without an account that is the best name.
    providerRestaurantId: account?.thirdParty?.providerRestaurantId ?? order.restaurantId,
    // The order's first and only change: the courier system never heard of it.
    sequence: 1,
  };
  return { yemekKuryeOrderId: order.yemekKuryeOrderId, state: 'FAILED', at, failureReason: reason, event: { routingKey: RoutingKey.OrderCanceled, payload: event, headers } };
}
