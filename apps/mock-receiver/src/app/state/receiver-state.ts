import type { FieldError } from '@courier/contracts';
import type { SignatureVerdicts } from '../webhooks/signature';

/** Which receiver URL a webhook came to. */
export type WebhookKind = 'status' | 'cancel';

/**
 * What the receiver did with a delivery: applied it to the order, ignored it as a repeat of an id
 * already accepted (duplicate) or as not newer than the last applied update (stale), or refused it.
 */
export type WebhookOutcome = 'applied' | 'duplicate' | 'stale' | 'rejected';

/** One delivery received on /webhook/status or /webhook/cancel. */
export interface ReceivedWebhook {
  /** Id of this receipt (a repeated delivery gets its own). */
  receiptId: string;
  /** X-Webhook-Id / webhook-id, or `sha256:<hex>` of the body when neither was sent. */
  webhookId: string;
  webhookIdSource: 'x-webhook-id' | 'webhook-id' | 'body-hash';
  kind: WebhookKind;
  receivedAt: string;
  attempt?: string;
  outcome: WebhookOutcome;
  /** HTTP status the receiver answered. */
  httpStatus: number;
  /** Why it was refused, stale or a duplicate. */
  note?: string;
  errors?: FieldError[];
  verdicts: SignatureVerdicts;
  event?: string;
  orderId?: string;
  yemekKuryeOrderId?: string;
  status?: string;
  previousStatus?: string;
  /** Where the order came from (`THIRD_PARTY`, or the platform's code for a platform order); status webhooks carry it. */
  provider?: string;
  cancelReasonId?: string;
  reason?: string;
  canceledBy?: string;
  timestamp?: string;
  /** restaurant.availability_changed (to the status URL): the integration, its store on the platform and the state reported. */
  integrationId?: string;
  providerRestaurantId?: string;
  state?: string;
  expectedState?: string | null;
  until?: string | null;
  /** catalog.drift_detected (to the status URL): how many menu differences it reported. */
  driftChanges?: number;
  /** Parsed body of an authenticated delivery. */
  payload?: unknown;
  /** Start of the body as text, for deliveries that were refused. */
  bodyPreview?: string;
}

/** One status of an order's history. */
export interface StatusHistoryEntry {
  status: string;
  timestamp: string;
  webhookId: string;
  /** Its webhook arrived after one with a later timestamp: shown in its place, but never the current status. */
  late?: true;
}

/** What the webhooks have reported about one order, keyed by its yemekKuryeOrderId. */
export interface OrderTrack {
  yemekKuryeOrderId: string;
  orderId: string;
  /** `provider` of the order's status webhooks: THIRD_PARTY, or the platform a platform order came from. */
  provider?: string;
  status: string;
  /** `timestamp` of the last applied webhook: a later one must be newer to be applied. */
  statusAt: string;
  updatedAt: string;
  cancel?: { reason?: string; cancelReasonId?: string; canceledBy?: string };
  /** Newest first by `timestamp` (late entries in their place). */
  history: StatusHistoryEntry[];
}

/** An order as its webhooks report it, whether or not this receiver sent it (platform orders). */
export interface TrackedOrderView extends Omit<OrderTrack, 'provider' | 'history'> {
  /** null before a status webhook named it (a cancellation carries no provider). */
  provider: string | null;
  /** As in GET /api/orders: newest first by timestamp, late entries marked. */
  statusHistory: StatusHistoryEntry[];
  /** Whether this receiver sent it (then GET /api/orders lists it too). */
  sentHere: boolean;
}

/** One call of POST /api/send-order and the service's answer. */
export interface SentOrder {
  sendId: string;
  orderId: string;
  sentAt: string;
  intakeUrl: string;
  request: Record<string, unknown>;
  /** The service's answer; absent when it could not be reached. */
  response?: { status: number; body: unknown };
  error?: string;
  yemekKuryeOrderId?: string;
}

