import { Injectable, Logger } from '@nestjs/common';
import { SecretDecryptionError } from '@courier/crypto';
import { Messaging, OnTask, ScheduledTask, TaskOutcome } from '@courier/messaging';
import { IntegrationCredentials, PlatformAdapters, PlatformCallOutcome, PriceCallOutcome, ProductAvailabilityChange, StoreAvailabilityRequest } from '@courier/platforms';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { IntegrationDirectory } from '../platform-sessions/integration-directory';
import { PlatformCallBudgets } from '../platform-sessions/platform-call-budgets';
import { bookedSlotUsable, budgetWait, decideAfterAnswer, RECHECK_MS, RetryPolicy, sendingUntil } from '../status-updates/status-dispatch.decisions';
import { AvailabilityMetrics } from './availability.metrics';
import { AVAILABILITY_COMMAND_TASK, AVAILABILITY_PRODUCT_BACK_TASK, AVAILABILITY_REOPEN_TASK, AvailabilityRepository } from './availability.repository';
import { ClaimedCommand } from './availability.model';
import { AvailabilityService, ProductBackTaskPayload, ReopenTaskPayload } from './availability.service';
import { budgetedCallOf, decideAfterPriceAnswer, PriceAnswerDecision } from './price-command.decisions';

export interface CommandTaskPayload {
  commandId: string;
}

/**
 * Sends the availability commands (one durable task each) and runs the timers at `until`. A command
 * is claimed with a lease (one conditional UPDATE: never sent twice), booked in its platform's call
 * budget (no room: it waits for its slot, queued, the claim given back), sent, and ended on the
 * platform's answer: sent, retried with backoff, or failed. A price an asynchronous platform took
 * (`pending`) stays `checking`: the same task checks its result (booked as `catalog:check`) until
 * the platform answers it done or failed.
 */
@Injectable()
export class AvailabilityCommandWorker {
  private readonly logger = new Logger('Availability');

  constructor(
    private readonly commands: AvailabilityRepository,
    private readonly service: AvailabilityService,
    private readonly adapters: PlatformAdapters,
    private readonly directory: IntegrationDirectory,
    private readonly budgets: PlatformCallBudgets,
    private readonly config: DispatcherConfig,
    private readonly metrics: AvailabilityMetrics,
    private readonly messaging: Messaging,
  ) {}

  @OnTask(AVAILABILITY_REOPEN_TASK)
  async onReopenDue(task: ScheduledTask<ReopenTaskPayload>): Promise<TaskOutcome> {
    await this.service.reopen(task.payload);
  }

  @OnTask(AVAILABILITY_PRODUCT_BACK_TASK)
  async onProductBackDue(task: ScheduledTask<ProductBackTaskPayload>): Promise<TaskOutcome> {
    await this.service.productBack(task.payload);
  }

  @OnTask(AVAILABILITY_COMMAND_TASK)
  async onCommandDue(task: ScheduledTask<CommandTaskPayload>): Promise<TaskOutcome> {
    return this.dispatch(task.payload.commandId);
  }

  async dispatch(commandId: string): Promise<TaskOutcome> {
    const now = new Date();
    const claimedUntil = sendingUntil(now, this.adapters.config.PLATFORM_HTTP_TIMEOUT_MS);
    const command = await this.commands.claim(commandId, now, claimedUntil);
    if (!command) return this.notClaimed(commandId, now);
    const credentials = this.credentialsOf(command);
    if ('problem' in credentials) return this.end(command, claimedUntil, { kind: 'failed', answer: { httpStatus: null, body: null, error: credentials.problem }, reason: credentials.problem });
    const slot = await this.budgetSlot(command, credentials);
    if (slot && command.state === 'checking') {
      if (!(await this.commands.keepChecking(command, claimedUntil, { at: slot, budgetSlotAt: slot, givenBack: true }))) return;
      this.logger.log({ commandId, platform: command.platform, kind: command.kind, slot: slot.toISOString() }, 'platform call budget used up: the price check waits for its booked slot');
      return { rescheduleAt: slot };
    }
    if (slot) {
      const state = await this.commands.waitForBudgetSlot(command, claimedUntil, slot);
      if (state !== 'queued') return this.superseded(command, state);
      this.logger.log({ commandId, platform: command.platform, kind: command.kind, slot: slot.toISOString() }, 'platform call budget used up: the availability command waits for its booked slot');
      return { rescheduleAt: slot };
    }
    if (command.kind === 'price') return this.endPrice(command, claimedUntil, await this.callPrice(command, credentials));
    return this.end(command, claimedUntil, await this.call(command, credentials));
  }

