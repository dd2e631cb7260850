import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { ErrorCode, FieldError } from '@courier/contracts';
import { ProblemException } from '@courier/http';
import { ReceiverEvents } from '../events/receiver-events.service';
import { RECEIVER_CONFIG } from '../receiver.tokens';
import { ReceiverConfig } from '../receiver.config';
import { CatalogDriftReport, ReceivedWebhook, StatusUpdate, StoreStatus, WebhookKind, WebhookOutcome } from '../state/receiver-state';
import { ReceiverStore } from '../state/receiver-state.store';
import { HeaderBag, headerValue, signatureRefusal, SignatureVerdicts, verifySignatures } from './signature';
import {
  AVAILABILITY_EVENT,
  AvailabilityPayload,
  CATALOG_DRIFT_EVENT,
  CatalogDriftPayload,
  checkWebhookPayload,
  EVENT_BY_KIND,
  isAvailabilityWebhook,
  isCatalogDriftWebhook,
  WebhookPayload,
} from './webhook-payload';

/** The 200 answer to a webhook the receiver accepted. */
export interface WebhookAck {
  received: true;
  webhookId: string;
  outcome: Exclude<WebhookOutcome, 'rejected'>;
}

const PREVIEW_CHARS = 2048;
const PLAUSIBLE_ID = /^[\x21-\x7e]{1,200}$/;

function webhookIdOf(headers: HeaderBag, bodyHash: string): Pick<ReceivedWebhook, 'webhookId' | 'webhookIdSource'> {
  const own = headerValue(headers, 'x-webhook-id')?.trim();
  if (own && PLAUSIBLE_ID.test(own)) return { webhookId: own, webhookIdSource: 'x-webhook-id' };
  const standard = headerValue(headers, 'webhook-id')?.trim();
  if (standard && PLAUSIBLE_ID.test(standard)) return { webhookId: standard, webhookIdSource: 'webhook-id' };
  return { webhookId: `sha256:${bodyHash}`, webhookIdSource: 'body-hash' };
}

/**
 * Receives the status and cancel webhooks: checks signatures over the raw bytes, parses and checks
 * the payload, then applies it unless it repeats an accepted id (duplicate) or is not newer than
 * the order's last applied update (stale). Everything is recorded, refusals included, and pushed
 * to the dashboards. The work is in memory, so the answer goes out at once.
 */
@Injectable()
export class WebhooksService {
  private readonly logger = new Logger(WebhooksService.name);

  constructor(
    @Inject(RECEIVER_CONFIG) private readonly config: ReceiverConfig,
    private readonly store: ReceiverStore,
    private readonly events: ReceiverEvents,
  ) {}