/** A sent order with its current status as the webhooks report it. */
export interface SentOrderView extends SentOrder {
  /** `provider` its status webhooks carry; null before the first. */
  provider: string | null;
  status: string | null;
  statusAt: string | null;
  cancel?: OrderTrack['cancel'];
  statusHistory: OrderTrack['history'];
}

/** One state of a store as an availability webhook reported it. */
export interface StoreStateEntry {
  state: string;
  timestamp: string;
  webhookId: string;
}

/** What the availability webhooks (restaurant.availability_changed) last reported about one platform integration's store. */
export interface StoreStatus {
  integrationId: string;
  provider: string;
  providerRestaurantId: string;
  /** OPEN, CLOSED or BUSY: what the platform reports. */
  state: string;
  until: string | null;
  /** What the restaurant asked for last (null: never asked). */
  expectedState: string | null;
  detectedBy: string;
  platformReason: string | null;
  /** `timestamp` of the last applied webhook: a later one must be newer to be applied. */
  stateAt: string;
  receivedAt: string;
  webhookId: string;
  /** Newest first, at most HISTORY_PER_STORE. */
  history: StoreStateEntry[];
}

/** One menu difference a catalog.drift_detected reported. */
export interface CatalogDriftChange {
  kind: string;
  platformProductId: string;
  productCode: string | null;
  before: string | number | null;
  after: string | number | null;
}

/** What one catalog.drift_detected webhook reported: the differences one import found on a platform's menu. */
export interface CatalogDriftReport {
  driftEventId: string;
  integrationId: string;
  provider: string;
  providerRestaurantId: string;
  importId: string;
  changes: CatalogDriftChange[];
  /** The webhook's `timestamp`: when the import found it. */
  detectedAt: string;
  receivedAt: string;
  webhookId: string;
}

/** What the state file holds. */
export interface ReceiverStateSnapshot {
  version: 1;
  orders: SentOrder[];
  webhooks: ReceivedWebhook[];
  tracks: OrderTrack[];
  /** Ids of accepted webhooks with the hash of their first body, newest first. */
  seen: Array<{ webhookId: string; bodyHash: string }>;
  /** Stores of the availability webhooks, the one changed last first (absent in files written before them). */
  stores?: StoreStatus[];
  /** Menu drift reports, found latest first (absent in files written before them). */
  drift?: CatalogDriftReport[];
}

export const EMPTY_STATE: ReceiverStateSnapshot = { version: 1, orders: [], webhooks: [], tracks: [], seen: [], stores: [], drift: [] };

const HISTORY_PER_STORE = 20;

const HISTORY_PER_ORDER = 50;

/** A status (or CANCELED) a webhook reports for an order. */
export interface StatusUpdate {
  yemekKuryeOrderId: string;
  orderId: string;
  status: string;
  timestamp: string;
  webhookId: string;
  receivedAt: string;
  provider?: string;
  cancel?: OrderTrack['cancel'];
}

/**
 * The receiver's in-memory state: newest first, every list bounded by `limit` (ids of accepted
 * webhooks by 4 x limit, so duplicates are still recognised after their receipt left the history).
 */
export class ReceiverState {
  private orders: SentOrder[];
  private webhooks: ReceivedWebhook[];
  private readonly tracks = new Map<string, OrderTrack>();
  private readonly seen = new Map<string, string>();
  private readonly stores = new Map<string, StoreStatus>();
  private drift: CatalogDriftReport[];

  constructor(
    readonly limit: number,
    snapshot: ReceiverStateSnapshot = EMPTY_STATE,
  ) {
    this.orders = snapshot.orders.slice(0, limit);
    this.webhooks = snapshot.webhooks.slice(0, limit);
    // Maps keep insertion order: oldest first, so the snapshot's newest-first lists are reversed.
    for (const track of snapshot.tracks.slice(0, limit).reverse()) this.tracks.set(track.yemekKuryeOrderId, track);
    for (const entry of snapshot.seen.slice(0, this.seenLimit).reverse()) this.seen.set(entry.webhookId, entry.bodyHash);
    for (const store of (snapshot.stores ?? []).slice(0, limit).reverse()) this.stores.set(store.integrationId, store);
    this.drift = (snapshot.drift ?? []).slice(0, limit);
  }

