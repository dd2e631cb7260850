import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { SecretDecryptionError } from '@courier/crypto';
import { currentCorrelationId, withCorrelationId } from '@courier/logging';
import { Messaging, OnTask, ScheduledTask, TaskOutcome, TransactionContext, UnitOfWork } from '@courier/messaging';
import { IntegrationCredentials, PlatformAdapters, PlatformCallOutcome, PlatformOrderRef } from '@courier/platforms';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { DirectoryIntegration, IntegrationDirectory } from '../platform-sessions/integration-directory';
import { PlatformCallBudgets } from '../platform-sessions/platform-call-budgets';
import { DispatchMetrics, platformCallLabel } from './dispatch-metrics';
import {
  INTEGRATION_JSON,
  moveStatusUpdateTask,
  STATUS_UPDATE_TASK,
  StatusUpdateRow,
  statusUpdateTaskKey,
  StatusUpdateTaskPayload,
  StoredAnswer,
  UPDATE_COLUMNS,
} from './status-update.store';

/** Room for the call's timeout before another run may take an update over as abandoned. */
const SENDING_MARGIN_MS = 5_000;
/** HTTP requests one status call makes at most, each bounded by PLATFORM_HTTP_TIMEOUT_MS: a login and two calls. */
const CALL_REQUESTS_AT_MOST = 3;
/** An update waiting for another run's call, or behind an earlier update, looks again after this at the latest. */
const RECHECK_MS = 1_000;
/** Immediate sends in flight at most (a slow platform must not pile up calls); past it updates wait in line here. */
const MAX_IMMEDIATE_SENDS = 64;
/** Updates waiting in line for an immediate send at most; past it they go to their tasks (the slower path). */
const MAX_WAITING_SENDS = 10_000;

export type ClaimedUpdate = StatusUpdateRow & {
  integrationId: string | null;
  platformData: Record<string, unknown>;
  /** The order's integration as the read model has it (null: gone). */
  integration: Pick<DirectoryIntegration, 'integrationId' | 'providerRestaurantId' | 'settings' | 'secrets'> | null;
};

type Claim = { kind: 'nothing' } | { kind: 'later'; at: Date } | { kind: 'send'; update: ClaimedUpdate };

const PENDING = `('queued', 'held', 'retrying')`;
const prefixed = (alias: string) => UPDATE_COLUMNS.replace(/(^|,\s*)([a-z_]+)/g, `$1${alias}.$2`);

/**
 * Sends accepted status updates to the platforms. A queued update is sent right after its push is
 * written (in this process, no task runner round trip): already claimed by the push's statement
 * (`sendClaimed`) in the common case, else claimed here (`sendNow`); its durable task is the
 * fallback, due once that send must be over, and is deleted with the update's end. A task only
 * wakes an update up; the row decides.
 * Claiming marks the update as being sent (`sending_until`) if it is pending, due, first of its
 * order and past the platform's spacing: one UPDATE when all holds, else a look under the order's
 * row lock that says when to come back. The call runs outside any transaction; its outcome is
 * stored, and an update that ended wakes the order's next one (a push of the order written meanwhile
 * is conditional on what it read, so no new update is missed).
 */
@Injectable()
export class StatusDispatchWorker implements BeforeApplicationShutdown {
  private readonly logger = new Logger('StatusDispatch');
  /** Immediate sends under way (awaited at shutdown). */
  private readonly immediate = new Set<Promise<void>>();
  /** Updates waiting for a free immediate send, by id or already claimed (in memory only: their tasks are the durable copy). */
  private readonly waiting: Array<string | ClaimedUpdate> = [];
  private stopping = false;
  /** `PLATFORM:ACTION` of the steps a platform spaces out (PLATFORM_A: verify, prepare, handover, deliver). */
  private readonly spacedSteps: string[];

  constructor(
    private readonly messaging: Messaging,
    private readonly unitOfWork: UnitOfWork,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly adapters: PlatformAdapters,
    private readonly directory: IntegrationDirectory,
    private readonly config: DispatcherConfig,
    private readonly metrics: DispatchMetrics,
    private readonly budgets: PlatformCallBudgets,
  ) {
    this.spacedSteps = adapters.codes().flatMap((code) => (adapters.get(code)!.stepSpacing?.(config.PLATFORM_A_PREPARE_HOLD_MS)?.actions ?? []).map((action) => `${code}:${action}`));
  }

