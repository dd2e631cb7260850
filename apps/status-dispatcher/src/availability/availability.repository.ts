import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { scheduledTaskInsert } from '@courier/messaging';
import type { StoreAvailabilityState } from '@courier/contracts';
import type { StoredAnswer } from '../status-updates/status-update.model';
import { STORE_TARGET } from './availability.model';
import type { AskedBy, AvailabilityCommandRow, ClaimedCommand, CommandAnswer, CommandKind, NewCommand, ProductAvailabilityRow, ReportSource, StoreAvailabilityRow } from './availability.model';

type Queryable = Pick<EntityManager, 'query'>;

/** The durable task of each availability command (dedupe key availabilityCommandTaskKey). */
export const AVAILABILITY_COMMAND_TASK = 'availability.command';
/** The timer of a timed close or busy: OPEN again at `until`. */
export const AVAILABILITY_REOPEN_TASK = 'availability.reopen';
/** The timer of a product sold out until a time: back on at `until`. */
export const AVAILABILITY_PRODUCT_BACK_TASK = 'availability.product-back';

export const availabilityCommandTaskKey = (commandId: string) => `availability-command:${commandId}`;
export const reopenTaskKey = (integrationId: string, requestSeq: number) => `availability-reopen:${integrationId}:${requestSeq}`;
export const productBackTaskKey = (integrationId: string, platformProductId: string, requestSeq: number) => `availability-product-back:${integrationId}:${platformProductId}:${requestSeq}`;


const STORE_COLUMNS = `integration_id AS "integrationId", restaurant_id AS "restaurantId", platform, request_seq::int AS "requestSeq", asked_state AS "askedState",
  asked_until AS "askedUntil", asked_busy_minutes AS "askedBusyMinutes", asked_reason AS "askedReason", asked_by AS "askedBy", asked_at AS "askedAt", change_id AS "changeId",
  confirmed_state AS "confirmedState", confirmed_until AS "confirmedUntil", confirmed_at AS "confirmedAt", confirmed_by AS "confirmedBy",
  platform_state AS "platformState", platform_until AS "platformUntil", platform_reason AS "platformReason", platform_seen_at AS "platformSeenAt",
  reported_state AS "reportedState", last_answer AS "lastAnswer", last_answer_at AS "lastAnswerAt"`;

const PRODUCT_COLUMNS = `integration_id AS "integrationId", platform_product_id AS "platformProductId", restaurant_id AS "restaurantId", platform, request_seq::int AS "requestSeq",
  available, until, asked_at AS "askedAt", change_id AS "changeId", confirmed_available AS "confirmedAvailable", confirmed_at AS "confirmedAt",
  last_answer AS "lastAnswer", last_answer_at AS "lastAnswerAt"`;

const COMMAND_COLUMNS = `id, change_id AS "changeId", integration_id AS "integrationId", restaurant_id AS "restaurantId", platform, kind, target, product_code AS "productCode", request, params, follow_up AS "followUp",
  requested_by AS "requestedBy", state, not_before AS "notBefore", attempts, sending_until AS "sendingUntil", budget_slot_at AS "budgetSlotAt",
  first_attempt_at AS "firstAttemptAt", last_attempt_at AS "lastAttemptAt", sent_at AS "sentAt", ended_at AS "endedAt", last_answer AS "lastAnswer",
  last_error AS "lastError", accepted_at AS "acceptedAt"`;

/** The other pending commands of a command's target ($1 id, $2 integration, $3 kind, $4 target): newer ones, as only those can exist besides a claimed one. */
const NEWER_PENDING = `SELECT id FROM availability_commands WHERE integration_id = $2 AND kind = $3 AND target = $4 AND id <> $1 AND state IN ('queued', 'retrying')`;

const prefixed = (alias: string, columns: string) => columns.replace(/(^|,\s*)([a-z_]+)/g, `$1${alias}.$2`);

/**
 * The availability tables: `store_availability`, `product_availability` and `availability_commands`
 * with their durable tasks. Methods that take `db` run in the caller's transaction.
 */