  private get seenLimit(): number {
    return this.limit * 4;
  }

  addOrder(order: SentOrder): void {
    this.orders.unshift(order);
    if (this.orders.length > this.limit) this.orders.length = this.limit;
  }

  addWebhook(webhook: ReceivedWebhook): void {
    this.webhooks.unshift(webhook);
    if (this.webhooks.length > this.limit) this.webhooks.length = this.limit;
  }

  /** Hash of the first body accepted under this id, if it was accepted before. */
  seenBodyHash(webhookId: string): string | undefined {
    return this.seen.get(webhookId);
  }

  markSeen(webhookId: string, bodyHash: string): void {
    this.seen.delete(webhookId);
    this.seen.set(webhookId, bodyHash);
    while (this.seen.size > this.seenLimit) this.seen.delete(this.seen.keys().next().value as string);
  }

  track(yemekKuryeOrderId: string): OrderTrack | undefined {
    return this.tracks.get(yemekKuryeOrderId);
  }

  /** Applies a status (or CANCELED) to the order's track; the caller has checked it is newer. */
  applyStatus(update: StatusUpdate): OrderTrack {
    const previous = this.tracks.get(update.yemekKuryeOrderId);
    const history = [{ status: update.status, timestamp: update.timestamp, webhookId: update.webhookId }, ...(previous?.history ?? [])].slice(0, HISTORY_PER_ORDER);
    const provider = update.provider ?? previous?.provider;
    const track: OrderTrack = {
      yemekKuryeOrderId: update.yemekKuryeOrderId,
      orderId: update.orderId,
      ...(provider ? { provider } : {}),
      status: update.status,
      statusAt: update.timestamp,
      updatedAt: update.receivedAt,
      ...(update.cancel ? { cancel: update.cancel } : previous?.cancel ? { cancel: previous.cancel } : {}),
      history,
    };
    this.tracks.delete(update.yemekKuryeOrderId);
    this.tracks.set(update.yemekKuryeOrderId, track);
    while (this.tracks.size > this.limit) this.tracks.delete(this.tracks.keys().next().value as string);
    return track;
  }

  /**
   * Puts a status whose webhook arrived after a later one (stale: not applied) into the order's
   * history, in timestamp order and marked late; the current status stays. Undefined when the order
   * has no track, or its history already holds that status at that instant (the same change resent).
   */
  addLateStatus(update: StatusUpdate): OrderTrack | undefined {
    const track = this.tracks.get(update.yemekKuryeOrderId);
    if (!track) return undefined;
    const at = Date.parse(update.timestamp);
    if (track.history.some((entry) => entry.status === update.status && Date.parse(entry.timestamp) === at)) return undefined;
    const entry: StatusHistoryEntry = { status: update.status, timestamp: update.timestamp, webhookId: update.webhookId, late: true };
    // Newest first: before the first entry that is older (an equal instant goes after, as it came later).
    const index = track.history.findIndex((existing) => Date.parse(existing.timestamp) < at);
    const history = [...track.history];
    history.splice(index === -1 ? history.length : index, 0, entry);
    const updated: OrderTrack = { ...track, ...(!track.provider && update.provider ? { provider: update.provider } : {}), history: history.slice(0, HISTORY_PER_ORDER) };
    this.tracks.set(update.yemekKuryeOrderId, updated);
    return updated;
  }

  /** Sent orders a webhook about this order concerns (matched by yemekKuryeOrderId, else orderId). */
  ordersFor(yemekKuryeOrderId: string, orderId: string): SentOrder[] {
    return this.orders.filter((order) =>
      order.yemekKuryeOrderId ? order.yemekKuryeOrderId === yemekKuryeOrderId : order.orderId === orderId,
    );
  }