  /** Why a command was not claimed: ended (done), waiting for its time, or behind a call under way. */
  private async notClaimed(commandId: string, now: Date): Promise<TaskOutcome> {
    const command = await this.commands.command(commandId);
    if (!command || (command.state !== 'queued' && command.state !== 'retrying' && command.state !== 'checking')) return;
    if (command.notBefore > now) return { rescheduleAt: command.notBefore };
    if (command.sendingUntil && command.sendingUntil > now) return { rescheduleAt: new Date(command.sendingUntil.getTime() + RECHECK_MS) };
    const blocker = await this.commands.blockerUntil(command, now);
    return { rescheduleAt: new Date(Math.max(blocker?.getTime() ?? 0, now.getTime() + RECHECK_MS)) };
  }

  /** Room in the platform's budget: undefined when the call may go now (its inherited or booked slot has come, or room now). */
  private async budgetSlot(command: ClaimedCommand, credentials: IntegrationCredentials): Promise<Date | undefined> {
    const now = Date.now();
    if (bookedSlotUsable(command.budgetSlotAt, new Date(now), this.config.PLATFORM_CALL_BUDGET_LATE_MS)) return undefined;
    // A slot still ahead (taken over from a superseded command) is waited for, not booked again.
    if (command.budgetSlotAt && command.budgetSlotAt.getTime() > now) return command.budgetSlotAt;
    const booking = await this.budgets.book(command.platform, credentials, budgetedCallOf(command));
    return booking && budgetWait(booking.slot, booking.bookedAt);
  }

  private async call(command: ClaimedCommand, credentials: IntegrationCredentials): Promise<PlatformCallOutcome> {
    const availability = this.adapters.get(command.platform)?.availability;
    if (!availability) return { kind: 'failed', answer: { httpStatus: null, body: null, error: 'not configured' }, reason: `${command.platform} has no availability calls here` };
    if (command.kind === 'store') {
      const request = command.request as { state: StoreAvailabilityRequest['state'] };
      return availability.setStore(credentials, { kind: 'send', state: request.state, params: command.params });
    }
    const request = command.request as { platformProductId: string; available: boolean; until: string | null };
    const change: ProductAvailabilityChange = { platformProductId: request.platformProductId, available: request.available, ...(request.until ? { until: new Date(request.until) } : {}) };
    return availability.setProduct(credentials, change, { kind: 'send', params: command.params });
  }

  /** A price: sent (setPrice), or, while `checking`, its asynchronous request's result asked (checkPrice). */
  private async callPrice(command: ClaimedCommand, credentials: IntegrationCredentials): Promise<PriceCallOutcome> {
    const catalog = this.adapters.get(command.platform)?.catalog;
    if (!catalog) return { kind: 'failed', answer: { httpStatus: null, body: null, error: 'not configured' }, reason: `${command.platform} has no catalog calls here` };
    if (command.state === 'checking') {
      if (!catalog.checkPrice || !command.followUp) return { kind: 'failed', answer: { httpStatus: null, body: null, error: 'not configured' }, reason: `${command.platform} has no price check here` };
      return catalog.checkPrice(credentials, command.followUp);
    }
    const request = command.request as { platformProductId: string; price: number };
    return catalog.setPrice(credentials, { platformProductId: request.platformProductId, price: request.price }, { kind: 'send', params: command.params });
  }

  private get retryPolicy(): RetryPolicy {
    return { baseMs: this.config.STATUS_PUSH_RETRY_BASE_MS, maxDelayMs: this.config.STATUS_PUSH_RETRY_MAX_DELAY_MS, maxAgeMs: this.config.STATUS_PUSH_RETRY_MAX_AGE_MS };
  }

