import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RoutingKey } from '@courier/contracts';
import { identityKey } from '@courier/domain';
import { CORRELATION_HEADER } from '@courier/logging';
import { outboxInsert, outboxSettle } from '@courier/messaging';
import { WriteCoalescer } from '@courier/persistence';
import type { AccountRow } from '../accounts/accounts.model';
import { accountFromRow } from '../accounts/accounts.repository';
import { CoordinatesSource, IntakeOrder, IntakeOrderState } from './intake-order';
import type { ProcessingOutcome } from './order-processing.decisions';
import type { AcceptedOrder, OrderToProcess } from './orders.model';

/** Statements at once per kind (the pool of DATABASE_POOL_SIZE also serves the relay) and rows each. */
const INSERT_BATCHING = { maxBatch: 100, maxInFlight: 3 };
const PROCESSING_BATCHING = { maxBatch: 100, maxInFlight: 2 };

/** An `orders` row as SQL returns it; mapped to IntakeOrder at the repository's edge. */
interface OrderRow {
  restaurant_id: string;
  order_id: string;
  yemek_kurye_order_id: string;
  payload_hash: string;
  payload: Record<string, unknown>;
  state: IntakeOrderState;
  attempt: number;
  received_at: Date;
  processed_at: Date | null;
  failed_at: Date | null;
  failure_reason: string | null;
  order_number: string | null;
  delivery_latitude: number | null;
  delivery_longitude: number | null;
  coordinates_source: CoordinatesSource | null;
}

function orderFromRow(row: OrderRow): IntakeOrder {
  return {
    restaurantId: row.restaurant_id,
    orderId: row.order_id,
    yemekKuryeOrderId: row.yemek_kurye_order_id,
    payloadHash: row.payload_hash,
    payload: row.payload,
    state: row.state,
    attempt: row.attempt,
    receivedAt: row.received_at,
    processedAt: row.processed_at,
    failedAt: row.failed_at,
    failureReason: row.failure_reason,
    orderNumber: row.order_number,
    deliveryLatitude: row.delivery_latitude,
    deliveryLongitude: row.delivery_longitude,
    coordinatesSource: row.coordinates_source,
  };
}

const ORDER_COLUMNS = `restaurant_id, order_id, yemek_kurye_order_id, payload_hash, payload, state, attempt, received_at, processed_at,
  failed_at, failure_reason, order_number, delivery_latitude, delivery_longitude, coordinates_source`;

/**
 * The order.received payload (OrderReceivedEvent) built in SQL from the order's columns. Each
 * statement that accepts an order writes this outbox row in the same statement (a data-modifying
 * CTE): one round trip, one transaction, so a 202 always has its event and vice versa.
 */
const ORDER_RECEIVED_PAYLOAD = `jsonb_build_object('yemekKuryeOrderId', yemek_kurye_order_id, 'restaurantId', restaurant_id, 'orderId', order_id)`;

/** Outbox headers of an accepted order's events: its request's correlation id and trace context. */
export function eventHeaders(order: AcceptedOrder): Record<string, string> {
  return { ...order.trace, ...(order.correlationId ? { [CORRELATION_HEADER]: order.correlationId } : {}) };
}

/**
 * intake's `orders` table (with the outbox rows its state moves write), in SQL: the hot paths are
 * one statement per batch of concurrent requests (WriteCoalescer), and each state move writes its
 * event in the same statement, so no order changes state without its event.
 */
@Injectable()
export class OrdersRepository {
  private readonly inserts = new WriteCoalescer<AcceptedOrder, boolean>((orders) => this.insertBatch(orders), INSERT_BATCHING);
  private readonly processingReads = new WriteCoalescer<string, OrderToProcess | undefined>((ids) => this.loadBatch(ids), PROCESSING_BATCHING);
  private readonly processingWrites = new WriteCoalescer<ProcessingOutcome, boolean>((outcomes) => this.completeBatch(outcomes), PROCESSING_BATCHING);

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Stores a new order with its order.received event; false when the restaurant already has that
   * orderId (by identity key). Concurrent calls share one statement (WriteCoalescer); each still learns whether its
   * own row went in, and answers only after the commit.
   */
  insertAccepted(order: AcceptedOrder): Promise<boolean> {
    return this.inserts.submit(order);
  }

