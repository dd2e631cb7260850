import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { CORRELATION_HEADER, currentCorrelationId } from '@courier/logging';
import { markDuplicateDelivery } from './delivery-observer';
import type { IncomingMessage } from './transport';

export interface ScheduleRequest {
  kind: string;
  dueAt: Date;
  payload: unknown;
  /** At most one pending task per key (e.g. one final-approval task per order). */
  dedupeKey?: string;
}

/** The transaction a state change runs in: write entities with `manager`, events with `publish`. */
export class TransactionContext {
  enqueued = 0;
  scheduled = 0;

  constructor(readonly manager: EntityManager) {}

  /** Writes an event to the outbox in this transaction; it is published after commit. Returns its id. */
  async publish(routingKey: string, payload: unknown, headers: Record<string, string> = {}): Promise<string> {
    const id = randomUUID();
    const correlationId = currentCorrelationId();
    await this.manager.query('INSERT INTO outbox_messages (id, routing_key, payload, headers) VALUES ($1, $2, $3, $4)', [
      id,
      routingKey,
      JSON.stringify(payload),
      JSON.stringify({ ...(correlationId ? { [CORRELATION_HEADER]: correlationId } : {}), ...headers }),
    ]);
    this.enqueued += 1;
    return id;
  }

  /** Stores delayed work in this transaction; returns false when a task with the same dedupe key exists. */
  async schedule(request: ScheduleRequest): Promise<boolean> {
    const correlationId = currentCorrelationId();
    const rows: unknown[] = await this.manager.query(
      `INSERT INTO scheduled_tasks (id, kind, dedupe_key, payload, due_at, headers) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`,
      [randomUUID(), request.kind, request.dedupeKey ?? null, JSON.stringify(request.payload), request.dueAt, JSON.stringify(correlationId ? { [CORRELATION_HEADER]: correlationId } : {})],
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
