import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { StatusPushAction } from '@courier/domain';
import type { OutboxRow } from '@courier/messaging';
import { isUniqueViolation } from '@courier/persistence';
import type { PlatformAnswer } from '@courier/platforms';
import type { OrderStatusChange } from '../orders/order.model';
import type { DirectoryIntegration } from '../platform-sessions/integration-directory';
import { PLATFORM_COLUMNS } from '../platform-orders/platform-order.store';
import type { PlatformOrderRow } from '../platform-orders/platform-order.model';
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
  /** The call slot this update booked in its platform's call budget (it waits for it queued; null: none). */
  budgetSlotAt: Date | null;
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
  correlation_id AS "correlationId", budget_slot_at AS "budgetSlotAt"`;

/** The order's integration as the read model has it, for the platform call (null: gone); `i` joined on the order's integration_id. */
export const INTEGRATION_JSON = `CASE WHEN i.integration_id IS NULL OR i.deleted_at IS NOT NULL THEN NULL ELSE json_build_object(
  'integrationId', i.integration_id, 'providerRestaurantId', i.provider_restaurant_id, 'settings', i.settings, 'secrets', i.secrets) END`;

/** The order's integration as a claimed update carries it (INTEGRATION_JSON). */
export type UpdateIntegration = Pick<DirectoryIntegration, 'integrationId' | 'providerRestaurantId' | 'settings' | 'secrets'>;

/** An accepted update as the guards see it. */
export type AcceptedUpdate = Pick<StatusUpdateRow, 'id' | 'action' | 'acceptedAt' | 'state' | 'notBefore'>;

/**
 * A platform order with its accepted updates and the highest `seq` of its updates, in one statement
 * (one snapshot, no lock): what a push decides on. `writePush` stores the decision only if none of it
 * changed meanwhile.
 */
export async function readPushState(
  db: Queryable,
  provider: string,
  platformOrderId: string,
): Promise<{ order: PlatformOrderRow; accepted: AcceptedUpdate[]; lastSeq: number; integration: UpdateIntegration | null } | undefined> {
  const [row] = await db.query(
    `SELECT ${PLATFORM_COLUMNS},
            (SELECT ${INTEGRATION_JSON} FROM integrations i WHERE i.integration_id = orders.integration_id) AS "pushIntegration",
            (SELECT coalesce(json_agg(json_build_object('id', su.id, 'action', su.action, 'acceptedAt', su.accepted_at, 'state', su.state, 'notBefore', su.not_before) ORDER BY su.seq), '[]')
               FROM status_updates su WHERE su.order_id = orders.id AND su.state <> 'failed') AS "pushAccepted",
            (SELECT coalesce(max(su.seq), 0) FROM status_updates su WHERE su.order_id = orders.id) AS "pushLastSeq"
       FROM orders WHERE provider = $1 AND order_id = $2 AND provider <> 'THIRD_PARTY'`,
    [provider, platformOrderId],
  );
  if (!row) return undefined;
  const { pushAccepted, pushLastSeq, pushIntegration, ...order } = row as PlatformOrderRow & {
    pushAccepted: Array<Omit<AcceptedUpdate, 'acceptedAt' | 'notBefore'> & { acceptedAt: string; notBefore: string }>;
    pushLastSeq: number;
    pushIntegration: UpdateIntegration | null;
  };
  return {
    order,
    integration: pushIntegration,
    accepted: pushAccepted.map((update) => ({ ...update, acceptedAt: new Date(update.acceptedAt), notBefore: new Date(update.notBefore) })),
    lastSeq: Number(pushLastSeq),
  };
}

/** What an accepted push writes: its update (with its task) and the order's moves with their events. */
export interface PushWrite {
  update: NewStatusUpdate;
  /** The update's place among the order's updates: the `lastSeq` read + 1. */
  seq: number;
  taskDueAt: Date;
  taskHeaders: Record<string, string>;
  /** Set: the update is stored already claimed for its immediate send (attempt 1 from `at`, being sent until `until`). */
  claim?: { at: Date; until: Date };
  /** The order's `sequence` as read: the write happens only if it is unchanged. */
  expectedSequence: number;
  /** The order after the moves (status, sequence, statusChangedAt; unchanged without moves). */
  moved: { status: string; sequence: number; statusChangedAt: Date };
  changes: OrderStatusChange[];
  events: OutboxRow[];
}

/**
 * Stores an accepted push in one statement, atomically: the update and its task, the order's moves
 * (history entries) and their outbox events. Conditional, as a compare-and-set on what the decision
 * read: the order's `sequence` unchanged (re-checked on the newest row version after any concurrent
 * writer of the order, whose row lock this UPDATE waits for) and the update's `seq` and action free
 * (the unique indexes on (order_id, seq) and (order_id, action)). Returns false, with nothing
 * written, when another change came first: the caller reads again and decides again.
 */
export async function writePush(db: Queryable, write: PushWrite): Promise<boolean> {
  const { update } = write;
  try {
    const [row] = await db.query(
      `WITH cas AS (
         UPDATE orders SET status = $18, sequence = $19, status_changed_at = $20, updated_at = now()
          WHERE id = $2 AND sequence = $21 RETURNING id),
       inserted AS (
         INSERT INTO status_updates (id, order_id, seq, platform, provider_order_id, action, previous_status, reason, state, hold_reason, not_before, accepted_at, correlation_id,
                                     attempts, sending_until, first_attempt_at, last_attempt_at)
         SELECT $1, cas.id, $22, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, CASE WHEN $25::timestamptz IS NULL THEN 0 ELSE 1 END, $26, $25, $25 FROM cas RETURNING id),
       task AS (
         INSERT INTO scheduled_tasks (id, kind, dedupe_key, payload, due_at, headers)
         SELECT $13, $14, $15, json_build_object('statusUpdateId', inserted.id), $16, $17 FROM inserted),
       history AS (
         INSERT INTO order_status_changes (order_id, sequence, status, previous_status, trigger, occurred_at, reason, cancel_reason_id, canceled_by)
         SELECT cas.id, h.sequence, h.status, h."previousStatus", h.trigger, h."occurredAt", h.reason, h."cancelReasonId", h."canceledBy"
           FROM cas, json_to_recordset($23::json) AS h(sequence int, status text, "previousStatus" text, trigger text, "occurredAt" timestamptz, reason text, "cancelReasonId" text, "canceledBy" text)),
       events AS (
         INSERT INTO outbox_messages (id, routing_key, payload, headers)
         SELECT e.id, e."routingKey", e.payload::jsonb, e.headers::jsonb
           FROM cas, json_to_recordset($24::json) AS e(id uuid, "routingKey" text, payload text, headers text))
       SELECT count(*)::int AS written FROM inserted`,
      [
        update.id, update.orderId, update.platform, update.providerOrderId, update.action, update.previousStatus, update.reason, update.state, update.holdReason, update.notBefore, update.acceptedAt, update.correlationId,
        randomUUID(), STATUS_UPDATE_TASK, statusUpdateTaskKey(update.id), write.taskDueAt, JSON.stringify(write.taskHeaders),
        write.moved.status, write.moved.sequence, write.moved.statusChangedAt, write.expectedSequence, write.seq,
        JSON.stringify(write.changes), JSON.stringify(write.events),
        write.claim?.at ?? null, write.claim?.until ?? null,
      ],
    );
    return row.written === 1;
  } catch (error) {
    // Another push of the order took this seq or this action first (its row was not visible to this statement's snapshot).
    if (isUniqueViolation(error, ['status_updates_order_seq_key', 'status_updates_order_action_key'])) return false;
    throw error;
  }
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
