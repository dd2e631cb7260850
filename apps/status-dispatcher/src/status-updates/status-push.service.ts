import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@courier/contracts';
import { evaluateStatusPush, OrderStatus, StatusPushAction, statusPushPath } from '@courier/domain';
import { ProblemException } from '@courier/http';
import { CORRELATION_HEADER, currentCorrelationId } from '@courier/logging';
import type { EntityManager } from 'typeorm';
import { Outbox, outboxEvent, UnitOfWork } from '@courier/messaging';
import { PlatformAdapters, PlatformRegistry, THIRD_PARTY_CODE } from '@courier/platforms';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { planMoves } from '../platform-orders/platform-order-moves';
import { PlatformOrderRepository } from '../platform-orders/platform-order.repository';
import { StatusUpdateRequestDto } from './dto/status-update-request.dto';
import { StatusUpdateAcceptedDto } from './dto/status-update.dto';
import { DispatchMetrics } from './dispatch-metrics';
import { ImmediateSends } from './immediate-sends';
import { isPending, lastSpacedStepSent, pushSendPlan } from './status-dispatch.decisions';
import { StepSpacing } from './step-spacing';
import type { ClaimedUpdate, NewStatusUpdate } from './status-update.model';
import { StatusUpdateRepository } from './status-update.repository';

const REFUSALS: Record<string, string> = {
  DELIVER_BEFORE_PREPARE: 'DELIVER is accepted only after PREPARE or HANDOVER.',
  ALREADY_VERIFIED: 'The order is already verified (accepted on the platform).',
  ORDER_CANCELED: 'The order is cancelled: no status update is accepted for it.',
};

/** The order's status after an accepted push; cancellations by the restaurant (through the courier core). */
function cancellationOf(action: StatusPushAction, reason: string | undefined) {
  if (action !== 'CANCEL' && action !== 'REJECT') return undefined;
  return {
    cancelReasonId: 'OTHER' as const,
    canceledBy: 'Restaurant' as const,
    reason: reason ?? (action === 'REJECT' ? 'Rejected by the restaurant' : 'Cancelled by the restaurant'),
  };
}

type PushResult = {
  statusUpdateId: string;
  outcome: 'duplicate' | 'queued' | 'held';
  message: string;
  /** Stored already claimed: sent at once as it is. */
  claimed?: ClaimedUpdate;
  /** Outbox events written (the relay is woken once they are committed). */
  events?: number;
};

/**
 * The internal status push, decided on the order's committed state (guards of libs/domain) and
 * stored in one conditional statement: the accepted update, its durable dispatch task, and the
 * order's status move with its events (writePush). The statement writes only if the order is as the
 * decision read it; otherwise the push reads and decides again, and after OPTIMISTIC_ATTEMPTS
 * conflicts (STATUS_PUSH_OPTIMISTIC_ATTEMPTS) it does both under the order's row lock. So pushes of one order are decided one after
 * the other, of different orders in parallel, in two round trips (read, write) in the common case
 * instead of a seven-statement transaction. How the update is sent is decided by pushSendPlan; a
 * queued update goes to ImmediateSends right after the write; its task is the fallback, due once
 * that send must be over (a crash, a retry, a wait).
 */