  /** The durable copy of every status update: sends it when no immediate send did (or retries it). */
  @OnTask(STATUS_UPDATE_TASK)
  async onStatusUpdateDue(task: ScheduledTask<StatusUpdateTaskPayload>): Promise<TaskOutcome> {
    return this.dispatch(task.payload.statusUpdateId);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    // Those still in line are sent by their tasks (due at their fallback time, by any replica).
    this.waiting.length = 0;
    // Bounded by the platform call's timeout; an update cut off is its task's (sending_until runs out).
    const grace = new Promise<void>((resolve) => setTimeout(resolve, this.config.SHUTDOWN_GRACE_MS).unref());
    await Promise.race([Promise.allSettled([...this.immediate]), grace]);
  }

  /** When the task of an update sent at once is due: after that send's claim (`sending_until`) has run out. */
  fallbackDueAt(now: Date): Date {
    return new Date(this.sendingUntil(now).getTime() + RECHECK_MS);
  }

  /**
   * The immediate send of an update just committed as queued: the one-statement claim, the platform
   * call and its outcome, without the task runner. Anything but the common case goes back to the
   * update's task: not claimable now (behind an earlier update, the platform's spacing, being sent)
   * -> the task is due now; retry -> due at the next attempt; an unexpected error -> due once the
   * claim has run out (as planned at the push). Never throws.
   */
  sendNow(statusUpdateId: string): void {
    this.sendImmediatelyOrQueue(statusUpdateId);
  }

  /**
   * Whether a push may store its queued update already claimed (`claimFor`) and hand it to
   * `sendClaimed`, saving the claim's round trip: only when the claim would surely succeed, i.e. no
   * earlier update of the order is pending (the caller checks) and the platform does not space this
   * step (the spacing needs the claim's look at the order's sent steps).
   */
  mayClaimAtPush(platform: string, action: string): boolean {
    return !this.stopping && !this.spacedSteps.includes(`${platform}:${action}`);
  }

  /** The claim a push stores with its update (attempt 1, being sent until the call must be over). */
  claimFor(now: Date): { at: Date; until: Date } {
    return { at: now, until: this.sendingUntil(now) };
  }

  /**
   * The immediate send of an update the push stored already claimed: the platform call and its
   * outcome. It must start while the claim has room for the call (half of SENDING_MARGIN_MS after
   * the claim); an update still waiting in line then is left to its task, which takes it over once the
   * claim has run out, so it is never sent twice. Never throws.
   */
  sendClaimed(update: ClaimedUpdate): void {
    this.sendImmediatelyOrQueue(update);
  }

  /**
   * Starts an immediate send (an id to claim, or an update claimed by its push), or puts it in line
   * while MAX_IMMEDIATE_SENDS are under way. When stopping, or when the line is full, the update is
   * left to its task: woken now for an id, or due once the claim has run out for a claimed update.
   */
  private sendImmediatelyOrQueue(next: string | ClaimedUpdate): void {
    if (this.stopping) return;
    if (this.immediate.size < MAX_IMMEDIATE_SENDS) this.startImmediate(next);
    else if (this.waiting.length < MAX_WAITING_SENDS) this.waiting.push(next);
    else if (typeof next === 'string') void this.wakeTask(next);
    else this.logger.warn({ statusUpdateId: next.id }, 'too many updates waiting for an immediate send; its task sends it once the claim has run out');
  }

  private startImmediate(next: string | ClaimedUpdate): void {
    const statusUpdateId = typeof next === 'string' ? next : next.id;
    const work = (typeof next === 'string' ? this.sendImmediately(next) : this.sendPreClaimed(next)).catch((error) =>
      this.logger.warn({ err: error, statusUpdateId }, 'immediate send failed; the durable task takes the update over'),
    );
    this.immediate.add(work);
    void work.finally(() => {
      this.immediate.delete(work);
      const next = this.waiting.shift();
      if (next !== undefined) this.startImmediate(next);
    });
  }

  private async sendImmediately(statusUpdateId: string): Promise<void> {
    const claim = await this.claimAtOnce(statusUpdateId);
    if (claim?.kind !== 'send') {
      await this.wakeTask(statusUpdateId);
      return;
    }
    await this.sendClaimedUpdate(claim.update);
  }

