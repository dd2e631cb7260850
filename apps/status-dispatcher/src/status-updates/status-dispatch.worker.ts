import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { SecretDecryptionError } from '@courier/crypto';
import { currentCorrelationId, withCorrelationId } from '@courier/logging';
import { Messaging, OnTask, ScheduledTask, TaskOutcome, TransactionContext, UnitOfWork } from '@courier/messaging';
import { IntegrationCredentials, PlatformAdapters, PlatformCallOutcome, PlatformOrderRef, unsendableCredentialProblem } from '@courier/platforms';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { IntegrationDirectory } from '../platform-sessions/integration-directory';
import { PlatformCallBudgets } from '../platform-sessions/platform-call-budgets';
import { DispatchMetrics, platformCallLabel } from './dispatch-metrics';
import { ClaimedUpdate, STATUS_UPDATE_TASK, StatusUpdateRepository, StatusUpdateTaskPayload, StoredAnswer } from './status-update.repository';
import {
  AnswerDecision,
  bookedSlotUsable,
  budgetWait,
  decideAfterAnswer,
  decideClaim,
  fallbackDueAt,
  immediateSendPath,
  mayStillSendClaimed,
  pushSendPath,
  PushSendPath,
  RECHECK_MS,
  RetryPolicy,
  sendingUntil,
  stepKey,
} from './status-dispatch.decisions';

