import { Injectable, Logger } from '@nestjs/common';
import { SecretDecryptionError } from '@courier/crypto';
import { currentCorrelationId, withCorrelationId } from '@courier/logging';
import { Messaging, OnTask, ScheduledTask, TaskOutcome, UnitOfWork } from '@courier/messaging';
import { IntegrationCredentials, PlatformAdapters, PlatformCallOutcome, PlatformOrderRef, unsendableCredentialProblem } from '@courier/platforms';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { IntegrationDirectory } from '../platform-sessions/integration-directory';
import { PlatformCallBudgets } from '../platform-sessions/platform-call-budgets';
import { DispatchMetrics, platformCallLabel } from './dispatch-metrics';
import type { ClaimedUpdate, StatusUpdateTaskPayload, StoredAnswer } from './status-update.model';
import { STATUS_UPDATE_TASK, StatusUpdateRepository } from './status-update.repository';
import { AnswerDecision, bookedSlotUsable, budgetWait, decideAfterAnswer, decideClaim, RECHECK_MS, RetryPolicy, sendingUntil } from './status-dispatch.decisions';
import { StepSpacing } from './step-spacing';

type Claim = { kind: 'nothing' } | { kind: 'later'; at: Date } | { kind: 'send'; update: ClaimedUpdate };

/** What the immediate sends hand the worker: an update claimed by its push, or the id of one to claim. */
export type ImmediateSend = ClaimedUpdate | string;

/**
 * Sends accepted status updates to the platforms, in one shape for both ways in: claim, call,
 * record. The durable way is the update's task (`@OnTask`); the immediate one (`sendAtOnce`) is
 * run by ImmediateSends right after a push, over an update the push stored claimed or still to
 * claim. A task only wakes an update up; the row decides (decideClaim). The call runs outside any
 * transaction; its outcome is stored, and an update that ended wakes the order's next one (a push
 * of the order written meanwhile is conditional on what it read, so no new update is missed).
 */
@Injectable()
export class StatusDispatchWorker {
  private readonly logger = new Logger('StatusDispatch');

  constructor(
    private readonly messaging: Messaging,
    private readonly unitOfWork: UnitOfWork,
    private readonly updates: StatusUpdateRepository,
    private readonly adapters: PlatformAdapters,
    private readonly directory: IntegrationDirectory,
    private readonly config: DispatcherConfig,
    private readonly metrics: DispatchMetrics,
    private readonly budgets: PlatformCallBudgets,
    private readonly spacing: StepSpacing,
  ) {}

  /** The durable copy of every status update: claims it when it may go, calls, records (or says when to look again). */
  @OnTask(STATUS_UPDATE_TASK)
  async onStatusUpdateDue(task: ScheduledTask<StatusUpdateTaskPayload>): Promise<TaskOutcome> {
    const claim = await this.claim(task.payload.statusUpdateId);
    if (claim.kind === 'nothing') return;
    if (claim.kind === 'later') return { rescheduleAt: claim.at };
    return this.callAndRecord(claim.update);
  }

  /**
   * The immediate send of an update just pushed: claimed by its push, or claimed here. What cannot
   * go now (behind an earlier update, the platform's spacing, being sent) goes to its task, due when
   * the claim says to look again; a retry moves the task to the next attempt.
   */
  async sendAtOnce(item: ImmediateSend): Promise<void> {
    const claim: Claim = typeof item === 'string' ? await this.claim(item) : { kind: 'send', update: item };
    if (claim.kind === 'send') {
      const outcome = await this.callAndRecord(claim.update);
      if (outcome && 'rescheduleAt' in outcome) await this.updates.moveTask(claim.update.id, outcome.rescheduleAt);
    } else if (claim.kind === 'later' && typeof item === 'string') {
      await this.handToTask(item, claim.at);
    }
  }

  /** The update's task due at `at` (now: the task runner woken), for a send this process does not make. */
  async handToTask(statusUpdateId: string, at: Date | 'now'): Promise<void> {
    try {
      await this.updates.moveTask(statusUpdateId, at);
      this.messaging.tasks.nudge();
    } catch (error) {
      this.logger.warn({ err: error, statusUpdateId }, 'could not hand the update to its task now; it runs at its fallback time');
    }
  }

  /** Whether the update may go now (decideClaim on what the row says), claimed when it may. */
  private async claim(id: string): Promise<Claim> {
    const update = await this.updates.readForClaim(id, this.spacing.keys);
    if (!update) return { kind: 'nothing' };
    const now = new Date();
    const decision = decideClaim(
      { ...update, spacedStep: this.spacing.spaces(update.platform, update.action), lastSpacedStepSentAt: update.lastStepSentAt },
      now,
      this.spacing.intervalMs(update.platform) ?? 0,
    );
    if (decision.kind === 'nothing' || decision.kind === 'later') return decision;
    if (decision.kind === 'hold') {
      await this.updates.holdForStepSpacing(id, decision.until, now);
      return { kind: 'later', at: decision.until };
    }
    // Conditional: another run may have claimed it since the read.
    if (!(await this.updates.claim(id, { at: now, until: sendingUntil(now, this.adapters.config.PLATFORM_HTTP_TIMEOUT_MS) }))) return { kind: 'later', at: new Date(now.getTime() + RECHECK_MS) };
    return { kind: 'send', update: { ...update, attempts: update.attempts + 1, firstAttemptAt: update.firstAttemptAt ?? now } };
  }

  /** The call and its outcome, in the logging scope of the push that created the update (X-Correlation-Id on every attempt). */
  private callAndRecord(update: ClaimedUpdate): Promise<TaskOutcome> {
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
      const outcome = await this.adapters.get(update.platform)!.status.send(credentials, this.orderRef(update), update.action, update.reason);
      this.metrics.recordCall(update.platform, update.action, platformCallLabel(outcome), performance.now() - started);
      return outcome;
    } catch (error) {
      // A bug or an unexpected answer shape: the task runner retries the update with backoff.
      this.metrics.recordCall(update.platform, update.action, 'error', performance.now() - started);
      throw error;
    }
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

