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
  cancelReasonId?: string;
  reason?: string;
  canceledBy?: string;
  timestamp?: string;
  /** Parsed body of an authenticated delivery. */
  payload?: unknown;
  /** Start of the body as text, for deliveries that were refused. */
  bodyPreview?: string;
}

/** What the webhooks have reported about one order, keyed by its yemekKuryeOrderId. */
export interface OrderTrack {
  yemekKuryeOrderId: string;
  orderId: string;
  status: string;
  /** `timestamp` of the last applied webhook: a later one must be newer to be applied. */
  statusAt: string;
  updatedAt: string;
  cancel?: { reason?: string; cancelReasonId?: string; canceledBy?: string };
  history: Array<{ status: string; timestamp: string; webhookId: string }>;
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
  status: string | null;
  statusAt: string | null;
  cancel?: OrderTrack['cancel'];
  statusHistory: OrderTrack['history'];
}

/** What the state file holds. */
export interface ReceiverStateSnapshot {
  version: 1;
  orders: SentOrder[];
  webhooks: ReceivedWebhook[];
  tracks: OrderTrack[];
  /** Ids of accepted webhooks with the hash of their first body, newest first. */
  seen: Array<{ webhookId: string; bodyHash: string }>;
}

export const EMPTY_STATE: ReceiverStateSnapshot = { version: 1, orders: [], webhooks: [], tracks: [], seen: [] };

const HISTORY_PER_ORDER = 50;

/**
 * The receiver's in-memory state: newest first, every list bounded by `limit` (ids of accepted
 * webhooks by 4 x limit, so duplicates are still recognised after their receipt left the history).
 */
export class ReceiverState {
  private orders: SentOrder[];
  private webhooks: ReceivedWebhook[];
  private readonly tracks = new Map<string, OrderTrack>();
  private readonly seen = new Map<string, string>();

  constructor(
    readonly limit: number,
    snapshot: ReceiverStateSnapshot = EMPTY_STATE,
  ) {
    this.orders = snapshot.orders.slice(0, limit);
    this.webhooks = snapshot.webhooks.slice(0, limit);
    // Maps keep insertion order: oldest first, so the snapshot's newest-first lists are reversed.
    for (const track of snapshot.tracks.slice(0, limit).reverse()) this.tracks.set(track.yemekKuryeOrderId, track);
    for (const entry of snapshot.seen.slice(0, this.seenLimit).reverse()) this.seen.set(entry.webhookId, entry.bodyHash);
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
  applyStatus(update: {
    yemekKuryeOrderId: string;
    orderId: string;
    status: string;
    timestamp: string;
    webhookId: string;
    receivedAt: string;
    cancel?: OrderTrack['cancel'];
  }): OrderTrack {
    const previous = this.tracks.get(update.yemekKuryeOrderId);
    const history = [{ status: update.status, timestamp: update.timestamp, webhookId: update.webhookId }, ...(previous?.history ?? [])].slice(0, HISTORY_PER_ORDER);
    const track: OrderTrack = {
      yemekKuryeOrderId: update.yemekKuryeOrderId,
      orderId: update.orderId,
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
      status: track?.status ?? null,
      statusAt: track?.statusAt ?? null,
      ...(track?.cancel ? { cancel: track.cancel } : {}),
      statusHistory: track?.history ?? [],
    };
  }

  listOrders(limit = this.limit): SentOrderView[] {
    return this.orders.slice(0, limit).map((order) => this.view(order));
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
    Array.isArray(candidate.seen)
  );
}
