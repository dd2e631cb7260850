import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ErrorCode, FieldError, RoutingKey } from '@courier/contracts';
import { allowedTriggers, CANCEL_REASONS, Cancellation, decideOrderTransition, resolveCancellation } from '@courier/domain';
import { ProblemException } from '@courier/http';
import { UnitOfWork } from '@courier/messaging';
import { isUuid } from '../common/ids';
import { OrderDto } from './dto/order.dto';
import { TransitionRequestDto } from './dto/transition-request.dto';
import { orderCanceledEvent, orderStatusChangedEvent } from './order-events';
import { presentOrder } from './order.presenter';
import { Order, OrderStatusChange, THIRD_PARTY_PROVIDER } from './order.model';
import { findOrder, lockOrder, orderHistory, recordMove } from './order.store';

/** How far in the future an occurredAt may lie (the caller's clock may run a little ahead). */
export const OCCURRED_AT_MAX_SKEW_MS = 30_000;

function orderNotFound(): ProblemException {
  return new ProblemException(404, ErrorCode.OrderNotFound, 'No order with this id.');
}

function invalid(errors: FieldError[]): ProblemException {
  return new ProblemException(422, ErrorCode.ValidationError, 'The request has invalid fields.', errors);
}

type CheckedRequest = { occurredAt?: Date; cancellation?: Cancellation & { reason: string } };

/**
 * Moves orders along the order status table. Each move runs under the order's row lock (SELECT
 * ... FOR UPDATE), so concurrent requests for one order queue up and each sees the status the
 * previous one left: no lost update, and exactly one history row and one event per move, written
 * in the same transaction as the status.
 */
@Injectable()
export class OrderLifecycleService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async get(yemekKuryeOrderId: string): Promise<OrderDto> {
    if (!isUuid(yemekKuryeOrderId)) throw orderNotFound();
    const order = await findOrder(this.dataSource.manager, yemekKuryeOrderId.toLowerCase());
    if (!order) throw orderNotFound();
    return presentOrder(order, await orderHistory(this.dataSource.manager, order.id));
  }

  async transition(yemekKuryeOrderId: string, request: TransitionRequestDto): Promise<OrderDto> {
    const checked = this.check(request, new Date());
    if (!isUuid(yemekKuryeOrderId)) throw orderNotFound();
    const id = yemekKuryeOrderId.toLowerCase();

    return this.unitOfWork.run(async (tx) => {
      // The status table governs THIRD_PARTY orders only; platform orders move by the status push.
      const order = await lockOrder(tx.manager, id, THIRD_PARTY_PROVIDER);
      if (!order) throw orderNotFound();
      // "Now" after the lock: the moment this move is decided, in the order moves are committed.
      const now = new Date();
      const decision = decideOrderTransition(
        { status: order.status, scheduledDeliveryTime: order.scheduledDeliveryTime, acceptedAt: order.receivedAt, finalApprovedAt: order.finalApprovedAt },
        request.trigger,
        now,
      );
      if (!decision.ok && decision.reason === 'INVALID_TRANSITION') {
        throw new ProblemException(409, ErrorCode.InvalidTransition, `Trigger ${request.trigger} is not allowed in status ${order.status}.`, undefined, {
          currentStatus: order.status,
          allowedTriggers: allowedTriggers(order.status),
        });
      }
      if (!decision.ok) {
        throw new ProblemException(
          409,
          ErrorCode.OrderNotDue,
          `The order is scheduled: ${request.trigger} waits for its final approval, due at ${decision.dueAt.toISOString()}.`,
          undefined,
          { currentStatus: order.status, dueAt: decision.dueAt.toISOString() },
        );
      }
      if (checked.occurredAt && checked.occurredAt.getTime() < order.statusChangedAt.getTime()) {
        throw invalid([{ field: 'occurredAt', message: `must not be earlier than the order's last change (${order.statusChangedAt.toISOString()})` }]);
      }

      // Strictly increasing per order: receivers drop an update not newer than the last they applied.
      const timestamp = new Date(Math.max((checked.occurredAt ?? now).getTime(), order.statusChangedAt.getTime() + 1));
      const change: OrderStatusChange = {
        sequence: order.sequence + 1,
        status: decision.next,
        previousStatus: order.status,
        trigger: request.trigger,
        occurredAt: timestamp,
        reason: checked.cancellation?.reason ?? request.reason ?? null,
        cancelReasonId: checked.cancellation?.cancelReasonId ?? null,
        canceledBy: checked.cancellation?.canceledBy ?? null,
      };
      const moved: Order = { ...order, status: change.status, sequence: change.sequence, statusChangedAt: timestamp };
      await recordMove(tx.manager, id, change);
      // A move into CANCELED sends only order.canceled (decisions.md). Only CANCEL leads there,
      // and check() resolved its cancellation.
      if (decision.effect === 'cancel_webhook') {
        await tx.publish(RoutingKey.OrderCanceled, orderCanceledEvent(moved, order.status, checked.cancellation!));
      } else {
        await tx.publish(RoutingKey.OrderStatusChanged, orderStatusChangedEvent(moved, order.status));
      }
      return presentOrder(moved, await orderHistory(tx.manager, id));
    });
  }

  /** The checks that need no order: cancellation fields, occurredAt against the clock. */
  private check(request: TransitionRequestDto, now: Date): CheckedRequest {
    const errors: FieldError[] = [];
    const checked: CheckedRequest = {};
    if (request.trigger === 'CANCEL') {
      const resolved = resolveCancellation(request);
      if (resolved.ok) {
        const { cancelReasonId, canceledBy } = resolved;
        checked.cancellation = { cancelReasonId, canceledBy, reason: request.reason ?? CANCEL_REASONS[cancelReasonId].meaning };
      } else {
        errors.push(...resolved.errors);
      }
    } else {
      for (const field of ['cancelReasonId', 'canceledBy'] as const) {
        if (request[field] !== undefined && request[field] !== null) errors.push({ field, message: 'is only allowed with trigger CANCEL' });
      }
    }
    if (request.occurredAt !== undefined && request.occurredAt !== null) {
      checked.occurredAt = new Date(request.occurredAt);
      if (checked.occurredAt.getTime() > now.getTime() + OCCURRED_AT_MAX_SKEW_MS) {
        errors.push({ field: 'occurredAt', message: `must not be in the future (at most ${OCCURRED_AT_MAX_SKEW_MS / 1000} s of clock skew)` });
      }
    }
    if (errors.length > 0) throw invalid(errors);
    return checked;
  }
}
