import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@courier/contracts';
import { evaluateStatusPush, OrderStatus, StatusPushAction, statusPushPath } from '@courier/domain';
import { ProblemException } from '@courier/http';
import { CORRELATION_HEADER, currentCorrelationId } from '@courier/logging';
import { TransactionContext, UnitOfWork } from '@courier/messaging';
import { PlatformRegistry, THIRD_PARTY_CODE } from '@courier/platforms';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { moveOrder } from '../platform-orders/platform-order-moves';
import { lockPlatformOrder } from '../platform-orders/platform-order.store';
import { StatusUpdateRequestDto } from './dto/status-update-request.dto';
import { StatusUpdateAcceptedDto } from './dto/status-update.dto';
import { StatusDispatchWorker } from './status-dispatch.worker';
import { acceptedUpdates, insertStatusUpdate, NewStatusUpdate } from './status-update.store';

const REFUSALS: Record<string, string> = {
  DELIVER_BEFORE_PREPARE: 'DELIVER is accepted only after PREPARE or HANDOVER.',
  ALREADY_VERIFIED: 'The order is already verified (accepted on the platform).',
  ORDER_CANCELED: 'The order is cancelled: no status update is accepted for it.',
};

/** The order's status after an accepted push; cancellations by the restaurant (through the courier core). */
function cancellationOf(action: StatusPushAction, reason: string | undefined) {
  if (action !== 'CANCEL' && action !== 'REJECT') return undefined;
  return { cancelReasonId: 'OTHER' as const, canceledBy: 'Restaurant' as const, reason: reason ?? (action === 'REJECT' ? 'Rejected by the restaurant' : 'Cancelled by the restaurant') };
}

/**
 * The internal status push: decides under the order's row lock (guards of libs/domain), and stores
 * the accepted update, its durable dispatch task, and the order's status move with its events in
 * one transaction. Pushes of one order are decided one after the other; of different orders, in
 * parallel. A queued update is sent right after the commit by this process (the worker's immediate
 * send); its task is the fallback, due once that send must be over (a crash, a retry, a wait).
 */
@Injectable()
export class StatusPushService {
  private readonly logger = new Logger('StatusPush');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly registry: PlatformRegistry,
    private readonly config: DispatcherConfig,
    private readonly worker: StatusDispatchWorker,
  ) {}

  async push(request: StatusUpdateRequestDto): Promise<StatusUpdateAcceptedDto> {
    const platform = this.registry.byWireCode(request.platform);
    if (!platform || platform.code === THIRD_PARTY_CODE) {
      const codes = this.registry.list().filter((entry) => entry.code !== THIRD_PARTY_CODE).map((entry) => entry.wireCode);
      throw new ProblemException(422, ErrorCode.ValidationError, 'The request has invalid fields.', [{ field: 'platform', message: `must be one of ${codes.join(', ')}` }]);
    }
    const result = await this.unitOfWork.run((tx) => this.decide(tx, request, platform.code, platform.wireCode));
    if (result.outcome === 'queued') this.worker.sendNow(result.statusUpdateId);
    this.logger.log({ statusUpdateId: result.statusUpdateId, platform: platform.code, providerOrderId: request.providerOrderId, action: request.action, outcome: result.outcome }, 'status push');
    return { status: 'queued', statusUpdateId: result.statusUpdateId, message: result.message };
  }

  private async decide(tx: TransactionContext, request: StatusUpdateRequestDto, platform: string, wireCode: string) {
    const order = await lockPlatformOrder(tx.manager, platform, request.providerOrderId);
    if (!order) throw new ProblemException(404, ErrorCode.OrderNotFound, `No ${wireCode} order has providerOrderId ${JSON.stringify(request.providerOrderId)}.`);
    const accepted = await acceptedUpdates(tx.manager, order.id);
    // "Now" after the lock: decisions of one order are taken in the order they commit.
    const now = new Date();
    const orderStatus: OrderStatus = request.previousStatus === 'CANCELED' ? 'CANCELED' : order.status;
    const decision = evaluateStatusPush(
      {
        accepted: accepted.map((update) => ({ statusUpdateId: update.id, action: update.action, acceptedAt: update.acceptedAt, releaseAt: update.state === 'held' ? update.notBefore : null })),
        approvedAt: order.approvedAt,
        orderStatus,
      },
      request.action,
      platform,
      now,
      { holdMs: this.config.PLATFORM_A_PREPARE_HOLD_MS },
    );
    if (decision.decision === 'duplicate') {
      return { statusUpdateId: decision.of, outcome: 'duplicate', message: `${request.action} was already accepted for this order: nothing is dispatched again.` };
    }
    if (decision.decision === 'refuse') {
      throw new ProblemException(409, decision.code, REFUSALS[decision.code], undefined, { currentStatus: order.status });
    }

    const statusUpdateId = randomUUID();
    const held = decision.decision === 'hold';
    const notBefore = held ? decision.releaseAt : now;
    const correlationId = currentCorrelationId() ?? null;
    // Queued: sent at once after the commit (sendNow); the task wakes it only if that send did not end it.
    const taskDueAt = held ? notBefore : this.worker.fallbackDueAt(now);
    const taskHeaders: Record<string, string> = correlationId ? { [CORRELATION_HEADER]: correlationId } : {};
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
    await insertStatusUpdate(tx.manager, update, taskDueAt, taskHeaders);
    // The courier core reports a fact: the order's status follows at once; the platform hears it when the queue allows.
    await moveOrder(tx, order, statusPushPath(request.action, order.status), request.action, cancellationOf(request.action, request.reason), now);

    const message = held
      ? `${request.action} held until ${notBefore.toISOString()} (${decision.reason === 'PREPARE_HOLD' ? `${wireCode} PREPARE hold` : 'behind an earlier held update'}), then sent to ${wireCode}.`
      : `${request.action} queued for ${wireCode}.`;
    return { statusUpdateId, outcome: held ? 'held' : 'queued', message };
  }
}