  private async sendPreClaimed(update: ClaimedUpdate): Promise<void> {
    // Half the margin: the call (login included) still ends well before the claim runs out.
    if (Date.now() > update.firstAttemptAt!.getTime() + SENDING_MARGIN_MS / 2) {
      this.logger.warn({ statusUpdateId: update.id }, 'claimed update waited too long for an immediate send; its task sends it once the claim has run out');
      return;
    }
    await this.sendClaimedUpdate(update);
  }

  /** The call of a claimed update and its outcome; a retry moves the update's task to the next attempt. */
  private async sendClaimedUpdate(update: ClaimedUpdate): Promise<void> {
    const outcome = await withCorrelationId(update.correlationId ?? currentCorrelationId(), () => this.send(update));
    if (outcome && 'rescheduleAt' in outcome) await moveStatusUpdateTask(this.dataSource, update.id, outcome.rescheduleAt);
  }

  /** The update's task due now and the task runner woken: the usual path decides. */
  private async wakeTask(statusUpdateId: string): Promise<void> {
    try {
      await moveStatusUpdateTask(this.dataSource, statusUpdateId, 'now');
      this.messaging.tasks.nudge();
    } catch (error) {
      this.logger.warn({ err: error, statusUpdateId }, 'could not hand the update to its task now; it runs at its fallback time');
    }
  }

  async dispatch(statusUpdateId: string): Promise<TaskOutcome> {
    const claim = (await this.claimAtOnce(statusUpdateId)) ?? (await this.unitOfWork.run((tx) => this.claimOrExplain(tx, statusUpdateId)));
    if (claim.kind === 'nothing') return;
    if (claim.kind === 'later') return { rescheduleAt: claim.at };
    const { update } = claim;
    // The push's correlation id, whichever task woke the update: its platform call (X-Correlation-Id)
    // and log lines carry it on every attempt.
    return withCorrelationId(update.correlationId ?? currentCorrelationId(), () => this.send(update));
  }

  private async send(update: ClaimedUpdate): Promise<TaskOutcome> {
    const credentials = this.credentialsOf(update.integration);
    if ('problem' in credentials) {
      this.metrics.recordCall(update.platform, update.action, 'failed');
      return this.record(update, { kind: 'failed', answer: { httpStatus: null, body: null, error: credentials.problem }, reason: credentials.problem });
    }
    const slot = await this.budgetSlot(update, credentials);
    if (slot) return this.waitForBudget(update, slot);
    return this.record(update, await this.call(update, credentials));
  }

  /**
   * Room in the platform's call budget for this call: undefined when it may go now (its booked slot
   * has come, or there is room now), else the slot booked for it. A slot claimed too late is booked
   * anew: its call could crowd the window of later bookings.
   */
  private async budgetSlot(update: ClaimedUpdate, credentials: IntegrationCredentials): Promise<Date | undefined> {
    const now = Date.now();
    if (update.budgetSlotAt && update.budgetSlotAt.getTime() <= now && now - update.budgetSlotAt.getTime() <= this.config.PLATFORM_CALL_BUDGET_LATE_MS) return undefined;
    const slot = await this.budgets.book(update.platform, credentials, update.action, now);
    return slot !== undefined && slot > now ? new Date(slot) : undefined;
  }

  /**
   * The update waits, queued, for its booked slot: the claim is given back and not counted as an
   * attempt (nothing was sent), and its task is due at the slot. Later updates of the order stay behind it.
   */
  private async waitForBudget(update: ClaimedUpdate, slot: Date): Promise<TaskOutcome> {
    await this.dataSource.query(
      `UPDATE status_updates SET state = 'queued', hold_reason = 'PLATFORM_CALL_BUDGET', not_before = $2, budget_slot_at = $2, sending_until = NULL,
              attempts = attempts - 1, first_attempt_at = CASE WHEN attempts = 1 THEN NULL ELSE first_attempt_at END,
              last_attempt_at = CASE WHEN attempts = 1 THEN NULL ELSE last_attempt_at END, updated_at = now()
        WHERE id = $1`,
      [update.id, slot],
    );
    this.metrics.budgetWaits.inc({ platform: update.platform });
    this.logger.log({ statusUpdateId: update.id, platform: update.platform, action: update.action, slot: slot.toISOString() }, 'platform call budget used up: the update waits for its booked slot');
    return { rescheduleAt: slot };
  }

