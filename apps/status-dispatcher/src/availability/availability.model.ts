import type { StoreAvailabilityState } from '@courier/contracts';
import type { StoredAnswer } from '../status-updates/status-update.model';
import type { UpdateIntegration } from '../status-updates/status-update.repository';

export type AskedBy = 'restaurant' | 'courier_core' | 'timer';
export type CommandState = 'queued' | 'retrying' | 'sent' | 'failed' | 'superseded';
export type ReportSource = 'read_back' | 'platform_call';

/** The store target of a command (products use their platformProductId). */
export const STORE_TARGET = '';

/** A row of `store_availability`: what was asked of one integration's store and what its platform said. */
export interface StoreAvailabilityRow {
  integrationId: string;
  restaurantId: string;
  platform: string;
  requestSeq: number;
  askedState: StoreAvailabilityState | null;
  askedUntil: Date | null;
  askedBusyMinutes: number | null;
  askedReason: string | null;
  askedBy: AskedBy | null;
  askedAt: Date | null;
  changeId: string | null;
  confirmedState: StoreAvailabilityState | null;
  confirmedUntil: Date | null;
  confirmedAt: Date | null;
  confirmedBy: 'command' | ReportSource | null;
  platformState: StoreAvailabilityState | null;
  platformUntil: Date | null;
  platformReason: string | null;
  platformSeenAt: Date | null;
  reportedState: StoreAvailabilityState | null;
  lastAnswer: StoredAnswer | null;
  lastAnswerAt: Date | null;
}

export interface ProductAvailabilityRow {
  integrationId: string;
  platformProductId: string;
  restaurantId: string;
  platform: string;
  requestSeq: number;
  available: boolean;
  until: Date | null;
  askedAt: Date;
  changeId: string;
  confirmedAvailable: boolean | null;
  confirmedAt: Date | null;
  lastAnswer: StoredAnswer | null;
  lastAnswerAt: Date | null;
}

/** A platform command: one store change or one product switch of one integration. */
export interface AvailabilityCommandRow {
  id: string;
  changeId: string;
  integrationId: string;
  restaurantId: string;
  platform: string;
  kind: 'store' | 'product';
  target: string;
  /** What was asked: StoreAvailabilityRequest or ProductAvailabilityChange, dates as ISO text. */
  request: Record<string, unknown>;
  /** The plan's wire params, given back to setStore / setProduct as they are. */
  params: Record<string, string | number | boolean | null>;
  requestedBy: AskedBy;
  state: CommandState;
  notBefore: Date;
  attempts: number;
  sendingUntil: Date | null;
  budgetSlotAt: Date | null;
  firstAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  sentAt: Date | null;
  endedAt: Date | null;
  lastAnswer: StoredAnswer | null;
  lastError: string | null;
  acceptedAt: Date;
}

/** A command claimed for its call, with its integration as the read model has it (null: gone). */
export type ClaimedCommand = AvailabilityCommandRow & { integration: UpdateIntegration | null };

/** A command to queue: the row's request part. */
export type NewCommand = Pick<AvailabilityCommandRow, 'changeId' | 'integrationId' | 'restaurantId' | 'platform' | 'kind' | 'target' | 'request' | 'params' | 'requestedBy' | 'acceptedAt'>;
