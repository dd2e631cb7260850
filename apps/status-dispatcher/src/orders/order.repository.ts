import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { OutboxEvent, outboxEventsParam, outboxInsertEvents } from '@courier/messaging';
import type { Order, OrderAcceptance, OrderStatusChange } from './order.model';

type Queryable = Pick<EntityManager, 'query'>;

export const ORDER_COLUMNS = `id, order_id AS "orderId", restaurant_id AS "restaurantId", provider, provider_restaurant_id AS "providerRestaurantId",
  order_number AS "orderNumber", status, sequence, received_at AS "receivedAt", scheduled_delivery_time AS "scheduledDeliveryTime",
  final_approval_due_at AS "finalApprovalDueAt", final_approved_at AS "finalApprovedAt", status_changed_at AS "statusChangedAt"`;

/** A VERIFY, REJECT or CANCEL of the order `o` reached its platform: the platform's question (accept or not) is answered. */
export const ANSWERED_ON_PLATFORM = `EXISTS (SELECT 1 FROM status_updates u WHERE u.order_id = o.id AND u.action IN ('VERIFY', 'REJECT', 'CANCEL') AND u.state = 'sent')`;

const CHANGE_COLUMNS = `sequence, status, previous_status AS "previousStatus", trigger, occurred_at AS "occurredAt", reason,
  cancel_reason_id AS "cancelReasonId", canceled_by AS "canceledBy"`;

/** A decided move: the change, its event, and the order's state it was decided on. */
export interface MoveWrite {
  change: OrderStatusChange;
  event: OutboxEvent;
  /** The order's `sequence` and `finalApprovedAt` as read: the move is stored only if both are unchanged. */
  expectedSequence: number;
  expectedFinalApprovedAt: Date | null;
}

/**
 * The orders tables (`orders`, `order_status_changes`, `restaurant_order_counters`) as the lifecycle
 * of THIRD_PARTY orders uses them. Plain SQL rather than TypeORM's query builder: the transition is
 * the hot path, and building and hydrating through the ORM cost more CPU than the queries
 * themselves. Methods that take `db` run in the caller's transaction.
 */
@Injectable()
export class OrderRepository {
  constructor(@InjectDataSource() private readonly dataSource: Pick<DataSource, 'query'>) {}

  async find(id: string): Promise<Order | undefined> {
    // A withheld platform order is not the account's yet (its integration is not verified).
    const [order] = await this.dataSource.query(`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = $1 AND NOT withheld`, [id]);
    return order;
  }

  /** The order of `provider`, locked until the transaction ends: moves of one order run one at a time. */
  async lock(db: Queryable, id: string, provider?: string): Promise<Order | undefined> {
    const [order] = await db.query(`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = $1 AND ($2::text IS NULL OR provider = $2) FOR UPDATE`, [id, provider ?? null]);
    return order;
  }

  /** A platform order's accept-by time (null for orders without one), and whether the platform's question is answered. */
  async acceptance(id: string): Promise<OrderAcceptance> {
    const [row] = await this.dataSource.query(`SELECT accept_by AS "acceptBy", ${ANSWERED_ON_PLATFORM} AS answered FROM orders o WHERE id = $1`, [id]);
    return row ?? { acceptBy: null, answered: false };
  }

  history(id: string): Promise<OrderStatusChange[]> {
    return this.dataSource.query(`SELECT ${CHANGE_COLUMNS} FROM order_status_changes WHERE order_id = $1 ORDER BY sequence`, [id]);
  }

  /** Creates and locks the restaurant's order-number counter: creations of one restaurant run one at a time. */
  async lockOrderNumbers(db: Queryable, restaurantId: string): Promise<void> {
    await db.query(
      `INSERT INTO restaurant_order_counters (restaurant_id, last_number) VALUES ($1, 0)
       ON CONFLICT (restaurant_id) DO UPDATE SET last_number = restaurant_order_counters.last_number`,
      [restaurantId],
    );
  }

  /** The restaurant's next order number, as a string (an upsert: TypeORM answers an UPDATE with [rows, count]). */
  async nextOrderNumber(db: Queryable, restaurantId: string): Promise<string> {
    const [counter]: Array<{ last_number: string }> = await db.query(
      `INSERT INTO restaurant_order_counters (restaurant_id, last_number) VALUES ($1, 1)
       ON CONFLICT (restaurant_id) DO UPDATE SET last_number = restaurant_order_counters.last_number + 1 RETURNING last_number`,
      [restaurantId],
    );
    return String(counter.last_number);
  }

  /** The id of the order with this id, or of the restaurant's order with this sender orderId. */
  async idOfSenderOrder(db: Queryable, id: string, restaurantId: string, provider: string, orderId: string): Promise<string | undefined> {
    const [row]: Array<{ id: string }> = await db.query(
      'SELECT id FROM orders WHERE id = $1 OR (restaurant_id = $2 AND provider = $3 AND order_id = $4) LIMIT 1',
      [id, restaurantId, provider, orderId],
    );
    return row?.id;
  }