type Claim = { kind: 'nothing' } | { kind: 'later'; at: Date } | { kind: 'send'; update: ClaimedUpdate };

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
    private readonly updates: StatusUpdateRepository,
    private readonly adapters: PlatformAdapters,
    private readonly directory: IntegrationDirectory,
    private readonly config: DispatcherConfig,
    private readonly metrics: DispatchMetrics,
    private readonly budgets: PlatformCallBudgets,
  ) {
    this.spacedSteps = adapters.codes().flatMap((code) => (adapters.get(code)!.stepSpacing?.(config.PLATFORM_A_PREPARE_HOLD_MS)?.actions ?? []).map((action) => stepKey(code, action)));
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
    return fallbackDueAt(now, this.adapters.config.PLATFORM_HTTP_TIMEOUT_MS);
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

  /** The send path of an accepted push (pushSendPath): the worker knows the platform's spacing and whether it is stopping. */
  pushSendPath(platform: string, action: string, facts: { held: boolean; earlierPending: boolean }): PushSendPath {
    return pushSendPath({ ...facts, spacedStep: this.spacedSteps.includes(stepKey(platform, action)), stopping: this.stopping });
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
    switch (immediateSendPath({ stopping: this.stopping, inFlight: this.immediate.size, waiting: this.waiting.length, claimedAtPush: typeof next !== 'string' })) {
      case 'start':
        return this.startImmediate(next);
      case 'wait-in-line':
        this.waiting.push(next);
        return;
      case 'wake-task':
        void this.wakeTask(typeof next === 'string' ? next : next.id);
        return;
      case 'leave-to-task':
        this.logger.warn({ statusUpdateId: typeof next === 'string' ? next : next.id }, 'too many updates waiting for an immediate send; its task sends it once the claim has run out');
        return;
      case 'none':
        return;
    }
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
    if (!mayStillSendClaimed(update.firstAttemptAt!, new Date())) {
      this.logger.warn({ statusUpdateId: update.id }, 'claimed update waited too long for an immediate send; its task sends it once the claim has run out');
      return;
    }
    await this.sendClaimedUpdate(update);
  }

  /** The call of a claimed update and its outcome; a retry moves the update's task to the next attempt. */
  private async sendClaimedUpdate(update: ClaimedUpdate): Promise<void> {
    const outcome = await withCorrelationId(update.correlationId ?? currentCorrelationId(), () => this.send(update));
    if (outcome && 'rescheduleAt' in outcome) await this.updates.moveTask(update.id, outcome.rescheduleAt);
  }

  /** The update's task due now and the task runner woken: the usual path decides. */
  private async wakeTask(statusUpdateId: string): Promise<void> {
    try {
      await this.updates.moveTask(statusUpdateId, 'now');
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
    const credentials = this.credentialsOf(update.platform, update.integration);
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
    if (bookedSlotUsable(update.budgetSlotAt, new Date(now), this.config.PLATFORM_CALL_BUDGET_LATE_MS)) return undefined;
    const booking = await this.budgets.book(update.platform, credentials, update.action);
    return booking && budgetWait(booking.slot, booking.bookedAt);
  }

  /**
   * The update waits, queued, for its booked slot: the claim is given back and not counted as an
   * attempt (nothing was sent), and its task is due at the slot. Later updates of the order stay behind it.
   */
  private async waitForBudget(update: ClaimedUpdate, slot: Date): Promise<TaskOutcome> {
    await this.updates.waitForBudgetSlot(update.id, slot);
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
    const update = await this.updates.claimAtOnce(id, { at: now, until: this.sendingUntil(now) }, this.spacedSteps, this.config.PLATFORM_A_PREPARE_HOLD_MS);
    return update ? { kind: 'send', update } : undefined;
  }

  /** Under the order's row lock: why the update cannot go now, and when to look again (or claim it after all). */
  private async claimOrExplain(tx: TransactionContext, id: string): Promise<Claim> {
    const update = await this.updates.lockForClaim(tx.manager, id, this.spacedSteps);
    if (!update) return { kind: 'nothing' };
    const now = new Date();
    const decision = decideClaim(
      { ...update, spacedStep: this.spacedSteps.includes(stepKey(update.platform, update.action)), lastSpacedStepSentAt: update.lastStepSentAt },
      now,
      this.config.PLATFORM_A_PREPARE_HOLD_MS,
    );
    if (decision.kind === 'nothing' || decision.kind === 'later') return decision;
    if (decision.kind === 'hold') {
      await this.updates.holdForStepSpacing(tx.manager, id, decision.until, now);
      return { kind: 'later', at: decision.until };
    }
    // Conditional: a wake-up taking the one-statement path does not wait for the order's lock.
    if (!(await this.updates.claim(tx.manager, id, { at: now, until: this.sendingUntil(now) }))) return { kind: 'later', at: new Date(now.getTime() + RECHECK_MS) };
    return { kind: 'send', update: { ...update, attempts: update.attempts + 1, firstAttemptAt: update.firstAttemptAt ?? now } };
  }

  private sendingUntil(now: Date): Date {
    return sendingUntil(now, this.adapters.config.PLATFORM_HTTP_TIMEOUT_MS);
  }

  private get retryPolicy(): RetryPolicy {
    return { baseMs: this.config.STATUS_PUSH_RETRY_BASE_MS, maxDelayMs: this.config.STATUS_PUSH_RETRY_MAX_DELAY_MS, maxAgeMs: this.config.STATUS_PUSH_RETRY_MAX_AGE_MS };
  }

  private orderRef(update: ClaimedUpdate): PlatformOrderRef {
    return { platformOrderId: update.providerOrderId, yemekKuryeOrderId: update.orderId, platformData: update.platformData };
  }

  private credentialsOf(platform: string, integration: ClaimedUpdate['integration']): IntegrationCredentials | { problem: string } {
    if (!integration) return { problem: 'INTEGRATION_DELETED: the order\'s integration no longer exists, so its credentials are gone' };
    try {
      const credentials = this.directory.credentials(integration);
      // Stored before integrations-api refused such values: no attempt could ever be sent.
      const unsendable = unsendableCredentialProblem(platform, credentials);
      return unsendable ? { problem: unsendable } : credentials;
    } catch (error) {
      if (!(error instanceof SecretDecryptionError)) throw error;
      return { problem: `the integration's secrets cannot be decrypted (key ${error.keyId ?? 'unknown'} is not in SECRETS_ENCRYPTION_KEYS)` };
    }
  }

  /** Applies what the platform's answer decides: the update ends, or waits for its next attempt. */
  private async record(update: ClaimedUpdate, outcome: PlatformCallOutcome): Promise<TaskOutcome> {
    const decision: AnswerDecision = decideAfterAnswer(update, outcome, new Date(), this.retryPolicy, Math.random());
    if (decision.kind === 'end') return this.finish(update, decision.state, decision.answer, decision.error, decision.sentAt);
    await this.updates.retryAt(update.id, decision.at, decision.answer);
    this.logger.warn({ statusUpdateId: update.id, platform: update.platform, action: update.action, attempt: update.attempts, httpStatus: decision.answer.httpStatus, nextAttemptAt: decision.at.toISOString() }, 'platform call to be retried');
    return { rescheduleAt: decision.at };
  }

  /**
   * Ends the update and wakes the order's next pending one. One statement, without the order's
   * lock: a push committing meanwhile gets its update woken by its own task, whose claim either
   * sees this one ended or looks again a second later.
   */
  private async finish(update: ClaimedUpdate, state: 'sent' | 'skipped' | 'failed', answer: StoredAnswer, error: string | null, sentAt?: Date): Promise<TaskOutcome> {
    const next = await this.updates.endAndFindNext(update, state, answer, error, sentAt);
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