  view(order: SentOrder): SentOrderView {
    const track = order.yemekKuryeOrderId
      ? this.tracks.get(order.yemekKuryeOrderId)
      : [...this.tracks.values()].find((candidate) => candidate.orderId === order.orderId);
    return {
      ...order,
      provider: track?.provider ?? null,
      status: track?.status ?? null,
      statusAt: track?.statusAt ?? null,
      ...(track?.cancel ? { cancel: track.cancel } : {}),
      statusHistory: track?.history ?? [],
    };
  }

  listOrders(limit = this.limit): SentOrderView[] {
    return this.orders.slice(0, limit).map((order) => this.view(order));
  }

  /** Every order the webhooks reported, the one whose status was applied last first. */
  listTrackedOrders(limit = this.limit): TrackedOrderView[] {
    return [...this.tracks.values()]
      .reverse()
      .slice(0, limit)
      .map((track) => this.trackedView(track));
  }

  trackedView(track: OrderTrack): TrackedOrderView {
    const sentHere = this.orders.some((order) => (order.yemekKuryeOrderId ? order.yemekKuryeOrderId === track.yemekKuryeOrderId : order.orderId === track.orderId));
    const { history, ...rest } = track;
    return { ...rest, provider: track.provider ?? null, statusHistory: history, sentHere };
  }

  store(integrationId: string): StoreStatus | undefined {
    return this.stores.get(integrationId);
  }

  /** Applies a store's reported state; the caller has checked it is newer than the one held. */
  applyStoreStatus(update: Omit<StoreStatus, 'history'>): StoreStatus {
    const previous = this.stores.get(update.integrationId);
    const history = [{ state: update.state, timestamp: update.stateAt, webhookId: update.webhookId }, ...(previous?.history ?? [])].slice(0, HISTORY_PER_STORE);
    const store: StoreStatus = { ...update, history };
    this.stores.delete(update.integrationId);
    this.stores.set(update.integrationId, store);
    while (this.stores.size > this.limit) this.stores.delete(this.stores.keys().next().value as string);
    return store;
  }

  /** Every store the availability webhooks reported, the one changed last first. */
  listStores(limit = this.limit): StoreStatus[] {
    return [...this.stores.values()].reverse().slice(0, limit);
  }

  /**
   * Keeps a menu drift report in its place among the others by when it was found (latest first; a
   * report arriving late goes below later ones), the oldest dropped past `limit`.
   */
  addDrift(report: CatalogDriftReport): void {
    const at = Date.parse(report.detectedAt);
    // Before the first report found earlier or at the same instant (then the one received last comes first).
    const index = this.drift.findIndex((existing) => Date.parse(existing.detectedAt) <= at);
    this.drift.splice(index === -1 ? this.drift.length : index, 0, report);
    if (this.drift.length > this.limit) this.drift.length = this.limit;
  }

  /** The menu drift reports, found latest first. */
  listDrift(limit = this.limit): CatalogDriftReport[] {
    return this.drift.slice(0, limit);
  }

  listWebhooks(limit = this.limit): ReceivedWebhook[] {
    return this.webhooks.slice(0, limit);
  }

  snapshot(): ReceiverStateSnapshot {
    return {
      version: 1,
      orders: this.orders,
      webhooks: this.webhooks,
      tracks: [...this.tracks.values()].reverse(),
      seen: [...this.seen.entries()].reverse().map(([webhookId, bodyHash]) => ({ webhookId, bodyHash })),
      stores: this.listStores(),
      drift: this.drift,
    };
  }
}

/** Accepts a parsed state file only when it has the expected shape. */
export function isStateSnapshot(value: unknown): value is ReceiverStateSnapshot {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<ReceiverStateSnapshot>;
  return (
    candidate.version === 1 &&
    Array.isArray(candidate.orders) &&
    Array.isArray(candidate.webhooks) &&
    Array.isArray(candidate.tracks) &&
    Array.isArray(candidate.seen) &&
    (candidate.stores === undefined || Array.isArray(candidate.stores)) &&
    (candidate.drift === undefined || Array.isArray(candidate.drift))
  );
}