  /** The order (with `details`, the intake order body) and the first entry of its history, in one statement. */
  async insert(db: Queryable, order: Order, details: object): Promise<void> {
    // One CTE: an order never exists without its first history entry.
    await db.query(
      `WITH created AS (
         INSERT INTO orders (id, order_id, restaurant_id, provider, provider_restaurant_id, order_number, status, sequence, details,
                             received_at, scheduled_delivery_time, final_approval_due_at, final_approved_at, status_changed_at)
         SELECT id, order_id, restaurant_id, provider, provider_restaurant_id, order_number, status, sequence, details,
                received_at, scheduled_delivery_time, final_approval_due_at, final_approved_at, status_changed_at
           FROM jsonb_populate_record(NULL::orders, $1::jsonb)
         RETURNING id, sequence, status, status_changed_at)
       INSERT INTO order_status_changes (order_id, sequence, status, occurred_at) SELECT id, sequence, status, status_changed_at FROM created`,
      [
        JSON.stringify({
          id: order.id,
          order_id: order.orderId,
          restaurant_id: order.restaurantId,
          provider: order.provider,
          provider_restaurant_id: order.providerRestaurantId,
          order_number: order.orderNumber,
          status: order.status,
          sequence: order.sequence,
          details,
          received_at: order.receivedAt,
          scheduled_delivery_time: order.scheduledDeliveryTime,
          final_approval_due_at: order.finalApprovalDueAt,
          final_approved_at: order.finalApprovedAt,
          status_changed_at: order.statusChangedAt,
        }),
      ],
    );
  }

  /**
   * The order of `provider` with its history (oldest first), in one statement (one snapshot, no lock):
   * what a transition decides on. `writeMove` stores the decision only if the order is still as read.
   */
  async readWithHistory(db: Queryable, id: string, provider?: string): Promise<{ order: Order; history: OrderStatusChange[] } | undefined> {
    const [row] = await db.query(
      `SELECT ${ORDER_COLUMNS},
              (SELECT coalesce(json_agg(json_build_object('sequence', c.sequence, 'status', c.status, 'previousStatus', c.previous_status, 'trigger', c.trigger,
                                                          'occurredAt', c.occurred_at, 'reason', c.reason, 'cancelReasonId', c.cancel_reason_id, 'canceledBy', c.canceled_by)
                                        ORDER BY c.sequence), '[]')
                 FROM order_status_changes c WHERE c.order_id = orders.id) AS "history"
         FROM orders WHERE id = $1 AND ($2::text IS NULL OR provider = $2)`,
      [id, provider ?? null],
    );
    if (!row) return undefined;
    const { history, ...order } = row as Order & { history: Array<Omit<OrderStatusChange, 'occurredAt'> & { occurredAt: string }> };
    return { order, history: history.map((change) => ({ ...change, occurredAt: new Date(change.occurredAt) })) };
  }

  /**
   * Stores a move in one statement, atomically: the order's new status, sequence and time, its history
   * entry and its outbox event. Conditional, as a compare-and-set on what the decision read: the
   * order's `sequence` and `final_approved_at` unchanged (re-checked on the newest row version after
   * any concurrent writer of the order, whose row lock this UPDATE waits for). Returns false, with
   * nothing written, when another change came first: the caller reads again and decides again.
   */
  async writeMove(db: Queryable, id: string, write: MoveWrite): Promise<boolean> {
    const { change, event } = write;
    // One CTE: a move, its history entry and its event are all written or none, and only on the order as read.
    const [row] = await db.query(
      `WITH change AS (
         SELECT * FROM jsonb_to_record($2::jsonb) AS c(sequence int, status text, "previousStatus" text, trigger text, "occurredAt" timestamptz,
                                                       reason text, "cancelReasonId" text, "canceledBy" text)),
       moved AS (
         UPDATE orders SET status = change.status, sequence = change.sequence, status_changed_at = change."occurredAt", updated_at = now()
           FROM change
          WHERE orders.id = $1 AND orders.sequence = $3 AND orders.final_approved_at IS NOT DISTINCT FROM $4::timestamptz RETURNING orders.id),
       history AS (
         INSERT INTO order_status_changes (order_id, sequence, status, previous_status, trigger, occurred_at, reason, cancel_reason_id, canceled_by)
         SELECT moved.id, change.sequence, change.status, change."previousStatus", change.trigger, change."occurredAt", change.reason, change."cancelReasonId", change."canceledBy"
           FROM moved, change),
       event AS (${outboxInsertEvents('$5', 'moved')})
       SELECT count(*)::int AS written FROM moved`,
      [id, JSON.stringify(change), write.expectedSequence, write.expectedFinalApprovedAt, outboxEventsParam([event])],
    );
    return row.written === 1;
  }

  async markFinalApproved(db: Queryable, id: string, at: Date): Promise<void> {
    await db.query('UPDATE orders SET final_approved_at = $2, updated_at = now() WHERE id = $1', [id, at]);
  }
}