  /** The platform call, measured (platform_calls_total, platform_call_duration_seconds). */
  private async call(update: ClaimedUpdate, credentials: IntegrationCredentials): Promise<PlatformCallOutcome> {
    const started = performance.now();
    try {
      const outcome = await this.adapters.get(update.platform)!.sendStatus(credentials, this.orderRef(update), update.action, update.reason);
      this.metrics.recordCall(update.platform, update.action, platformCallLabel(outcome), performance.now() - started);
      return outcome;
    } catch (error) {
      // A bug or an unexpected answer shape: the task runner retries the update with backoff.
      this.metrics.recordCall(update.platform, update.action, 'error', performance.now() - started);
      throw error;
    }
  }

  /** The common case in one statement: the update is pending, due, not being sent, first of its order, past the spacing. */
  private async claimAtOnce(id: string): Promise<Claim | undefined> {
    const now = new Date();
    // TypeORM's postgres driver answers an UPDATE ... RETURNING with [rows, affectedCount].
    const [rows]: [ClaimedUpdate[], number] = await this.dataSource.query(
      `UPDATE status_updates su
          SET sending_until = $3, attempts = su.attempts + 1, first_attempt_at = coalesce(su.first_attempt_at, $2), last_attempt_at = $2,
              state = CASE WHEN su.state = 'held' THEN 'queued' ELSE su.state END, hold_reason = NULL, updated_at = now()
         FROM orders o LEFT JOIN integrations i ON i.integration_id = o.integration_id
        WHERE su.id = $1 AND o.id = su.order_id AND su.state IN ${PENDING} AND su.not_before <= $2
          AND (su.sending_until IS NULL OR su.sending_until <= $2)
          AND NOT EXISTS (SELECT 1 FROM status_updates e WHERE e.order_id = su.order_id AND e.seq < su.seq AND e.state IN ${PENDING})
          AND NOT ((su.platform || ':' || su.action) = ANY($4::text[]) AND EXISTS (
                SELECT 1 FROM status_updates s WHERE s.order_id = su.order_id AND s.id <> su.id AND s.state = 'sent'
                   AND (s.platform || ':' || s.action) = ANY($4::text[]) AND s.sent_at > $2::timestamptz - ($5::bigint * interval '1 millisecond')))
      RETURNING ${prefixed('su')}, o.integration_id AS "integrationId", coalesce(o.platform_data, '{}') AS "platformData", ${INTEGRATION_JSON} AS integration`,
      [id, now, this.sendingUntil(now), this.spacedSteps, this.config.PLATFORM_A_PREPARE_HOLD_MS],
    );
    return rows[0] ? { kind: 'send', update: rows[0] } : undefined;
  }

