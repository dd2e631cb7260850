import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { outboxEventsParam, outboxInsertEvents, scheduledTaskInsert } from '@courier/messaging';
import { isUniqueViolation } from '@courier/persistence';
import { PLATFORM_COLUMNS } from '../platform-orders/platform-order.repository';
import type { PlatformOrderRow } from '../platform-orders/platform-order.model';
import { PENDING_UPDATE_STATES } from './status-dispatch.decisions';
import type { AcceptedUpdate, ClaimedUpdate, PushState, PushWrite, StatusUpdateRow, StoredAnswer, UpdateIntegration } from './status-update.model';

type Queryable = Pick<EntityManager, 'query'>;

/** The durable wake-up of a status update (a `scheduled_tasks` row run by the task runner). */
export const STATUS_UPDATE_TASK = 'status-update.dispatch';

/** The dedupe key of the task a push stores with its update: at most one per update, found again by it. */
export function statusUpdateTaskKey(statusUpdateId: string): string {
  return `status-update:${statusUpdateId}`;
}

const UPDATE_COLUMNS = `id, order_id AS "orderId", seq, platform, provider_order_id AS "providerOrderId", action, previous_status AS "previousStatus", reason,
  state, hold_reason AS "holdReason", not_before AS "notBefore", attempts, sending_until AS "sendingUntil", first_attempt_at AS "firstAttemptAt",
  last_attempt_at AS "lastAttemptAt", sent_at AS "sentAt", last_answer AS "lastAnswer", last_error AS "lastError", accepted_at AS "acceptedAt",
  correlation_id AS "correlationId", budget_slot_at AS "budgetSlotAt"`;

/** The order's integration as the read model has it, for the platform call (null: gone); `i` joined on the order's integration_id. */
const INTEGRATION_JSON = `CASE WHEN i.integration_id IS NULL OR i.deleted_at IS NOT NULL THEN NULL ELSE json_build_object(
  'integrationId', i.integration_id, 'providerRestaurantId', i.provider_restaurant_id, 'settings', i.settings, 'secrets', i.secrets) END`;

/** What the claim reads besides the update (the facts of decideClaim). */
export type UpdateToClaim = ClaimedUpdate & { blockerNotBefore: Date | null; lastStepSentAt: Date | null };

/** A claim: the update is being sent (attempt counted) from `at` until `until`. */
export interface ClaimTimes {
  at: Date;
  until: Date;
}

const PENDING = `(${PENDING_UPDATE_STATES.map((state) => `'${state}'`).join(', ')})`;
const prefixed = (alias: string) => UPDATE_COLUMNS.replace(/(^|,\s*)([a-z_]+)/g, `$1${alias}.$2`);
const CLAIMED_COLUMNS = `${prefixed('su')}, o.integration_id AS "integrationId", coalesce(o.platform_data, '{}') AS "platformData", ${INTEGRATION_JSON} AS integration`;

/**
 * The `status_updates` table with the durable task of each update (`scheduled_tasks`, dedupe key
 * statusUpdateTaskKey): pushes, claims, outcomes and reads. Methods that take `db` run in the
 * caller's transaction (or compare-and-set attempt); the others on their own.
 */
