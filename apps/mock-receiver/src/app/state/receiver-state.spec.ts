import { isStateSnapshot, ReceivedWebhook, ReceiverState, SentOrder } from './receiver-state';

function sentOrder(n: number, extra: Partial<SentOrder> = {}): SentOrder {
  return {
    sendId: `send-${n}`,
    orderId: `order-${n}`,
    sentAt: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(),
    intakeUrl: 'http://127.0.0.1:1/webhook/third-party/order',
    request: { orderId: `order-${n}` },
    ...extra,
  };
}

function webhook(n: number): ReceivedWebhook {
  return {
    receiptId: `r-${n}`,
    webhookId: `wh-${n}`,
    webhookIdSource: 'x-webhook-id',
    kind: 'status',
    receivedAt: new Date().toISOString(),
    outcome: 'applied',
    httpStatus: 200,
    verdicts: { serviceSignature: { state: 'valid', detail: '' }, standardWebhooks: { state: 'missing', detail: '' } },
  };
}

const apply = (state: ReceiverState, ykId: string, status: string, timestamp: string, orderId = 'order-1') =>
  state.applyStatus({ yemekKuryeOrderId: ykId, orderId, status, timestamp, webhookId: `${ykId}-${status}`, receivedAt: timestamp });

describe('ReceiverState', () => {
  it('lists orders and webhooks newest first, keeping only the newest `limit`', () => {
    const state = new ReceiverState(3);
    for (let n = 1; n <= 5; n += 1) {
      state.addOrder(sentOrder(n));
      state.addWebhook(webhook(n));
    }
    expect(state.listOrders().map((order) => order.orderId)).toEqual(['order-5', 'order-4', 'order-3']);
    expect(state.listWebhooks().map((entry) => entry.webhookId)).toEqual(['wh-5', 'wh-4', 'wh-3']);
    expect(state.listWebhooks(1)).toHaveLength(1);
  });

  it('remembers accepted webhook ids beyond the history, up to 4 x limit', () => {
    const state = new ReceiverState(2);
    for (let n = 1; n <= 9; n += 1) state.markSeen(`wh-${n}`, `hash-${n}`);
    expect(state.seenBodyHash('wh-1')).toBeUndefined();
    expect(state.seenBodyHash('wh-2')).toBe('hash-2');
    expect(state.seenBodyHash('wh-9')).toBe('hash-9');
  });

  it('shows a sent order with the status its webhooks reported, matched by yemekKuryeOrderId', () => {
    const state = new ReceiverState(10);
    const order = sentOrder(1, { yemekKuryeOrderId: 'yk-1' });
    state.addOrder(order);
    expect(state.view(order)).toMatchObject({ status: null, statusHistory: [] });
    apply(state, 'yk-1', 'VALIDATED', '2025-01-01T10:00:00Z');
    apply(state, 'yk-1', 'CANCELED', '2025-01-01T10:05:00Z');
    expect(state.view(order)).toMatchObject({ status: 'CANCELED', statusAt: '2025-01-01T10:05:00Z' });
    expect(state.view(order).statusHistory.map((entry) => entry.status)).toEqual(['CANCELED', 'VALIDATED']);
    expect(state.ordersFor('yk-1', 'whatever')).toEqual([order]);
    expect(state.ordersFor('yk-2', 'order-1')).toEqual([]);
  });

  it('falls back to the orderId for an order whose answer carried no yemekKuryeOrderId', () => {
    const state = new ReceiverState(10);
    const order = sentOrder(7);
    state.addOrder(order);
    apply(state, 'yk-7', 'VALIDATED', '2025-01-01T10:00:00Z', 'order-7');
    expect(state.view(order).status).toBe('VALIDATED');
    expect(state.ordersFor('yk-7', 'order-7')).toEqual([order]);
  });

  it('survives a snapshot round trip through JSON', () => {
    const state = new ReceiverState(5);
    state.addOrder(sentOrder(1, { yemekKuryeOrderId: 'yk-1' }));
    state.addOrder(sentOrder(2, { yemekKuryeOrderId: 'yk-2' }));
    state.addWebhook(webhook(1));
    apply(state, 'yk-1', 'VALIDATED', '2025-01-01T10:00:00Z');
    apply(state, 'yk-2', 'PREPARED', '2025-01-01T10:00:00Z');
    apply(state, 'yk-1', 'ROUTED', '2025-01-01T10:01:00Z');
    state.markSeen('wh-1', 'h1');
    state.markSeen('wh-2', 'h2');

    const restored = new ReceiverState(5, JSON.parse(JSON.stringify(state.snapshot())));
    expect(restored.listOrders()).toEqual(state.listOrders());
    expect(restored.listWebhooks()).toEqual(state.listWebhooks());
    expect(restored.track('yk-1')?.status).toBe('ROUTED');
    expect(restored.seenBodyHash('wh-1')).toBe('h1');
    expect(restored.snapshot()).toEqual(state.snapshot());
  });

  it('shows a status whose webhook arrived after a later one in its place, marked late, without changing the current status', () => {
    const state = new ReceiverState(10);
    const order = sentOrder(1, { yemekKuryeOrderId: 'yk-1' });
    state.addOrder(order);
    state.applyStatus({ yemekKuryeOrderId: 'yk-1', orderId: 'order-1', status: 'VALIDATED', timestamp: '2025-01-01T10:00:00Z', webhookId: 'w1', receivedAt: 'x', provider: 'THIRD_PARTY' });
    state.applyStatus({ yemekKuryeOrderId: 'yk-1', orderId: 'order-1', status: 'PREPARED', timestamp: '2025-01-01T10:10:00Z', webhookId: 'w3', receivedAt: 'x' });
    const late = { yemekKuryeOrderId: 'yk-1', orderId: 'order-1', status: 'ASSIGNED', timestamp: '2025-01-01T13:05:00+03:00', webhookId: 'w2', receivedAt: 'x' };
    expect(state.addLateStatus(late)).toBeDefined();
    // The same change again (another id, same status and instant) is not listed twice.
    expect(state.addLateStatus({ ...late, webhookId: 'w2-again', timestamp: '2025-01-01T10:05:00Z' })).toBeUndefined();
    expect(state.addLateStatus({ ...late, yemekKuryeOrderId: 'yk-unknown' })).toBeUndefined();
    expect(state.view(order)).toMatchObject({ status: 'PREPARED', statusAt: '2025-01-01T10:10:00Z', provider: 'THIRD_PARTY' });
    expect(state.view(order).statusHistory).toEqual([
      { status: 'PREPARED', timestamp: '2025-01-01T10:10:00Z', webhookId: 'w3' },
      { status: 'ASSIGNED', timestamp: '2025-01-01T13:05:00+03:00', webhookId: 'w2', late: true },
      { status: 'VALIDATED', timestamp: '2025-01-01T10:00:00Z', webhookId: 'w1' },
    ]);
    // Older than every entry: at the end.
    state.addLateStatus({ ...late, status: 'NEW', timestamp: '2025-01-01T09:00:00Z', webhookId: 'w0' });
    expect(state.view(order).statusHistory.map((entry) => `${entry.status}${entry.late ? ' (late)' : ''}`)).toEqual(['PREPARED', 'ASSIGNED (late)', 'VALIDATED', 'NEW (late)']);
  });

  it('lists every tracked order with its provider, saying which ones it sent', () => {
    const state = new ReceiverState(10);
    state.addOrder(sentOrder(1, { yemekKuryeOrderId: 'yk-1' }));
    state.applyStatus({ yemekKuryeOrderId: 'yk-1', orderId: 'order-1', status: 'VALIDATED', timestamp: '2025-01-01T10:00:00Z', webhookId: 'w1', receivedAt: 'x', provider: 'THIRD_PARTY' });
    state.applyStatus({ yemekKuryeOrderId: 'yk-p', orderId: 'getir-77', status: 'VALIDATED', timestamp: '2025-01-01T10:01:00Z', webhookId: 'w2', receivedAt: 'x', provider: 'PLATFORM_A' });
    // A cancellation carries no provider: the order keeps the one its status webhooks named.
    state.applyStatus({ yemekKuryeOrderId: 'yk-p', orderId: 'getir-77', status: 'CANCELED', timestamp: '2025-01-01T10:02:00Z', webhookId: 'w3', receivedAt: 'x', cancel: { cancelReasonId: 'OTHER' } });
    expect(state.listTrackedOrders().map(({ orderId, provider, status, sentHere }) => ({ orderId, provider, status, sentHere }))).toEqual([
      { orderId: 'getir-77', provider: 'PLATFORM_A', status: 'CANCELED', sentHere: false },
      { orderId: 'order-1', provider: 'THIRD_PARTY', status: 'VALIDATED', sentHere: true },
    ]);
  });

  it('keeps the tracks of the `limit` most recently updated orders', () => {
    const state = new ReceiverState(2);
    apply(state, 'yk-1', 'VALIDATED', '2025-01-01T10:00:00Z');
    apply(state, 'yk-2', 'VALIDATED', '2025-01-01T10:00:00Z');
    apply(state, 'yk-1', 'ROUTED', '2025-01-01T10:01:00Z');
    apply(state, 'yk-3', 'VALIDATED', '2025-01-01T10:00:00Z');
    expect(state.track('yk-2')).toBeUndefined();
    expect(state.track('yk-1')?.status).toBe('ROUTED');
    expect(state.track('yk-3')).toBeDefined();
  });

  it('keeps the stores of the availability webhooks across a snapshot, the one changed last first; reads files written before them', () => {
    const state = new ReceiverState(2);
    const store = (integrationId: string, stateName: string, stateAt: string) => ({
      integrationId,
      provider: 'SOME_PLATFORM',
      providerRestaurantId: `store-${integrationId}`,
      state: stateName,
      until: null,
      expectedState: 'OPEN',
      detectedBy: 'read_back',
      platformReason: null,
      stateAt,
      receivedAt: stateAt,
      webhookId: `wh-${integrationId}-${stateName}`,
    });
    state.applyStoreStatus(store('a', 'CLOSED', '2025-05-01T10:00:00Z'));
    state.applyStoreStatus(store('b', 'BUSY', '2025-05-01T10:01:00Z'));
    state.applyStoreStatus(store('a', 'OPEN', '2025-05-01T10:02:00Z'));
    expect(state.listStores().map((entry) => [entry.integrationId, entry.state])).toEqual([
      ['a', 'OPEN'],
      ['b', 'BUSY'],
    ]);
    state.applyStoreStatus(store('c', 'CLOSED', '2025-05-01T10:03:00Z'));
    expect(state.listStores().map((entry) => entry.integrationId)).toEqual(['c', 'a']);
    const restored = new ReceiverState(2, JSON.parse(JSON.stringify(state.snapshot())));
    expect(restored.listStores()).toEqual(state.listStores());
    expect(restored.store('a')?.history.map((entry) => entry.state)).toEqual(['OPEN', 'CLOSED']);

    const { stores: _stores, ...older } = state.snapshot();
    expect(isStateSnapshot(older)).toBe(true);
    expect(new ReceiverState(2, older).listStores()).toEqual([]);
    expect(isStateSnapshot({ ...older, stores: {} })).toBe(false);
  });

  it('keeps the menu drift reports found latest first, a late one in its place, the newest `limit` across a snapshot; reads files written before them', () => {
    const state = new ReceiverState(3);
    const report = (id: string, detectedAt: string) => ({
      driftEventId: id,
      integrationId: 'i-1',
      provider: 'SOME_PLATFORM',
      providerRestaurantId: 'store-77',
      importId: `import-${id}`,
      changes: [{ kind: 'price', platformProductId: 'prd-1', productCode: 'LHM-1', before: 90, after: 95 }],
      detectedAt,
      receivedAt: '2025-05-01T11:00:00Z',
      webhookId: `wh-${id}`,
    });
    state.addDrift(report('a', '2025-05-01T10:00:00Z'));
    state.addDrift(report('c', '2025-05-01T10:20:00Z'));
    // Found before c, received after it: listed below it.
    state.addDrift(report('b', '2025-05-01T10:10:00Z'));
    expect(state.listDrift().map((entry) => entry.driftEventId)).toEqual(['c', 'b', 'a']);
    expect(state.listDrift(2).map((entry) => entry.driftEventId)).toEqual(['c', 'b']);
    state.addDrift(report('d', '2025-05-01T10:20:00Z'));
    expect(state.listDrift().map((entry) => entry.driftEventId)).toEqual(['d', 'c', 'b']);
    // Older than everything kept, with the list full: it is the one dropped.
    state.addDrift(report('old', '2025-05-01T09:00:00Z'));
    expect(state.listDrift().map((entry) => entry.driftEventId)).toEqual(['d', 'c', 'b']);

    const restored = new ReceiverState(3, JSON.parse(JSON.stringify(state.snapshot())));
    expect(restored.listDrift()).toEqual(state.listDrift());
    const { drift: _drift, ...older } = state.snapshot();
    expect(isStateSnapshot(older)).toBe(true);
    expect(new ReceiverState(3, older).listDrift()).toEqual([]);
    expect(isStateSnapshot({ ...older, drift: {} })).toBe(false);
  });
});
