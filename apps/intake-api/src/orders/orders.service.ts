import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@courier/contracts';
import { normaliseText } from '@courier/domain';
import { ProblemException } from '@courier/http';
import { currentCorrelationId } from '@courier/logging';
import { Outbox, traceHeaders } from '@courier/messaging';
import { IntakeAccount } from '../accounts/intake-account';
import { IntakeCaller } from '../accounts/intake-auth.guard';
import { ORDER_LIMITS } from './dto/third-party-order.dto';
import { OrderStatusDto } from './dto/order-status.dto';
import { payloadHash } from './canonical-json';
import { acceptedBody, AcceptedOrderBody, IntakeOrder, OrderStatusChange } from './intake-order';
import { OrderStatusHistoryRepository } from './order-status-history.repository';
import { requireOrderIdentity, validateOrder } from './order-validation';
import { OrderProcessingService } from './order-processing.service';
import { takenOrderIdDecision } from './orders.decisions';
import type { AcceptedOrder } from './orders.model';
import { OrdersRepository } from './orders.repository';

export interface AcceptResult {
  body: AcceptedOrderBody;
  /** True when this is the answer to an earlier identical request (Idempotent-Replayed: true). */
  replayed: boolean;
}

/** Rounds of insert-or-read before giving up; only a FAILED row changing under us needs a second. */
const MAX_ACCEPT_ROUNDS = 3;

/** Order intake (steps 4 to 8 of the check order) and the order status read. */
@Injectable()
export class OrdersService {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly statusHistory: OrderStatusHistoryRepository,
    private readonly outbox: Outbox,
    private readonly processing: OrderProcessingService,
  ) {}

  async accept(caller: IntakeCaller, body: Record<string, unknown>): Promise<AcceptResult> {
    const { orderId: sentOrderId, restaurantId } = requireOrderIdentity(body);
    if (restaurantId !== caller.account.restaurantId) {
      throw new ProblemException(404, ErrorCode.RestaurantNotFound, 'No restaurant with this restaurantId belongs to the API key.');
    }
    if (!caller.account.thirdParty?.isActive) {
      throw new ProblemException(403, ErrorCode.IntegrationDisabled, 'The THIRD_PARTY integration of this restaurant is disabled; order intake is paused.');
    }
    // The orderId as stored and compared: NFC and trimmed (a refused one is left for validation to name).
    const sent = normaliseText(sentOrderId);
    const order = sent.ok ? { ...body, orderId: sent.value } : body;
    const errors = validateOrder(order);
    if (errors.length > 0) throw new ProblemException(422, ErrorCode.ValidationError, 'The order has invalid fields.', errors);
    const orderId = order.orderId as string;

    const hash = payloadHash(order);
    for (let round = 0; round < MAX_ACCEPT_ROUNDS; round += 1) {
      const accepted: AcceptedOrder = {
        restaurantId,
        orderId,
        yemekKuryeOrderId: randomUUID(),
        payloadHash: hash,
        payload: order,
        receivedAt: new Date(),
        correlationId: currentCorrelationId(),
        // Read here, like the correlation id: the batch is written in another request's context.
        trace: traceHeaders(),
      };
      if (await this.insertNew(accepted, caller.account)) return this.accepted(accepted);
      const existing = await this.orders.find(restaurantId, orderId);
      // The same id by identity, spelt as first stored: the payloads are compared under that spelling.
      const stored = existing && existing.orderId !== orderId ? { ...order, orderId: existing.orderId } : order;
      const storedHash = stored === order ? hash : payloadHash(stored);
      const decision = takenOrderIdDecision(existing, storedHash);
      if (decision === 'read-again') continue;
      if (decision === 'accept-again') {
        const again: AcceptedOrder = { ...accepted, orderId: stored.orderId as string, payload: stored, payloadHash: storedHash };
        // Accepted again through the broker: its order.received goes out with the relay.
        if (await this.orders.acceptFailedAgain(again)) {
          this.outbox.committed(1);
          return this.accepted(again);
        }
        continue; // another request retried it first: read it again
      }
      if (decision === 'replay') return { body: acceptedBody(existing!), replayed: true };
      throw new ProblemException(409, ErrorCode.DuplicateOrderId, 'This orderId was already used for a different order of this restaurant.');
    }
    throw new Error(`order ${orderId} could not be stored after ${MAX_ACCEPT_ROUNDS} rounds`);
  }

  async status(caller: IntakeCaller, orderId: string): Promise<OrderStatusDto> {
    // Looked up as intake stores it (NFC, trimmed; the exact id for one refused now but stored earlier).
    const sent = normaliseText(orderId);
    const id = sent.ok ? sent.value : orderId;
    // An id intake could never have stored (too long, NUL, broken UTF-16) is simply not found.
    const storable = id.length <= ORDER_LIMITS.id && !id.includes('\u0000') && (id as string & { isWellFormed(): boolean }).isWellFormed();
    const order = storable ? await this.orders.find(caller.account.restaurantId, id) : undefined;
    if (!order) throw new ProblemException(404, ErrorCode.OrderNotFound, 'No order with this orderId for this restaurant.');
    const changes = order.state === 'ACCEPTED' ? [] : await this.statusHistory.history(order.yemekKuryeOrderId);
    return orderStatusView(order, changes);
  }

  /**
   * Inserts a new order; false when its orderId is taken. With room in local processing (the fast
   * path) its order.received is written claimed and the order is processed here right after the
   * commit; otherwise the relay is woken to send order.received to the broker.
   */
  private async insertNew(order: AcceptedOrder, account: IntakeAccount): Promise<boolean> {
    const claim = this.processing.reserveLocal();
    let inserted = false;
    try {
      inserted = await this.orders.insertAccepted({ ...order, localClaim: claim });
    } finally {
      if (claim && !inserted) this.processing.releaseLocal();
    }
    if (inserted && claim) this.processing.processAccepted(order, claim, account);
    else this.outbox.committed(inserted);
    return inserted;
  }

  private accepted(order: AcceptedOrder): AcceptResult {
    return {
      body: acceptedBody(order),
      replayed: false,
    };
  }
}

/**
 * Status: RECEIVED until the lifecycle (status-dispatcher) knows the order, FAILED after a failed
 * processing, else the newest entry of its history. The history starts with the lifecycle's NEW
 * (order.opened), so once this says NEW a transition of the order finds it (read-your-writes).
 */
export function orderStatusView(order: IntakeOrder, changes: Array<Pick<OrderStatusChange, 'sequence' | 'status' | 'previousStatus' | 'occurredAt'>>): OrderStatusDto {
  const history = changes.map((change) => ({ status: change.status, previousStatus: change.previousStatus, timestamp: change.occurredAt.toISOString() }));
  const status = order.state === 'FAILED' ? 'FAILED' : order.state === 'ACCEPTED' ? 'RECEIVED' : (changes.at(-1)?.status ?? 'RECEIVED');
  return {
    orderId: order.orderId,
    restaurantId: order.restaurantId,
    yemekKuryeOrderId: order.yemekKuryeOrderId,
    orderNumber: order.orderNumber,
    status,
    history,
    receivedAt: order.receivedAt.toISOString(),
    ...(order.state === 'FAILED' && order.failureReason ? { failureReason: order.failureReason } : {}),
  };
}
