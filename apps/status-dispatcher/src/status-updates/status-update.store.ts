import type { EntityManager } from 'typeorm';
import type { StatusPushAction } from '@courier/domain';
import type { PlatformAnswer } from '@courier/platforms';
import type { StatusUpdateState } from './dto/status-update.dto';

type Queryable = Pick<EntityManager, 'query'>;

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

/** Inserts the update as the order's next (`seq`); the caller holds the order's row lock. */
export async function insertStatusUpdate(db: Queryable, update: NewStatusUpdate): Promise<void> {
  await db.query(
    `INSERT INTO status_updates (id, order_id, seq, platform, provider_order_id, action, previous_status, reason, state, hold_reason, not_before, accepted_at, correlation_id)
     VALUES ($1, $2, (SELECT coalesce(max(seq), 0) + 1 FROM status_updates WHERE order_id = $2), $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [update.id, update.orderId, update.platform, update.providerOrderId, update.action, update.previousStatus, update.reason, update.state, update.holdReason, update.notBefore, update.acceptedAt, update.correlationId],
  );
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