  /** Under the order's row lock: why the update cannot go now, and when to look again (or claim it after all). */
  private async claimOrExplain(tx: TransactionContext, id: string): Promise<Claim> {
    const [locked] = await tx.manager.query(`SELECT o.id FROM orders o JOIN status_updates su ON su.order_id = o.id WHERE su.id = $1 FOR UPDATE OF o`, [id]);
    if (!locked) return { kind: 'nothing' };
    const [update]: Array<ClaimedUpdate & { blockerNotBefore: Date | null; lastStepSentAt: Date | null }> = await tx.manager.query(
      `SELECT ${prefixed('su')}, o.integration_id AS "integrationId", coalesce(o.platform_data, '{}') AS "platformData", ${INTEGRATION_JSON} AS integration,
              (SELECT e.not_before FROM status_updates e WHERE e.order_id = su.order_id AND e.seq < su.seq AND e.state IN ${PENDING}
                ORDER BY e.seq LIMIT 1) AS "blockerNotBefore",
              (SELECT max(s.sent_at) FROM status_updates s WHERE s.order_id = su.order_id AND s.id <> su.id AND s.state = 'sent'
                  AND (s.platform || ':' || s.action) = ANY($2::text[])) AS "lastStepSentAt"
         FROM status_updates su JOIN orders o ON o.id = su.order_id LEFT JOIN integrations i ON i.integration_id = o.integration_id WHERE su.id = $1`,
      [id, this.spacedSteps],
    );
    const now = new Date();
    if (!['queued', 'held', 'retrying'].includes(update.state)) return { kind: 'nothing' };
    // Another run is calling the platform for it: look again once that call must have ended.
    if (update.sendingUntil && update.sendingUntil > now) return { kind: 'later', at: new Date(Math.min(update.sendingUntil.getTime(), now.getTime() + RECHECK_MS)) };
    if (update.notBefore > now) return { kind: 'later', at: update.notBefore };
    // Updates reach the platform in order: the earlier one wakes this one when it ends; the
    // recheck only covers a wake-up lost in a crash.
    if (update.blockerNotBefore) return { kind: 'later', at: new Date(Math.max(update.blockerNotBefore.getTime(), now.getTime()) + RECHECK_MS) };
    if (update.lastStepSentAt && this.spacedSteps.includes(`${update.platform}:${update.action}`)) {
      const earliest = new Date(update.lastStepSentAt.getTime() + this.config.PLATFORM_A_PREPARE_HOLD_MS);
      if (earliest > now) {
        await tx.manager.query(
          `UPDATE status_updates SET state = 'held', hold_reason = 'PLATFORM_STEP_INTERVAL', not_before = $2, updated_at = now()
            WHERE id = $1 AND state IN ${PENDING} AND (sending_until IS NULL OR sending_until <= $3)`,
          [id, earliest, now],
        );
        return { kind: 'later', at: earliest };
      }
    }
    // Conditional: a wake-up taking the one-statement path does not wait for the order's lock.
    const [claimed]: [unknown[], number] = await tx.manager.query(
      `UPDATE status_updates SET sending_until = $3, attempts = attempts + 1, first_attempt_at = coalesce(first_attempt_at, $2), last_attempt_at = $2,
              state = CASE WHEN state = 'held' THEN 'queued' ELSE state END, hold_reason = NULL, updated_at = now()
        WHERE id = $1 AND state IN ${PENDING} AND (sending_until IS NULL OR sending_until <= $2) RETURNING id`,
      [id, now, this.sendingUntil(now)],
    );
    if (claimed.length === 0) return { kind: 'later', at: new Date(now.getTime() + RECHECK_MS) };
    return { kind: 'send', update: { ...update, attempts: update.attempts + 1, firstAttemptAt: update.firstAttemptAt ?? now } };
  }

  private sendingUntil(now: Date): Date {
    // Room for the longest call: a login and two requests (PLATFORM_A's cancel reads its cancel options first).
    return new Date(now.getTime() + this.adapters.config.PLATFORM_HTTP_TIMEOUT_MS * CALL_REQUESTS_AT_MOST + SENDING_MARGIN_MS);
  }

  private orderRef(update: ClaimedUpdate): PlatformOrderRef {
    return { platformOrderId: update.providerOrderId, yemekKuryeOrderId: update.orderId, platformData: update.platformData };
  }

  private credentialsOf(integration: ClaimedUpdate['integration']): IntegrationCredentials | { problem: string } {
    if (!integration) return { problem: 'INTEGRATION_DELETED: the order\'s integration no longer exists, so its credentials are gone' };
    try {
      return this.directory.credentials(integration);
    } catch (error) {
      if (!(error instanceof SecretDecryptionError)) throw error;
      return { problem: `the integration's secrets cannot be decrypted (key ${error.keyId ?? 'unknown'} is not in SECRETS_ENCRYPTION_KEYS)` };
    }
  }

  private async record(update: ClaimedUpdate, outcome: PlatformCallOutcome): Promise<TaskOutcome> {
    const now = new Date();
    const at = now.toISOString();
    switch (outcome.kind) {
      case 'done':
        return this.finish(update, 'sent', { ...outcome.answer, outcome: 'done', alreadyDone: outcome.alreadyDone, at }, null, now);
      case 'skipped':
        return this.finish(update, 'skipped', { httpStatus: null, body: null, outcome: 'skipped', at }, outcome.reason);
      case 'failed':
        return this.finish(update, 'failed', { ...outcome.answer, outcome: 'failed', at }, outcome.reason);
      case 'retry': {
        const answer: StoredAnswer = { ...outcome.answer, outcome: 'retry', at };
        const next = this.nextAttempt(update, outcome, now);
        if ('giveUp' in next) return this.finish(update, 'failed', answer, next.giveUp);
        // Still pending: nothing behind it moves, so no row lock is needed.
        await this.dataSource.query(
          `UPDATE status_updates SET state = 'retrying', not_before = $2, sending_until = NULL, budget_slot_at = NULL, last_answer = $3, last_error = NULL, updated_at = now() WHERE id = $1`,
          [update.id, next.at, JSON.stringify(answer)],
        );
        this.logger.warn({ statusUpdateId: update.id, platform: update.platform, action: update.action, attempt: update.attempts, httpStatus: answer.httpStatus, nextAttemptAt: next.at.toISOString() }, 'platform call to be retried');
        return { rescheduleAt: next.at };
      }
    }
  }

