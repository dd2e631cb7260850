import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@courier/contracts';
import { ProblemException } from '@courier/http';
import { currentCorrelationId } from '@courier/logging';
import { OutboxRelay } from '@courier/messaging';
import { IntakeCaller } from '../accounts/intake-auth.guard';
import { ORDER_LIMITS } from './dto/third-party-order.dto';
import { OrderStatusDto } from './dto/order-status.dto';
import { payloadHash } from './canonical-json';
import { acceptedBody, AcceptedOrderBody, IntakeOrderRow } from './intake-order';
import { requireOrderIdentity, validateOrder } from './order-validation';
import { AcceptedOrder, OrdersRepository, StatusHistoryRow } from './orders.repository';

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
    private readonly relay: OutboxRelay,
  ) {}

  async accept(caller: IntakeCaller, body: Record<string, unknown>): Promise<AcceptResult> {
    const { orderId, restaurantId } = requireOrderIdentity(body);
    if (restaurantId !== caller.account.restaurantId) {
      throw new ProblemException(404, ErrorCode.RestaurantNotFound, 'No restaurant with this restaurantId belongs to the API key.');
    }
    if (!caller.account.thirdParty?.isActive) {
      throw new ProblemException(403, ErrorCode.IntegrationDisabled, 'The THIRD_PARTY integration of this restaurant is disabled; order intake is paused.');
    }
    const errors = validateOrder(body);
    if (errors.length > 0) throw new ProblemException(422, ErrorCode.ValidationError, 'The order has invalid fields.', errors);

    const hash = payloadHash(body);
    for (let round = 0; round < MAX_ACCEPT_ROUNDS; round += 1) {
      const order: AcceptedOrder = {
        restaurantId,
        orderId,
        yemekKuryeOrderId: randomUUID(),
        payloadHash: hash,
        payload: body,
        receivedAt: new Date(),
        correlationId: currentCorrelationId(),
      };
      if (await this.insertNew(order)) return this.accepted(order);
      const existing = await this.orders.find(restaurantId, orderId);
      if (!existing) continue;
      if (existing.state === 'FAILED') {
        // Accepted again through the broker: its order.received goes out with the relay.
        if (await this.orders.acceptFailedAgain(order)) {
          this.relay.nudge();
          return this.accepted(order);
        }
        continue; // another request retried it first: read it again
      }
      if (existing.payload_hash === hash) return { body: acceptedBody(existing), replayed: true };
      throw new ProblemException(409, ErrorCode.DuplicateOrderId, 'This orderId was already used for a different order of this restaurant.');
    }
    throw new Error(`order ${orderId} could not be stored after ${MAX_ACCEPT_ROUNDS} rounds`);
  }

  async status(caller: IntakeCaller, orderId: string): Promise<OrderStatusDto> {
    // An id intake could never have stored (too long, NUL, broken UTF-16) is simply not found.
    const storable = orderId.length <= ORDER_LIMITS.id && !orderId.includes('\u0000') && (orderId as string & { isWellFormed(): boolean }).isWellFormed();
    const row = storable ? await this.orders.find(caller.account.restaurantId, orderId) : undefined;
    if (!row) throw new ProblemException(404, ErrorCode.OrderNotFound, 'No order with this orderId for this restaurant.');
    const changes = row.state === 'ACCEPTED' ? [] : await this.orders.history(row.yemek_kurye_order_id);
    return orderStatusView(row, changes);
  }

  /** Inserts a new order; false when its orderId is taken. Its order.received is committed: the relay is woken to send it. */
  private async insertNew(order: AcceptedOrder): Promise<boolean> {
    const inserted = await this.orders.insertAccepted(order);
    if (inserted) this.relay.nudge();
    return inserted;
  }

  private accepted(order: AcceptedOrder): AcceptResult {
    return {
      body: acceptedBody({ order_id: order.orderId, yemek_kurye_order_id: order.yemekKuryeOrderId, received_at: order.receivedAt }),
      replayed: false,
    };
  }
}

/**
 * Status: RECEIVED until the lifecycle (status-dispatcher) knows the order, FAILED after a failed
 * processing, else the newest entry of its history. The history starts with the lifecycle's NEW
 * (order.opened), so once this says NEW a transition of the order finds it (read-your-writes).
 */
export function orderStatusView(row: IntakeOrderRow, changes: StatusHistoryRow[]): OrderStatusDto {
  const history = changes.map((change) => ({ status: change.status, previousStatus: change.previous_status, timestamp: change.occurred_at.toISOString() }));
  const status = row.state === 'FAILED' ? 'FAILED' : row.state === 'ACCEPTED' ? 'RECEIVED' : (changes.at(-1)?.status ?? 'RECEIVED');
  return {
    orderId: row.order_id,
    restaurantId: row.restaurant_id,
    yemekKuryeOrderId: row.yemek_kurye_order_id,
    orderNumber: row.order_number,
    status,
    history,
    receivedAt: row.received_at.toISOString(),
    ...(row.state === 'FAILED' && row.failure_reason ? { failureReason: row.failure_reason } : {}),
  };
}
