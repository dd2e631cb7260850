import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** An event written in the same transaction as the state change it reports; the relay publishes it. */
@Entity({ name: 'outbox_messages' })
export class OutboxMessageEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'routing_key', type: 'text' })
  routingKey: string;

  @Column({ type: 'jsonb' })
  payload: unknown;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  headers: Record<string, string>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt: Date | null;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  /** While in the future, a relay is publishing the row and others skip it. */
  @Column({ name: 'claimed_until', type: 'timestamptz', nullable: true })
  claimedUntil: Date | null;
}

/** A message this app's consumer has applied: a redelivery finds it and has no second effect. */
@Entity({ name: 'processed_messages' })
export class ProcessedMessageEntity {
  @PrimaryColumn({ type: 'text' })
  consumer: string;

  @PrimaryColumn({ name: 'message_id', type: 'text' })
  messageId: string;

  @CreateDateColumn({ name: 'processed_at', type: 'timestamptz' })
  processedAt: Date;
}

/** Durable delayed work: claimed when due, leased while running, retried with backoff. */
@Entity({ name: 'scheduled_tasks' })
@Index('scheduled_tasks_due_idx', ['dueAt'])
export class ScheduledTaskEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  kind: string;

  @Column({ name: 'dedupe_key', type: 'text', nullable: true, unique: true })
  dedupeKey: string | null;

  @Column({ type: 'jsonb' })
  payload: unknown;

  @Column({ name: 'due_at', type: 'timestamptz' })
  dueAt: Date;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil: Date | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  headers: Record<string, string>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

export const MESSAGING_ENTITIES = [OutboxMessageEntity, ProcessedMessageEntity, ScheduledTaskEntity];
