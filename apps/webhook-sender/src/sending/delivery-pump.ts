import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Pool } from 'pg';
import { withCorrelationId } from '@courier/logging';
import { WriteCoalescer } from '@courier/persistence';
import { WebhookSenderConfig } from '../app/webhook-sender.config';
import { PERSISTENCE } from '../app/persistence';
import { AttemptRecord, ClaimedDelivery, DeliveryWorker } from './delivery-worker';
import { HostLimiter, hostKey } from './host-limiter';
import { ReceiverClient } from './receiver-client';
import { WebhookMetrics } from './webhook-metrics';

const CLAIM_BATCH = 100;
const COALESCE_BELOW = 8;
const COALESCE_MS = 2;

/** Columns of a delivery as a claim returns it (with `a` the account, `d` the delivery). */
export const CLAIMED_COLUMNS = `d.id, d.restaurant_id, d.event, d.order_id, d.body, d.correlation_id, d.status, d.attempts, d.cycle, d.cycle_started_at, d.cycle_failures,
  d.alert_raised_at IS NOT NULL AS alert_raised, a.restaurant_id IS NOT NULL AS account_known, a.status_url, a.cancel_url, a.signing_secret_ciphertext`;

/** How many deliveries of `host` a claim may take: the allowance in the limits parameter, else the default. */
export const allowanceSql = (host: string, limits: string, fallback: string) => `coalesce((${limits}::jsonb -> ${host} ->> 'allowance')::int, ${fallback})`;

/** Slots set aside for deliveries being stored, handed over with `start` once stored. */
export interface Reservation {
  slots: number;
  limits: string;
  defaultAllowance: number;
  leaseMs: number;
}

/**
 * Runs the deliveries that are due. The durable work is webhook_delivery_queue (a narrow row per
 * open delivery: due time, lease): due rows are claimed in batches with FOR UPDATE SKIP LOCKED and
 * leased, so replicas share the work and a crashed process's deliveries are taken over when the
 * lease ends; claiming also reads the delivery and its account's URLs and secret as they are now.
 * New deliveries skip the claim: the consumer leases them as it stores them and hands them over.
 * Attempts run concurrently (WEBHOOK_CONCURRENCY), each host within its limit, and their results are
 * written back in batches (one statement per batch: attempts, delivery states, queue rows).
 *
 * Leases and results are written on a pool of its own with synchronous_commit off: they need not
 * wait for the WAL flush. If PostgreSQL crashes before the flush, the last few are lost and those
 * deliveries are sent again (at least once, same webhook id). New deliveries are stored by the
 * consumer with a durable commit, before the message is acknowledged.
 */
