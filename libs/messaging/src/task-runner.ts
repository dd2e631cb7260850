import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { withCorrelationId, CORRELATION_HEADER } from '@courier/logging';
import { withMessageSpan } from './trace-context';
import { Wakeup } from './wakeup';

export interface ScheduledTask<P = unknown> {
  id: string;
  kind: string;
  payload: P;
  dueAt: Date;
  /** 1 on the first run, then counts every claim. */
  attempt: number;
  headers: Record<string, string>;
}

/** What a handler may answer: nothing (done, the task is deleted) or a new due time. */
export type TaskOutcome = void | { rescheduleAt: Date; note?: string };

export type TaskHandler<P = unknown> = (task: ScheduledTask<P>) => Promise<TaskOutcome>;

export interface TaskRunnerOptions {
  pollMs: number;
  /** How long a claimed task is ours; past it another replica may claim it again. */
  leaseMs?: number;
  concurrency?: number;
  /** Backoff after a handler threw (attempt -> ms). */
  retryDelayMs?: (attempt: number) => number;
}

interface TaskRow {
  id: string;
  kind: string;
  payload: unknown;
  due_at: Date;
  attempts: number;
  headers: Record<string, string>;
}

/**
 * Runs durable delayed work stored in `scheduled_tasks`: due rows are claimed with FOR UPDATE SKIP
 * LOCKED and leased, so replicas share the work and a crashed runner's tasks are taken over when the
 * lease ends. Survives restarts of every process and of the broker: the only state is the row.
 */
export class TaskRunner {
  private readonly handlers = new Map<string, TaskHandler>();
  private running = false;
  private loop?: Promise<void>;
  private readonly wakeup = new Wakeup();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly logger: Logger,
    private readonly options: TaskRunnerOptions,
  ) {}

  register<P>(kind: string, handler: TaskHandler<P>): void {
    this.handlers.set(kind, handler as TaskHandler);
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
    await Promise.allSettled([...this.inFlight]);
  }

  nudge(): void {
    this.wakeup.nudge();
  }

  /** Claims and runs the due tasks once; returns how many it claimed. Exposed for tests. */
  async runDue(): Promise<number> {
    const free = (this.options.concurrency ?? 16) - this.inFlight.size;
    if (free <= 0 || this.handlers.size === 0) return 0;
    const leaseMs = this.options.leaseMs ?? 60_000;
    // TypeORM's postgres driver answers an UPDATE ... RETURNING with [rows, affectedCount].
    const [rows]: [TaskRow[], number] = await this.dataSource.query(
      `UPDATE scheduled_tasks SET lease_until = now() + ($1::bigint * interval '1 millisecond'), attempts = attempts + 1
        WHERE id IN (
          SELECT id FROM scheduled_tasks
           WHERE due_at <= now() AND (lease_until IS NULL OR lease_until < now()) AND kind = ANY($2::text[])
           ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING id, kind, payload, due_at, attempts, headers`,
      [leaseMs, [...this.handlers.keys()], free],
    );
    for (const row of rows) {
      const work = this.execute(row);
      this.inFlight.add(work);
      void work.finally(() => {
        this.inFlight.delete(work);
        if (this.running) this.nudge();
      });
    }
    return rows.length;
  }

  /** Time of the next task due, if any (so the loop sleeps no longer than needed). */
  private async nextDueInMs(): Promise<number | undefined> {
    const [row] = await this.dataSource.query(
      `SELECT EXTRACT(EPOCH FROM (min(greatest(due_at, coalesce(lease_until, due_at))) - now())) * 1000 AS ms
         FROM scheduled_tasks WHERE kind = ANY($1::text[])`,
      [[...this.handlers.keys()]],
    );
    return row?.ms === null || row?.ms === undefined ? undefined : Math.max(0, Number(row.ms));
  }

  private async execute(row: TaskRow): Promise<void> {
    const handler = this.handlers.get(row.kind)!;
    const task: ScheduledTask = { id: row.id, kind: row.kind, payload: row.payload, dueAt: row.due_at, attempt: row.attempts, headers: row.headers ?? {} };
    try {
      const outcome = await withCorrelationId(task.headers[CORRELATION_HEADER], () =>
        withMessageSpan(`${task.kind} run`, task.headers, { 'messaging.system': 'scheduled-task', 'messaging.message.id': task.id }, () => handler(task)),
      );
      if (outcome && 'rescheduleAt' in outcome) {
        await this.dataSource.query('UPDATE scheduled_tasks SET due_at = $2, lease_until = NULL, last_error = $3 WHERE id = $1', [
          row.id,
          outcome.rescheduleAt,
          outcome.note ?? null,
        ]);
      } else {
        await this.dataSource.query('DELETE FROM scheduled_tasks WHERE id = $1', [row.id]);
      }
    } catch (error) {
      const delay = (this.options.retryDelayMs ?? defaultRetryDelay)(row.attempts);
      this.logger.warn({ err: error, taskId: row.id, kind: row.kind, attempt: row.attempts, retryInMs: delay }, 'scheduled task failed');
      await this.dataSource
        .query(`UPDATE scheduled_tasks SET due_at = now() + ($2::bigint * interval '1 millisecond'), lease_until = NULL, last_error = $3 WHERE id = $1`, [
          row.id,
          delay,
          String((error as Error)?.message ?? error).slice(0, 500),
        ])
        .catch((updateError) => this.logger.error({ err: updateError, taskId: row.id }, 'could not reschedule task; the lease will expire'));
    }
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      let wait = this.options.pollMs;
      let onNudge = true;
      try {
        const claimed = await this.runDue();
        failures = 0;
        if (claimed > 0) continue;
        const nextDue = await this.nextDueInMs();
        if (nextDue !== undefined) wait = Math.min(wait, Math.max(5, nextDue));
      } catch (error) {
        failures += 1;
        if (failures === 1 || failures % 20 === 0) this.logger.warn({ err: error }, 'task runner poll failed');
        wait = Math.min(250 * 2 ** Math.min(failures, 6), 10_000);
        onNudge = false;
      }
      await this.wakeup.sleep(wait, { onNudge });
    }
  }

}

function defaultRetryDelay(attempt: number): number {
  return Math.min(1_000 * 2 ** Math.max(0, attempt - 1), 300_000);
}
