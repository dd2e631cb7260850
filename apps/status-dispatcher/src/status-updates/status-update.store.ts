import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { StatusPushAction } from '@courier/domain';
import type { PlatformAnswer } from '@courier/platforms';
import type { StatusUpdateState } from './dto/status-update.dto';

type Queryable = Pick<EntityManager, 'query'>;

/** The durable wake-up of a status update (a `scheduled_tasks` row run by the task runner). */
export const STATUS_UPDATE_TASK = 'status-update.dispatch';

export interface StatusUpdateTaskPayload {
  statusUpdateId: string;
}

/** The dedupe key of the task a push stores with its update: at most one per update, found again by it. */
export function statusUpdateTaskKey(statusUpdateId: string): string {
  return `status-update:${statusUpdateId}`;
}

/** A row of `status_updates`: one platform command. */
export interface StatusUpdateRow {
  id: string;
  orderId: string;
  seq: number;
  platform: string;
  providerOrderId: string;
  action: StatusPushAction;
  previousStatus: string | null;
  reason: string | null;
  state: StatusUpdateState;
  holdReason: string | null;
  notBefore: Date;
  attempts: number;
  sendingUntil: Date | null;
  firstAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  sentAt: Date | null;
  lastAnswer: StoredAnswer | null;
  lastError: string | null;
  acceptedAt: Date;
  /** The correlation id of the push that created it (null: accepted before it was recorded). */
  correlationId: string | null;
}

/** The platform's answer as stored: what it said and how it was read. */
export interface StoredAnswer extends PlatformAnswer {
  outcome: 'done' | 'retry' | 'failed' | 'skipped';
  alreadyDone?: boolean;
  at: string;
}

export const UPDATE_COLUMNS = `id, order_id AS "orderId", seq, platform, provider_order_id AS "providerOrderId", action, previous_status AS "previousStatus", reason,
  state, hold_reason AS "holdReason", not_before AS "notBefore", attempts, sending_until AS "sendingUntil", first_attempt_at AS "firstAttemptAt",
  last_attempt_at AS "lastAttemptAt", sent_at AS "sentAt", last_answer AS "lastAnswer", last_error AS "lastError", accepted_at AS "acceptedAt",
  correlation_id AS "correlationId"`;

/** The order's updates that count as accepted for the guards (every state but failed). */
export function acceptedUpdates(db: Queryable, orderId: string): Promise<Array<Pick<StatusUpdateRow, 'id' | 'action' | 'acceptedAt' | 'state' | 'notBefore'>>> {
  return db.query(`SELECT id, action, accepted_at AS "acceptedAt", state, not_before AS "notBefore" FROM status_updates WHERE order_id = $1 AND state <> 'failed' ORDER BY seq`, [orderId]);
}

export interface NewStatusUpdate {
  id: string;
  orderId: string;
  platform: string;
  providerOrderId: string;
  action: StatusPushAction;
  previousStatus: string | null;
  reason: string | null;
  state: 'queued' | 'held';
  holdReason: string | null;
  notBefore: Date;
  acceptedAt: Date;
  correlationId: string | null;
}

/**
 * Inserts the update as the order's next (`seq`) and its durable task (kind STATUS_UPDATE_TASK, key
 * statusUpdateTaskKey, due at `taskDueAt`) in one statement; the caller holds the order's row lock.
 * The task runner is not nudged: a task due later is found by its poll.
 */
export async function insertStatusUpdate(db: Queryable, update: NewStatusUpdate, taskDueAt: Date, taskHeaders: Record<string, string>): Promise<void> {
  await db.query(
    `WITH inserted AS (
       INSERT INTO status_updates (id, order_id, seq, platform, provider_order_id, action, previous_status, reason, state, hold_reason, not_before, accepted_at, correlation_id)
       VALUES ($1, $2, (SELECT coalesce(max(seq), 0) + 1 FROM status_updates WHERE order_id = $2), $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       RETURNING id)
     INSERT INTO scheduled_tasks (id, kind, dedupe_key, payload, due_at, headers)
     SELECT $13, $14, $15, json_build_object('statusUpdateId', inserted.id), $16, $17 FROM inserted`,
    [
      update.id, update.orderId, update.platform, update.providerOrderId, update.action, update.previousStatus, update.reason, update.state, update.holdReason, update.notBefore, update.acceptedAt, update.correlationId,
      randomUUID(), STATUS_UPDATE_TASK, statusUpdateTaskKey(update.id), taskDueAt, JSON.stringify(taskHeaders),
    ],
  );
}

/** Moves the update's own task: a wake-up at `dueAt` ('now': the task runner's next claim takes it). */
export async function moveStatusUpdateTask(db: Queryable, statusUpdateId: string, dueAt: Date | 'now'): Promise<void> {
  await db.query(`UPDATE scheduled_tasks SET due_at = coalesce($2::timestamptz, now()) WHERE dedupe_key = $1`, [statusUpdateTaskKey(statusUpdateId), dueAt === 'now' ? null : dueAt]);
}

export async function findStatusUpdate(db: Queryable, id: string): Promise<(StatusUpdateRow & { waitingFor: string | null }) | undefined> {
  const [row] = await db.query(
    `SELECT ${UPDATE_COLUMNS},
            (SELECT earlier.id FROM status_updates earlier
              WHERE earlier.order_id = su.order_id AND earlier.seq < su.seq AND earlier.state IN ('queued', 'held', 'retrying')
              ORDER BY earlier.seq LIMIT 1) AS "waitingFor"
       FROM status_updates su WHERE id = $1`,
    [id],
  );
  return row;
}