  /**
   * Accepts a FAILED order again (new id, payload and time), with its event; false when it is no
   * longer FAILED. One CTE: the order is ACCEPTED again only together with its order.received.
   */
  async acceptFailedAgain(order: AcceptedOrder): Promise<boolean> {
    const rows: Array<{ changed: number }> = await this.dataSource.query(
      `WITH changed AS (
         UPDATE orders SET yemek_kurye_order_id = $3, payload_hash = $4, payload = $5::jsonb, state = 'ACCEPTED', attempt = attempt + 1,
                received_at = $6, processed_at = NULL, failed_at = NULL, failure_reason = NULL, order_number = NULL,
                delivery_latitude = NULL, delivery_longitude = NULL, coordinates_source = NULL, requeued_at = NULL
          WHERE restaurant_id = $1 AND order_id = $2 AND state = 'FAILED'
          RETURNING restaurant_id, order_id, yemek_kurye_order_id
       ), event AS (
         ${outboxInsert({ from: 'changed', routingKey: '$7', payload: ORDER_RECEIVED_PAYLOAD, headers: '$8::jsonb' })}
       )
       SELECT count(*)::int AS changed FROM changed`,
      [
        order.restaurantId,
        order.orderId,
        order.yemekKuryeOrderId,
        order.payloadHash,
        JSON.stringify(order.payload),
        order.receivedAt,
        RoutingKey.OrderReceived,
        JSON.stringify(eventHeaders(order)),
      ],
    );
    return rows[0].changed > 0;
  }

  /**
   * The restaurant's order with this orderId: the same identity key (case, width and surrounding
   * space ignored), the exact id first (an order kept without a key by the identity-key migration).
   */
  async find(restaurantId: string, orderId: string): Promise<IntakeOrder | undefined> {
    const rows: OrderRow[] = await this.dataSource.query(
      `SELECT ${ORDER_COLUMNS} FROM orders WHERE restaurant_id = $1 AND (order_id_key = $3 OR order_id = $2) ORDER BY order_id = $2 DESC LIMIT 1`,
      [restaurantId, orderId, identityKey(orderId)],
    );
    return rows[0] && orderFromRow(rows[0]);
  }

  /** The order of `yemekKuryeOrderId` with its account, for processing (concurrent reads share a statement). */
  loadForProcessing(yemekKuryeOrderId: string): Promise<OrderToProcess | undefined> {
    return this.processingReads.submit(yemekKuryeOrderId);
  }

  /**
   * Ends processing: moves the order from ACCEPTED to the outcome's state and writes its event, in
   * one statement (concurrent outcomes share it). False when the order was no longer ACCEPTED:
   * the state move is what makes processing idempotent, whatever message asked for it.
   */
  completeProcessing(outcome: ProcessingOutcome): Promise<boolean> {
    return this.processingWrites.submit(outcome);
  }

  /**
   * Publishes order.received again for orders ACCEPTED (or last re-published) longer ago than
   * `olderThanMs`: the cure for an event dead-lettered while the database was down. Rows are
   * claimed with SKIP LOCKED so replicas sweeping at once take different ones. One CTE: an order
   * is marked re-published (requeued_at) only together with its new event. Returns how many.
   */
  async requeueStuck(olderThanMs: number, limit = 100): Promise<number> {
    const [row]: Array<{ requeued: number }> = await this.dataSource.query(
      `WITH stuck AS (
         SELECT restaurant_id, order_id FROM orders
          WHERE state = 'ACCEPTED' AND coalesce(requeued_at, received_at) < now() - ($1::bigint * interval '1 millisecond')
          ORDER BY received_at LIMIT $2 FOR UPDATE SKIP LOCKED
       ), requeued AS (
         UPDATE orders SET requeued_at = now() FROM stuck
          WHERE orders.restaurant_id = stuck.restaurant_id AND orders.order_id = stuck.order_id
          RETURNING orders.restaurant_id, orders.order_id, orders.yemek_kurye_order_id
       ), event AS (
         ${outboxInsert({ from: 'requeued', routingKey: '$3', payload: ORDER_RECEIVED_PAYLOAD })}
       )
       SELECT count(*)::int AS requeued FROM requeued`,
      [olderThanMs, limit, RoutingKey.OrderReceived],
    );
    return row.requeued;
  }

  /**
   * One statement for a batch of new orders and their events: rows that conflict with an existing
   * order (or an earlier row of the batch) are skipped, and only inserted rows get an event.
   */
  private async insertBatch(orders: AcceptedOrder[]): Promise<boolean[]> {
    const rows = orders.map((order) => ({
      restaurant_id: order.restaurantId,
      order_id: order.orderId,
      order_id_key: identityKey(order.orderId),
      yemek_kurye_order_id: order.yemekKuryeOrderId,
      payload_hash: order.payloadHash,
      payload: order.payload,
      received_at: order.receivedAt.toISOString(),
      // The flush runs in one request's async context: each order carries its own correlation id.
      headers: eventHeaders(order),
      event_id: order.localClaim?.receivedEventId ?? null,
      claim_ms: order.localClaim?.leaseMs ?? null,
    }));
    const inserted: Array<{ yemek_kurye_order_id: string }> = await this.dataSource.query(
      `WITH incoming AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(restaurant_id text, order_id text, order_id_key text, yemek_kurye_order_id uuid,
                                                          payload_hash text, payload jsonb, received_at timestamptz, headers jsonb,
                                                          event_id uuid, claim_ms int)
       ), changed AS (
         INSERT INTO orders (restaurant_id, order_id, order_id_key, yemek_kurye_order_id, payload_hash, payload, state, received_at)
         SELECT restaurant_id, order_id, order_id_key, yemek_kurye_order_id, payload_hash, payload, 'ACCEPTED', received_at FROM incoming
         ORDER BY restaurant_id, order_id_key -- one key order for every batch: concurrent batches cannot deadlock
         -- The exact id (primary key) or the same id by identity (orders_restaurant_order_identity_key).
         ON CONFLICT DO NOTHING
         RETURNING yemek_kurye_order_id
       ), event AS (
         -- Leased (the relay's lease) when the accepting process processes the order itself.
         ${outboxInsert({
           from: 'changed JOIN incoming USING (yemek_kurye_order_id)',
           id: 'coalesce(incoming.event_id, gen_random_uuid())',
           routingKey: '$2',
           payload: ORDER_RECEIVED_PAYLOAD,
           headers: 'incoming.headers',
           leasedUntil: "now() + incoming.claim_ms * interval '1 millisecond'",
         })}
       )
       SELECT yemek_kurye_order_id FROM changed`,
      [JSON.stringify(rows), RoutingKey.OrderReceived],
    );
    const insertedIds = new Set(inserted.map((row) => row.yemek_kurye_order_id));
    return orders.map((order) => insertedIds.has(order.yemekKuryeOrderId));
  }

