import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { ListPosition } from '@courier/http';
import { PERSISTENCE } from '../app/persistence';
import { WebhookSenderConfig } from '../app/webhook-sender.config';
import { WebhookAttemptEntity } from '../deliveries/webhook-attempt.entity';
import { WebhookDeliveryEntity } from '../deliveries/webhook-delivery.entity';
import type { AttemptRecord, ClaimedDelivery, Delivery, DeliveryArrival, DeliveryAttempt, DeliveryBacklog, DeliveryFilter, DueClaim, Handover, StoredDelivery } from './delivery.model';
import { hostKey } from '../sending/host-limiter';

/** Open deliveries are counted up to this: a scrape must stay cheap however large the backlog. */
export const OPEN_DELIVERIES_COUNT_CAP = 100_000;

/** Columns of a delivery as a claim returns it (with `a` the account, `d` the delivery), as ClaimedDelivery. */
const CLAIMED_COLUMNS = `d.id, d.restaurant_id AS "restaurantId", d.event, d.order_id AS "orderId", d.body, d.correlation_id AS "correlationId", d.traceparent, d.status, d.attempts, d.cycle,
  d.cycle_started_at AS "cycleStartedAt", d.cycle_failures AS "cycleFailures", d.alert_raised_at IS NOT NULL AS "alertRaised", a.restaurant_id IS NOT NULL AS "accountKnown",
  a.status_url AS "statusUrl", a.cancel_url AS "cancelUrl", a.signing_secret_ciphertext AS "signingSecretCiphertext",
  a.previous_signing_secret_ciphertext AS "previousSigningSecretCiphertext", a.previous_signing_secret_valid_until AS "previousSigningSecretValidUntil"`;

/** HostLimiter's hostKey in SQL, for a column holding a URL. */
export const hostKeySql = (column: string) => `lower(substring(${column} from '^[A-Za-z][A-Za-z0-9+.-]*://([^/?#]*)'))`;

/** How many deliveries of `host` a claim may take: the allowance in the limits parameter, else the default. */
const allowanceSql = (host: string, limits: string, fallback: string) => `coalesce((${limits}::jsonb -> ${host} ->> 'allowance')::int, ${fallback})`;

/**
 * webhook_deliveries, webhook_delivery_queue (a narrow row per open delivery: due time, lease) and
 * webhook_attempts. The log API, redelivery, retention and the store of new deliveries go through
 * the app's DataSource (durable commits); the pump's leases and results through a pool of its own
 * with synchronous_commit off: they need not wait for the WAL flush. If PostgreSQL crashes before
 * the flush, the last few are lost and those deliveries are sent again (at least once, same webhook
 * id); new deliveries are stored durably before their message is acknowledged.
 */
@Injectable()
export class DeliveriesRepository implements OnApplicationShutdown {
  private readonly logger = new Logger('DeliveriesRepository');
  private readonly pumpPool: Pool;

  constructor(
    @Inject('MIGRATIONS_APPLIED') _migrations: unknown,
    @InjectDataSource() private readonly dataSource: DataSource,
    config: WebhookSenderConfig,
  ) {
    this.pumpPool = new Pool({
      connectionString: config.DATABASE_URL,
      max: config.WEBHOOK_PUMP_POOL_SIZE,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      statement_timeout: 30_000,
      application_name: `${PERSISTENCE.schema}-pump`,
      options: `-c search_path=${PERSISTENCE.schema},public -c synchronous_commit=off`,
    });
    this.pumpPool.on('error', (error) => this.logger.warn({ err: error }, 'idle pump connection failed'));
  }

  async onApplicationShutdown(): Promise<void> {
    // After the pump's beforeApplicationShutdown: its last results are written.
    await this.pumpPool.end().catch(() => undefined);
  }