  /** Applies the platform's answer (decideAfterAnswer, as for status updates): sent, failed, or the next attempt. */
  private async end(command: ClaimedCommand, claimedUntil: Date, outcome: PlatformCallOutcome): Promise<TaskOutcome> {
    const decision = decideAfterAnswer(command, outcome, new Date(), this.retryPolicy, Math.random());
    // The platform has no call for this (an adapter's skipped): nothing was changed there.
    return this.settle(command, claimedUntil, decision.kind === 'retry' ? decision : { ...decision, state: decision.state === 'sent' ? 'sent' : 'failed' });
  }

  /** A price's answer: as any command's, plus `checking` (checked again at its time) while the platform works on it. */
  private async endPrice(command: ClaimedCommand, claimedUntil: Date, outcome: PriceCallOutcome): Promise<TaskOutcome> {
    const decision = decideAfterPriceAnswer(command, outcome, new Date(), this.retryPolicy, Math.random());
    if (decision.kind !== 'check') return this.settle(command, claimedUntil, decision);
    const log = { commandId: command.id, platform: command.platform, kind: command.kind, target: command.target, attempt: command.attempts };
    if (!(await this.commands.keepChecking(command, claimedUntil, { at: decision.at, answer: decision.answer, followUp: decision.followUp }))) {
      this.logger.warn(log, 'price command\'s claim ran out during its call: its outcome is left to the run that took it over');
      return;
    }
    // Sent: a newer price of the product waited behind this call and goes now (it is not held back by the check).
    if (command.state !== 'checking') await this.wakeOthers(command);
    this.logger.log({ ...log, httpStatus: decision.answer.httpStatus, checkAt: decision.at.toISOString() }, command.state === 'checking' ? 'price request still in progress on the platform: checked again later' : 'price request taken by the platform: its result is checked later');
    return { rescheduleAt: decision.at };
  }

  /** Applies a decision: the next attempt (or superseded), or the end, sent or failed. */
  private async settle(command: ClaimedCommand, claimedUntil: Date, decision: Exclude<PriceAnswerDecision, { kind: 'check' }>): Promise<TaskOutcome> {
    const now = new Date();
    const log = { commandId: command.id, platform: command.platform, kind: command.kind, target: command.target || undefined, attempt: command.attempts };
    if (decision.kind === 'retry') {
      const state = await this.commands.retryAt(command, claimedUntil, decision.at, decision.answer);
      if (state !== 'retrying') return this.superseded(command, state);
      this.logger.warn({ ...log, httpStatus: decision.answer.httpStatus, nextAttemptAt: decision.at.toISOString() }, 'availability command to be retried');
      return { rescheduleAt: decision.at };
    }
    const state = decision.state;
    if (!(await this.commands.finish(command, claimedUntil, state, decision.answer, decision.error, now))) {
      this.logger.warn(log, 'availability command\'s claim ran out during its call: its outcome is left to the run that took it over');
      return;
    }
    this.metrics.commands.inc({ platform: command.platform, kind: command.kind, state });
    await this.wakeOthers(command);
    if (state === 'failed') this.logger.warn({ ...log, error: decision.error, httpStatus: decision.answer.httpStatus }, 'availability command failed');
    else this.logger.log(log, 'availability command sent');
  }

  /** A command a newer one of its target replaced while it was claimed: the newer one goes now. */
  private async superseded(command: ClaimedCommand, state: 'superseded' | 'lost'): Promise<TaskOutcome> {
    if (state === 'superseded') {
      this.metrics.commands.inc({ platform: command.platform, kind: command.kind, state });
      this.logger.log({ commandId: command.id, platform: command.platform, kind: command.kind }, 'availability command superseded by a newer one before it was sent');
      await this.wakeOthers(command);
    }
  }

  /** The commands that waited behind this one's call are due now. */
  private async wakeOthers(command: ClaimedCommand): Promise<void> {
    if ((await this.commands.wakeOthers(command)) > 0) this.messaging.tasks.nudge();
  }

  private credentialsOf(command: ClaimedCommand): IntegrationCredentials | { problem: string } {
    if (!command.integration) return { problem: 'INTEGRATION_DELETED: the integration no longer exists, so its credentials are gone' };
    try {
      return this.directory.credentials(command.integration);
    } catch (error) {
      if (!(error instanceof SecretDecryptionError)) throw error;
      return { problem: `the integration's secrets cannot be decrypted (key ${error.keyId ?? 'unknown'} is not in SECRETS_ENCRYPTION_KEYS)` };
    }
  }
}