  private async loadBatch(ids: string[]): Promise<Array<OrderToProcess | undefined>> {
    // The account is read with the order (one statement per batch): processing needs both.
    const rows: Array<OrderRow & { account: AccountRow | null }> = await this.dataSource.query(
      `SELECT ${ORDER_COLUMNS.replace(/(\w+)/g, 'o.$1')}, CASE WHEN a.restaurant_id IS NULL THEN NULL ELSE to_jsonb(a) END AS account
         FROM orders o LEFT JOIN accounts a ON a.restaurant_id = o.restaurant_id
        WHERE o.yemek_kurye_order_id = ANY($1::uuid[])`,
      [[...new Set(ids)]],
    );
    const byId = new Map(rows.map(({ account, ...row }) => [row.yemek_kurye_order_id, { order: orderFromRow(row), account: account ? accountFromRow(account) : null }]));
    return ids.map((id) => byId.get(id));
  }

  private async completeBatch(outcomes: ProcessingOutcome[]): Promise<boolean[]> {
    // One outcome per order per statement (a second one, from a duplicate message, changes nothing).
    const first = new Map<string, ProcessingOutcome>();
    for (const outcome of outcomes) if (!first.has(outcome.yemekKuryeOrderId)) first.set(outcome.yemekKuryeOrderId, outcome);
    const input = [...first.values()].map((outcome) => ({
      yemek_kurye_order_id: outcome.yemekKuryeOrderId,
      state: outcome.state,
      at: outcome.at.toISOString(),
      failure_reason: outcome.failureReason ?? null,
      latitude: outcome.coordinates?.latitude ?? null,
      longitude: outcome.coordinates?.longitude ?? null,
      coordinates_source: outcome.coordinates?.source ?? null,
      routing_key: outcome.event.routingKey,
      event: outcome.event.payload,
      headers: outcome.event.headers,
      received_event_id: outcome.receivedEventId ?? null,
    }));
    const changed: Array<{ yemek_kurye_order_id: string }> = await this.dataSource.query(
      `WITH input AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(yemek_kurye_order_id uuid, state text, at timestamptz, failure_reason text,
           latitude double precision, longitude double precision, coordinates_source text, routing_key text, event jsonb, headers jsonb,
           received_event_id uuid)
       ), changed AS (
         UPDATE orders SET state = input.state,
                processed_at = CASE WHEN input.state = 'PROCESSED' THEN input.at END,
                failed_at = CASE WHEN input.state = 'FAILED' THEN input.at END,
                failure_reason = input.failure_reason,
                delivery_latitude = input.latitude, delivery_longitude = input.longitude, coordinates_source = input.coordinates_source
           FROM input
          WHERE orders.yemek_kurye_order_id = input.yemek_kurye_order_id AND orders.state = 'ACCEPTED'
          RETURNING orders.yemek_kurye_order_id
       ), event AS (
         ${outboxInsert({ from: 'input JOIN changed USING (yemek_kurye_order_id)', routingKey: 'input.routing_key', payload: 'input.event', headers: 'input.headers' })}
       ), received_done AS (
         -- Processed where it was accepted: its leased order.received is not needed any more (never sent).
         ${outboxSettle({ from: 'input JOIN changed USING (yemek_kurye_order_id)', id: 'input.received_event_id' })}
       )
       SELECT yemek_kurye_order_id FROM changed`,
      [JSON.stringify(input)],
    );
    const changedIds = new Set(changed.map((row) => row.yemek_kurye_order_id));
    return outcomes.map((outcome) => first.get(outcome.yemekKuryeOrderId) === outcome && changedIds.has(outcome.yemekKuryeOrderId));
  }
}