@Injectable()
export class StatusPushService {
  private readonly logger = new Logger('StatusPush');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly registry: PlatformRegistry,
    private readonly config: DispatcherConfig,
    private readonly adapters: PlatformAdapters,
    private readonly immediate: ImmediateSends,
    private readonly spacing: StepSpacing,
    private readonly metrics: DispatchMetrics,
    private readonly updates: StatusUpdateRepository,
    private readonly platformOrders: PlatformOrderRepository,
    private readonly outbox: Outbox,
  ) {}

  async push(request: StatusUpdateRequestDto): Promise<StatusUpdateAcceptedDto> {
    const platform = this.registry.byWireCode(request.platform);
    if (!platform || platform.code === THIRD_PARTY_CODE) {
      const codes = this.registry
        .list()
        .filter((entry) => entry.code !== THIRD_PARTY_CODE)
        .map((entry) => entry.wireCode);
      throw new ProblemException(422, ErrorCode.ValidationError, 'The request has invalid fields.', [
        { field: 'platform', message: `must be one of ${codes.join(', ')}` },
      ]);
    }
    // Contended (or configured so): under the row lock, the read sees every earlier push of the order and the write cannot conflict.
    const result = await this.unitOfWork.compareAndSet({
      attempts: this.config.STATUS_PUSH_OPTIMISTIC_ATTEMPTS,
      attempt: (db) => this.decide(db, request, platform.code, platform.wireCode),
      lock: (db) => this.platformOrders.lockForPush(db, platform.code, request.providerOrderId, request.restaurantId),
      onConflict: (lockNext) => this.metrics.pushConflicts.inc({ resolution: lockNext ? 'locked' : 'retried' }),
      what: `status push of ${request.providerOrderId}`,
    });
    // Committed (on the locked path too): now the relay finds the events.
    this.outbox.committed(result.events ?? 0);
    if (result.outcome === 'queued') this.immediate.send(result.claimed ?? result.statusUpdateId);
    this.logger.log(
      {
        statusUpdateId: result.statusUpdateId,
        platform: platform.code,
        providerOrderId: request.providerOrderId,
        action: request.action,
        outcome: result.outcome,
      },
      'status push',
    );
    return { status: 'queued', statusUpdateId: result.statusUpdateId, message: result.message };
  }

  /** One read, the guards, and (when accepted) one conditional write; undefined when the write found the order changed. */
  private async decide(
    db: EntityManager,
    request: StatusUpdateRequestDto,
    platform: string,
    wireCode: string,
  ): Promise<PushResult | undefined> {
    const states = await this.updates.readPushStates(db, platform, request.providerOrderId, request.restaurantId);
    if (states.length === 0)
      throw new ProblemException(
        404,
        ErrorCode.OrderNotFound,
        request.restaurantId === undefined
          ? `No ${wireCode} order has providerOrderId ${JSON.stringify(request.providerOrderId)}.`
          : `No ${wireCode} order of restaurant ${request.restaurantId} has providerOrderId ${JSON.stringify(request.providerOrderId)}.`,
      );
    // Platform order ids are unique per platform store only: never guess which store's order is meant.
    if (states.length > 1) {
      this.logger.warn({ platform, providerOrderId: request.providerOrderId, yemekKuryeOrderIds: states.map((candidate) => candidate.order.id) }, 'status push matches orders of several platform stores: refused');
      throw new ProblemException(
        409,
        ErrorCode.AmbiguousProviderOrderId,
        `Orders of several ${wireCode} stores have providerOrderId ${JSON.stringify(request.providerOrderId)}: send restaurantId (the order's restaurantId, as in order.platform_received) to say which one.`,
      );
    }
    const [state] = states;
    const { order, accepted, integration } = state;
    if (order.withheld) {
      throw new ProblemException(
        409,
        ErrorCode.OrderWithheld,
        `The ${wireCode} order ${JSON.stringify(request.providerOrderId)} is withheld: its integration is not verified by the platform yet, so the order is not the account's and no status is sent for it. It is released once the integration is verified.`,
      );
    }
    // "Now" after the read: decisions of one order are taken in the order they are written.
    const now = new Date();
    const orderStatus: OrderStatus = request.previousStatus === 'CANCELED' ? 'CANCELED' : order.status;
    const decision = evaluateStatusPush(
      {
        accepted: accepted.map((update) => ({
          statusUpdateId: update.id,
          action: update.action,
          acceptedAt: update.acceptedAt,
          releaseAt: update.state === 'held' ? update.notBefore : null,
        })),
        approvedAt: order.approvedAt,
        orderStatus,
      },
      request.action,
      this.registry.byCode(platform)?.statusRules ?? {},
      now,
      { holdMs: this.spacing.intervalMs(platform) },
    );
    if (decision.decision === 'duplicate') {
      return {
        statusUpdateId: decision.of,
        outcome: 'duplicate',
        message: `${request.action} was already accepted for this order: nothing is dispatched again.`,
      };
    }
    if (decision.decision === 'refuse') {
      throw new ProblemException(409, decision.code, REFUSALS[decision.code], undefined, { currentStatus: order.status });
    }

    const statusUpdateId = randomUUID();
    const held = decision.decision === 'hold';
    const notBefore = held ? decision.releaseAt : now;
    const correlationId = currentCorrelationId() ?? null;
    // The claim's rule on what was read: the common case is stored already claimed (no claim round trip).
    const spacedStep = this.spacing.spaces(platform, request.action);
    const plan = pushSendPlan(
      {
        held,
        releaseAt: notBefore,
        earlierPending: accepted.some((update) => isPending(update.state)),
        spacedStep,
        lastSpacedStepSentAt: spacedStep ? lastSpacedStepSent(accepted.map((update) => ({ ...update, spacedStep: this.spacing.spaces(platform, update.action) }))) : null,
        stopping: this.immediate.stopping,
      },
      now,
      { stepSpacingMs: this.spacing.intervalMs(platform) ?? 0, httpTimeoutMs: this.adapters.config.PLATFORM_HTTP_TIMEOUT_MS },
    );
    const { claim, taskDueAt } = plan;
    // The courier core reports a fact: the order's status follows at once; the platform hears it when the queue allows.
    const planned = planMoves(
      order,
      statusPushPath(request.action, order.status),
      request.action,
      cancellationOf(request.action, request.reason),
      now,
    );
    const update: NewStatusUpdate = {
      id: statusUpdateId,
      orderId: order.id,
      platform,
      providerOrderId: order.orderId,
      action: request.action,
      previousStatus: request.previousStatus ?? null,
      reason: request.reason ?? null,
      state: held ? 'held' : 'queued',
      holdReason: held ? decision.reason : null,
      notBefore,
      acceptedAt: now,
      correlationId,
    };
    const written = await this.updates.writePush(db, {
      update,
      claim,
      seq: state.lastSeq + 1,
      taskDueAt,
      taskHeaders: correlationId ? { [CORRELATION_HEADER]: correlationId } : {},
      expectedSequence: order.sequence,
      moved: { status: planned.order.status, sequence: planned.order.sequence, statusChangedAt: planned.order.statusChangedAt },
      changes: planned.steps.map((step) => step.change),
      events: planned.steps.map((step) => outboxEvent(step.event.routingKey, step.event.payload)),
    });
    if (!written) return undefined;

    const message = held
      ? `${request.action} held until ${notBefore.toISOString()} (${decision.reason === 'PREPARE_HOLD' ? `${wireCode} PREPARE hold` : 'behind an earlier held update'}), then sent to ${wireCode}.`
      : `${request.action} queued for ${wireCode}.`;
    const claimed: ClaimedUpdate | undefined = claim && {
      ...update,
      seq: state.lastSeq + 1,
      attempts: 1,
      sendingUntil: claim.until,
      firstAttemptAt: claim.at,
      lastAttemptAt: claim.at,
      sentAt: null,
      lastAnswer: null,
      lastError: null,
      budgetSlotAt: null,
      integrationId: order.integrationId,
      platformData: order.platformData,
      integration,
    };
    return { statusUpdateId, outcome: held ? 'held' : 'queued', message, claimed, events: planned.steps.length };
  }
}