  /**
   * Stores new deliveries, each with its inbox row (processed_messages, as UnitOfWork.consumeOnce
   * writes it: a redelivered message does nothing), queued due now; those that fit `handover` are
   * leased right here. One statement, so that the inbox row, the delivery and its queue row commit
   * together (a message is acknowledged only once its delivery is durable) and a handed-over
   * delivery is leased before any replica can claim it. An account without a URL for the event gets
   * the delivery recorded as `skipped`; an account not known yet gets a pending one.
   */
  async store(consumer: string, batch: DeliveryArrival[], handover: Handover, now = new Date()): Promise<StoredDelivery[]> {
    // A message delivered twice into one batch is stored once.
    const arrivals = [...new Map(batch.map((arrival) => [arrival.messageId, arrival])).values()];
    const rows = arrivals.map((arrival) => ({
      message_id: arrival.messageId,
      id: arrival.deliveryId ?? randomUUID(),
      restaurant_id: arrival.restaurantId,
      event: arrival.event,
      order_id: arrival.orderId,
      yemek_kurye_order_id: arrival.yemekKuryeOrderId,
      source_key: arrival.sourceKey,
      body: arrival.body,
      correlation_id: arrival.correlationId,
      traceparent: arrival.traceparent,
      integration_id: arrival.integrationId,
    }));
    return this.dataSource.query(
      `WITH arrival AS (
         SELECT * FROM jsonb_to_recordset($2::jsonb) AS a(message_id text, id uuid, restaurant_id text, event text, order_id text, yemek_kurye_order_id text,
                                                          source_key text, body text, correlation_id text, traceparent text, integration_id text)
       ), inbox AS (
         INSERT INTO processed_messages (consumer, message_id) SELECT $1, message_id FROM arrival
         ON CONFLICT DO NOTHING RETURNING message_id
       ), fresh AS (
         -- Only order.canceled goes to the cancel URL (receiverUrlOf in delivery-attempt.decisions).
         SELECT a.*, acc.restaurant_id IS NOT NULL AS account_known,
                CASE WHEN a.event = 'order.canceled' THEN acc.cancel_url ELSE acc.status_url END AS url
           FROM arrival a JOIN inbox USING (message_id) LEFT JOIN webhook_accounts acc ON acc.restaurant_id = a.restaurant_id
       ), stored AS (
         INSERT INTO webhook_deliveries (id, restaurant_id, event, order_id, yemek_kurye_order_id, integration_id, source_key, url, body, correlation_id, traceparent, status,
                                         cycle_started_at, next_attempt_at, last_error, created_at, updated_at)
         SELECT id, restaurant_id, event, order_id, yemek_kurye_order_id, integration_id, source_key, url, body, correlation_id, traceparent,
                CASE WHEN account_known AND url IS NULL THEN 'skipped' ELSE 'pending' END, $3::timestamptz,
                CASE WHEN account_known AND url IS NULL THEN NULL ELSE $3::timestamptz END,
                CASE WHEN account_known AND url IS NULL
                     THEN 'no ' || CASE WHEN event = 'order.canceled' THEN 'cancel' ELSE 'status' END || ' URL configured' END,
                $3::timestamptz, $3::timestamptz
           FROM fresh
         -- The same change published twice (another message id) is one webhook. A webhook id derived from the
         -- change comes with a source key derived from it too, so this arbiter also covers its primary key.
         ON CONFLICT (source_key) DO NOTHING
         RETURNING *
       ), ranked AS (
         SELECT s.id, coalesce(${hostKeySql('s.url')}, '') AS host,
                row_number() OVER (PARTITION BY coalesce(${hostKeySql('s.url')}, '') ORDER BY s.id) AS place, row_number() OVER (ORDER BY s.id) AS overall
           FROM stored s WHERE s.status = 'pending'
       ), queued AS (
         INSERT INTO webhook_delivery_queue (delivery_id, host, due_at, lease_until)
         SELECT id, host, $3::timestamptz,
                CASE WHEN overall <= $4 AND place <= ${allowanceSql('host', '$5', '$6')} THEN $3::timestamptz + ($7::bigint * interval '1 millisecond') END
           FROM ranked
         RETURNING delivery_id, lease_until IS NOT NULL AS handed_over
       )
       SELECT ${CLAIMED_COLUMNS}, q.handed_over AS "handedOver"
         FROM queued q JOIN stored d ON d.id = q.delivery_id LEFT JOIN webhook_accounts a ON a.restaurant_id = d.restaurant_id`,
      [consumer, JSON.stringify(rows), now, handover.slots, handover.limits, handover.defaultAllowance, handover.leaseMs],
    );
  }

