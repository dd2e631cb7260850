import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { randomUUID } from 'node:crypto';
import { CORRELATION_HEADER } from '@courier/logging';
import { DEFAULT_DELIVERY_LIMIT, Messaging, Outbox, traceHeaders } from '@courier/messaging';
import { IntakeAccount } from '../accounts/intake-account';
import { Geocoder } from '../geocoding/geocoder';
import { IntakeConfig } from '../app/intake-api.config';
import { IntakeOrder } from './intake-order';
import { senderCoordinates } from './order-details';
import { afterProcessingError, failure, LocatedCoordinates, OrderFacts, processingDecision, processingPath, success } from './order-processing.decisions';
import { OrderReceivedEvent } from './order-received.event';
import { AcceptedOrder, eventHeaders, LocalClaim, OrdersRepository, OrderToProcess } from './orders.repository';

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
export class OrderProcessingService implements OnApplicationShutdown {
  private readonly logger = new Logger('OrderProcessing');
  /** Orders taken into local processing (reserved before their insert) and not finished yet. */
  private localInFlight = 0;
  private stopping = false;
  private drained?: () => void;

  constructor(
    private readonly outbox: Outbox,
    private readonly orders: OrdersRepository,
    private readonly geocoder: Geocoder,
    private readonly config: IntakeConfig,
    messaging: Messaging,
  ) {
    // Orders in local processing are in-flight work like a consumer's: drained within SHUTDOWN_GRACE_MS.
    messaging.onShutdownDrain(() => this.drainLocal());
  }

  /** Every replica sweeps; SKIP LOCKED in the statement keeps them from taking the same orders. */
  @Interval(STUCK_ORDER_SWEEP, SWEEP_INTERVAL_MS)
  async sweepStuckOrders(): Promise<void> {
    await this.requeueStuckOrders().catch((error) => this.logger.warn({ err: error }, 'stuck-order sweep failed'));
  }

  /**
   * Takes no more orders into local processing and resolves when those in progress are done (the
   * messaging module bounds the wait by SHUTDOWN_GRACE_MS; what is left then goes through the broker
   * when its claim runs out).
   */
  private drainLocal(): Promise<void> {
    this.stopping = true;
    if (this.localInFlight === 0) return Promise.resolve();
    return new Promise<void>((resolve) => (this.drained = resolve));
  }

  onApplicationShutdown(): void {
    if (this.localInFlight > 0) this.logger.warn({ inFlight: this.localInFlight }, 'stopped with orders in local processing; the broker path takes them when their claims run out');
  }

  /**
   * Reserves a place in local processing for an order about to be inserted: the claim its
   * order.received is written with, or undefined when the fast path is off or full (the order then
   * goes through the broker). Each reservation ends with `processAccepted` or `releaseLocal`.
   */
  reserveLocal(): LocalClaim | undefined {
    if (processingPath({ stopping: this.stopping, inLocalProcessing: this.localInFlight, limit: this.config.INTAKE_LOCAL_PROCESSING_LIMIT }) === 'broker') return undefined;
    this.localInFlight += 1;
    return { receivedEventId: randomUUID(), leaseMs: this.config.INTAKE_LOCAL_PROCESSING_LEASE_MS };
  }

  /** Orders reserved for or in local processing now (0 when idle: every reservation ends). */
  get inLocalProcessing(): number {
    return this.localInFlight;
  }

  /** Gives back a reservation whose order was not inserted with its claim. */
  releaseLocal(): void {
    this.localInFlight -= 1;
    if (this.localInFlight === 0) this.drained?.();
  }

  /**
   * Processes an order this replica just accepted with its order.received claimed, from what the
   * request had in memory (no read): the fast path of docs/intake-api.md. Never throws; on a
   * failure the claim runs out and the broker path processes the order.
   */
  processAccepted(order: AcceptedOrder, claim: LocalClaim, account: IntakeAccount): void {
    this.complete({ order: { ...order, state: 'ACCEPTED' }, account }, eventHeaders(order), claim.receivedEventId)
      .catch((error) =>
        this.logger.warn(
          { err: error, yemekKuryeOrderId: order.yemekKuryeOrderId },
          'order processing in the accepting process failed; the broker path takes the order when its claim runs out',
        ),
      )
      .finally(() => this.releaseLocal());
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
