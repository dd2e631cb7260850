import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { CORRELATION_HEADER, currentCorrelationId } from '@courier/logging';
import { markDuplicateDelivery } from './delivery-observer';
import { outboxEvent, outboxInsert } from './outbox';
import type { IncomingMessage } from './transport';
import { traceHeaders } from './trace-context';

export interface ScheduleRequest {
  kind: string;
  dueAt: Date;
  payload: unknown;
  /** At most one pending task per key (e.g. one final-approval task per order). */
  dedupeKey?: string;
}

/** One event, as `publish` writes it. */
const INSERT_EVENT = outboxInsert({ id: '$1::uuid', routingKey: '$2', payload: '$3::jsonb', headers: '$4::jsonb' });

/** The transaction a state change runs in: write entities with `manager`, events with `publish`. */
export class TransactionContext {
  enqueued = 0;
  scheduled = 0;

  constructor(readonly manager: EntityManager) {}

  /** Writes an event to the outbox in this transaction; it is published after commit. Returns its id. */
  async publish(routingKey: string, payload: unknown, headers: Record<string, string> = {}): Promise<string> {
    const event = outboxEvent(routingKey, payload, headers);
    await this.manager.query(INSERT_EVENT, [event.id, event.routingKey, JSON.stringify(event.payload), JSON.stringify(event.headers)]);
    this.enqueued += 1;
    return event.id;
  }

  /** Stores delayed work in this transaction; returns false when a task with the same dedupe key exists. */
  async schedule(request: ScheduleRequest): Promise<boolean> {
    const correlationId = currentCorrelationId();
    const rows: unknown[] = await this.manager.query(
      `INSERT INTO scheduled_tasks (id, kind, dedupe_key, payload, due_at, headers) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`,
      [randomUUID(), request.kind, request.dedupeKey ?? null, JSON.stringify(request.payload), request.dueAt, JSON.stringify({ ...(correlationId ? { [CORRELATION_HEADER]: correlationId } : {}), ...traceHeaders() })],
    );
    if (rows.length > 0) this.scheduled += 1;
    return rows.length > 0;
  }
}

export interface AfterCommitHooks {
  onEnqueued(): void;
  onScheduled(): void;
}

/**
 * Runs a state change, its outbox events and its delayed work in one database transaction, and
 * wakes the relay and the task runner after commit. `consumeOnce` adds the inbox check that makes
 * a message consumer idempotent: a redelivered message finds its id recorded and changes nothing.
 */
export class UnitOfWork {
  constructor(
    private readonly dataSource: DataSource,
    private readonly hooks: AfterCommitHooks,
  ) {}

  async run<T>(work: (tx: TransactionContext) => Promise<T>): Promise<T> {
    let context!: TransactionContext;
    const result = await this.dataSource.transaction(async (manager) => {
      context = new TransactionContext(manager);
      return work(context);
    });
    if (context.enqueued > 0) this.hooks.onEnqueued();
    if (context.scheduled > 0) this.hooks.onScheduled();
    return result;
  }

  /**
   * A state change decided on a plain read and stored by one conditional statement (compare-and-set):
   * `attempt` reads, decides and writes, and answers undefined when its write found the state changed
   * since its read (nothing written). It is tried up to `attempts` times without a transaction, then
   * once in a transaction after `lock` (the row lock of what it reads), where its write cannot
   * conflict. `onConflict` hears of each conflict and whether the lock comes next. The caller wakes
   * the relay (`Outbox.committed`) for the events its write stored, on either path, once this returns.
   */
  async compareAndSet<T>(options: {
    attempts: number;
    attempt: (db: EntityManager) => Promise<T | undefined>;
    lock: (db: EntityManager) => Promise<unknown>;
    onConflict?: (lockNext: boolean) => void;
    /** What is changed, for the error when the write conflicts even under the lock (a bug). */
    what: string;
  }): Promise<T> {
    for (let attempt = 1; attempt <= options.attempts; attempt += 1) {
      const result = await options.attempt(this.dataSource.manager);
      if (result !== undefined) return result;
      options.onConflict?.(attempt === options.attempts);
    }
    return this.run(async (tx) => {
      await options.lock(tx.manager);
      const result = await options.attempt(tx.manager);
      if (result === undefined) throw new Error(`${options.what} conflicted under its row lock`);
      return result;
    });
  }

  /**
   * Applies `work` for `message` at most once for `consumer`. Returns false when the message had
   * already been applied (nothing done). Throws when `work` throws (nothing recorded).
   */
  async consumeOnce(consumer: string, message: IncomingMessage, work: (tx: TransactionContext) => Promise<void>): Promise<boolean> {
    return this.run(async (tx) => {
      const inserted: unknown[] = await tx.manager.query(
        'INSERT INTO processed_messages (consumer, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING message_id',
        [consumer, message.messageId],
      );
      if (inserted.length === 0) {
        markDuplicateDelivery();
        return false;
      }
      await work(tx);
      return true;
    });
  }
}
