import { Column, Entity, PrimaryColumn } from 'typeorm';

export const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const WEBHOOK_EVENTS = ['order.status_changed', 'order.canceled', 'restaurant.availability_changed', 'catalog.drift_detected'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/**
 * One webhook: the exact bytes of its body (serialised once), where it stands and when it is tried
 * next. Its id is the webhook id the receiver sees on every attempt (X-Webhook-Id, webhook-id).
 */
@Entity({ name: 'webhook_deliveries' })
export class WebhookDeliveryEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'restaurant_id', type: 'text' })
  restaurantId: string;

  @Column({ type: 'text' })
  event: WebhookEvent;

  /** The order of an order webhook; null for a restaurant's own (restaurant.availability_changed, catalog.drift_detected). */
  @Column({ name: 'order_id', type: 'text', nullable: true })
  orderId: string | null;

  @Column({ name: 'yemek_kurye_order_id', type: 'text', nullable: true })
  yemekKuryeOrderId: string | null;

  /** The platform integration a restaurant webhook is about; null for order webhooks. */
  @Column({ name: 'integration_id', type: 'text', nullable: true })
  integrationId: string | null;

  /** The change it reports (event, order, sequence and time; or the availability change's id): a second publication of one change is not a second webhook. */
  @Column({ name: 'source_key', type: 'text' })
  sourceKey: string;

  /** The receiver URL when the delivery was created (null: none known yet); each attempt records the URL it used. */
  @Column({ type: 'text', nullable: true })
  url: string | null;

  @Column({ type: 'text' })
  body: string;

  /** The correlation id of the order event it was made from: X-Correlation-Id of every attempt (null: the event had none). */
  @Column({ name: 'correlation_id', type: 'text', nullable: true })
  correlationId: string | null;

  /** The W3C traceparent of the order event it was made from: its attempts run in that trace (null: not traced). */
  @Column({ type: 'text', nullable: true })
  traceparent: string | null;

  @Column({ type: 'text' })
  status: DeliveryStatus;

  @Column({ type: 'int' })
  attempts: number;

  /** 1, then one more per redelivery: an attempt that was in flight during a redelivery does not end the new cycle. */
  @Column({ type: 'int' })
  cycle: number;

  /** Start of the current retry cycle (creation, or the last redelivery): alert and max age count from it. */
  @Column({ name: 'cycle_started_at', type: 'timestamptz' })
  cycleStartedAt: Date;

  @Column({ name: 'cycle_failures', type: 'int' })
  cycleFailures: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true })
  lastAttemptAt: Date | null;

  @Column({ name: 'last_status_code', type: 'int', nullable: true })
  lastStatusCode: number | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;

  @Column({ name: 'alert_raised_at', type: 'timestamptz', nullable: true })
  alertRaisedAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

/**
 * The durable work of the sender: a row per open delivery (pending or retrying), due at its next
 * attempt, leased while a process works on it. Narrow, so that claiming touches little.
 */
@Entity({ name: 'webhook_delivery_queue' })
export class WebhookDeliveryQueueEntity {
  @PrimaryColumn({ name: 'delivery_id', type: 'uuid' })
  deliveryId: string;

  /** Receiver host and port (hostKey of the URL last used, else of the one at creation): claims are limited per host. */
  @Column({ type: 'text' })
  host: string;

  @Column({ name: 'due_at', type: 'timestamptz' })
  dueAt: Date;

  /** Past it, another process may claim the delivery (its worker died). */
  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil: Date | null;
}
