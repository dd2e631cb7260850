import type { StatusPushAction } from '@courier/domain';
import type { PlatformAnswer } from '@courier/platforms';
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
