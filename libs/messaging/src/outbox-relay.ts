import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { MessageTransport, OutgoingMessage } from './transport';
import { Wakeup } from './wakeup';

export interface OutboxRelayOptions {
  pollMs: number;
  batchSize?: number;
  /** Published rows older than this are purged. */
  retentionMs?: number;
  /**
   * How long a claimed batch is this relay's; past it another relay may claim and publish it again.
   * Default: twice the transport's longest publish plus a margin, and at least DEFAULT_OUTBOX_LEASE_MS.
   */
  leaseMs?: number;
}

/** The shortest default lease (AmqpTransport's defaults: 2 s for a connection + 10 s for confirms, doubled, plus a margin). */
export const DEFAULT_OUTBOX_LEASE_MS = 30_000;

interface OutboxRow {
  id: string;
  routing_key: string;
  payload: unknown;
  headers: Record<string, string>;
  created_at: Date;
  /** claimed_until as PostgreSQL wrote it (text: microseconds kept). */
  lease: string;
}

/**
 * Publishes outbox rows in two autocommit statements per batch and no open transaction:
 * 1. claim: one `UPDATE ... RETURNING` leases up to a batch of pending rows (`claimed_until`), picked
 *    in (created_at, id) order with FOR UPDATE SKIP LOCKED, so replicas relaying at once take
 *    different rows and skip leased ones;
 * 2. publish with confirms, outside any transaction;
 * 3. mark the rows published (and the lease cleared) in one `UPDATE`.
 * A failed publish releases the lease at once (the next batch, after the backoff, retries the rows).
 * A relay that dies between 1 and 3 leaves its rows leased: another relay publishes them once the
 * lease has run out. A publish that outlasts the lease may be repeated by another relay: delivery is
 * at least once, and consumers are idempotent.
 */
export class OutboxRelay {
  private running = false;
  private loop?: Promise<void>;
  private readonly wakeup = new Wakeup();
  private failures = 0;
  private lastPurge = 0;
  readonly leaseMs: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly transport: MessageTransport,
    private readonly logger: Logger,
    private readonly options: OutboxRelayOptions,
  ) {
    this.leaseMs = options.leaseMs ?? Math.max(DEFAULT_OUTBOX_LEASE_MS, 2 * (transport.publishTimeoutMs ?? 0) + 5_000);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeup.interrupt();
    await this.loop;
  }

  /** Called after a transaction that wrote outbox rows commits: publish now rather than at the next poll. */
  nudge(): void {
    this.wakeup.nudge();
  }

  /** Number of rows not yet published, leased ones included (for metrics and tests). */
  async backlog(): Promise<number> {
    const [row] = await this.dataSource.query('SELECT count(*)::int AS n FROM outbox_messages WHERE published_at IS NULL');
    return row.n;
  }

  /** Publishes one batch; returns how many rows it sent. Exposed for tests and the drain on shutdown. */
  async relayBatch(): Promise<number> {
    // RETURNING has no order (the IN becomes a hash join): the outer SELECT sorts, in SQL because
    // created_at has microseconds and a JS Date only milliseconds.
    const rows: OutboxRow[] = await this.dataSource.query(
      `WITH claimed AS (
         UPDATE outbox_messages SET claimed_until = now() + ($1::bigint * interval '1 millisecond')
          WHERE id IN (
            SELECT id FROM outbox_messages
             WHERE published_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())
             ORDER BY created_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
          RETURNING id, routing_key, payload, headers, created_at, claimed_until::text AS lease)
       SELECT * FROM claimed ORDER BY created_at, id`,
      [this.leaseMs, this.options.batchSize ?? 200],
    );
    if (rows.length === 0) return 0;
    const ids = rows.map((row) => row.id);
    // The lease's end, as text to keep its microseconds: one value for the whole batch, and the
    // token that says the rows are still this batch's when it releases them.
    const lease = rows[0].lease;
    const messages: OutgoingMessage[] = rows.map((row) => ({
      messageId: row.id,
      routingKey: row.routing_key,
      payload: row.payload,
      headers: row.headers,
      timestamp: row.created_at,
    }));
    const started = Date.now();
    try {
      await this.transport.publish(messages);
    } catch (error) {
      // Released now rather than when the lease runs out: the next batch retries them after the
      // backoff. Only rows still under this batch's lease: after a publish that outlasted it, another
      // relay may hold them now, and clearing its lease would let a third one publish them again.
      await this.dataSource
        .query(
          `UPDATE outbox_messages SET claimed_until = NULL, attempts = attempts + 1, last_error = $2
            WHERE id = ANY($1::uuid[]) AND published_at IS NULL AND claimed_until = $3::timestamptz`,
          [ids, String((error as Error)?.message ?? error).slice(0, 500), lease],
        )
        .catch((releaseError) => this.logger.warn({ err: releaseError, rows: ids.length }, 'could not release outbox rows; they are retried when their lease ends'));
      throw error;
    }
    const tookMs = Date.now() - started;
    if (tookMs > this.leaseMs) this.logger.warn({ tookMs, leaseMs: this.leaseMs, rows: ids.length }, 'outbox publish outlasted its lease; another relay may have published the rows too');
    await this.dataSource.query('UPDATE outbox_messages SET published_at = now(), claimed_until = NULL, attempts = attempts + 1 WHERE id = ANY($1::uuid[])', [ids]);
    return rows.length;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let sent = 0;
      try {
        sent = await this.relayBatch();
        this.failures = 0;
        await this.purgeIfDue();
      } catch (error) {
        this.failures += 1;
        if (this.failures === 1 || this.failures % 20 === 0) this.logger.warn({ err: error, failures: this.failures }, 'outbox relay failed; will retry');
      }
      if (sent >= (this.options.batchSize ?? 200)) continue;
      if (this.failures > 0) await this.wakeup.sleep(Math.min(250 * 2 ** Math.min(this.failures, 6), 10_000), { onNudge: false });
      else await this.wakeup.sleep(this.options.pollMs);
    }
  }

  private async purgeIfDue(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPurge < 3_600_000) return;
    this.lastPurge = now;
    const retention = this.options.retentionMs ?? 7 * 86_400_000;
    await this.dataSource.query(`DELETE FROM outbox_messages WHERE published_at < now() - ($1::bigint * interval '1 millisecond')`, [retention]);
    await this.dataSource.query(`DELETE FROM processed_messages WHERE processed_at < now() - ($1::bigint * interval '1 millisecond')`, [retention * 2]);
  }
}
