import { Ctx, EventPattern } from '@nestjs/microservices';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Queues, RoutingKey } from '@courier/contracts';
import { currentCorrelationId } from '@courier/logging';
import { MessageConsumer, MessageContext } from '@courier/messaging';
import { GroupCommit } from '../common/group-commit';
import { allowanceSql, CLAIMED_COLUMNS, DeliveryPump } from '../sending/delivery-pump';
import { ClaimedDelivery } from '../sending/delivery-worker';
import { hostKeySql } from '../sending/host-limiter';
import { WebhookDraft, webhookFromOrderEvent } from './webhook-payload';

/** The consumer name of the inbox rows (processed_messages) of this queue. */
export const ORDER_EVENTS_CONSUMER = 'webhook-sender.order-events';
const PREFETCH = 256;

interface Arrival {
  messageId: string;
  webhook: WebhookDraft;
  /** The event's correlation id (the status change's request): sent with every attempt. */
  correlationId: string | null;
}

/**
 * order.status_changed and order.canceled become deliveries. For each message, in one statement:
 * its inbox row (processed_messages, as UnitOfWork.consumeOnce writes it: a redelivered message does
 * nothing) and its delivery, with the webhook body serialised once, queued due now (the durable work
 * the DeliveryPump claims). Those the pump has free slots for are leased in the same statement and
 * handed to it at once (no claim round trip). Messages that arrive together are stored together
 * (group commit: one statement per batch, one message alone when a batch fails).
 *
 * An account without a URL for the event gets the delivery recorded as `skipped` (visible in the
 * log; a redelivery sends it once a URL is set). An account the sender does not know yet (its
 * events lag) gets a pending delivery: the attempt finds out and retries.
 */
@MessageConsumer()
export class OrderEventsConsumer {
  private readonly batches = new GroupCommit<Arrival>({ maxBatch: 100, maxConcurrent: 3, splitOnFailure: true, write: (arrivals) => this.store(arrivals) });

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly pump: DeliveryPump,
  ) {}

  // A deep prefetch lets the messages that arrive together be stored together (bigger batches).
  @EventPattern([RoutingKey.OrderStatusChanged, RoutingKey.OrderCanceled], { queue: Queues.senderOrderEvents, prefetch: PREFETCH })
  async onOrderEvent(@Ctx() context: MessageContext): Promise<void> {
    const message = context.message;
    // An event that cannot become a webhook throws: after the delivery limit it is dead-lettered.
    const webhook = webhookFromOrderEvent(message.routingKey, message.payload);
    // Read here: the batch is written later, outside this message's scope.
    await this.batches.add({ messageId: message.messageId, webhook, correlationId: currentCorrelationId() ?? null });
  }

  private async store(arrivals: Arrival[]): Promise<void> {
    const unique = [...new Map(arrivals.map((arrival) => [arrival.messageId, arrival])).values()];
    const column = <K extends keyof WebhookDraft>(key: K) => unique.map((arrival) => arrival.webhook[key]);
    // Free slots of the pump: the new deliveries that fit are leased right here and started at once.
    const reservation = this.pump.reserve(unique.length);
    let stored: Array<ClaimedDelivery & { handed_over: boolean }> = [];
    try {
      stored = await this.dataSource.query(
        `WITH inbox AS (
           INSERT INTO processed_messages (consumer, message_id) SELECT $1, unnest($2::text[])
           ON CONFLICT DO NOTHING RETURNING message_id
         ), arrival AS (
           SELECT * FROM unnest($2::text[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $15::text[])
             AS a(message_id, id, restaurant_id, event, order_id, yemek_kurye_order_id, source_key, body, correlation_id)
         ), fresh AS (
           SELECT a.*, acc.restaurant_id IS NOT NULL AS account_known,
                  CASE WHEN a.event = 'order.status_changed' THEN acc.status_url ELSE acc.cancel_url END AS url
             FROM arrival a JOIN inbox USING (message_id) LEFT JOIN webhook_accounts acc ON acc.restaurant_id = a.restaurant_id
         ), stored AS (
           INSERT INTO webhook_deliveries (id, restaurant_id, event, order_id, yemek_kurye_order_id, source_key, url, body, correlation_id, status,
                                           cycle_started_at, next_attempt_at, last_error, created_at, updated_at)
           SELECT id, restaurant_id, event, order_id, yemek_kurye_order_id, source_key, url, body, correlation_id,
                  CASE WHEN account_known AND url IS NULL THEN 'skipped' ELSE 'pending' END, $10::timestamptz,
                  CASE WHEN account_known AND url IS NULL THEN NULL ELSE $10::timestamptz END,
                  CASE WHEN account_known AND url IS NULL
                       THEN 'no ' || CASE WHEN event = 'order.status_changed' THEN 'status' ELSE 'cancel' END || ' URL configured' END,
                  $10::timestamptz, $10::timestamptz
             FROM fresh
           -- The same change published twice (another message id) is one webhook.
           ON CONFLICT (source_key) DO NOTHING
           RETURNING *
         ), ranked AS (
           SELECT s.id, coalesce(${hostKeySql('s.url')}, '') AS host,
                  row_number() OVER (PARTITION BY coalesce(${hostKeySql('s.url')}, '') ORDER BY s.id) AS place, row_number() OVER (ORDER BY s.id) AS overall
             FROM stored s WHERE s.status = 'pending'
         ), queued AS (
           INSERT INTO webhook_delivery_queue (delivery_id, host, due_at, lease_until)
           SELECT id, host, $10::timestamptz,
                  CASE WHEN overall <= $11 AND place <= ${allowanceSql('host', '$12', '$13')} THEN $10::timestamptz + ($14::bigint * interval '1 millisecond') END
             FROM ranked
           RETURNING delivery_id, lease_until IS NOT NULL AS handed_over
         )
         SELECT ${CLAIMED_COLUMNS}, q.handed_over
           FROM queued q JOIN stored d ON d.id = q.delivery_id LEFT JOIN webhook_accounts a ON a.restaurant_id = d.restaurant_id`,
        [
          ORDER_EVENTS_CONSUMER,
          unique.map((arrival) => arrival.messageId),
          unique.map(() => randomUUID()),
          column('restaurantId'),
          column('event'),
          column('orderId'),
          column('yemekKuryeOrderId'),
          column('sourceKey'),
          column('body'),
          new Date(),
          reservation.slots,
          reservation.limits,
          reservation.defaultAllowance,
          reservation.leaseMs,
          unique.map((arrival) => arrival.correlationId),
        ],
      );
    } finally {
      this.pump.start(
        reservation,
        stored.filter((delivery) => delivery.handed_over),
      );
    }
    // Queued without a lease (no free slot, or their host is busy): the pump claims them.
    if (stored.some((delivery) => !delivery.handed_over)) this.pump.nudge();
  }
}