  /** When to try again: the platform's own pacing when it has one, else exponential backoff with jitter. */
  private nextAttempt(update: ClaimedUpdate, outcome: PlatformCallOutcome & { kind: 'retry' }, now: Date): { at: Date } | { giveUp: string } {
    if (outcome.pacing) {
      const at = new Date(now.getTime() + outcome.pacing.intervalMs);
      const windowEnd = (update.firstAttemptAt ?? now).getTime() + outcome.pacing.windowMs;
      return at.getTime() > windowEnd ? { giveUp: `${outcome.pacing.rule}: still refused ${Math.round(outcome.pacing.windowMs / 1000)} s after the first attempt` } : { at };
    }
    const backoff = Math.min(this.config.STATUS_PUSH_RETRY_BASE_MS * 2 ** Math.max(0, update.attempts - 1), this.config.STATUS_PUSH_RETRY_MAX_DELAY_MS) * (0.8 + Math.random() * 0.4);
    const at = new Date(now.getTime() + Math.max(backoff, outcome.retryAfterMs ?? 0));
    if (at.getTime() - update.acceptedAt.getTime() > this.config.STATUS_PUSH_RETRY_MAX_AGE_MS) {
      return { giveUp: `not sent within STATUS_PUSH_RETRY_MAX_AGE_MS (${this.config.STATUS_PUSH_RETRY_MAX_AGE_MS} ms) after acceptance; last answer kept` };
    }
    return { at };
  }

  /**
   * Ends the update and wakes the order's next pending one. One statement, without the order's
   * lock: a push committing meanwhile gets its update woken by its own task, whose claim either
   * sees this one ended or looks again a second later.
   */
  private async finish(update: ClaimedUpdate, state: 'sent' | 'skipped' | 'failed', answer: StoredAnswer, error: string | null, sentAt?: Date): Promise<TaskOutcome> {
    const [next] = await endAndFindNext(this.dataSource, update, state, answer, error, sentAt);
    this.metrics.finished.inc({ platform: update.platform, state });
    if (next) {
      await this.unitOfWork.run((tx) =>
        tx.schedule({ kind: STATUS_UPDATE_TASK, dueAt: new Date(Math.max(next.notBefore.getTime(), Date.now())), payload: { statusUpdateId: next.id } satisfies StatusUpdateTaskPayload }),
      );
    }
    const log = { statusUpdateId: update.id, platform: update.platform, action: update.action, state, attempts: update.attempts, httpStatus: answer.httpStatus };
    if (state === 'failed') this.logger.warn({ ...log, error }, 'status update failed');
    else this.logger.log(log, `status update ${state}`);
  }
}

/**
 * One statement: the update's end, its own task deleted (nothing left to wake; a run of it under way
 * finds its row gone), and the order's next pending update (the update itself excluded: same snapshot).
 */
function endAndFindNext(db: Pick<EntityManager, 'query'>, update: StatusUpdateRow, state: string, answer: StoredAnswer, error: string | null, sentAt?: Date): Promise<Array<{ id: string; notBefore: Date }>> {
  return db.query(
    `WITH ended AS (
       UPDATE status_updates SET state = $2, sending_until = NULL, budget_slot_at = NULL, last_answer = $3, last_error = $4, sent_at = $5, hold_reason = NULL, updated_at = now() WHERE id = $1),
     own_task AS (DELETE FROM scheduled_tasks WHERE dedupe_key = $7)
     SELECT id, not_before AS "notBefore" FROM status_updates WHERE order_id = $6 AND id <> $1 AND state IN ${PENDING} ORDER BY seq LIMIT 1`,
    [update.id, state, JSON.stringify(answer), error, sentAt ?? null, update.orderId, statusUpdateTaskKey(update.id)],
  );
}
