import type { DeliveryStatus, WebhookEvent } from '../deliveries/webhook-delivery.entity';
import type { WebhookDraft } from '../deliveries/webhook-payload';
import type { ReceiverOutcome } from '../sending/receiver-client';

/** A webhook as the delivery log shows it. */
export interface Delivery {
  id: string;
  restaurantId: string;
  event: WebhookEvent;
  /** Null for a webhook about the restaurant rather than an order. */
  orderId: string | null;
  yemekKuryeOrderId: string | null;
  /** The integration a restaurant webhook is about; null for order webhooks. */
  integrationId: string | null;
  url: string | null;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  alertRaisedAt: Date | null;
  createdAt: Date;
}

/** One try of a delivery. */
export interface DeliveryAttempt {
  attempt: number;
  url: string | null;
  startedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

/** A delivery as a claim (or the store's handover) leases it: the row with its account's URLs and secret as they are now. */
export interface ClaimedDelivery {
  id: string;
  restaurantId: string;
  event: WebhookEvent;
  orderId: string | null;
  body: string;
  /** X-Correlation-Id of every attempt (null: none recorded). */
  correlationId: string | null;
  /** The event's W3C traceparent: every attempt runs in that trace (null: not traced). */
  traceparent: string | null;
  status: DeliveryStatus;
  attempts: number;
  cycle: number;
  cycleStartedAt: Date;
  cycleFailures: number;
  alertRaised: boolean;
  accountKnown: boolean;
  statusUrl: string | null;
  cancelUrl: string | null;
  signingSecretCiphertext: string | null;
  /** The account's rotated-out secret while a grace period may run, and its end (checked at sending time). */
  previousSigningSecretCiphertext: string | null;
  previousSigningSecretValidUntil: Date | null;
}

/** A new delivery from an order or restaurant event (its body serialised once). */
export interface DeliveryArrival extends WebhookDraft {
  messageId: string;
  /** The event's correlation id (the status change's request): sent with every attempt. */
  correlationId: string | null;
  /** The event's W3C traceparent (tracing on), for the attempts' spans. */
  traceparent: string | null;
}

/** Free pump slots for deliveries being stored: those that fit are leased by the store statement itself. */
export interface Handover {
  slots: number;
  /** HostLimiter.claimLimits() as JSON. */
  limits: string;
  defaultAllowance: number;
  leaseMs: number;
}

export type StoredDelivery = ClaimedDelivery & { handedOver: boolean };

export interface DueClaim {
  /** Most deliveries to lease (free slots). */
  limit: number;
  /** Due rows looked at, oldest first. */
  scanLimit: number;
  leaseMs: number;
  /** HostLimiter.claimLimits() as JSON. */
  limits: string;
  defaultAllowance: number;
}

export interface DeliveryFilter {
  status?: DeliveryStatus;
  event?: WebhookEvent;
  orderId?: string;
  yemekKuryeOrderId?: string;
}

export interface DeliveryBacklog {
  open: number;
  overdueSeconds: number;
}

/** What one turn of a claimed delivery comes to, for the pump to record. */
export type AttemptRecord =
  | {
      kind: 'attempt';
      delivery: ClaimedDelivery;
      number: number;
      url: string | null;
      startedAt: Date;
      outcome: ReceiverOutcome;
      status: 'delivered' | 'retrying' | 'failed';
      nextAttemptAt: Date | null;
      raiseAlert: boolean;
    }
  /** No receiver URL for the event: nothing to send to (a redelivery after setting one sends it). */
  | { kind: 'skip'; delivery: ClaimedDelivery; error: string }
  /** The receiver's host has no free slot: put off, no attempt counted. */
  | { kind: 'defer'; delivery: ClaimedDelivery; until: Date };