@Injectable()
export class DeliveryPump implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DeliveryPump');
  private readonly leaseMs: number;
  private readonly pool: Pool;
  private readonly results: WriteCoalescer<AttemptRecord, void>;
  private readonly inFlight = new Set<Promise<AttemptRecord>>();
  private reserved = 0;
  private running = false;
  private waitingForSlots = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private nudged = false;

  constructor(
    @Inject('MIGRATIONS_APPLIED') _migrations: unknown,
    private readonly config: WebhookSenderConfig,
    private readonly worker: DeliveryWorker,
    private readonly limiter: HostLimiter,
    private readonly client: ReceiverClient,
    private readonly metrics: WebhookMetrics,
  ) {
    // Longer than any attempt can take, so a live attempt is never taken over.
    this.leaseMs = config.WEBHOOK_TIMEOUT_MS + 60_000;
    this.pool = new Pool({
      connectionString: config.DATABASE_URL,
      max: config.WEBHOOK_PUMP_POOL_SIZE,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      statement_timeout: 30_000,
      application_name: `${PERSISTENCE.schema}-pump`,
      options: `-c search_path=${PERSISTENCE.schema},public -c synchronous_commit=off`,
    });
    this.pool.on('error', (error) => this.logger.warn({ err: error }, 'idle pump connection failed'));
    // One batch at a time: results that finish meanwhile go together in the next statement.
    this.results = new WriteCoalescer<AttemptRecord, void>(
      async (records: AttemptRecord[]) => {
        await this.record(records);
        return records.map(() => undefined);
      },
      { maxBatch: 200, maxInFlight: 1, splitOnFailure: false },
    );
  }

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Wakes the pump: deliveries became due (new, redelivered) or a slot came free. */
  nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  /** Sets aside up to `wanted` free slots for deliveries about to be stored (see `start`). */
  reserve(wanted: number): Reservation {
    const slots = this.running ? Math.max(0, Math.min(wanted, this.config.WEBHOOK_CONCURRENCY - this.inFlight.size - this.reserved)) : 0;
    this.reserved += slots;
    return { slots, limits: JSON.stringify(this.limiter.claimLimits()), defaultAllowance: this.limiter.defaultAllowance, leaseMs: this.leaseMs };
  }

  /** Starts deliveries leased under `reservation` and gives its other slots back. */
  start(reservation: Reservation, deliveries: ClaimedDelivery[]): void {
    this.reserved -= reservation.slots;
    deliveries.slice(0, reservation.slots).forEach((delivery) => this.attempt(delivery));
  }

  async beforeApplicationShutdown(): Promise<void> {
    // Stop claiming; attempts in flight finish (each bounded by WEBHOOK_TIMEOUT_MS) within the grace period.
    this.running = false;
    this.wake?.();
    const grace = new Promise<void>((resolve) => setTimeout(resolve, this.config.SHUTDOWN_GRACE_MS).unref());
    await Promise.race([
      (async () => {
        await this.loop;
        await Promise.allSettled([...this.inFlight]);
        await this.results.drained();
      })(),
      grace,
    ]);
    this.client.close();
    await this.pool.end().catch(() => undefined);
  }

  /**
   * Claims the due deliveries there are free slots for and starts them; returns how many. Of the due
   * rows looked at (oldest first), each host gets at most its allowance (HostLimiter.claimLimits);
   * the rest of a slow host's are pushed back by its pace, so its backlog is not looked at again
   * before it could be served.
   */
  async runDue(): Promise<number> {
    const free = Math.min(this.config.WEBHOOK_CONCURRENCY - this.inFlight.size - this.reserved, CLAIM_BATCH);
    if (free <= 0) return 0;
    const { rows: claimed } = await this.pool.query<ClaimedDelivery>(
      `WITH candidate AS (
         SELECT delivery_id, host, due_at FROM webhook_delivery_queue
          WHERE due_at <= now() AND (lease_until IS NULL OR lease_until < now())
          ORDER BY due_at LIMIT $3
       ), ranked AS (
         SELECT c.delivery_id, c.due_at, row_number() OVER (PARTITION BY c.host ORDER BY c.due_at, c.delivery_id) AS place,
                ${allowanceSql('c.host', '$4', '$5')} AS allowance, ($4::jsonb -> c.host ->> 'deferStepMs')::int AS defer_step_ms
           FROM candidate c
       ), chosen AS (
         SELECT delivery_id FROM ranked WHERE place <= allowance ORDER BY due_at, delivery_id LIMIT $1
       ), locked AS (
         -- Only the chosen rows are locked; one another replica holds is skipped, one it leased meanwhile fails the re-check.
         SELECT q.delivery_id FROM webhook_delivery_queue q JOIN chosen USING (delivery_id)
          WHERE q.lease_until IS NULL OR q.lease_until < now()
          FOR UPDATE OF q SKIP LOCKED
       ), put_off AS (
         UPDATE webhook_delivery_queue q SET due_at = now() + ((r.place - r.allowance) * r.defer_step_ms * interval '1 millisecond')
           FROM ranked r WHERE q.delivery_id = r.delivery_id AND r.place > r.allowance AND r.defer_step_ms IS NOT NULL AND q.lease_until IS NULL
       ), leased AS (
         UPDATE webhook_delivery_queue q SET lease_until = now() + ($2::bigint * interval '1 millisecond') FROM locked
          WHERE q.delivery_id = locked.delivery_id
         RETURNING q.delivery_id
       )
       SELECT ${CLAIMED_COLUMNS}
         FROM leased l JOIN webhook_deliveries d ON d.id = l.delivery_id LEFT JOIN webhook_accounts a ON a.restaurant_id = d.restaurant_id`,
      [free, this.leaseMs, free * 4, JSON.stringify(this.limiter.claimLimits()), this.limiter.defaultAllowance],
    );
    claimed.forEach((delivery) => this.attempt(delivery));
    return claimed.length;
  }

  private attempt(delivery: ClaimedDelivery): void {
    // The attempt's log lines carry the correlation id of the change that caused the webhook.
    const attempt = () => this.worker.attempt(delivery);
    const work = (delivery.correlation_id ? withCorrelationId(delivery.correlation_id, attempt) : attempt()).finally(() => {
      this.inFlight.delete(work);
      // A slot came free: only worth a claim when due deliveries are waiting for one.
      if (this.waitingForSlots) this.nudge();
    });
    this.inFlight.add(work);
    // The lease stays until the result is written, so the slot is free before that.
    void work
      .then((result) => this.results.submit(result))
      // Not recorded: the lease ends and the delivery is tried again (at least once).
      .catch((error) => this.logger.warn({ err: error, deliveryId: delivery.id }, 'delivery attempt not recorded; retried when its lease ends'));
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      let wait = this.config.TASK_POLL_MS;
      try {
        const free = Math.min(this.config.WEBHOOK_CONCURRENCY - this.inFlight.size - this.reserved, CLAIM_BATCH);
        const claimed = await this.runDue();
        failures = 0;
        if (free > 0 && claimed === free) continue;
        // Attempts are running: each that finishes may free a slot (ours, or its host's) for due
        // deliveries left behind, and wakes the pump. Nothing claimed: sleep until the next one is due.
        const next = claimed > 0 || free <= 0 ? 0 : await this.nextDueInMs();
        this.waitingForSlots = next !== undefined && next <= 0;
        if (!this.waitingForSlots && next !== undefined) wait = Math.min(wait, Math.max(5, next));
        // Under load, let a few attempts finish so that the next claim takes them together.
        if (this.waitingForSlots && claimed < COALESCE_BELOW) await new Promise((resolve) => setTimeout(resolve, COALESCE_MS));
      } catch (error) {
        failures += 1;
        if (failures === 1 || failures % 20 === 0) this.logger.warn({ err: error }, 'claiming due deliveries failed');
        wait = Math.min(250 * 2 ** Math.min(failures, 6), 10_000);
      }
      await this.sleep(wait);
    }
  }

  private async nextDueInMs(): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ ms: number | null }>(
      `SELECT EXTRACT(EPOCH FROM (min(due_at) - now())) * 1000 AS ms FROM webhook_delivery_queue WHERE lease_until IS NULL OR lease_until < now()`,
    );
    return rows[0]?.ms === null || rows[0]?.ms === undefined ? undefined : Math.max(0, Number(rows[0].ms));
  }

  /**
   * Writes a batch of results in one statement: the attempts, the deliveries' states, their queue
   * rows due again (lease released) or removed once finished. A delivery redelivered while its
   * attempt was in flight (its cycle moved on) keeps the new cycle's state: only the attempt is added.
   */
  private async record(records: AttemptRecord[]): Promise<void> {
    const attempt = (record: AttemptRecord) => (record.kind === 'attempt' ? record : undefined);
    const { rows } = await this.pool.query<{ id: string; current: boolean }>(
      `WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $4::int[], $5::text[], $6::timestamptz[], $7::int[], $8::int[], $9::text[], $10::text[], $11::timestamptz[], $12::boolean[], $13::text[])
           AS i(id, cycle, kind, attempt, url, started_at, status_code, latency_ms, error, status, next_attempt_at, raise_alert, host)
       ), attempt AS (
         INSERT INTO webhook_attempts (delivery_id, attempt, url, started_at, status_code, latency_ms, error)
         SELECT id, attempt, url, started_at, status_code, latency_ms, error FROM input WHERE kind = 'attempt'
       ), updated AS (
         UPDATE webhook_deliveries d SET
           attempts = CASE WHEN i.kind = 'attempt' THEN GREATEST(d.attempts, i.attempt) ELSE d.attempts END,
           last_attempt_at = CASE WHEN i.kind = 'attempt' THEN i.started_at ELSE d.last_attempt_at END,
           last_status_code = CASE WHEN i.kind = 'attempt' THEN i.status_code ELSE d.last_status_code END,
           last_error = CASE WHEN i.kind = 'attempt' OR (i.kind = 'skip' AND d.cycle = i.cycle) THEN i.error ELSE d.last_error END,
           status = CASE WHEN d.cycle = i.cycle AND i.kind <> 'defer' THEN i.status ELSE d.status END,
           next_attempt_at = CASE WHEN d.cycle = i.cycle THEN i.next_attempt_at ELSE d.next_attempt_at END,
           cycle_failures = CASE WHEN d.cycle = i.cycle AND i.kind = 'attempt' AND i.status <> 'delivered' THEN d.cycle_failures + 1 ELSE d.cycle_failures END,
           delivered_at = CASE WHEN d.cycle = i.cycle AND i.status = 'delivered' THEN now() ELSE d.delivered_at END,
           alert_raised_at = CASE WHEN d.cycle = i.cycle AND i.raise_alert THEN coalesce(d.alert_raised_at, now()) ELSE d.alert_raised_at END,
           updated_at = now()
         FROM input i WHERE d.id = i.id
         RETURNING d.id, d.cycle = i.cycle AS current, d.status, d.next_attempt_at, i.host
       ), requeued AS (
         UPDATE webhook_delivery_queue q SET due_at = u.next_attempt_at, lease_until = NULL, host = coalesce(u.host, q.host)
           FROM updated u WHERE q.delivery_id = u.id AND u.status IN ('pending', 'retrying')
       ), finished AS (
         DELETE FROM webhook_delivery_queue q USING updated u WHERE q.delivery_id = u.id AND u.status NOT IN ('pending', 'retrying')
       )
       SELECT id, current FROM updated`,
      [
        records.map((record) => record.delivery.id),
        records.map((record) => record.delivery.cycle),
        records.map((record) => record.kind),
        records.map((record) => attempt(record)?.number ?? null),
        records.map((record) => attempt(record)?.url ?? null),
        records.map((record) => attempt(record)?.startedAt ?? null),
        records.map((record) => attempt(record)?.outcome.statusCode ?? null),
        records.map((record) => attempt(record)?.outcome.latencyMs ?? null),
        records.map((record) => (record.kind === 'attempt' ? record.outcome.error : record.kind === 'skip' ? record.error : null)),
        records.map((record) => (record.kind === 'attempt' ? record.status : record.kind === 'skip' ? 'skipped' : record.delivery.status)),
        records.map((record) => (record.kind === 'attempt' ? record.nextAttemptAt : record.kind === 'defer' ? record.until : null)),
        records.map((record) => record.kind === 'attempt' && record.raiseAlert),
        records.map((record) => (record.kind === 'attempt' && record.url !== null ? hostKey(record.url) : null)),
      ],
    );
    const current = new Map(rows.map((row) => [row.id, row.current]));
    let redelivered = false;
    for (const record of records) {
      if (record.kind === 'attempt') {
        this.metrics.attempts.inc({ result: record.outcome.ok ? 'success' : 'failure' });
        if (record.outcome.statusCode !== null) this.metrics.latency.observe(record.outcome.latencyMs / 1000);
      }
      // A redelivery began while this one was in flight: its new cycle goes on from here.
      if (!current.get(record.delivery.id)) {
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
    const context = { deliveryId: delivery.id, restaurantId: delivery.restaurant_id, event: delivery.event, orderId: delivery.order_id, correlationId: delivery.correlation_id ?? undefined };
    if (record.kind === 'skip') {
      this.metrics.finished.inc({ status: 'skipped' });
      return;
    }
    if (record.kind === 'defer') return;
    if (record.raiseAlert) {
      this.metrics.alerts.inc();
      this.logger.error(
        { ...context, attempt: record.number, failingSince: delivery.cycle_started_at.toISOString(), lastError: record.outcome.error },
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

  private sleep(ms: number): Promise<void> {
    if (this.nudged) {
      this.nudged = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => finish(), ms);
      const finish = () => {
        clearTimeout(timer);
        this.wake = undefined;
        this.nudged = false;
        resolve();
      };
      this.wake = finish;
    });
  }
}
