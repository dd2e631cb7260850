import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { MessageTransport, OutgoingMessage } from './transport';
import { Wakeup } from './wakeup';

export interface OutboxRelayOptions {
  pollMs: number;
  batchSize?: number;
  /** Published rows older than this are purged. */
  retentionMs?: number;
}

interface OutboxRow {
  id: string;
  routing_key: string;
  payload: unknown;
  headers: Record<string, string>;
  created_at: Date;
}

/**
 * Publishes outbox rows: claims a batch with FOR UPDATE SKIP LOCKED (so any number of replicas can
 * relay at once without publishing a row twice at the same time), publishes it with confirms, and
 * marks the rows sent in the same transaction only after every confirm arrived. A failure rolls
 * back: the rows stay pending and are published again (consumers are idempotent).
 */
export class OutboxRelay {
  private running = false;
  private loop?: Promise<void>;
  private readonly wakeup = new Wakeup();
  private failures = 0;
  private lastPurge = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly transport: MessageTransport,
    private readonly logger: Logger,
    private readonly options: OutboxRelayOptions,
  ) {}

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

  /** Number of rows not yet published (for metrics and tests). */
  async backlog(): Promise<number> {
    const [row] = await this.dataSource.query('SELECT count(*)::int AS n FROM outbox_messages WHERE published_at IS NULL');
    return row.n;
  }

  /** Publishes one batch; returns how many rows it sent. Exposed for tests and the drain on shutdown. */
  async relayBatch(): Promise<number> {
    const batchSize = this.options.batchSize ?? 200;
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    let rows: OutboxRow[] = [];
    try {
      await runner.startTransaction();
      rows = await runner.query(
        `SELECT id, routing_key, payload, headers, created_at FROM outbox_messages
          WHERE published_at IS NULL ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [batchSize],
      );
      if (rows.length === 0) {
        await runner.commitTransaction();
        return 0;
      }
      const messages: OutgoingMessage[] = rows.map((row) => ({
        messageId: row.id,
        routingKey: row.routing_key,
        payload: row.payload,
        headers: row.headers,
        timestamp: row.created_at,
      }));
      await this.transport.publish(messages);
      await runner.query('UPDATE outbox_messages SET published_at = now(), attempts = attempts + 1 WHERE id = ANY($1::uuid[])', [rows.map((row) => row.id)]);
      await runner.commitTransaction();
      return rows.length;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      if (rows.length > 0) {
        await this.dataSource
          .query('UPDATE outbox_messages SET attempts = attempts + 1, last_error = $2 WHERE id = ANY($1::uuid[])', [
            rows.map((row) => row.id),
            String((error as Error).message ?? error).slice(0, 500),
          ])
          .catch(() => undefined);
      }
      throw error;
    } finally {
      await runner.release();
    }
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
