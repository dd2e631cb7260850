import { SchedulerRegistry } from '@nestjs/schedule';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { RoutingKey } from '@courier/contracts';
import { waitFor } from '@courier/testing';
import { IntakeTestApp, keyHeader, startIntakeApp, TestAccount, validOrder } from '../../test/harness';
import { OrderProcessingService, STUCK_ORDER_SWEEP } from './order-processing.service';

const ORDER = '/webhook/third-party/order';

/** A local stand-in for a Nominatim-compatible geocoder; its answer per address is set by the test. */
class FakeGeocoder {
  readonly requests: Array<{ url: string; userAgent?: string }> = [];
  answer: (query: string) => { status: number; body: string; delayMs?: number } = () => ({ status: 200, body: '[]' });
  private readonly server = http.createServer((request, response) => {
    this.requests.push({ url: request.url ?? '', userAgent: request.headers['user-agent'] });
    const query = new URL(request.url ?? '/', 'http://x').searchParams.get('q') ?? '';
    const { status, body, delayMs } = this.answer(query);
    setTimeout(() => response.writeHead(status, { 'Content-Type': 'application/json' }).end(body), delayMs ?? 0).unref();
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/nominatim/`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The broker path: fast path off, so every order goes through order.received (local-processing.integration-spec.ts covers the fast path). */
describe('order processing (order.received)', () => {
  const geocoder = new FakeGeocoder();
  let t: IntakeTestApp;
  let account: TestAccount;

  beforeAll(async () => {
    const url = await geocoder.start();
    t = await startIntakeApp({ env: { GEOCODER_URL: url, GEOCODER_TIMEOUT_MS: '300', INTAKE_LOCAL_PROCESSING_LIMIT: '0' } });
    account = await t.createAccount();
  });
  afterAll(async () => {
    await t?.close();
    await geocoder.stop();
  });

  const orderRow = async (orderId: string) => (await t.sql('SELECT * FROM orders WHERE restaurant_id = $1 AND order_id = $2', [account.restaurantId, orderId]))[0];
  const processed = (orderId: string) => waitFor(`order ${orderId} processed`, async () => ['PROCESSED', 'FAILED'].includes((await orderRow(orderId))?.state) && orderRow(orderId));
  const created = (yemekKuryeOrderId: string) => t.delivered.filter((message) => message.routingKey === RoutingKey.OrderCreated && (message.payload as any).yemekKuryeOrderId === yemekKuryeOrderId);
  const post = (body: unknown, who = account) => t.http.post(ORDER).set(keyHeader(who)).send(body as object);

  it('turns an accepted order into order.created (once) with the sender\'s coordinates, without geocoding', async () => {
    const order = validOrder(account.restaurantId, { deliveryLatitude: 40.98, deliveryLongitude: 29.05, customerEmail: null, scheduledDeliveryTime: '2099-05-01T12:00:00+03:00' });
    const accepted = (await post(order)).body;
    const requestsBefore = geocoder.requests.length;
    const row = await processed(order.orderId);
    expect(row).toMatchObject({ state: 'PROCESSED', delivery_latitude: 40.98, delivery_longitude: 29.05, coordinates_source: 'sender' });
    await waitFor('order.created delivered', () => created(accepted.yemekKuryeOrderId).length === 1);
    const [message] = created(accepted.yemekKuryeOrderId);
    expect(message.queue).toBe('status-dispatcher.order-events');
    expect(message.payload).toEqual({
      yemekKuryeOrderId: accepted.yemekKuryeOrderId,
      orderId: order.orderId,
      restaurantId: account.restaurantId,
      provider: 'THIRD_PARTY',
      providerRestaurantId: account.snapshot.thirdParty!.providerRestaurantId,
      receivedAt: accepted.receivedAt,
      details: {
        customerName: order.customerName,
        customerPhone: order.customerPhone,
        deliveryAddress: order.deliveryAddress,
        deliveryLatitude: 40.98,
        deliveryLongitude: 29.05,
        scheduledDeliveryTime: '2099-05-01T12:00:00+03:00',
        paymentMethod: 'CARD_POS',
        subtotal: 300,
        deliveryFee: 20,
        total: 320,
        currency: 'TRY',
        items: order.items,
      },
    });
    expect(geocoder.requests.length).toBe(requestsBefore);
    // GET shows RECEIVED until the lifecycle (status-dispatcher) says it knows the order, then NEW.
    expect((await t.http.get(`/api/v1/orders/${order.orderId}`).set(keyHeader(account))).body).toMatchObject({ status: 'RECEIVED', orderNumber: null });
    const opened = { yemekKuryeOrderId: accepted.yemekKuryeOrderId, orderId: order.orderId, restaurantId: account.restaurantId, orderNumber: '1', status: 'NEW', timestamp: new Date().toISOString(), sequence: 0 };
    await t.transport.publish([{ messageId: randomUUID(), routingKey: RoutingKey.OrderOpened, payload: opened }]);
    await waitFor('NEW once the lifecycle knows the order', async () => (await t.http.get(`/api/v1/orders/${order.orderId}`).set(keyHeader(account))).body.status === 'NEW');
    expect((await t.http.get(`/api/v1/orders/${order.orderId}`).set(keyHeader(account))).body).toMatchObject({ status: 'NEW', orderNumber: '1' });
  });

  it('geocodes an address without coordinates through the Nominatim-compatible API', async () => {
    geocoder.answer = (query) => (query.includes('Moda') ? { status: 200, body: JSON.stringify([{ lat: '40.9876', lon: '29.0270', display_name: 'Moda' }]) } : { status: 200, body: '[]' });
    const order = validOrder(account.restaurantId, { deliveryAddress: 'Moda Cd. 5, Kadıköy' });
    const accepted = (await post(order)).body;
    expect(await processed(order.orderId)).toMatchObject({ state: 'PROCESSED', delivery_latitude: 40.9876, delivery_longitude: 29.027, coordinates_source: 'geocoder' });
    const request = geocoder.requests.find((entry) => entry.url.includes('Moda'))!;
    const url = new URL(request.url, 'http://x');
    expect(url.pathname).toBe('/nominatim/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: 'Moda Cd. 5, Kadıköy', format: 'jsonv2', limit: '1' });
    expect(request.userAgent).toMatch(/^courier-intake-api\//);
    await waitFor('order.created', () => created(accepted.yemekKuryeOrderId).length === 1);
    expect((created(accepted.yemekKuryeOrderId)[0].payload as any).details).toMatchObject({ deliveryLatitude: 40.9876, deliveryLongitude: 29.027 });
  });

  it.each([
    ['no result', () => ({ status: 200, body: '[]' })],
    ['an error status', () => ({ status: 503, body: '{"error":"busy"}' })],
    ['junk', () => ({ status: 200, body: '<html>' })],
    ['a timeout', () => ({ status: 200, body: '[{"lat":"1","lon":"2"}]', delayMs: 2_000 })],
  ])('processes the order without coordinates when the geocoder gives %s', async (_case, answer) => {
    geocoder.answer = answer;
    const order = validOrder(account.restaurantId, { deliveryAddress: `Nowhere ${randomUUID()}` });
    const accepted = (await post(order)).body;
    expect(await processed(order.orderId)).toMatchObject({ state: 'PROCESSED', delivery_latitude: null, coordinates_source: null });
    await waitFor('order.created', () => created(accepted.yemekKuryeOrderId).length === 1);
    expect((created(accepted.yemekKuryeOrderId)[0].payload as any).details.deliveryLatitude).toBeUndefined();
    expect(t.logLines.some((line) => line.includes('order goes on without coordinates'))).toBe(true);
  });

  it('ends FAILED with order.canceled (OTHER, System) when the account is gone, and processes a resend as a new order', async () => {
    const victim = await t.createAccount();
    const order = validOrder(victim.restaurantId, { deliveryLatitude: 41, deliveryLongitude: 29 });
    const processing = t.app.get(OrderProcessingService);
    // Hold the processing of this one order until the account row is removed.
    const original = processing.process.bind(processing);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const spy = jest.spyOn(processing, 'process').mockImplementation(async (event, delivery) => {
      if (event.orderId === order.orderId) await held;
      return original(event, delivery);
    });
    try {
      const accepted = (await post(order, victim)).body;
      await t.sql('DELETE FROM accounts WHERE restaurant_id = $1', [victim.restaurantId]);
      release();
      const row = await waitFor('FAILED', async () => {
        const [current] = await t.sql('SELECT * FROM orders WHERE order_id = $1', [order.orderId]);
        return current.state === 'FAILED' && current;
      });
      expect(row.failure_reason).toBe('The restaurant account is unknown.');
      const canceled = await waitFor('order.canceled', () =>
        t.delivered.find((message) => message.routingKey === RoutingKey.OrderCanceled && (message.payload as any).yemekKuryeOrderId === accepted.yemekKuryeOrderId),
      );
      expect(canceled!.queue).toBe('webhook-sender.order-events');
      expect(canceled!.payload).toEqual({
        yemekKuryeOrderId: accepted.yemekKuryeOrderId,
        orderId: order.orderId,
        restaurantId: victim.restaurantId,
        orderNumber: null,
        previousStatus: null,
        reason: 'The restaurant account is unknown.',
        cancelReasonId: 'OTHER',
        canceledBy: 'System',
        timestamp: expect.any(String),
        provider: 'THIRD_PARTY',
        providerRestaurantId: victim.restaurantId,
        sequence: 1,
      });
      expect(created(accepted.yemekKuryeOrderId)).toEqual([]);

      // The account comes back; sending the same order again processes it again, as a new order.
      await t.publishAccount({ ...victim.snapshot, version: 2 });
      const status = await waitFor('FAILED shown', async () => {
        const view = (await t.http.get(`/api/v1/orders/${order.orderId}`).set(keyHeader(victim))).body;
        return view.history?.length === 1 && view;
      });
      expect(status).toMatchObject({ status: 'FAILED', failureReason: 'The restaurant account is unknown.', history: [{ status: 'CANCELED', previousStatus: null }] });
      const again = await post(order, victim);
      expect(again.status).toBe(202);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(again.body.yemekKuryeOrderId).not.toBe(accepted.yemekKuryeOrderId);
      const retried = await waitFor('PROCESSED', async () => {
        const [current] = await t.sql('SELECT * FROM orders WHERE order_id = $1', [order.orderId]);
        return current.state === 'PROCESSED' && current;
      });
      expect(retried).toMatchObject({ attempt: 2, yemek_kurye_order_id: again.body.yemekKuryeOrderId, failure_reason: null });
      await waitFor('order.created', () => created(again.body.yemekKuryeOrderId).length === 1);
      // Now an ordinary accepted order: a resend is a replay of the new answer.
      const replay = await post(order, victim);
      expect(replay.body).toEqual(again.body);
      expect(replay.headers['idempotent-replayed']).toBe('true');
    } finally {
      spy.mockRestore();
    }
  });

  it('re-publishes order.received for orders stuck in ACCEPTED (dead-lettered while the database was down)', async () => {
    const order = validOrder(account.restaurantId, { deliveryLatitude: 41, deliveryLongitude: 29 });
    const yemekKuryeOrderId = randomUUID();
    // As if accepted long ago and its event lost.
    await t.sql(
      `INSERT INTO orders (restaurant_id, order_id, yemek_kurye_order_id, payload_hash, payload, state, received_at)
       VALUES ($1, $2, $3, 'h', $4, 'ACCEPTED', now() - interval '11 minutes')`,
      [account.restaurantId, order.orderId, yemekKuryeOrderId, JSON.stringify(order)],
    );
    const processing = t.app.get(OrderProcessingService);
    expect(await processing.requeueStuckOrders()).toBe(1);
    expect((await processed(order.orderId)).state).toBe('PROCESSED');
    await waitFor('order.created', () => created(yemekKuryeOrderId).length === 1);
    // Sweeping again finds nothing (processed) and duplicates change nothing.
    expect(await processing.requeueStuckOrders()).toBe(0);
    await t.transport.publish([{ messageId: randomUUID(), routingKey: RoutingKey.OrderReceived, payload: { yemekKuryeOrderId, restaurantId: account.restaurantId, orderId: order.orderId } }]);
    expect(created(yemekKuryeOrderId)).toHaveLength(1);
  });

  it('schedules the stuck-order sweep on every replica', () => {
    expect(t.app.get(SchedulerRegistry).getIntervals()).toContain(STUCK_ORDER_SWEEP);
  });
});