@Injectable()
export class AvailabilityRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The store row of an integration, created empty when missing, locked for the caller's transaction. */
  async lockStore(db: Queryable, integration: { integrationId: string; restaurantId: string; platform: string }): Promise<StoreAvailabilityRow> {
    await db.query(
      `INSERT INTO store_availability (integration_id, restaurant_id, platform) VALUES ($1, $2, $3) ON CONFLICT (integration_id) DO NOTHING`,
      [integration.integrationId, integration.restaurantId, integration.platform],
    );
    const [row] = await db.query(`SELECT ${STORE_COLUMNS} FROM store_availability WHERE integration_id = $1 FOR UPDATE`, [integration.integrationId]);
    return row;
  }

  /** The store row of an integration locked for the caller's transaction (undefined: none). */
  async lockExistingStore(db: Queryable, integrationId: string): Promise<StoreAvailabilityRow | undefined> {
    const [row] = await db.query(`SELECT ${STORE_COLUMNS} FROM store_availability WHERE integration_id = $1 FOR UPDATE`, [integrationId]);
    return row;
  }

  /** Records what was asked of the store; returns the request's sequence number (the timer it sets checks it). */
  async askStore(
    db: Queryable,
    integrationId: string,
    asked: { state: StoreAvailabilityState; until: Date | null; busyMinutes: number | null; reason: string | null; by: AskedBy; changeId: string; at: Date },
  ): Promise<number> {
    const [rows]: [Array<{ requestSeq: number }>, number] = await db.query(
      `UPDATE store_availability SET request_seq = request_seq + 1, asked_state = $2, asked_until = $3, asked_busy_minutes = $4, asked_reason = $5, asked_by = $6,
              change_id = $7, asked_at = $8, updated_at = now()
        WHERE integration_id = $1 RETURNING request_seq::int AS "requestSeq"`,
      [integrationId, asked.state, asked.until, asked.busyMinutes, asked.reason, asked.by, asked.changeId, asked.at],
    );
    return rows[0].requestSeq;
  }

  /** Records a product switched off or back; returns the request's sequence number. */
  async askProduct(db: Queryable, integration: { integrationId: string; restaurantId: string; platform: string }, asked: { platformProductId: string; available: boolean; until: Date | null; changeId: string; at: Date }): Promise<number> {
    const [row] = await db.query(
      `INSERT INTO product_availability (integration_id, platform_product_id, restaurant_id, platform, request_seq, available, until, asked_at, change_id)
       VALUES ($1, $2, $3, $4, 1, $5, $6, $7, $8)
       ON CONFLICT (integration_id, platform_product_id) DO UPDATE
          SET request_seq = product_availability.request_seq + 1, available = EXCLUDED.available, until = EXCLUDED.until,
              asked_at = EXCLUDED.asked_at, change_id = EXCLUDED.change_id, updated_at = now()
       RETURNING request_seq::int AS "requestSeq"`,
      [integration.integrationId, asked.platformProductId, integration.restaurantId, integration.platform, asked.available, asked.until, asked.at, asked.changeId],
    );
    return row.requestSeq;
  }

  /** The product row locked for the caller's transaction (undefined: never asked). */
  async lockProduct(db: Queryable, integrationId: string, platformProductId: string): Promise<ProductAvailabilityRow | undefined> {
    const [row] = await db.query(`SELECT ${PRODUCT_COLUMNS} FROM product_availability WHERE integration_id = $1 AND platform_product_id = $2 FOR UPDATE`, [integrationId, platformProductId]);
    return row;
  }

  /**
   * Queues a command in one statement: the pending commands of the same target that are not being
   * sent are superseded (never sent; their tasks dropped) and the new one takes over the earliest
   * budget slot they had booked, so a burst does not push its last command further back; its task
   * is due now, or at that slot. Returns the new command's id and the ids superseded.
   */
  async queueCommand(db: Queryable, command: NewCommand): Promise<{ id: string; superseded: string[] }> {
    const id = randomUUID();
    // One CTE: a superseded command never lacks its successor, nor a queued command its task.
    const [row] = await db.query(
      `WITH c AS (
         SELECT * FROM jsonb_to_record($1::jsonb) AS c(id uuid, "changeId" uuid, "integrationId" text, "restaurantId" text, platform text, kind text, target text,
                                                       request jsonb, params jsonb, "requestedBy" text, "acceptedAt" timestamptz, "productCode" text)),
       superseded AS (
         UPDATE availability_commands a SET state = 'superseded', ended_at = c."acceptedAt", updated_at = now()
           FROM c
          WHERE a.integration_id = c."integrationId" AND a.kind = c.kind AND a.target = c.target AND a.state IN ('queued', 'retrying')
            AND (a.sending_until IS NULL OR a.sending_until <= c."acceptedAt")
         RETURNING a.id, a.budget_slot_at),
       dropped AS (
         DELETE FROM scheduled_tasks WHERE dedupe_key IN (SELECT $3::text || id FROM superseded)),
       slot AS (SELECT min(budget_slot_at) AS at FROM superseded),
       inserted AS (
         INSERT INTO availability_commands (id, change_id, integration_id, restaurant_id, platform, kind, target, request, params, requested_by, state, not_before, accepted_at, budget_slot_at, product_code)
         SELECT c.id, c."changeId", c."integrationId", c."restaurantId", c.platform, c.kind, c.target, c.request, c.params, c."requestedBy", 'queued',
                greatest(c."acceptedAt", slot.at), c."acceptedAt", slot.at, c."productCode"
           FROM c, slot
         RETURNING id, not_before),
       task AS (${scheduledTaskInsert({ from: 'inserted', kind: '$2::text', dedupeKey: '$3::text || inserted.id', payload: "jsonb_build_object('commandId', inserted.id)", dueAt: 'inserted.not_before' })})
       SELECT (SELECT coalesce(json_agg(id), '[]') FROM superseded) AS superseded`,
      [JSON.stringify({ ...command, id, productCode: command.productCode ?? null }), AVAILABILITY_COMMAND_TASK, availabilityCommandTaskKey('')],
    );
    return { id, superseded: row.superseded };
  }

  /**
   * Claims a command for its call in one conditional statement: pending, due, not being sent, and no
   * other command of its target being sent (a newer one waits for the call under way). Two replicas
   * (or a task taken over after a crash) get it once: the loser finds `sending_until` set. A
   * `checking` command is claimed the same way for its check (it waits behind nobody: it was sent).
   */
  async claim(id: string, at: Date, until: Date): Promise<ClaimedCommand | undefined> {
    const [rows]: [ClaimedCommand[], number] = await this.dataSource.query(
      `UPDATE availability_commands c
          SET sending_until = $3, attempts = c.attempts + 1, first_attempt_at = coalesce(c.first_attempt_at, $2), last_attempt_at = $2, updated_at = now()
         FROM availability_commands self LEFT JOIN integrations i ON i.integration_id = self.integration_id
        WHERE c.id = $1 AND self.id = c.id AND c.state IN ('queued', 'retrying', 'checking') AND c.not_before <= $2
          AND (c.sending_until IS NULL OR c.sending_until <= $2)
          AND (c.state = 'checking' OR NOT EXISTS (SELECT 1 FROM availability_commands o WHERE o.integration_id = c.integration_id AND o.kind = c.kind AND o.target = c.target
                             AND o.id <> c.id AND o.state IN ('queued', 'retrying') AND o.sending_until > $2))
      RETURNING ${prefixed('c', COMMAND_COLUMNS)},
        CASE WHEN i.integration_id IS NULL OR i.deleted_at IS NOT NULL THEN NULL ELSE json_build_object(
          'integrationId', i.integration_id, 'providerRestaurantId', i.provider_restaurant_id, 'settings', i.settings, 'secrets', i.secrets) END AS integration`,
      [id, at, until],
    );
    return rows[0];
  }

  async command(id: string): Promise<AvailabilityCommandRow | undefined> {
    const [row] = await this.dataSource.query(`SELECT ${COMMAND_COLUMNS} FROM availability_commands WHERE id = $1`, [id]);
    return row;
  }

  /** The earliest end of a claim on another command of the same target (what a command waits behind), or null. */
  async blockerUntil(command: Pick<AvailabilityCommandRow, 'id' | 'integrationId' | 'kind' | 'target'>, now: Date): Promise<Date | null> {
    const [row] = await this.dataSource.query(
      `SELECT min(sending_until) AS until FROM availability_commands
        WHERE integration_id = $1 AND kind = $2 AND target = $3 AND id <> $4 AND state IN ('queued', 'retrying') AND sending_until > $5`,
      [command.integrationId, command.kind, command.target, command.id, now],
    );
    return row?.until ?? null;
  }

  /**
   * The claim given back without an attempt counted: the command waits, queued, for its booked budget
   * slot; or, when a newer command of its target came during the claim, it is superseded and the
   * newer one takes the slot. Returns what became of it.
   */
  async waitForBudgetSlot(command: Pick<AvailabilityCommandRow, 'id' | 'integrationId' | 'kind' | 'target'>, claimedUntil: Date, slot: Date): Promise<'queued' | 'superseded' | 'lost'> {
    const [row] = await this.dataSource.query(
      `WITH newer AS (${NEWER_PENDING}),
       released AS (
         UPDATE availability_commands SET sending_until = NULL, attempts = attempts - 1, updated_at = now(),
                state = CASE WHEN EXISTS (SELECT 1 FROM newer) THEN 'superseded' ELSE state END,
                ended_at = CASE WHEN EXISTS (SELECT 1 FROM newer) THEN now() END,
                budget_slot_at = CASE WHEN EXISTS (SELECT 1 FROM newer) THEN NULL ELSE $6::timestamptz END,
                not_before = CASE WHEN EXISTS (SELECT 1 FROM newer) THEN not_before ELSE $6::timestamptz END
          WHERE id = $1 AND sending_until = $5 RETURNING state),
       handed AS (
         UPDATE availability_commands SET budget_slot_at = coalesce(budget_slot_at, $6::timestamptz), updated_at = now()
          WHERE id IN (SELECT id FROM newer) AND EXISTS (SELECT 1 FROM released))
       SELECT (SELECT state FROM released) AS state`,
      [command.id, command.integrationId, command.kind, command.target, claimedUntil, slot],
    );
    return row.state ?? 'lost';
  }

  /**
   * The next attempt of a command whose call is worth another try (under this run's claim); or, when
   * a newer command of its target came during the call, it is superseded (the last request wins).
   */
  async retryAt(command: Pick<AvailabilityCommandRow, 'id' | 'integrationId' | 'kind' | 'target'>, claimedUntil: Date, at: Date, answer: CommandAnswer): Promise<'retrying' | 'superseded' | 'lost'> {
    const [row] = await this.dataSource.query(
      `WITH newer AS (${NEWER_PENDING}),
       released AS (
         UPDATE availability_commands SET sending_until = NULL, budget_slot_at = NULL, last_answer = $7, updated_at = now(),
                state = CASE WHEN EXISTS (SELECT 1 FROM newer) THEN 'superseded' ELSE 'retrying' END,
                ended_at = CASE WHEN EXISTS (SELECT 1 FROM newer) THEN now() END, not_before = $6
          WHERE id = $1 AND sending_until = $5 RETURNING state)
       SELECT (SELECT state FROM released) AS state`,
      [command.id, command.integrationId, command.kind, command.target, claimedUntil, at, JSON.stringify(answer)],
    );
    return row.state ?? 'lost';
  }

  /** The tasks of the other pending commands of a command's target, due now (they waited behind its call). */
  async wakeOthers(command: Pick<AvailabilityCommandRow, 'id' | 'integrationId' | 'kind' | 'target'>): Promise<number> {
    const [, count]: [unknown[], number] = await this.dataSource.query(
      `UPDATE scheduled_tasks SET due_at = now() WHERE dedupe_key IN (
         SELECT 'availability-command:' || id FROM availability_commands
          WHERE integration_id = $2 AND kind = $3 AND target = $4 AND id <> $1 AND state IN ('queued', 'retrying'))`,
      [command.id, command.integrationId, command.kind, command.target],
    );
    return count;
  }

  /**
   * A command sent to an asynchronous platform (or being checked) stays `checking` under this run's
   * claim: its check is due at `at`; `followUp` replaces the stored one when given, `answer` is kept
   * as the last; `givenBack` undoes the claim's attempt (it only waited for a budget slot). Never
   * superseded: the platform has it. False when the claim ran out during the call.
   */
  async keepChecking(
    command: Pick<AvailabilityCommandRow, 'id'>,
    claimedUntil: Date,
    next: { at: Date; answer?: CommandAnswer; followUp?: Record<string, string | number>; budgetSlotAt?: Date; givenBack?: boolean },
  ): Promise<boolean> {
    const [rows]: [unknown[], number] = await this.dataSource.query(
      `UPDATE availability_commands SET state = 'checking', sending_until = NULL, not_before = $3, budget_slot_at = $4, follow_up = coalesce($5::jsonb, follow_up),
              last_answer = coalesce($6::jsonb, last_answer), attempts = attempts - $7, updated_at = now()
        WHERE id = $1 AND sending_until = $2 RETURNING id`,
      [command.id, claimedUntil, next.at, next.budgetSlotAt ?? null, next.followUp ? JSON.stringify(next.followUp) : null, next.answer ? JSON.stringify(next.answer) : null, next.givenBack ? 1 : 0],
    );
    return rows.length === 1;
  }

  /**
   * Ends a command (sent or failed) under this run's claim and records the platform's answer on its
   * store or product row; a sent command is what the platform confirmed. A sent price or product
   * switch is written to the imported menu (`catalog_products`, where the product is there), so the
   * next import does not take our own change for drift; an older price ending after a newer one was
   * sent leaves the newer one. One statement, so they never disagree.
   */
  async finish(command: ClaimedCommand, claimedUntil: Date, state: 'sent' | 'failed', answer: CommandAnswer, error: string | null, at: Date): Promise<boolean> {
    const [row] = await this.dataSource.query(
      `WITH ended AS (
         UPDATE availability_commands SET state = $3, sending_until = NULL, sent_at = CASE WHEN $3 = 'sent' THEN $6::timestamptz END, ended_at = $6,
                last_answer = $4, last_error = $5, updated_at = now()
          WHERE id = $1 AND sending_until = $2 RETURNING id, kind, integration_id, target, request, accepted_at),
       store AS (
         UPDATE store_availability s SET last_answer = $4, last_answer_at = $6, updated_at = now(),
                confirmed_state = CASE WHEN $3 = 'sent' THEN e.request->>'state' ELSE s.confirmed_state END,
                confirmed_until = CASE WHEN $3 = 'sent' THEN (e.request->>'until')::timestamptz ELSE s.confirmed_until END,
                confirmed_at = CASE WHEN $3 = 'sent' THEN $6::timestamptz ELSE s.confirmed_at END,
                confirmed_by = CASE WHEN $3 = 'sent' THEN 'command' ELSE s.confirmed_by END
           FROM ended e WHERE e.kind = 'store' AND s.integration_id = e.integration_id),
       product AS (
         UPDATE product_availability p SET last_answer = $4, last_answer_at = $6, updated_at = now(),
                confirmed_available = CASE WHEN $3 = 'sent' THEN (e.request->>'available')::boolean ELSE p.confirmed_available END,
                confirmed_at = CASE WHEN $3 = 'sent' THEN $6::timestamptz ELSE p.confirmed_at END
           FROM ended e WHERE e.kind = 'product' AND p.integration_id = e.integration_id AND p.platform_product_id = e.target),
       menu_status AS (
         UPDATE catalog_products m SET status = CASE WHEN (e.request->>'available')::boolean THEN 'ACTIVE' ELSE 'INACTIVE' END, updated_at = now()
           FROM ended e WHERE $3 = 'sent' AND e.kind = 'product' AND m.integration_id = e.integration_id AND m.platform_product_id = e.target),
       menu_price AS (
         UPDATE catalog_products m SET price = (e.request->>'price')::numeric, updated_at = now()
           FROM ended e WHERE $3 = 'sent' AND e.kind = 'price' AND m.integration_id = e.integration_id AND m.platform_product_id = e.target
            AND NOT EXISTS (SELECT 1 FROM availability_commands n WHERE n.integration_id = e.integration_id AND n.kind = 'price' AND n.target = e.target
                               AND n.state = 'sent' AND n.accepted_at > e.accepted_at))
       SELECT count(*)::int AS ended FROM ended`,
      [command.id, claimedUntil, state, JSON.stringify(answer), error, at],
    );
    return row.ended === 1;
  }

  async store(integrationId: string): Promise<StoreAvailabilityRow | undefined> {
    const [row] = await this.dataSource.query(`SELECT ${STORE_COLUMNS} FROM store_availability WHERE integration_id = $1`, [integrationId]);
    return row;
  }

  /**
   * Reads taken from one snapshot (a REPEATABLE READ transaction that only reads): a view that shows a
   * command ended shows what its end wrote too.
   */
  inOneSnapshot<T>(reads: (db: Queryable) => Promise<T>): Promise<T> {
    return this.dataSource.transaction('REPEATABLE READ', (manager) => reads(manager));
  }

  /** The store rows of the integrations given. */
  async stores(integrationIds: string[], db: Queryable = this.dataSource): Promise<StoreAvailabilityRow[]> {
    return db.query(`SELECT ${STORE_COLUMNS} FROM store_availability WHERE integration_id = ANY($1::text[])`, [integrationIds]);
  }

  /** The newest command of each target given (kind and target), pending or ended. */
  async latestCommands(integrationIds: string[], kind: CommandKind, db: Queryable = this.dataSource): Promise<AvailabilityCommandRow[]> {
    return db.query(
      `SELECT DISTINCT ON (integration_id, target) ${COMMAND_COLUMNS} FROM availability_commands
        WHERE integration_id = ANY($1::text[]) AND kind = $2 ORDER BY integration_id, target, accepted_at DESC, id`,
      [integrationIds, kind],
    );
  }

  /** The commands of one change of the restaurant, oldest first (none: not its change, or nothing queued). */
  async commandsOfChange(restaurantId: string, changeId: string): Promise<AvailabilityCommandRow[]> {
    return this.dataSource.query(
      `SELECT ${COMMAND_COLUMNS} FROM availability_commands WHERE change_id = $1 AND restaurant_id = $2 ORDER BY accepted_at, integration_id, id`,
      [changeId, restaurantId],
    );
  }

  /** The integration's products switched off now, or with a command still on its way. */
  async productsOff(integrationId: string, db: Queryable = this.dataSource): Promise<ProductAvailabilityRow[]> {
    return db.query(
      `SELECT ${PRODUCT_COLUMNS} FROM product_availability p
        WHERE integration_id = $1 AND (NOT available OR EXISTS (SELECT 1 FROM availability_commands c WHERE c.integration_id = p.integration_id
              AND c.kind = 'product' AND c.target = p.platform_product_id AND c.state IN ('queued', 'retrying')))
        ORDER BY platform_product_id LIMIT 1000`,
      [integrationId],
    );
  }

  /** Whether a command of the store is queued, retrying or being sent (in the caller's transaction). */
  async storeCommandPending(db: Queryable, integrationId: string): Promise<boolean> {
    const rows: unknown[] = await db.query(
      `SELECT 1 FROM availability_commands WHERE integration_id = $1 AND kind = 'store' AND target = $2 AND state IN ('queued', 'retrying') LIMIT 1`,
      [integrationId, STORE_TARGET],
    );
    return rows.length > 0;
  }

  /** Records what the platform reports of the store, and when it confirms what was asked. */
  async recordPlatformState(
    db: Queryable,
    integrationId: string,
    report: { state: StoreAvailabilityState; until: Date | null; reason: string | null; at: Date; source: ReportSource; confirms: boolean; lastPublished: StoreAvailabilityState | null },
  ): Promise<void> {
    await db.query(
      `UPDATE store_availability SET platform_state = $2, platform_until = $3, platform_reason = $4, platform_seen_at = $5, reported_state = $8, updated_at = now(),
              confirmed_state = CASE WHEN $7 THEN $2 ELSE confirmed_state END, confirmed_until = CASE WHEN $7 THEN coalesce($3, asked_until) ELSE confirmed_until END,
              confirmed_at = CASE WHEN $7 THEN $5 ELSE confirmed_at END, confirmed_by = CASE WHEN $7 THEN $6 ELSE confirmed_by END,
              last_read_at = CASE WHEN $6 = 'read_back' THEN $5 ELSE last_read_at END
        WHERE integration_id = $1`,
      [integrationId, report.state, report.until, report.reason, report.at, report.source, report.confirms, report.lastPublished],
    );
  }

  /** A read's answer that was not a state (retry, refused), kept as the last platform answer. */
  async recordReadAnswer(integration: { integrationId: string; restaurantId: string; platform: string }, answer: StoredAnswer, at: Date): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO store_availability (integration_id, restaurant_id, platform, last_answer, last_answer_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (integration_id) DO UPDATE SET last_answer = EXCLUDED.last_answer, last_answer_at = EXCLUDED.last_answer_at, updated_at = now()`,
      [integration.integrationId, integration.restaurantId, integration.platform, JSON.stringify(answer), at],
    );
  }
}
