import { Logger, MessageEvent } from '@nestjs/common';
import { Subscription } from 'rxjs';
import { ProblemException } from '@courier/http';
import { availabilityPayload, cancelPayload, catalogDriftPayload, signedHeaders, statusPayload, TEST_SECRET } from '../../__fixtures__/webhooks';
import { ReceiverEvents } from '../events/receiver-events.service';
import { normaliseReceiverConfig } from '../receiver.config';
import { ReceiverState } from '../state/receiver-state';
import type { ReceiverStore } from '../state/receiver-state.store';
import { WebhooksService } from './webhooks.service';

const IDS = { orderId: 'mock-1', yemekKuryeOrderId: '6b0f1c2e-1111-4aaa-8bbb-000000000001' };

/** The store's persistence is out of scope here: a store that keeps state in memory only. */
function memoryStore(limit = 50): ReceiverStore {
  return { state: new ReceiverState(limit), changed: () => undefined } as unknown as ReceiverStore;
}

function problemOf(call: () => unknown): ProblemException {
  try {
    call();
  } catch (error) {
    if (error instanceof ProblemException) return error;
    throw error;
  }
  throw new Error('expected a ProblemException');
}

describe('WebhooksService', () => {
  let store: ReceiverStore;
  let events: ReceiverEvents;
  let streamed: MessageEvent[];
  let subscription: Subscription;

  beforeAll(() => Logger.overrideLogger(false));

  function service(secret = TEST_SECRET) {
    return new WebhooksService(normaliseReceiverConfig({ WEBHOOK_SECRET: secret }), store, events);
  }

  function status(statusName: string, timestamp: string, extra: Record<string, unknown> = {}) {
    return Buffer.from(JSON.stringify({ ...statusPayload({ ...IDS, status: statusName, timestamp }), ...extra }));
  }

  beforeEach(() => {
    store = memoryStore();
    events = new ReceiverEvents();
    streamed = [];
    subscription = events.stream().subscribe((event) => streamed.push(event));
  });

  afterEach(() => {
    subscription.unsubscribe();
    events.onModuleDestroy();
  });

  it('applies a correctly signed status webhook and reports it to the dashboards', () => {
    const body = status('VALIDATED', '2025-05-01T10:00:00+03:00');
    const ack = service().receive('status', body, signedHeaders(body.toString(), { id: 'wh-1' }));
    expect(ack).toEqual({ received: true, webhookId: 'wh-1', outcome: 'applied' });
    const [record] = store.state.listWebhooks();
    expect(record).toMatchObject({
      webhookId: 'wh-1',
      webhookIdSource: 'x-webhook-id',
      outcome: 'applied',
      status: 'VALIDATED',
      attempt: '1',
      verdicts: { serviceSignature: { state: 'valid' }, standardWebhooks: { state: 'valid' } },
    });
    expect(store.state.track(IDS.yemekKuryeOrderId)?.status).toBe('VALIDATED');
    expect(streamed.filter((event) => event.type === 'webhook').map((event) => (event.data as { webhookId: string }).webhookId)).toEqual(['wh-1']);
  });

  it('marks a repeated id as duplicate and does not apply it twice', () => {
    const first = status('VALIDATED', '2025-05-01T10:00:00Z');
    service().receive('status', first, signedHeaders(first.toString(), { id: 'wh-1' }));
    const later = status('ROUTED', '2025-05-01T10:05:00Z');
    const ack = service().receive('status', later, signedHeaders(later.toString(), { id: 'wh-1', attempt: 2 }));
    expect(ack.outcome).toBe('duplicate');
    expect(store.state.track(IDS.yemekKuryeOrderId)?.status).toBe('VALIDATED');
    expect(store.state.listWebhooks()[0].note).toBe('id seen before with a different body; not applied');
  });

  it('records a status not newer than the last applied one as stale, equal timestamps included', () => {
    const applied = status('ASSIGNED', '2025-05-01T10:10:00Z');
    service().receive('status', applied, signedHeaders(applied.toString()));
    for (const timestamp of ['2025-05-01T10:05:00Z', '2025-05-01T13:10:00+03:00']) {
      const old = status('ROUTED', timestamp);
      expect(service().receive('status', old, signedHeaders(old.toString())).outcome).toBe('stale');
    }
    expect(store.state.track(IDS.yemekKuryeOrderId)).toMatchObject({ status: 'ASSIGNED', statusAt: '2025-05-01T10:10:00Z' });
  });

  it("shows a stale status in the order's history, marked late, and streams the order again", () => {
    const applied = status('ASSIGNED', '2025-05-01T10:10:00Z', { provider: 'PLATFORM_B' });
    service().receive('status', applied, signedHeaders(applied.toString(), { id: 'wh-assigned' }));
    streamed.length = 0;
    const late = status('VALIDATED', '2025-05-01T10:05:00Z', { provider: 'PLATFORM_B' });
    expect(service().receive('status', late, signedHeaders(late.toString(), { id: 'wh-late' })).outcome).toBe('stale');
    expect(store.state.listWebhooks()[0]).toMatchObject({ outcome: 'stale', provider: 'PLATFORM_B', note: expect.stringMatching(/shown in the order's history as late$/) });
    expect(store.state.track(IDS.yemekKuryeOrderId)).toMatchObject({
      status: 'ASSIGNED',
      provider: 'PLATFORM_B',
      history: [
        { status: 'ASSIGNED', webhookId: 'wh-assigned' },
        { status: 'VALIDATED', webhookId: 'wh-late', late: true },
      ],
    });
    expect(streamed.map((event) => event.type)).toEqual(['webhook', 'track']);
    expect(streamed[1].data).toMatchObject({ orderId: IDS.orderId, provider: 'PLATFORM_B', sentHere: false });
  });

  it('applies a cancellation as CANCELED with its reason', () => {
    const body = Buffer.from(JSON.stringify(cancelPayload({ ...IDS, timestamp: '2025-05-01T11:00:00Z' })));
    expect(service().receive('cancel', body, signedHeaders(body.toString())).outcome).toBe('applied');
    expect(store.state.track(IDS.yemekKuryeOrderId)).toMatchObject({
      status: 'CANCELED',
      cancel: { cancelReasonId: 'CUSTOMER_REQUEST', canceledBy: 'Restaurant', reason: 'Müşteri iptal etti' },
    });
  });

  it('refuses a missing or wrong signature with 401 and records the refusal, not the status', () => {
    const body = status('VALIDATED', '2025-05-01T10:00:00Z');
    expect(problemOf(() => service().receive('status', body, { 'content-type': 'application/json' })).getStatus()).toBe(401);
    const wrong = signedHeaders(body.toString(), { secret: 'whsec_b3RoZXItc2VjcmV0' });
    const problem = problemOf(() => service().receive('status', body, wrong));
    expect([problem.getStatus(), problem.code]).toEqual([401, 'INVALID_SIGNATURE']);
    expect(store.state.listWebhooks().map((record) => [record.outcome, record.httpStatus, record.verdicts.serviceSignature.state])).toEqual([
      ['rejected', 401, 'invalid'],
      ['rejected', 401, 'missing'],
    ]);
    expect(store.state.track(IDS.yemekKuryeOrderId)).toBeUndefined();
  });

  it('answers 400 INVALID_PAYLOAD to a body that is not JSON, and 422 to one that is not the contract', () => {
    const notJson = Buffer.from('{"event":');
    const bad = problemOf(() => service().receive('status', notJson, signedHeaders(notJson.toString())));
    expect([bad.getStatus(), bad.code]).toEqual([400, 'INVALID_PAYLOAD']);
    const wrongShape = Buffer.from(JSON.stringify({ event: 'order.status_changed', orderId: 'x' }));
    const invalid = problemOf(() => service().receive('status', wrongShape, signedHeaders(wrongShape.toString())));
    expect(invalid.getStatus()).toBe(422);
    expect(invalid.errors?.map((error) => error.field)).toEqual(['yemekKuryeOrderId', 'status', 'timestamp']);
    expect(store.state.listWebhooks()[1]).toMatchObject({ outcome: 'rejected', httpStatus: 400, bodyPreview: '{"event":' });
  });

  it('without a secret accepts unsigned webhooks and identifies them by webhook-id, else by a hash of the body', () => {
    const body = status('VALIDATED', '2025-05-01T10:00:00Z');
    expect(service('').receive('status', body, { 'webhook-id': 'msg_9' }).webhookId).toBe('msg_9');
    const ack = service('').receive('status', body, {});
    expect(ack.webhookId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(service('').receive('status', body, {})).toEqual({ ...ack, outcome: 'duplicate' });
    expect(store.state.listWebhooks()[0].verdicts.serviceSignature.state).toBe('not-checked');
  });

  describe('restaurant.availability_changed on the status URL', () => {
    const INTEGRATION = '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9';
    const availability = (fields: Partial<Parameters<typeof availabilityPayload>[0]> & { timestamp: string }) =>
      Buffer.from(JSON.stringify(availabilityPayload({ integrationId: INTEGRATION, state: 'CLOSED', ...fields })));

    it("applies it to the integration's store, records it among the webhooks and streams both, leaving the orders alone", () => {
      const body = availability({ timestamp: '2025-05-01T10:00:00Z', until: '2025-05-01T10:30:00Z' });
      expect(service().receive('status', body, signedHeaders(body.toString(), { id: 'wh-store-1' }))).toEqual({ received: true, webhookId: 'wh-store-1', outcome: 'applied' });
      expect(store.state.store(INTEGRATION)).toMatchObject({
        state: 'CLOSED',
        until: '2025-05-01T10:30:00Z',
        expectedState: 'OPEN',
        provider: 'SOME_PLATFORM',
        providerRestaurantId: 'store-77',
        stateAt: '2025-05-01T10:00:00Z',
        webhookId: 'wh-store-1',
        history: [{ state: 'CLOSED', timestamp: '2025-05-01T10:00:00Z', webhookId: 'wh-store-1' }],
      });
      expect(store.state.listWebhooks()[0]).toMatchObject({ event: 'restaurant.availability_changed', kind: 'status', integrationId: INTEGRATION, state: 'CLOSED', outcome: 'applied' });
      expect(store.state.listTrackedOrders()).toEqual([]);
      expect(streamed.map((event) => event.type)).toEqual(['ready', 'webhook', 'store']);
    });

    it('marks a repeated id duplicate and an older state stale, keeping the newest state', () => {
      const open = availability({ state: 'OPEN', timestamp: '2025-05-01T10:10:00Z', expectedState: null, platformReason: null });
      service().receive('status', open, signedHeaders(open.toString(), { id: 'wh-open' }));
      expect(service().receive('status', open, signedHeaders(open.toString(), { id: 'wh-open', attempt: 2 })).outcome).toBe('duplicate');
      const older = availability({ timestamp: '2025-05-01T10:05:00Z' });
      expect(service().receive('status', older, signedHeaders(older.toString(), { id: 'wh-older' })).outcome).toBe('stale');
      expect(store.state.store(INTEGRATION)).toMatchObject({ state: 'OPEN', expectedState: null, platformReason: null, history: [{ webhookId: 'wh-open' }] });
      const newer = availability({ state: 'BUSY', timestamp: '2025-05-01T10:20:00Z' });
      expect(service().receive('status', newer, signedHeaders(newer.toString(), { id: 'wh-busy' })).outcome).toBe('applied');
      expect(store.state.store(INTEGRATION)?.history.map((entry) => entry.state)).toEqual(['BUSY', 'OPEN']);
    });

    it('checks its signature like any webhook, and refuses it with 422 on the cancel URL or with bad fields', () => {
      const body = availability({ timestamp: '2025-05-01T10:00:00Z' });
      expect(problemOf(() => service().receive('status', body, signedHeaders(body.toString(), { secret: 'whsec_b3RoZXItc2VjcmV0' }))).getStatus()).toBe(401);
      const onCancel = problemOf(() => service().receive('cancel', body, signedHeaders(body.toString())));
      expect([onCancel.getStatus(), onCancel.errors?.[0]]).toEqual([422, { field: 'event', message: 'must be order.canceled' }]);
      const bad = Buffer.from(JSON.stringify({ ...availabilityPayload({ integrationId: INTEGRATION, state: 'CLOSED', timestamp: 'soon' }), state: 'PAUSED', integrationId: '' }));
      const invalid = problemOf(() => service().receive('status', bad, signedHeaders(bad.toString())));
      expect([invalid.getStatus(), invalid.detail]).toEqual([422, 'The body is not a valid restaurant.availability_changed payload.']);
      expect(invalid.errors?.map((error) => error.field)).toEqual(['integrationId', 'state', 'timestamp']);
      expect(store.state.store(INTEGRATION)).toBeUndefined();
    });
  });

  describe('catalog.drift_detected on the status URL', () => {
    const INTEGRATION = '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9';
    const drift = (fields: Partial<Parameters<typeof catalogDriftPayload>[0]> & { timestamp: string }) => {
      const payload = catalogDriftPayload({ integrationId: INTEGRATION, ...fields });
      return { payload, body: Buffer.from(JSON.stringify(payload)) };
    };

    it('keeps it as a menu drift report, records it among the webhooks and streams both, leaving orders and stores alone', () => {
      const { payload, body } = drift({ timestamp: '2025-05-01T10:00:00Z' });
      expect(service().receive('status', body, signedHeaders(body.toString(), { id: 'wh-drift-1' }))).toEqual({ received: true, webhookId: 'wh-drift-1', outcome: 'applied' });
      const [report] = store.state.listDrift();
      expect(report).toMatchObject({
        driftEventId: payload.driftEventId,
        integrationId: INTEGRATION,
        provider: 'SOME_PLATFORM',
        providerRestaurantId: 'store-77',
        importId: payload.importId,
        changes: payload.changes,
        detectedAt: '2025-05-01T10:00:00Z',
        webhookId: 'wh-drift-1',
      });
      expect(store.state.listWebhooks()[0]).toMatchObject({ event: 'catalog.drift_detected', kind: 'status', integrationId: INTEGRATION, driftChanges: 2, outcome: 'applied' });
      expect(store.state.listTrackedOrders()).toEqual([]);
      expect(store.state.store(INTEGRATION)).toBeUndefined();
      expect(streamed.map((event) => event.type)).toEqual(['ready', 'webhook', 'drift']);
      expect(streamed[2].data).toEqual(report);
    });

    it('marks a repeated id duplicate and lists the report once; an earlier finding arriving late is listed below the later one', () => {
      const later = drift({ timestamp: '2025-05-01T10:20:00Z' });
      service().receive('status', later.body, signedHeaders(later.body.toString(), { id: 'wh-drift-later' }));
      expect(service().receive('status', later.body, signedHeaders(later.body.toString(), { id: 'wh-drift-later', attempt: 2 })).outcome).toBe('duplicate');
      expect(store.state.listWebhooks()[0]).toMatchObject({ outcome: 'duplicate', note: 'id seen before; not applied again' });
      const earlier = drift({ timestamp: '2025-05-01T10:05:00Z', changes: [{ kind: 'removed', platformProductId: 'prd-9', productCode: null, before: null, after: null }] });
      expect(service().receive('status', earlier.body, signedHeaders(earlier.body.toString(), { id: 'wh-drift-earlier' })).outcome).toBe('applied');
      expect(store.state.listDrift().map((report) => report.webhookId)).toEqual(['wh-drift-later', 'wh-drift-earlier']);
      expect(streamed.filter((event) => event.type === 'drift')).toHaveLength(2);
    });

    it('checks its signature like any webhook, and refuses it with 422 on the cancel URL or with bad fields', () => {
      const { body } = drift({ timestamp: '2025-05-01T10:00:00Z' });
      expect(problemOf(() => service().receive('status', body, signedHeaders(body.toString(), { secret: 'whsec_b3RoZXItc2VjcmV0' }))).getStatus()).toBe(401);
      const onCancel = problemOf(() => service().receive('cancel', body, signedHeaders(body.toString())));
      expect([onCancel.getStatus(), onCancel.errors?.[0]]).toEqual([422, { field: 'event', message: 'must be order.canceled' }]);
      const bad = Buffer.from(JSON.stringify(drift({ timestamp: 'soon', changes: [{ kind: 'moved', platformProductId: 'prd-1', productCode: null, before: null, after: null }] }).payload));
      const invalid = problemOf(() => service().receive('status', bad, signedHeaders(bad.toString())));
      expect([invalid.getStatus(), invalid.detail]).toEqual([422, 'The body is not a valid catalog.drift_detected payload.']);
      expect(invalid.errors?.map((error) => error.field)).toEqual(['changes[0].kind', 'timestamp']);
      expect(store.state.listDrift()).toEqual([]);
      expect(store.state.listWebhooks()[0]).toMatchObject({ outcome: 'rejected', httpStatus: 422 });
    });
  });
});
