import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { OrderCanceledEvent, OrderCreatedEvent, RoutingKey } from '@courier/contracts';
import { PROCESSING_FAILURE_CANCELLATION } from '@courier/domain';
import { CORRELATION_HEADER } from '@courier/logging';
import { DEFAULT_DELIVERY_LIMIT, IncomingMessage, OutboxRelay } from '@courier/messaging';
import { IntakeAccount } from '../accounts/intake-account';
import { Coordinates, Geocoder } from '../geocoding/geocoder';
import { CoordinatesSource, IntakeOrderRow } from './intake-order';
import { orderDetails, senderCoordinates } from './order-details';
import { isOrderReceivedEvent } from './order-received.event';
import { OrdersRepository, OrderToProcess, ProcessingOutcome } from './orders.repository';

/** An order still ACCEPTED this long after acceptance (or its last re-publication) gets order.received again. */
export const STUCK_ORDER_AFTER_MS = 10 * 60_000;
const SWEEP_INTERVAL_MS = 60_000;
const THIRD_PARTY = 'THIRD_PARTY';

/** The reason order.canceled carries: it reaches the customer, so it names no internals. */
const UNEXPECTED_FAILURE = 'The order could not be processed.';

type LocatedCoordinates = Coordinates & { source: CoordinatesSource };

/**
 * The asynchronous half of intake, consumer of order.received: geocodes when needed, then moves
 * the order from ACCEPTED to PROCESSED with order.created — or, when processing cannot succeed, to
 * FAILED with order.canceled (OTHER, System) — in one statement. That state move, taken only
 * from ACCEPTED under the row lock, makes processing idempotent for any duplicate message
 * (a redelivery or the sweeper's re-publication alike), so no inbox table is needed.
 */
@Injectable()
export class OrderProcessingService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OrderProcessing');
  private sweepTimer?: NodeJS.Timeout;

  constructor(
    private readonly relay: OutboxRelay,
    private readonly orders: OrdersRepository,
    private readonly geocoder: Geocoder,
  ) {}

  onApplicationBootstrap(): void {
    this.sweepTimer = setInterval(() => void this.requeueStuckOrders().catch((error) => this.logger.warn({ err: error }, 'stuck-order sweep failed')), SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweepTimer);
  }

  async process(message: IncomingMessage): Promise<void> {
    if (!isOrderReceivedEvent(message.payload)) throw new Error(`malformed order.received ${message.messageId}`);
    const { yemekKuryeOrderId } = message.payload;
    const headers: Record<string, string> = message.headers[CORRELATION_HEADER] ? { [CORRELATION_HEADER]: message.headers[CORRELATION_HEADER] } : {};
    let found: Awaited<ReturnType<OrdersRepository['loadForProcessing']>>;
    try {
      found = await this.orders.loadForProcessing(yemekKuryeOrderId);
      // Processed or failed already, or replaced by a retry with a new id: nothing to do.
      if (!found || found.row.state !== 'ACCEPTED') return;
      await this.complete(found, headers);
    } catch (error) {
      // Redelivered with backoff until the queue's last delivery; that one ends the order FAILED
      // rather than leaving it ACCEPTED in a dead-letter queue.
      if (message.deliveryCount < DEFAULT_DELIVERY_LIMIT || !found || found.row.state !== 'ACCEPTED') throw error;
      this.logger.error({ err: error, yemekKuryeOrderId, deliveryCount: message.deliveryCount }, 'order processing failed on its last delivery; order FAILED');
      await this.orders.completeProcessing(failure(found.row, found.account, UNEXPECTED_FAILURE, headers));
    }
  }

  /** Geocodes if needed, then ends the ACCEPTED order PROCESSED (or FAILED when it cannot be processed) with its event. */
  private async complete(found: OrderToProcess, headers: Record<string, string>): Promise<void> {
    const refusal = refusalOf(found.account);
    if (refusal) {
      this.logger.warn({ yemekKuryeOrderId: found.row.yemek_kurye_order_id, restaurantId: found.row.restaurant_id, refusal }, 'order cannot be processed; order FAILED');
      if (await this.orders.completeProcessing(failure(found.row, found.account, refusal, headers))) this.relay.nudge();
      return;
    }
    const coordinates = await this.coordinatesFor(found.row);
    // Its event is committed: publish it now rather than at the relay's next poll.
    if (await this.orders.completeProcessing(success(found.row, found.account!, coordinates, headers))) this.relay.nudge();
  }

  /** Re-publishes order.received for orders stuck in ACCEPTED; returns how many. */
  async requeueStuckOrders(olderThanMs = STUCK_ORDER_AFTER_MS): Promise<number> {
    const requeued = await this.orders.requeueStuck(olderThanMs);
    if (requeued > 0) {
      this.logger.warn({ requeued }, 'orders still ACCEPTED long after acceptance: order.received published again');
      this.relay.nudge();
    }
    return requeued;
  }

  private async coordinatesFor(order: IntakeOrderRow): Promise<LocatedCoordinates | undefined> {
    const given = senderCoordinates(order.payload);
    if (given) return { ...given, source: 'sender' };
    if (!this.geocoder.enabled) return undefined;
    const found = await this.geocoder.geocode(String(order.payload.deliveryAddress));
    return found ? { ...found, source: 'geocoder' } : undefined;
  }
}

/** The order as a NEW courier order: PROCESSED with order.created. */
export function success(row: IntakeOrderRow, account: IntakeAccount, coordinates: LocatedCoordinates | undefined, headers: Record<string, string>): ProcessingOutcome {
  const event: OrderCreatedEvent = {
    yemekKuryeOrderId: row.yemek_kurye_order_id,
    orderId: row.order_id,
    restaurantId: row.restaurant_id,
    provider: THIRD_PARTY,
    providerRestaurantId: account.thirdParty!.providerRestaurantId,
    receivedAt: row.received_at.toISOString(),
    details: orderDetails(row.payload, coordinates),
  };
  return { yemekKuryeOrderId: row.yemek_kurye_order_id, state: 'PROCESSED', at: new Date(), coordinates, event: { routingKey: RoutingKey.OrderCreated, payload: event, headers } };
}

/** The order FAILED, with the order.canceled (OTHER, System) that tells the restaurant's receiver. */
export function failure(row: IntakeOrderRow, account: IntakeAccount | null, reason: string, headers: Record<string, string>): ProcessingOutcome {
  const at = new Date();
  const event: OrderCanceledEvent = {
    yemekKuryeOrderId: row.yemek_kurye_order_id,
    orderId: row.order_id,
    restaurantId: row.restaurant_id,
    orderNumber: null,
    previousStatus: null,
    reason,
    ...PROCESSING_FAILURE_CANCELLATION,
    timestamp: at.toISOString(),
    provider: THIRD_PARTY,
    // integrations-api defaults providerRestaurantId to the restaurantId; without an account that is the best name.
    providerRestaurantId: account?.thirdParty?.providerRestaurantId ?? row.restaurant_id,
    // The order's first and only change: the courier system never heard of it.
    sequence: 1,
  };
  return { yemekKuryeOrderId: row.yemek_kurye_order_id, state: 'FAILED', at, failureReason: reason, event: { routingKey: RoutingKey.OrderCanceled, payload: event, headers } };
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
