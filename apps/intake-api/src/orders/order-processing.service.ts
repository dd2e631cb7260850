import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { randomUUID } from 'node:crypto';
import { CORRELATION_HEADER } from '@courier/logging';
import { DEFAULT_DELIVERY_LIMIT, Lane, Messaging, Outbox, traceHeaders } from '@courier/messaging';
import { IntakeAccount } from '../accounts/intake-account';
import { Geocoder } from '../geocoding/geocoder';
import { IntakeConfig } from '../app/intake-api.config';
import { IntakeOrder } from './intake-order';
import { senderCoordinates } from './order-details';
import { afterProcessingError, failure, LocatedCoordinates, OrderFacts, processingDecision, success } from './order-processing.decisions';
import { OrderReceivedEvent } from './order-received.event';
import type { AcceptedOrder, LocalClaim, OrderToProcess } from './orders.model';
import { eventHeaders, OrdersRepository } from './orders.repository';

/** An order still ACCEPTED this long after acceptance (or its last re-publication) gets order.received again. */
export const STUCK_ORDER_AFTER_MS = 10 * 60_000;
const SWEEP_INTERVAL_MS = 60_000;
/** The sweep's name in the SchedulerRegistry. */
export const STUCK_ORDER_SWEEP = 'intake-stuck-order-sweep';

/** An order in local processing: as accepted, with its claimed order.received. */
interface LocalOrder {
  order: AcceptedOrder;
  claim: LocalClaim;
  account: IntakeAccount;
}

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
export class OrderProcessingService implements OnApplicationShutdown {
  private readonly logger = new Logger('OrderProcessing');
  /**
   * Orders processed in the accepting process right after their commit (the fast path of
   * docs/intake-api.md): a slot is reserved before the insert, whose order.received is written
   * claimed only then; no line (without a slot the order goes through the broker at once). It
   * saves a broker round trip and transactions per order.
   */
  private readonly local: Lane<LocalOrder>;

  constructor(
    private readonly outbox: Outbox,
    private readonly orders: OrdersRepository,
    private readonly geocoder: Geocoder,
    private readonly config: IntakeConfig,
    messaging: Messaging,
  ) {
    this.local = new Lane<LocalOrder>({ concurrency: this.config.INTAKE_LOCAL_PROCESSING_LIMIT, run: (order) => this.processLocal(order) });
    // Orders in local processing are in-flight work like a consumer's: drained within SHUTDOWN_GRACE_MS
    // (what is left then goes through the broker when its claim runs out).
    messaging.onShutdownDrain(() => this.local.drain());
  }

  /** Every replica sweeps; SKIP LOCKED in the statement keeps them from taking the same orders. */
  @Interval(STUCK_ORDER_SWEEP, SWEEP_INTERVAL_MS)
  async sweepStuckOrders(): Promise<void> {
    await this.requeueStuckOrders().catch((error) => this.logger.warn({ err: error }, 'stuck-order sweep failed'));
  }

  onApplicationShutdown(): void {
    if (this.local.busy > 0) this.logger.warn({ inFlight: this.local.busy }, 'stopped with orders in local processing; the broker path takes them when their claims run out');
  }

  /**
   * Reserves a place in local processing for an order about to be inserted: the claim its
   * order.received is written with, or undefined when the fast path is off, full or draining (the
   * order then goes through the broker). Each reservation ends with `processAccepted` or `releaseLocal`.
   */
  reserveLocal(): LocalClaim | undefined {
    if (this.local.reserve() === 0) return undefined;
    return { receivedEventId: randomUUID(), leaseMs: this.config.INTAKE_LOCAL_PROCESSING_LEASE_MS };
  }

  /** Orders reserved for or in local processing now (0 when idle: every reservation ends). */
  get inLocalProcessing(): number {
    return this.local.busy;
  }

  /** Gives back a reservation whose order was not inserted with its claim. */
  releaseLocal(): void {
    this.local.release();
  }

  /**
   * Processes an order this replica just accepted with its order.received claimed, from what the
   * request had in memory (no read). Never throws; on a failure the claim runs out and the broker
   * path processes the order.
   */
  processAccepted(order: AcceptedOrder, claim: LocalClaim, account: IntakeAccount): void {
    this.local.start(1, [{ order, claim, account }]);
  }

  private async processLocal({ order, claim, account }: LocalOrder): Promise<void> {
    await this.complete({ order: { ...order, state: 'ACCEPTED' }, account }, eventHeaders(order), claim.receivedEventId).catch((error) =>
      this.logger.warn(
        { err: error, yemekKuryeOrderId: order.yemekKuryeOrderId },
        'order processing in the accepting process failed; the broker path takes the order when its claim runs out',
      ),
    );
  }

  /** Processes the order an order.received names, on its `deliveryCount`th delivery. */
  async process(event: OrderReceivedEvent, delivery: { deliveryCount: number; correlationId?: string }): Promise<void> {
    const { yemekKuryeOrderId } = event;
    // In the order.received's span: the events of the outcome continue its trace.
    const headers: Record<string, string> = { ...traceHeaders(), ...(delivery.correlationId ? { [CORRELATION_HEADER]: delivery.correlationId } : {}) };
    let found: OrderToProcess | undefined;
    try {
      found = await this.orders.loadForProcessing(yemekKuryeOrderId);
      await this.complete(found, headers);
    } catch (error) {
      if (afterProcessingError({ deliveryCount: delivery.deliveryCount, deliveryLimit: DEFAULT_DELIVERY_LIMIT, state: found?.order.state }) === 'redeliver') throw error;
      this.logger.error({ err: error, yemekKuryeOrderId, deliveryCount: delivery.deliveryCount }, 'order processing failed on its last delivery; order FAILED');
      this.outbox.committed(await this.orders.completeProcessing(failure(found!.order, found!.account, UNEXPECTED_FAILURE, headers, new Date())));
    }
  }

  /** Geocodes if needed, then ends the ACCEPTED order PROCESSED (or FAILED when it cannot be processed) with its event. */
  private async complete(
    found: { order: OrderFacts & Pick<IntakeOrder, 'state'>; account: IntakeAccount | null } | undefined,
    headers: Record<string, string>,
    receivedEventId?: string,
  ): Promise<void> {
    const decision = processingDecision(found?.order, found?.account ?? null);
    if (!found || decision.decision === 'skip') return;
    const { order, account } = found;
    if (decision.decision === 'fail') {
      this.logger.warn({ yemekKuryeOrderId: order.yemekKuryeOrderId, restaurantId: order.restaurantId, refusal: decision.reason }, 'order cannot be processed; order FAILED');
      this.outbox.committed(await this.orders.completeProcessing({ ...failure(order, account, decision.reason, headers, new Date()), receivedEventId }));
      return;
    }
    const coordinates = await this.coordinatesFor(order);
    // Its event is committed: publish it now rather than at the relay's next poll.
    this.outbox.committed(await this.orders.completeProcessing({ ...success(order, account!, coordinates, headers, new Date()), receivedEventId }));
  }

  /** Re-publishes order.received for orders stuck in ACCEPTED; returns how many. */
  async requeueStuckOrders(olderThanMs = STUCK_ORDER_AFTER_MS): Promise<number> {
    const requeued = await this.orders.requeueStuck(olderThanMs);
    if (requeued > 0) {
      this.logger.warn({ requeued }, 'orders still ACCEPTED long after acceptance: order.received published again');
      this.outbox.committed(requeued);
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