@Injectable()
export class StatusUpdateRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The platform orders with this platform order id (of one restaurant when given; at most two: more
   * than one is refused), each with its accepted updates and the highest `seq` of its updates, in one
   * statement (one snapshot, no lock): what a push decides on. `writePush` stores the decision only
   * if none of it changed meanwhile.
   */
  async readPushStates(db: Queryable, provider: string, platformOrderId: string, restaurantId?: string): Promise<PushState[]> {
    const rows: Array<PlatformOrderRow & { pushAccepted: Array<Omit<AcceptedUpdate, 'acceptedAt' | 'notBefore' | 'sentAt'> & { acceptedAt: string; notBefore: string; sentAt: string | null }>; pushLastSeq: number; pushIntegration: UpdateIntegration | null }> = await db.query(
      `SELECT ${PLATFORM_COLUMNS},
              (SELECT ${INTEGRATION_JSON} FROM integrations i WHERE i.integration_id = orders.integration_id) AS "pushIntegration",
              (SELECT coalesce(json_agg(json_build_object('id', su.id, 'action', su.action, 'acceptedAt', su.accepted_at, 'state', su.state, 'notBefore', su.not_before, 'sentAt', su.sent_at) ORDER BY su.seq), '[]')
                 FROM status_updates su WHERE su.order_id = orders.id AND su.state <> 'failed') AS "pushAccepted",
              (SELECT coalesce(max(su.seq), 0) FROM status_updates su WHERE su.order_id = orders.id) AS "pushLastSeq"
         FROM orders WHERE provider = $1 AND order_id = $2 AND provider <> 'THIRD_PARTY' AND ($3::text IS NULL OR restaurant_id = $3)
        ORDER BY id LIMIT 2`,
      [provider, platformOrderId, restaurantId ?? null],
    );
    return rows.map(({ pushAccepted, pushLastSeq, pushIntegration, ...order }) => ({
      order,
      integration: pushIntegration,
      accepted: pushAccepted.map((update) => ({ ...update, acceptedAt: new Date(update.acceptedAt), notBefore: new Date(update.notBefore), sentAt: update.sentAt === null ? null : new Date(update.sentAt) })),
      lastSeq: Number(pushLastSeq),
    }));
  }

  /**
   * Stores an accepted push in one statement, atomically: the update and its task, the order's moves
   * (history entries) and their outbox events. Conditional, as a compare-and-set on what the decision
   * read: the order's `sequence` unchanged (re-checked on the newest row version after any concurrent
   * writer of the order, whose row lock this UPDATE waits for) and the update's `seq` and action free
   * (the unique indexes on (order_id, seq) and (order_id, action)). Returns false, with nothing
   * written, when another change came first: the caller reads again and decides again.
   */
  async writePush(db: Queryable, write: PushWrite): Promise<boolean> {
    const { update } = write;
    // The update's row and the order's move, as one record (`push` below).
    const push = {
      ...update,
      seq: write.seq,
      claimedAt: write.claim?.at ?? null,
      sendingUntil: write.claim?.until ?? null,
      expectedSequence: write.expectedSequence,
      movedStatus: write.moved.status,
      movedSequence: write.moved.sequence,
      movedAt: write.moved.statusChangedAt,
      taskKey: statusUpdateTaskKey(update.id),
      taskDueAt: write.taskDueAt,
      taskHeaders: write.taskHeaders,
    };
    try {
      // One CTE: an accepted push never lacks its task (it would never be sent) nor its moves' events.
      const [row] = await db.query(
        `WITH push AS (
           SELECT * FROM jsonb_to_record($1::jsonb) AS p(id uuid, "orderId" uuid, seq int, platform text, "providerOrderId" text, action text, "previousStatus" text,
             reason text, state text, "holdReason" text, "notBefore" timestamptz, "acceptedAt" timestamptz, "correlationId" text, "claimedAt" timestamptz,
             "sendingUntil" timestamptz, "expectedSequence" int, "movedStatus" text, "movedSequence" int, "movedAt" timestamptz,
             "taskKey" text, "taskDueAt" timestamptz, "taskHeaders" jsonb)),
         cas AS (
           UPDATE orders SET status = push."movedStatus", sequence = push."movedSequence", status_changed_at = push."movedAt", updated_at = now()
             FROM push
            WHERE orders.id = push."orderId" AND orders.sequence = push."expectedSequence" RETURNING orders.id),
         inserted AS (
           INSERT INTO status_updates (id, order_id, seq, platform, provider_order_id, action, previous_status, reason, state, hold_reason, not_before, accepted_at, correlation_id,
                                       attempts, sending_until, first_attempt_at, last_attempt_at)
           SELECT p.id, cas.id, p.seq, p.platform, p."providerOrderId", p.action, p."previousStatus", p.reason, p.state, p."holdReason", p."notBefore", p."acceptedAt", p."correlationId",
                  CASE WHEN p."claimedAt" IS NULL THEN 0 ELSE 1 END, p."sendingUntil", p."claimedAt", p."claimedAt"
             FROM cas, push p RETURNING id),
         task AS (
           ${scheduledTaskInsert({
             from: 'inserted, push',
             kind: '$4::text',
             dedupeKey: 'push."taskKey"',
             payload: "jsonb_build_object('statusUpdateId', inserted.id)",
             dueAt: 'push."taskDueAt"',
             headers: 'push."taskHeaders"',
           })}),
         history AS (
           INSERT INTO order_status_changes (order_id, sequence, status, previous_status, trigger, occurred_at, reason, cancel_reason_id, canceled_by)
           SELECT cas.id, h.sequence, h.status, h."previousStatus", h.trigger, h."occurredAt", h.reason, h."cancelReasonId", h."canceledBy"
             FROM cas, jsonb_to_recordset($2::jsonb) AS h(sequence int, status text, "previousStatus" text, trigger text, "occurredAt" timestamptz, reason text, "cancelReasonId" text, "canceledBy" text)),
         events AS (${outboxInsertEvents('$3', 'cas')})
         SELECT count(*)::int AS written FROM inserted`,
        [JSON.stringify(push), JSON.stringify(write.changes), outboxEventsParam(write.events), STATUS_UPDATE_TASK],
      );
      return row.written === 1;
    } catch (error) {
      // Another push of the order took this seq or this action first (its row was not visible to this statement's snapshot).
      if (isUniqueViolation(error, ['status_updates_order_seq_key', 'status_updates_order_action_key'])) return false;
      throw error;
    }
  }

  /** Moves the update's own task: a wake-up at `dueAt` ('now': the task runner's next claim takes it). */
  async moveTask(statusUpdateId: string, dueAt: Date | 'now'): Promise<void> {
    await this.dataSource.query(`UPDATE scheduled_tasks SET due_at = coalesce($2::timestamptz, now()) WHERE dedupe_key = $1`, [statusUpdateTaskKey(statusUpdateId), dueAt === 'now' ? null : dueAt]);
  }

  /** An update with the earlier pending update of its order it waits for (null: none), for its read. */
  async find(id: string): Promise<(StatusUpdateRow & { waitingFor: string | null }) | undefined> {
    const [row] = await this.dataSource.query(
      `SELECT ${UPDATE_COLUMNS},
              (SELECT earlier.id FROM status_updates earlier
                WHERE earlier.order_id = su.order_id AND earlier.seq < su.seq AND earlier.state IN ${PENDING}
                ORDER BY earlier.seq LIMIT 1) AS "waitingFor"
         FROM status_updates su WHERE id = $1`,
      [id],
    );
    return row;
  }

  /**
   * The update with the facts of decideClaim (the order's first earlier pending update, its last
   * spaced step sent), without a lock: what the claim decides on. Undefined when the update is gone.
   * Safe unlocked: a new update of the order comes after this one (it cannot block it), only the
   * order's first pending update is ever claimed (so no other spaced step is sent meanwhile), and the
   * claim itself is conditional on the row.
   */
  async readForClaim(id: string, spacedSteps: string[]): Promise<UpdateToClaim | undefined> {
    const [update]: UpdateToClaim[] = await this.dataSource.query(
      `SELECT ${CLAIMED_COLUMNS},
              (SELECT e.not_before FROM status_updates e WHERE e.order_id = su.order_id AND e.seq < su.seq AND e.state IN ${PENDING}
                ORDER BY e.seq LIMIT 1) AS "blockerNotBefore",
              (SELECT max(s.sent_at) FROM status_updates s WHERE s.order_id = su.order_id AND s.id <> su.id AND s.state = 'sent'
                  AND (s.platform || ':' || s.action) = ANY($2::text[])) AS "lastStepSentAt"
         FROM status_updates su JOIN orders o ON o.id = su.order_id LEFT JOIN integrations i ON i.integration_id = o.integration_id WHERE su.id = $1`,
      [id, spacedSteps],
    );
    return update;
  }

  /** Holds a pending update not being sent until `until`, for its platform's step spacing. */
  async holdForStepSpacing(id: string, until: Date, now: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE status_updates SET state = 'held', hold_reason = 'PLATFORM_STEP_INTERVAL', not_before = $2, updated_at = now()
        WHERE id = $1 AND state IN ${PENDING} AND (sending_until IS NULL OR sending_until <= $3)`,
      [id, until, now],
    );
  }

  /**
   * Claims an update decideClaim let go: conditional on the row still being pending, due and not
   * being sent (false when another run took it, or it ended or moved since the read).
   */
  async claim(id: string, claim: ClaimTimes): Promise<boolean> {
    const [claimed]: [unknown[], number] = await this.dataSource.query(
      `UPDATE status_updates SET sending_until = $3, attempts = attempts + 1, first_attempt_at = coalesce(first_attempt_at, $2), last_attempt_at = $2,
              state = CASE WHEN state = 'held' THEN 'queued' ELSE state END, hold_reason = NULL, updated_at = now()
        WHERE id = $1 AND state IN ${PENDING} AND not_before <= $2 AND (sending_until IS NULL OR sending_until <= $2) RETURNING id`,
      [id, claim.at, claim.until],
    );
    return claimed.length > 0;
  }

  /**
   * The claim given back, not counted as an attempt (nothing was sent): the update waits queued for
   * the slot it booked in its platform's call budget.
   */
  async waitForBudgetSlot(id: string, slot: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE status_updates SET state = 'queued', hold_reason = 'PLATFORM_CALL_BUDGET', not_before = $2, budget_slot_at = $2, sending_until = NULL,
              attempts = attempts - 1, first_attempt_at = CASE WHEN attempts = 1 THEN NULL ELSE first_attempt_at END,
              last_attempt_at = CASE WHEN attempts = 1 THEN NULL ELSE last_attempt_at END, updated_at = now()
        WHERE id = $1`,
      [id, slot],
    );
  }

  /** The update waits for its next attempt at `at`, the platform's answer kept. Still pending: nothing behind it moves, so no row lock is needed. */
  async retryAt(id: string, at: Date, answer: StoredAnswer): Promise<void> {
    await this.dataSource.query(
      `UPDATE status_updates SET state = 'retrying', not_before = $2, sending_until = NULL, budget_slot_at = NULL, last_answer = $3, last_error = NULL, updated_at = now() WHERE id = $1`,
      [id, at, JSON.stringify(answer)],
    );
  }

  /**
   * One statement, so that the update's end and its task's removal cannot part (a run of the task
   * under way finds its row gone): the update's end, its own task deleted, and the order's next
   * pending update (the update itself excluded: same snapshot).
   */
  async endAndFindNext(update: Pick<StatusUpdateRow, 'id' | 'orderId'>, state: 'sent' | 'skipped' | 'failed', answer: StoredAnswer, error: string | null, sentAt?: Date): Promise<{ id: string; notBefore: Date } | undefined> {
    const [next]: Array<{ id: string; notBefore: Date }> = await this.dataSource.query(
      `WITH ended AS (
         UPDATE status_updates SET state = $2, sending_until = NULL, budget_slot_at = NULL, last_answer = $3, last_error = $4, sent_at = $5, hold_reason = NULL, updated_at = now() WHERE id = $1),
       own_task AS (DELETE FROM scheduled_tasks WHERE dedupe_key = $7)
       SELECT id, not_before AS "notBefore" FROM status_updates WHERE order_id = $6 AND id <> $1 AND state IN ${PENDING} ORDER BY seq LIMIT 1`,
      [update.id, state, JSON.stringify(answer), error, sentAt ?? null, update.orderId, statusUpdateTaskKey(update.id)],
    );
    return next;
  }

  /** Waiting updates by state (count, and how long past its release the oldest is), bounded by `statementTimeoutMs`; the partial index of pending updates serves it. */
  async pendingByState(statementTimeoutMs: number): Promise<Array<{ state: string; count: number; overdueSeconds: number }>> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query(`SET LOCAL statement_timeout = ${statementTimeoutMs}`);
      const rows: Array<{ state: string; count: number; overdue: number }> = await runner.query(
        `SELECT state, count(*)::int AS count, coalesce(EXTRACT(EPOCH FROM now() - min(not_before)), 0)::float8 AS overdue
           FROM status_updates WHERE state IN ${PENDING} GROUP BY state`,
      );
      await runner.commitTransaction();
      return rows.map((row) => ({ state: row.state, count: row.count, overdueSeconds: Math.max(0, row.overdue) }));
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      await runner.release();
    }
  }
}