  /**
   * Leases due deliveries, at most `limit`, each host within its allowance. Of the due rows looked at
   * (oldest first), the rest of a slow host's are pushed back by its pace (`deferStepMs`), so its
   * backlog is not looked at again before it could be served. One statement: the rows are locked
   * (FOR UPDATE SKIP LOCKED) and leased together, so no two replicas run one delivery at once.
   */
  async claimDue(claim: DueClaim): Promise<ClaimedDelivery[]> {
    const { rows } = await this.pumpPool.query<ClaimedDelivery>(
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
      [claim.limit, claim.leaseMs, claim.scanLimit, claim.limits, claim.defaultAllowance],
    );
    return rows;
  }

  /** Milliseconds until the next unleased delivery is due (0 when one is overdue); undefined when none is open. */
  async nextDueInMs(): Promise<number | undefined> {
    const { rows } = await this.pumpPool.query<{ ms: number | null }>(
      `SELECT EXTRACT(EPOCH FROM (min(due_at) - now())) * 1000 AS ms FROM webhook_delivery_queue WHERE lease_until IS NULL OR lease_until < now()`,
    );
    return rows[0]?.ms === null || rows[0]?.ms === undefined ? undefined : Math.max(0, Number(rows[0].ms));
  }

  /**
   * Writes a batch of attempt results: the attempts, the deliveries' states, their queue rows due
   * again (lease released) or removed once finished. One statement, so that a delivery's state and
   * its queue row never disagree (a finished delivery left queued would be sent again). A delivery
   * redelivered while its attempt was in flight (its cycle moved on) keeps the new cycle's state:
   * only the attempt is added. Returns the ids whose cycle is still the attempt's.
   */
  async recordResults(records: AttemptRecord[]): Promise<Set<string>> {
    const attempt = (record: AttemptRecord) => (record.kind === 'attempt' ? record : undefined);
    const input = records.map((record) => ({
      id: record.delivery.id,
      cycle: record.delivery.cycle,
      kind: record.kind,
      attempt: attempt(record)?.number ?? null,
      url: attempt(record)?.url ?? null,
      started_at: attempt(record)?.startedAt ?? null,
      status_code: attempt(record)?.outcome.statusCode ?? null,
      latency_ms: attempt(record)?.outcome.latencyMs ?? null,
      error: record.kind === 'attempt' ? record.outcome.error : record.kind === 'skip' ? record.error : null,
      status: record.kind === 'attempt' ? record.status : record.kind === 'skip' ? 'skipped' : record.delivery.status,
      next_attempt_at: record.kind === 'attempt' ? record.nextAttemptAt : record.kind === 'defer' ? record.until : null,
      raise_alert: record.kind === 'attempt' && record.raiseAlert,
      host: record.kind === 'attempt' && record.url !== null ? hostKey(record.url) : null,
    }));
    const { rows } = await this.pumpPool.query<{ id: string; current: boolean }>(
      `WITH input AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(id uuid, cycle int, kind text, attempt int, url text, started_at timestamptz, status_code int,
                                                          latency_ms int, error text, status text, next_attempt_at timestamptz, raise_alert boolean, host text)
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
      [JSON.stringify(input)],
    );
    return new Set(rows.filter((row) => row.current).map((row) => row.id));
  }

  /** The account's deliveries, newest first, after `after` (a cursor's position). */
  async list(restaurantId: string, filter: DeliveryFilter, limit: number, after?: ListPosition): Promise<Delivery[]> {
    const builder = this.dataSource
      .getRepository(WebhookDeliveryEntity)
      .createQueryBuilder('d')
      .where('d.restaurantId = :restaurantId', { restaurantId })
      .orderBy('d.createdAt', 'DESC')
      .addOrderBy('d.id', 'DESC')
      .limit(limit);
    if (filter.status) builder.andWhere('d.status = :status', { status: filter.status });
    if (filter.event) builder.andWhere('d.event = :event', { event: filter.event });
    if (filter.orderId !== undefined) builder.andWhere('d.orderId = :orderId', { orderId: filter.orderId });
    if (filter.yemekKuryeOrderId !== undefined) builder.andWhere('d.yemekKuryeOrderId = :yemekKuryeOrderId', { yemekKuryeOrderId: filter.yemekKuryeOrderId });
    if (after) builder.andWhere('(d.created_at, d.id) < (:createdAt, :id)', { createdAt: after.createdAt, id: after.id });
    return builder.getMany();
  }

  /** One delivery of the account with its attempts, read in one snapshot so they match its counters. */
  async findWithAttempts(restaurantId: string, id: string): Promise<{ delivery: Delivery; attempts: DeliveryAttempt[] } | undefined> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const delivery = await manager.findOne(WebhookDeliveryEntity, { where: { id, restaurantId } });
      if (!delivery) return undefined;
      return { delivery, attempts: await manager.find(WebhookAttemptEntity, { where: { deliveryId: id }, order: { attempt: 'ASC' } }) };
    });
  }

  /**
   * Starts a new retry cycle of the account's delivery, due at `now`, and returns it as it is then
   * (undefined: no such delivery). The answer is read in the redelivery's own transaction: the pump
   * cannot see the queued row before the commit, so it is the state the redelivery made (pending).
   */
  async redeliver(restaurantId: string, id: string, now: Date): Promise<Delivery | undefined> {
    return this.dataSource.transaction(async (manager) => {
      // One statement: the new cycle and its queue row commit together, or the delivery would never be sent.
      const updated: unknown[] = await manager.query(
        `WITH redelivered AS (
           UPDATE webhook_deliveries SET status = 'pending', cycle = cycle + 1, cycle_started_at = $3, cycle_failures = 0, next_attempt_at = $3, updated_at = now()
            WHERE id = $1 AND restaurant_id = $2 RETURNING id, url
         )
         -- An attempt in flight keeps its lease; its result then finds the cycle moved on and leaves the row due now.
         INSERT INTO webhook_delivery_queue (delivery_id, host, due_at) SELECT id, coalesce(${hostKeySql('url')}, ''), $3 FROM redelivered
         ON CONFLICT (delivery_id) DO UPDATE SET due_at = EXCLUDED.due_at
         RETURNING delivery_id`,
        [id, restaurantId, now],
      );
      if (updated.length === 0) return undefined;
      return (await manager.getRepository(WebhookDeliveryEntity).findOne({ where: { id, restaurantId } })) ?? undefined;
    });
  }

  /** Deletes up to `batch` finished deliveries (delivered, failed, skipped) created and last changed before `cutoff`, with their attempts; returns how many. */
  async deleteFinishedBefore(cutoff: Date, batch: number): Promise<number> {
    const [, deleted] = (await this.dataSource.query(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries
          WHERE created_at < $1 AND updated_at < $1 AND status IN ('delivered', 'failed', 'skipped')
          ORDER BY created_at LIMIT $2)
       RETURNING id`,
      [cutoff, batch],
    )) as [unknown[], number];
    return deleted;
  }

  /** One statement: the capped count of open deliveries and how far past due the oldest unleased one is (the pump's own look-up, on the due_at index). */
  async backlog(): Promise<DeliveryBacklog> {
    const [row]: Array<{ open: number; overdueSeconds: number | string }> = await this.dataSource.query(
      `SELECT (SELECT count(*)::int FROM (SELECT 1 FROM webhook_delivery_queue LIMIT $1) capped) AS open,
              greatest(0, coalesce(EXTRACT(EPOCH FROM now() - (SELECT min(due_at) FROM webhook_delivery_queue WHERE lease_until IS NULL OR lease_until < now())), 0))::float8 AS "overdueSeconds"`,
      [OPEN_DELIVERIES_COUNT_CAP],
    );
    return { open: row.open, overdueSeconds: Number(row.overdueSeconds) };
  }
}
