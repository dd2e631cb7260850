import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { setTimeout as delay } from 'node:timers/promises';
import { SpanKind } from '@opentelemetry/api';
import { withCorrelationId } from '@courier/logging';
import { Lane, withMessageSpan } from '@courier/messaging';
import { WriteCoalescer } from '@courier/persistence';
import { WebhookSenderConfig } from '../app/webhook-sender.config';
import { DeliveriesRepository } from '../repositories/deliveries.repository';
import type { AttemptRecord, ClaimedDelivery, Handover } from '../repositories/delivery.model';
import { DeliveryWorker } from './delivery-worker';
import { HostLimiter } from './host-limiter';
import { ReceiverClient } from './receiver-client';
import { WebhookMetrics } from './webhook-metrics';

const CLAIM_BATCH = 100;
const COALESCE_BELOW = 8;
const COALESCE_MS = 2;
/** The poll: deliveries that came due (retries) or whose lease ended (a crashed replica's). */
const POLL = 'webhook-delivery-pump.poll';
/** A wake-up before the next poll, when a delivery is due sooner. */
const NEXT_DUE = 'webhook-delivery-pump.next-due';

/**
 * Runs the deliveries that are due. The durable work is webhook_delivery_queue (a narrow row per
 * open delivery: due time, lease): due rows are claimed in batches and leased, so replicas share the
 * work and a crashed process's deliveries are taken over when the lease ends; claiming also reads
 * the delivery and its account's URLs and secret as they are now. New deliveries skip the claim:
 * the consumer leases them as it stores them and hands them over (`reserve`, `start`).
 * Attempts run concurrently (WEBHOOK_CONCURRENCY), each host within its limit, and their results are
 * written back in batches (one statement per batch: attempts, delivery states, queue rows).
 *
 * Claims run in passes, one at a time: a pass claims until a claim finds fewer due deliveries than
 * free slots. A pass starts on `nudge()` (new or redelivered deliveries, a slot came free while
 * due deliveries wait for one), on the poll every TASK_POLL_MS, and when the next delivery is due.
 */