  receive(kind: WebhookKind, rawBody: Buffer, receivedHeaders: HeaderBag): WebhookAck {
    const headers: HeaderBag = Object.fromEntries(Object.entries(receivedHeaders).map(([name, value]) => [name.toLowerCase(), value]));
    const bodyHash = createHash('sha256').update(rawBody).digest('hex');
    const verdicts = verifySignatures(rawBody, headers, this.config.WEBHOOK_SECRET);
    const base = {
      receiptId: randomUUID(),
      ...webhookIdOf(headers, bodyHash),
      kind,
      receivedAt: new Date().toISOString(),
      verdicts,
      ...(headerValue(headers, 'x-webhook-attempt') ? { attempt: headerValue(headers, 'x-webhook-attempt')?.slice(0, 20) } : {}),
    };

    const refusal = signatureRefusal(verdicts, this.config.WEBHOOK_SECRET);
    if (refusal) {
      this.refuse(base, rawBody, verdicts, 401, refusal);
      throw new ProblemException(401, 'INVALID_SIGNATURE', refusal, undefined, { webhookId: base.webhookId });
    }

    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody.toString('utf8'));
    } catch {
      const detail = rawBody.length === 0 ? 'The webhook body is empty.' : 'The webhook body is not valid JSON.';
      this.refuse(base, rawBody, verdicts, 400, detail);
      throw new ProblemException(400, ErrorCode.InvalidPayload, detail);
    }
    const availability = isAvailabilityWebhook(kind, parsed);
    const drift = isCatalogDriftWebhook(kind, parsed);
    const errors = checkWebhookPayload(kind, parsed);
    if (errors.length > 0) {
      const detail = `The body is not a valid ${availability ? AVAILABILITY_EVENT : drift ? CATALOG_DRIFT_EVENT : EVENT_BY_KIND[kind]} payload.`;
      this.refuse(base, rawBody, verdicts, 422, detail, errors);
      throw new ProblemException(422, ErrorCode.ValidationError, detail, errors);
    }
    if (availability) return this.receiveAvailability(base, bodyHash, parsed as AvailabilityPayload);
    if (drift) return this.receiveCatalogDrift(base, bodyHash, parsed as CatalogDriftPayload);

    const payload = parsed as WebhookPayload;
    const fields = {
      event: payload.event,
      orderId: payload.orderId,
      yemekKuryeOrderId: payload.yemekKuryeOrderId,
      timestamp: payload.timestamp,
      ...(kind === 'status'
        ? { status: payload.status, ...(payload.previousStatus ? { previousStatus: payload.previousStatus } : {}), ...(payload.provider ? { provider: payload.provider } : {}) }
        : { status: 'CANCELED', reason: payload.reason ?? undefined, cancelReasonId: payload.cancelReasonId ?? undefined, canceledBy: payload.canceledBy ?? undefined }),
    };
    const state = this.store.state;
    const { outcome, note } = this.decide(base.webhookId, bodyHash, payload);
    const update: StatusUpdate = {
      yemekKuryeOrderId: payload.yemekKuryeOrderId,
      orderId: payload.orderId,
      status: fields.status as string,
      timestamp: payload.timestamp,
      webhookId: base.webhookId,
      receivedAt: base.receivedAt,
      ...(kind === 'status' && payload.provider ? { provider: payload.provider } : {}),
      ...(kind === 'cancel' ? { cancel: { reason: payload.reason, cancelReasonId: payload.cancelReasonId, canceledBy: payload.canceledBy } } : {}),
    };

    if (outcome !== 'duplicate') state.markSeen(base.webhookId, bodyHash);
    // A stale status is not applied (delivery rule 4), but the order's history shows it, marked late.
    const track = outcome === 'applied' ? state.applyStatus(update) : outcome === 'stale' ? state.addLateStatus(update) : undefined;
    const shownNote = outcome === 'stale' && track ? `${note}; shown in the order's history as late` : note;
    const record: ReceivedWebhook = { ...base, ...fields, outcome, httpStatus: 200, ...(shownNote ? { note: shownNote } : {}), payload };
    state.addWebhook(record);
    this.store.changed();
    this.events.publish({ type: 'webhook', data: record });
    if (track) {
      this.events.publish({ type: 'track', data: state.trackedView(track) });
      for (const order of state.ordersFor(payload.yemekKuryeOrderId, payload.orderId)) this.events.publish({ type: 'order', data: state.view(order) });
    }
    this.logger.log({ webhookId: base.webhookId, kind, orderId: payload.orderId, status: fields.status, outcome }, 'webhook received');
    return { received: true, webhookId: base.webhookId, outcome };
  }

  list(limit?: number): ReceivedWebhook[] {
    return this.store.state.listWebhooks(limit);
  }

  stores(limit?: number): StoreStatus[] {
    return this.store.state.listStores(limit);
  }

  drift(limit?: number): CatalogDriftReport[] {
    return this.store.state.listDrift(limit);
  }

  /**
   * A menu drift webhook: kept as a report unless it repeats an accepted id (duplicate). Each report
   * is its own import's finding, so none is stale: a late one takes its place by when it was found.
   */
  private receiveCatalogDrift(base: Omit<ReceivedWebhook, 'outcome' | 'httpStatus'>, bodyHash: string, payload: CatalogDriftPayload): WebhookAck {
    const state = this.store.state;
    const firstHash = state.seenBodyHash(base.webhookId);
    const outcome = firstHash === undefined ? 'applied' : 'duplicate';
    const note = firstHash === undefined ? undefined : firstHash === bodyHash ? 'id seen before; not applied again' : 'id seen before with a different body; not applied';
    let report: CatalogDriftReport | undefined;
    if (outcome === 'applied') {
      state.markSeen(base.webhookId, bodyHash);
      report = {
        driftEventId: payload.driftEventId,
        integrationId: payload.integrationId,
        provider: payload.provider,
        providerRestaurantId: payload.providerRestaurantId,
        importId: payload.importId,
        changes: payload.changes.map((change) => ({ kind: change.kind, platformProductId: change.platformProductId, productCode: change.productCode ?? null, before: change.before ?? null, after: change.after ?? null })),
        detectedAt: payload.timestamp,
        receivedAt: base.receivedAt,
        webhookId: base.webhookId,
      };
      state.addDrift(report);
    }
    const record: ReceivedWebhook = {
      ...base,
      event: payload.event,
      integrationId: payload.integrationId,
      provider: payload.provider,
      providerRestaurantId: payload.providerRestaurantId,
      driftChanges: payload.changes.length,
      timestamp: payload.timestamp,
      outcome,
      httpStatus: 200,
      ...(note ? { note } : {}),
      payload,
    };
    state.addWebhook(record);
    this.store.changed();
    this.events.publish({ type: 'webhook', data: record });
    if (report) this.events.publish({ type: 'drift', data: report });
    this.logger.log({ webhookId: base.webhookId, event: payload.event, integrationId: payload.integrationId, changes: payload.changes.length, outcome }, 'webhook received');
    return { received: true, webhookId: base.webhookId, outcome };
  }

  /**
   * A store-status webhook: applied to its integration's store unless it repeats an accepted id
   * (duplicate) or is not newer than the store's last applied state (stale), as order statuses are.
   */
  private receiveAvailability(base: Omit<ReceivedWebhook, 'outcome' | 'httpStatus'>, bodyHash: string, payload: AvailabilityPayload): WebhookAck {
    const state = this.store.state;
    const { outcome, note } = this.decideStore(base.webhookId, bodyHash, payload);
    if (outcome !== 'duplicate') state.markSeen(base.webhookId, bodyHash);
    const store =
      outcome === 'applied'
        ? state.applyStoreStatus({
            integrationId: payload.integrationId,
            provider: payload.provider,
            providerRestaurantId: payload.providerRestaurantId,
            state: payload.state,
            until: payload.until ?? null,
            expectedState: payload.expectedState ?? null,
            detectedBy: payload.detectedBy,
            platformReason: payload.platformReason ?? null,
            stateAt: payload.timestamp,
            receivedAt: base.receivedAt,
            webhookId: base.webhookId,
          })
        : undefined;
    const record: ReceivedWebhook = {
      ...base,
      event: payload.event,
      integrationId: payload.integrationId,
      provider: payload.provider,
      providerRestaurantId: payload.providerRestaurantId,
      state: payload.state,
      expectedState: payload.expectedState ?? null,
      until: payload.until ?? null,
      timestamp: payload.timestamp,
      outcome,
      httpStatus: 200,
      ...(note ? { note } : {}),
      payload,
    };
    state.addWebhook(record);
    this.store.changed();
    this.events.publish({ type: 'webhook', data: record });
    if (store) this.events.publish({ type: 'store', data: store });
    this.logger.log({ webhookId: base.webhookId, event: payload.event, integrationId: payload.integrationId, state: payload.state, outcome }, 'webhook received');
    return { received: true, webhookId: base.webhookId, outcome };
  }

  private decideStore(webhookId: string, bodyHash: string, payload: AvailabilityPayload): { outcome: Exclude<WebhookOutcome, 'rejected'>; note?: string } {
    const firstHash = this.store.state.seenBodyHash(webhookId);
    if (firstHash !== undefined) {
      return { outcome: 'duplicate', note: firstHash === bodyHash ? 'id seen before; not applied again' : 'id seen before with a different body; not applied' };
    }
    const held = this.store.state.store(payload.integrationId);
    if (held && Date.parse(payload.timestamp) <= Date.parse(held.stateAt)) {
      return { outcome: 'stale', note: `timestamp ${payload.timestamp} is not newer than ${held.stateAt} (${held.state}) already applied` };
    }
    return { outcome: 'applied' };
  }

  private decide(webhookId: string, bodyHash: string, payload: WebhookPayload): { outcome: Exclude<WebhookOutcome, 'rejected'>; note?: string } {
    const state = this.store.state;
    const firstHash = state.seenBodyHash(webhookId);
    if (firstHash !== undefined) {
      return { outcome: 'duplicate', note: firstHash === bodyHash ? 'id seen before; not applied again' : 'id seen before with a different body; not applied' };
    }
    const track = state.track(payload.yemekKuryeOrderId);
    if (track && Date.parse(payload.timestamp) <= Date.parse(track.statusAt)) {
      return { outcome: 'stale', note: `timestamp ${payload.timestamp} is not newer than ${track.statusAt} (${track.status}) already applied` };
    }
    return { outcome: 'applied' };
  }

  private refuse(
    base: Omit<ReceivedWebhook, 'outcome' | 'httpStatus'>,
    rawBody: Buffer,
    verdicts: SignatureVerdicts,
    httpStatus: number,
    note: string,
    errors?: FieldError[],
  ): void {
    const record: ReceivedWebhook = {
      ...base,
      verdicts,
      outcome: 'rejected',
      httpStatus,
      note,
      ...(errors ? { errors } : {}),
      bodyPreview: rawBody.toString('utf8', 0, Math.min(rawBody.length, PREVIEW_CHARS)),
    };
    this.store.state.addWebhook(record);
    this.store.changed();
    this.events.publish({ type: 'webhook', data: record });
    this.logger.warn({ webhookId: base.webhookId, kind: base.kind, httpStatus, note }, 'webhook refused');
  }
}
