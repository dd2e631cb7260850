import type { StoreAvailabilityState } from '@courier/contracts';
import type { StoredAnswer, UpdateIntegration } from '../status-updates/status-update.model';

export type AskedBy = 'restaurant' | 'courier_core' | 'timer';
/** `checking`: sent, and an asynchronous platform works on it (a price batch); its task asks for the result. */
export type CommandState = 'queued' | 'retrying' | 'checking' | 'sent' | 'failed' | 'superseded';
/** What a command changes: the store, one product's availability, one product's price (the catalog's). */
export type CommandKind = 'store' | 'product' | 'price';
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

/** A command's platform answer as stored; `pending`: the platform took a request it works on asynchronously. */
export type CommandAnswer = Omit<StoredAnswer, 'outcome'> & { outcome: StoredAnswer['outcome'] | 'pending' };

/** A platform command: one store change, one product switch or one product price of one integration. */
export interface AvailabilityCommandRow {
  id: string;
  changeId: string;
  integrationId: string;
  restaurantId: string;
  platform: string;
  kind: CommandKind;
  target: string;
  /** The restaurant's product code a catalog change was asked by (null: asked by platform id or for the store). */
  productCode: string | null;
  /** What was asked: StoreAvailabilityRequest, ProductAvailabilityChange or ProductPriceChange (+ productCode), dates as ISO text. */
  request: Record<string, unknown>;
  /** The plan's wire params, given back to setStore / setProduct / setPrice as they are. */
  params: Record<string, string | number | boolean | null>;
  /** `checking`: what the platform's asynchronous request is followed by (given to checkPrice). */
  followUp: Record<string, string | number> | null;
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
  lastAnswer: CommandAnswer | null;
  lastError: string | null;
  acceptedAt: Date;
}

/** A command claimed for its call, with its integration as the read model has it (null: gone). */
export type ClaimedCommand = AvailabilityCommandRow & { integration: UpdateIntegration | null };

/** A command to queue: the row's request part. */
export type NewCommand = Pick<AvailabilityCommandRow, 'changeId' | 'integrationId' | 'restaurantId' | 'platform' | 'kind' | 'target' | 'request' | 'params' | 'requestedBy' | 'acceptedAt'> & {
  productCode?: string | null;
};