@Injectable()
export class DeliveryPump implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DeliveryPump');
  private readonly leaseMs: number;
  private readonly results: WriteCoalescer<AttemptRecord, void>;
  /** The attempts under way, each over a leased queue row (a crashed process's are taken over when the lease ends). */
  private readonly attempts: Lane<ClaimedDelivery>;
  private running = false;
  private waitingForSlots = false;
  private pass?: Promise<void>;
  /** Nudged while a pass ran: another one follows it. */
  private nudgedDuringPass = false;
  private failures = 0;
  /** After failed claims, polls wait until then (nudges do not). */
  private backoffUntil = 0;

  constructor(
    private readonly config: WebhookSenderConfig,
    private readonly worker: DeliveryWorker,
    private readonly limiter: HostLimiter,
    private readonly client: ReceiverClient,
    private readonly metrics: WebhookMetrics,
    private readonly deliveries: DeliveriesRepository,
    private readonly scheduler: SchedulerRegistry,
  ) {
    // Longer than any attempt can take, so a live attempt is never taken over.
    this.leaseMs = config.WEBHOOK_TIMEOUT_MS + 60_000;
    // One batch at a time (a failed batch fails whole: its deliveries are retried when their leases end);
    // results that finish meanwhile go together in the next statement.
    this.results = new WriteCoalescer<AttemptRecord, void>(
      async (records) => {
        await this.record(records);
        return records.map(() => undefined);
      },
      { maxBatch: 200, maxInFlight: 1, splitOnFailure: false },
    );
    this.attempts = new Lane<ClaimedDelivery>({
      concurrency: config.WEBHOOK_CONCURRENCY,
      run: (delivery) => this.attempt(delivery),
      // A slot came free: only worth a claim when due deliveries are waiting for one.
      onSlotFree: () => {
        if (this.waitingForSlots) this.nudge();
      },
    });
  }

  onApplicationBootstrap(): void {
    this.running = true;
    this.scheduler.addInterval(
      POLL,
      setInterval(() => {
        if (Date.now() >= this.backoffUntil) this.nudge();
      }, this.config.TASK_POLL_MS),
    );
    this.nudge();
  }

  /** Wakes the pump: deliveries became due (new, redelivered) or a slot came free. */
  nudge(): void {
    if (!this.running) return;
    if (this.pass) {
      this.nudgedDuringPass = true;
      return;
    }
    this.nudgedDuringPass = false;
    this.pass = this.claimPass().finally(() => {
      this.pass = undefined;
      if (this.nudgedDuringPass) this.nudge();
    });
  }

  /** Sets aside up to `wanted` free slots for deliveries about to be stored (see `start`). */
  reserve(wanted: number): Handover {
    const slots = this.running ? this.attempts.reserve(wanted) : 0;
    return { slots, limits: JSON.stringify(this.limiter.claimLimits()), defaultAllowance: this.limiter.defaultAllowance, leaseMs: this.leaseMs };
  }

  /** Starts deliveries leased under `reservation` and gives its other slots back. */
  start(reservation: Handover, deliveries: ClaimedDelivery[]): void {
    this.attempts.start(reservation.slots, deliveries);
  }

  async beforeApplicationShutdown(): Promise<void> {
    // Stop claiming; attempts in flight finish (each bounded by WEBHOOK_TIMEOUT_MS) within the grace period.
    this.running = false;
    for (const name of [POLL, NEXT_DUE]) {
      if (this.scheduler.doesExist('interval', name)) this.scheduler.deleteInterval(name);
      if (this.scheduler.doesExist('timeout', name)) this.scheduler.deleteTimeout(name);
    }
    const grace = new Promise<void>((resolve) => setTimeout(resolve, this.config.SHUTDOWN_GRACE_MS).unref());
    await Promise.race([
      (async () => {
        await this.pass;
        await this.attempts.drain();
        await this.results.drained();
      })(),
      grace,
    ]);
    this.client.close();
  }

  /**
   * Claims the due deliveries there are free slots for and starts them; returns how many. Of the due
   * rows looked at (oldest first), each host gets at most its allowance (HostLimiter.claimLimits);
   * the rest of a slow host's are pushed back by its pace, so its backlog is not looked at again
   * before it could be served.
   */
  async runDue(): Promise<number> {
    const free = this.attempts.reserve(Math.min(this.attempts.free, CLAIM_BATCH));
    if (free <= 0) return 0;
    let claimed: ClaimedDelivery[] = [];
    try {
      claimed = await this.deliveries.claimDue({
        limit: free,
        leaseMs: this.leaseMs,
        scanLimit: free * 4,
        limits: JSON.stringify(this.limiter.claimLimits()),
        defaultAllowance: this.limiter.defaultAllowance,
      });
    } finally {
      this.attempts.start(free, claimed);
    }
    return claimed.length;
  }

  /** One attempt; its slot is free once the POST has ended, its lease stays until the result is written. */
  private attempt(delivery: ClaimedDelivery): Promise<void> {
    // The attempt's log lines carry the correlation id of the change that caused the webhook.
    // ...and run in the trace of that change (stored with the delivery): the POST carries its traceparent.
    const attempt = () =>
      withMessageSpan(
        'webhook deliver',
        delivery.traceparent ? { traceparent: delivery.traceparent } : undefined,
        { 'webhook.delivery_id': delivery.id, 'webhook.event': delivery.event },
        () => this.worker.attempt(delivery),
        SpanKind.INTERNAL,
      );
    const work = delivery.correlationId ? withCorrelationId(delivery.correlationId, attempt) : attempt();
    void work
      .then((result) => this.results.submit(result))
      // Not recorded: the lease ends and the delivery is tried again (at least once).
      .catch((error) => this.logger.warn({ err: error, deliveryId: delivery.id }, 'delivery attempt not recorded; retried when its lease ends'));
    return work.then(() => undefined);
  }

  private async claimPass(): Promise<void> {
    try {
      for (;;) {
        if (!this.running) return;
        const free = Math.min(this.attempts.free, CLAIM_BATCH);
        const claimed = await this.runDue();
        this.failures = 0;
        if (free > 0 && claimed === free) continue;
        // Attempts are running: each that finishes may free a slot (ours, or its host's) for due
        // deliveries left behind, and wakes the pump. Nothing claimed: wake when the next one is due.
        const next = claimed > 0 || free <= 0 ? 0 : await this.deliveries.nextDueInMs();
        this.waitingForSlots = next !== undefined && next <= 0;
        if (!this.waitingForSlots && next !== undefined && next < this.config.TASK_POLL_MS) this.wakeIn(Math.max(5, next));
        // Under load, let a few attempts finish so that the next claim takes them together.
        if (this.waitingForSlots && claimed < COALESCE_BELOW) await delay(COALESCE_MS);
        return;
      }
    } catch (error) {
      this.failures += 1;
      if (this.failures === 1 || this.failures % 20 === 0) this.logger.warn({ err: error }, 'claiming due deliveries failed');
      this.backoffUntil = Date.now() + Math.min(250 * 2 ** Math.min(this.failures, 6), 10_000);
    }
  }

  private wakeIn(ms: number): void {
    if (!this.running) return;
    if (this.scheduler.doesExist('timeout', NEXT_DUE)) this.scheduler.deleteTimeout(NEXT_DUE);
    this.scheduler.addTimeout(
      NEXT_DUE,
      setTimeout(() => {
        this.scheduler.deleteTimeout(NEXT_DUE);
        this.nudge();
      }, ms),
    );
  }

  /** Writes a batch of results (DeliveriesRepository.recordResults), then counts and reports them. */
  private async record(records: AttemptRecord[]): Promise<void> {
    const current = await this.deliveries.recordResults(records);
    let redelivered = false;
    for (const record of records) {
      if (record.kind === 'attempt') {
        this.metrics.attempts.inc({ result: record.outcome.ok ? 'success' : 'failure' });
        if (record.outcome.statusCode !== null) this.metrics.latency.observe(record.outcome.latencyMs / 1000);
      }
      // A redelivery began while this one was in flight: its new cycle goes on from here.
      if (!current.has(record.delivery.id)) {
        redelivered = true;
        continue;
      }
      this.reportOutcome(record);
    }
    if (redelivered) this.nudge();
  }

  private reportOutcome(record: AttemptRecord): void {
    const { delivery } = record;
    // Written after a batch of results, outside the attempts' scopes: the id is named explicitly.
    const context = { deliveryId: delivery.id, restaurantId: delivery.restaurantId, event: delivery.event, orderId: delivery.orderId, correlationId: delivery.correlationId ?? undefined };
    if (record.kind === 'skip') {
      this.metrics.finished.inc({ status: 'skipped' });
      return;
    }
    if (record.kind === 'defer') return;
    if (record.raiseAlert) {
      this.metrics.alerts.inc();
      this.logger.error(
        { ...context, attempt: record.number, failingSince: delivery.cycleStartedAt.toISOString(), lastError: record.outcome.error },
        'ALERT: webhook delivery has been failing for WEBHOOK_ALERT_AFTER; contact the customer',
      );
    }
    if (record.status === 'retrying') {
      this.logger.debug({ ...context, attempt: record.number, statusCode: record.outcome.statusCode, error: record.outcome.error, nextAttemptAt: record.nextAttemptAt?.toISOString() }, 'webhook attempt failed');
      return;
    }
    this.metrics.finished.inc({ status: record.status });
    if (record.status === 'failed') this.logger.warn({ ...context, attempt: record.number, lastError: record.outcome.error }, 'webhook delivery failed: WEBHOOK_MAX_AGE reached');
  }
}
