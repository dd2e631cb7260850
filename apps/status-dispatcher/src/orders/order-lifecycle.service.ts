import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ErrorCode, FieldError, RoutingKey } from '@courier/contracts';
import { allowedTriggers, CANCEL_REASONS, Cancellation, decideOrderTransition, resolveCancellation } from '@courier/domain';
import { ProblemException } from '@courier/http';
import { Outbox, outboxEvent, UnitOfWork } from '@courier/messaging';
import { orderItemsInCodes } from '../catalog/catalog-order-items';
import { CatalogOrderItemsRepository } from '../catalog/catalog-order-items.repository';
import { isUuid } from '../common/ids';
import { OrderDto, OrderWithItemsDto } from './dto/order.dto';
import { TransitionRequestDto } from './dto/transition-request.dto';
import { orderCanceledEvent, orderStatusChangedEvent } from './order-events';
import { presentOrder } from './order.presenter';
import { Order, OrderStatusChange, THIRD_PARTY_PROVIDER } from './order.model';
import { OrderRepository } from './order.repository';

/**
 * Decisions taken on a plain read and written by compare-and-set before a transition falls back to
 * deciding under the order's row lock (only reached when other moves of the order keep winning).
 */
export const TRANSITION_OPTIMISTIC_ATTEMPTS = 3;

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
 * Moves orders along the order status table. A move is decided on one read of the order and its
 * history and stored by one conditional statement (writeMove: the status, the history row and the
 * event, all or nothing, only if the order's sequence and final approval are as read); when another
 * move of the order came first, the transition reads and decides again, and after
 * TRANSITION_OPTIMISTIC_ATTEMPTS such conflicts it does both under the order's row lock. So
 * concurrent requests for one order are decided one after the other, each on the status the previous
 * one left: no lost update, exactly one history row and one event per move. Two round trips in the
 * common case instead of a six-statement transaction.
 */
@Injectable()
export class OrderLifecycleService {
  constructor(
    private readonly orders: OrderRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly catalogItems: CatalogOrderItemsRepository,
  ) {}

  /** Compare-and-set attempts before the row lock (tests set 0 to take the locked path). */
  optimisticAttempts = TRANSITION_OPTIMISTIC_ATTEMPTS;

  /** The order with its history and its items in the restaurant's codes (a platform order's resolved against the catalog's links now). */
  async get(yemekKuryeOrderId: string): Promise<OrderWithItemsDto> {
    if (!isUuid(yemekKuryeOrderId)) throw orderNotFound();
    const order = await this.orders.find(yemekKuryeOrderId.toLowerCase());
    if (!order) throw orderNotFound();
    const [history, acceptance, stored] = await Promise.all([this.orders.history(order.id), this.orders.acceptance(order.id), this.catalogItems.orderItems(order.id)]);
    const items = stored ? orderItemsInCodes(stored.provider, stored.items, new Map(Object.entries(stored.links))) : [];
    return { ...presentOrder(order, history, acceptance), items };
  }

  async transition(yemekKuryeOrderId: string, request: TransitionRequestDto): Promise<OrderDto> {
    const checked = this.check(request, new Date());
    if (!isUuid(yemekKuryeOrderId)) throw orderNotFound();
    const id = yemekKuryeOrderId.toLowerCase();

    // Contended: under the row lock, the read sees every earlier move of the order and the write cannot conflict.
    const moved = await this.unitOfWork.compareAndSet({
      attempts: this.optimisticAttempts,
      attempt: (db) => this.move(db, id, request, checked),
      lock: (db) => this.orders.lock(db, id, THIRD_PARTY_PROVIDER),
      what: `transition of ${id}`,
    });
    // Written and committed (on either path): wake the relay for the move's event.
    this.outbox.committed(1);
    return moved;
  }

  /**
   * One read (order and history), the status table, and one conditional write (the move, its
   * history entry and its event); undefined when the write found the order changed since the read.
   * Refusals (404, 409, 422) are thrown from what was read: they change nothing.
   */
  private async move(db: EntityManager, id: string, request: TransitionRequestDto, checked: CheckedRequest): Promise<OrderDto | undefined> {
    // The status table governs THIRD_PARTY orders only; platform orders move by the status push.
    const state = await this.orders.readWithHistory(db, id, THIRD_PARTY_PROVIDER);
    if (!state) throw orderNotFound();
    const { order, history } = state;
    // "Now" after the read: the moment this move is decided, in the order moves are written.
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
    // A move into CANCELED sends only order.canceled (decisions.md). Only CANCEL leads there,
    // and check() resolved its cancellation.
    const event =
      decision.effect === 'cancel_webhook'
        ? outboxEvent(RoutingKey.OrderCanceled, orderCanceledEvent(moved, order.status, checked.cancellation!))
        : outboxEvent(RoutingKey.OrderStatusChanged, orderStatusChangedEvent(moved, order.status));
    const written = await this.orders.writeMove(db, id, { change, event, expectedSequence: order.sequence, expectedFinalApprovedAt: order.finalApprovedAt });
    return written ? presentOrder(moved, [...history, change]) : undefined;
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
