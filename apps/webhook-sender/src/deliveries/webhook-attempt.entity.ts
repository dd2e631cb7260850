import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One try of a delivery: when, where to, what the receiver answered (or why there was no answer). */
@Entity({ name: 'webhook_attempts' })
export class WebhookAttemptEntity {
  @PrimaryColumn({ name: 'delivery_id', type: 'uuid' })
  deliveryId: string;

  /** 1, 2, ... over the delivery's whole life (the X-Webhook-Attempt header). */
  @PrimaryColumn({ type: 'int' })
  attempt: number;

  @Column({ type: 'text', nullable: true })
  url: string | null;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt: Date;

  @Column({ name: 'status_code', type: 'int', nullable: true })
  statusCode: number | null;

  @Column({ name: 'latency_ms', type: 'int' })
  latencyMs: number;

  @Column({ type: 'text', nullable: true })
  error: string | null;
}
