import type { StatusPushAction } from '@courier/domain';
import type { OutboxEvent } from '@courier/messaging';
import type { PlatformAnswer } from '@courier/platforms';
import type { DirectoryIntegration } from '../account-directory/account-directory.model';
import type { OrderStatusChange } from '../orders/order.model';
import type { PlatformOrderRow } from '../platform-orders/platform-order.model';
import type { StatusUpdateState } from './dto/status-update.dto';

/** A row of `status_updates`: one platform command. */
export interface StatusUpdateRow {
  id: string;
  orderId: string;
  seq: number;
  platform: string;
  providerOrderId: string;
  action: StatusPushAction;
  previousStatus: string | null;
  reason: string | null;
  state: StatusUpdateState;
  holdReason: string | null;
  notBefore: Date;
  attempts: number;
  sendingUntil: Date | null;
  firstAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  sentAt: Date | null;
  lastAnswer: StoredAnswer | null;
  lastError: string | null;
  acceptedAt: Date;
  /** The correlation id of the push that created it (null: accepted before it was recorded). */
  correlationId: string | null;
  /** The call slot this update booked in its platform's call budget (it waits for it queued; null: none). */
  budgetSlotAt: Date | null;
}

/** The platform's answer as stored: what it said and how it was read. */
export interface StoredAnswer extends PlatformAnswer {
  outcome: 'done' | 'retry' | 'failed' | 'skipped';
  alreadyDone?: boolean;
  at: string;
}

export interface StatusUpdateTaskPayload {
  statusUpdateId: string;
}

/** The order's integration as a claimed update carries it (INTEGRATION_JSON). */
export type UpdateIntegration = Pick<DirectoryIntegration, 'integrationId' | 'providerRestaurantId' | 'settings' | 'secrets'>;

/** An accepted update as the guards see it. */
export type AcceptedUpdate = Pick<StatusUpdateRow, 'id' | 'action' | 'acceptedAt' | 'state' | 'notBefore' | 'sentAt'>;

/** What an accepted push writes: its update (with its task) and the order's moves with their events. */
export interface PushWrite {
  update: NewStatusUpdate;
  /** The update's place among the order's updates: the `lastSeq` read + 1. */
  seq: number;
  taskDueAt: Date;
  taskHeaders: Record<string, string>;
  /** Set: the update is stored already claimed for its immediate send (attempt 1 from `at`, being sent until `until`). */
  claim?: { at: Date; until: Date };
  /** The order's `sequence` as read: the write happens only if it is unchanged. */
  expectedSequence: number;
  /** The order after the moves (status, sequence, statusChangedAt; unchanged without moves). */
  moved: { status: string; sequence: number; statusChangedAt: Date };
  changes: OrderStatusChange[];
  events: OutboxEvent[];
}

export interface NewStatusUpdate {
  id: string;
  orderId: string;
  platform: string;
  providerOrderId: string;
  action: StatusPushAction;
  previousStatus: string | null;
  reason: string | null;
  state: 'queued' | 'held';
  holdReason: string | null;
  notBefore: Date;
  acceptedAt: Date;
  correlationId: string | null;
}

/** A platform order as a push decides on it: with its accepted updates, the highest `seq` of its updates, and its integration. */
export interface PushState {
  order: PlatformOrderRow;
  accepted: AcceptedUpdate[];
  lastSeq: number;
  integration: UpdateIntegration | null;
}

/** A status update claimed for its platform call, with what the call needs of its order. */
export type ClaimedUpdate = StatusUpdateRow & {
  integrationId: string | null;
  platformData: Record<string, unknown>;
  /** The order's integration as the read model has it (null: gone). */
  integration: UpdateIntegration | null;
};
