import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { CORRELATION_HEADER } from '@courier/logging';
import { DEFAULT_DELIVERY_LIMIT, OutboxRelay } from '@courier/messaging';
import { IntakeAccount } from '../accounts/intake-account';
import { Geocoder } from '../geocoding/geocoder';
import { IntakeOrder } from './intake-order';
import { senderCoordinates } from './order-details';
import { afterProcessingError, failure, LocatedCoordinates, OrderFacts, processingDecision, success } from './order-processing.decisions';
import { OrderReceivedEvent } from './order-received.event';
import { OrdersRepository, OrderToProcess } from './orders.repository';

/** An order still ACCEPTED this long after acceptance (or its last re-publication) gets order.received again. */
export const STUCK_ORDER_AFTER_MS = 10 * 60_000;
const SWEEP_INTERVAL_MS = 60_000;
/** The sweep's name in the SchedulerRegistry. */
export const STUCK_ORDER_SWEEP = 'intake-stuck-order-sweep';

/** The reason order.canceled carries: it reaches the customer, so it names no internals. */
const UNEXPECTED_FAILURE = 'The order could not be processed.';

/**
 * The asynchronous half of intake, consumer of order.received: geocodes when needed, then moves
 * the order from ACCEPTED to PROCESSED with order.created — or, when processing cannot succeed, to
 * FAILED with order.canceled (OTHER, System) — in one statement. That state move, taken only
 * from ACCEPTED under the row lock, makes processing idempotent for any duplicate message
 * (a redelivery or the sweeper's re-publication alike), so no inbox table is needed.
 */
@Injectable()
export class OrderProcessingService {
  private readonly logger = new Logger('OrderProcessing');

  constructor(
    private readonly relay: OutboxRelay,
    private readonly orders: OrdersRepository,
    private readonly geocoder: Geocoder,
  ) {}

  /** Every replica sweeps; SKIP LOCKED in the statement keeps them from taking the same orders. */
  @Interval(STUCK_ORDER_SWEEP, SWEEP_INTERVAL_MS)
  async sweepStuckOrders(): Promise<void> {
    await this.requeueStuckOrders().catch((error) => this.logger.warn({ err: error }, 'stuck-order sweep failed'));
  }

  /** Processes the order an order.received names, on its `deliveryCount`th delivery. */
  async process(event: OrderReceivedEvent, delivery: { deliveryCount: number; correlationId?: string }): Promise<void> {
    const { yemekKuryeOrderId } = event;
    const headers: Record<string, string> = delivery.correlationId ? { [CORRELATION_HEADER]: delivery.correlationId } : {};
    let found: OrderToProcess | undefined;
    try {
      found = await this.orders.loadForProcessing(yemekKuryeOrderId);
      await this.complete(found, headers);
    } catch (error) {
      if (afterProcessingError({ deliveryCount: delivery.deliveryCount, deliveryLimit: DEFAULT_DELIVERY_LIMIT, state: found?.order.state }) === 'redeliver') throw error;
      this.logger.error({ err: error, yemekKuryeOrderId, deliveryCount: delivery.deliveryCount }, 'order processing failed on its last delivery; order FAILED');
      await this.orders.completeProcessing(failure(found!.order, found!.account, UNEXPECTED_FAILURE, headers, new Date()));
    }
  }

  /** Geocodes if needed, then ends the ACCEPTED order PROCESSED (or FAILED when it cannot be processed) with its event. */
  private async complete(
    found: { order: OrderFacts & Pick<IntakeOrder, 'state'>; account: IntakeAccount | null } | undefined,
    headers: Record<string, string>,
  ): Promise<void> {
    const decision = processingDecision(found?.order, found?.account ?? null);
    if (!found || decision.decision === 'skip') return;
    const { order, account } = found;
    if (decision.decision === 'fail') {
      this.logger.warn({ yemekKuryeOrderId: order.yemekKuryeOrderId, restaurantId: order.restaurantId, refusal: decision.reason }, 'order cannot be processed; order FAILED');
      if (await this.orders.completeProcessing(failure(order, account, decision.reason, headers, new Date()))) this.relay.nudge();
      return;
    }
    const coordinates = await this.coordinatesFor(order);
    // Its event is committed: publish it now rather than at the relay's next poll.
    if (await this.orders.completeProcessing(success(order, account!, coordinates, headers, new Date()))) this.relay.nudge();
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

  private async coordinatesFor(order: OrderFacts): Promise<LocatedCoordinates | undefined> {
    const given = senderCoordinates(order.payload);
    if (given) return { ...given, source: 'sender' };
    if (!this.geocoder.enabled) return undefined;
    const found = await this.geocoder.geocode(String(order.payload.deliveryAddress));
    return found ? { ...found, source: 'geocoder' } : undefined;
  }
}
