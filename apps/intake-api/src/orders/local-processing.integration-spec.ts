import http from 'node:http';
import { AddressInfo } from 'node:net';
import { RoutingKey } from '@courier/contracts';
import { waitFor } from '@courier/testing';
import { IntakeTestApp, keyHeader, startIntakeApp, TestAccount, validOrder } from '../../test/harness';
import { OrderProcessingService } from './order-processing.service';

const ORDER = '/webhook/third-party/order';
// Long enough that a loaded CI machine does not run the fast path past it by accident.
const LEASE_MS = 3_000;

/** A Nominatim-compatible geocoder that answers after `delayMs`, to keep orders in local processing for a while. */
async function slowGeocoder(delayMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_request, response) => {
    setTimeout(() => response.writeHead(200, { 'Content-Type': 'application/json' }).end('[{"lat":"41.01","lon":"28.97"}]'), delayMs).unref();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The fast path of docs/intake-api.md: the accepting process processes the order right after the
 * commit, its order.received written claimed (the relay's lease) and marked done with the state
 * move; the broker path takes over when the place is full or the fast path fails.
 */
describe('order processing in the accepting process (fast path)', () => {
  let geocoder: Awaited<ReturnType<typeof slowGeocoder>>;
  let t: IntakeTestApp;
  let account: TestAccount;

  beforeAll(async () => {
    geocoder = await slowGeocoder(800);
    t = await startIntakeApp({
      env: { GEOCODER_URL: geocoder.url, GEOCODER_TIMEOUT_MS: '1200', INTAKE_LOCAL_PROCESSING_LIMIT: '2', INTAKE_LOCAL_PROCESSING_LEASE_MS: String(LEASE_MS) },
    });
    account = await t.createAccount();
  });
  afterAll(async () => {
    await t?.close();
    await geocoder?.close();
  });

  const post = (body: unknown) => t.http.post(ORDER).set(keyHeader(account)).send(body as object);
  const orderRow = async (orderId: string) => (await t.sql('SELECT * FROM orders WHERE restaurant_id = $1 AND order_id = $2', [account.restaurantId, orderId]))[0];
  const processed = (orderId: string) => waitFor(`order ${orderId} processed`, async () => ['PROCESSED', 'FAILED'].includes((await orderRow(orderId))?.state) && orderRow(orderId));
  const receivedEvent = async (orderId: string) =>
    (await t.sql(`SELECT published_at, claimed_until, attempts FROM outbox_messages WHERE routing_key = 'order.received' AND payload->>'orderId' = $1`, [orderId]))[0];
  const created = (yemekKuryeOrderId: string) =>
    t.delivered.filter((message) => message.routingKey === RoutingKey.OrderCreated && (message.payload as any).yemekKuryeOrderId === yemekKuryeOrderId);

  /**
   * A real fault in the processing statement: a trigger runs `action` (PL/pgSQL) when the state of
   * an order listed in table `list` moves. Returns what removes the trigger.
   */
  const onStateMove = async (list: string, orderId: string, action: string) => {
    await t.sql(`CREATE TABLE IF NOT EXISTS ${list} (order_id text PRIMARY KEY)`);
    await t.sql(`INSERT INTO ${list} VALUES ($1)`, [orderId]);
    await t.sql(`
      CREATE OR REPLACE FUNCTION ${list}_fault() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.state <> OLD.state AND EXISTS (SELECT 1 FROM ${list} WHERE order_id = NEW.order_id) THEN
          ${action}
        END IF;
        RETURN NEW;
      END $$`);
    await t.sql(`CREATE OR REPLACE TRIGGER ${list}_fault BEFORE UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION ${list}_fault()`);
    return () => t.sql(`DROP TRIGGER IF EXISTS ${list}_fault ON orders`);
  };

  it('processes a new order without the broker: PROCESSED, one order.created, its order.received claimed then marked done, never sent', async () => {
    const order = validOrder(account.restaurantId, { deliveryLatitude: 40.98, deliveryLongitude: 29.05 });
    const accepted = await post(order);
    expect(accepted.status).toBe(202);
    const row = await processed(order.orderId);
    expect(row).toMatchObject({ state: 'PROCESSED', coordinates_source: 'sender', delivery_latitude: 40.98 });
    await waitFor('order.created', () => created(accepted.body.yemekKuryeOrderId).length === 1);
    expect(created(accepted.body.yemekKuryeOrderId)[0].payload).toMatchObject({
      yemekKuryeOrderId: accepted.body.yemekKuryeOrderId,
      orderId: order.orderId,
      restaurantId: account.restaurantId,
      providerRestaurantId: account.snapshot.thirdParty!.providerRestaurantId,
      receivedAt: accepted.body.receivedAt,
    });
    // attempts 0: the relay never published it; nothing left claimed.
    expect(await receivedEvent(order.orderId)).toMatchObject({ published_at: expect.any(Date), claimed_until: null, attempts: 0 });
    // The claim would have run out by now: still nothing sent, still one order.created.
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 500));
    expect((await receivedEvent(order.orderId)).attempts).toBe(0);
    expect(created(accepted.body.yemekKuryeOrderId)).toHaveLength(1);
  });

  it('holds the claim while the order is in local processing (a slow geocoder), so the relay does not send it', async () => {
    const order = validOrder(account.restaurantId, { deliveryLatitude: undefined, deliveryLongitude: undefined });
    const accepted = await post(order);
    expect(accepted.status).toBe(202);
    const during = await receivedEvent(order.orderId);
    expect(during.published_at).toBeNull();
    expect(during.claimed_until.getTime()).toBeGreaterThan(Date.now());
    const row = await processed(order.orderId);
    expect(row).toMatchObject({ state: 'PROCESSED', coordinates_source: 'geocoder', delivery_latitude: 41.01 });
    expect(await receivedEvent(order.orderId)).toMatchObject({ published_at: expect.any(Date), attempts: 0 });
    await waitFor('order.created', () => created(accepted.body.yemekKuryeOrderId).length === 1);
  });

  it('sends what does not fit (INTAKE_LOCAL_PROCESSING_LIMIT) through the broker at once: every order processed once', async () => {
    // Five orders at once that each need the slow geocoder: two fit, three go through the broker.
    const orders = Array.from({ length: 5 }, () => validOrder(account.restaurantId, { deliveryLatitude: undefined, deliveryLongitude: undefined }));
    const answers = await Promise.all(orders.map((order) => post(order)));
    expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 202, 202]);
    for (const order of orders) expect((await processed(order.orderId)).state).toBe('PROCESSED');
    // The in-process broker delivers before the relay has recorded its publication: wait for that record.
    await waitFor('every order.received settled', async () => (await Promise.all(orders.map((order) => receivedEvent(order.orderId)))).every((event) => event.published_at !== null));
    const events = await Promise.all(orders.map((order) => receivedEvent(order.orderId)));
    expect(events.filter((event) => event.attempts === 0)).toHaveLength(2);
    expect(events.filter((event) => event.attempts === 1)).toHaveLength(3);
    expect(events.every((event) => event.published_at !== null && event.claimed_until === null)).toBe(true);
    for (const answer of answers) await waitFor('order.created', () => created(answer.body.yemekKuryeOrderId).length === 1);
  });

  it('leaves a failed fast path to the broker when its claim runs out: processed once, after the claim', async () => {
    const order = validOrder(account.restaurantId, { deliveryLatitude: 41, deliveryLongitude: 29 });
    // A real failure of the processing statement: every state move of this order is refused while
    // it is listed in refused_moves; the test lifts it once the fast path has failed.
    const dropTrigger = await onStateMove('refused_moves', order.orderId, `RAISE EXCEPTION 'state move refused for the test';`);
    try {
      const started = Date.now();
      const accepted = await post(order);
      expect(accepted.status).toBe(202);
      await waitFor('the fast path failure logged', () =>
        t.logLines.some((line) => line.includes('order processing in the accepting process failed') && line.includes(accepted.body.yemekKuryeOrderId)),
      );
      await t.sql('DELETE FROM refused_moves WHERE order_id = $1', [order.orderId]);
      expect((await orderRow(order.orderId)).state).toBe('ACCEPTED');
      expect((await receivedEvent(order.orderId)).attempts).toBe(0);
      const row = await processed(order.orderId);
      expect(row.state).toBe('PROCESSED');
      expect(Date.now() - started).toBeGreaterThanOrEqual(LEASE_MS - 100);
      // The relay sent it once the claim ran out; the consumer processed it.
      expect(await receivedEvent(order.orderId)).toMatchObject({ published_at: expect.any(Date), attempts: 1 });
      await waitFor('order.created', () => created(accepted.body.yemekKuryeOrderId).length === 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(created(accepted.body.yemekKuryeOrderId)).toHaveLength(1);
    } finally {
      await dropTrigger();
    }
  });

  it('a fast path that outlasts its claim races the broker path: one outcome, one order.created', async () => {
    const order = validOrder(account.restaurantId, { deliveryLatitude: 41, deliveryLongitude: 29 });
    // The fast path's state move is slow (it sleeps past the claim, once, holding the row lock):
    // the relay sends order.received meanwhile and the consumer tries the same move.
    const dropTrigger = await onStateMove('slow_moves', order.orderId, `DELETE FROM slow_moves WHERE order_id = NEW.order_id; PERFORM pg_sleep(${(LEASE_MS + 3_000) / 1000});`);
    try {
      const accepted = await post(order);
      expect(accepted.status).toBe(202);
      // (With the in-process broker a publish is confirmed when its handler is done, so the relay
      // marks the row only once the consumer's move, waiting on the row lock, has found the order
      // PROCESSED and changed nothing.)
      await waitFor('order.received sent by the relay once the claim ran out', async () => (await receivedEvent(order.orderId)).attempts === 1);
      expect((await processed(order.orderId)).state).toBe('PROCESSED');
      await waitFor('order.created', () => created(accepted.body.yemekKuryeOrderId).length === 1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(created(accepted.body.yemekKuryeOrderId)).toHaveLength(1);
      const events = await t.sql(`SELECT count(*)::int AS n FROM outbox_messages WHERE routing_key = 'order.created' AND payload->>'orderId' = $1`, [order.orderId]);
      expect(events[0].n).toBe(1);
    } finally {
      await dropTrigger();
    }
  });

  it('gives every reservation back: replays, 409s and concurrent duplicates leave nothing reserved', async () => {
    const processing = t.app.get(OrderProcessingService);
    const order = validOrder(account.restaurantId, { deliveryLatitude: 41, deliveryLongitude: 29 });
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, () => post(order)),
      ...Array.from({ length: 4 }, () => post({ ...order, customerName: 'Someone Else' })),
    ]);
    expect(answers.filter((answer) => answer.status === 202)).toHaveLength(6);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(4);
    expect((await processed(order.orderId)).state).toBe('PROCESSED');
    await waitFor('every reservation given back', () => processing.inLocalProcessing === 0);
    // The limit (2) still admits two orders into the fast path at once.
    const next = Array.from({ length: 2 }, () => validOrder(account.restaurantId, { deliveryLatitude: 41, deliveryLongitude: 29 }));
    await Promise.all(next.map((one) => post(one)));
    for (const one of next) expect((await processed(one.orderId)).state).toBe('PROCESSED');
    expect((await Promise.all(next.map((one) => receivedEvent(one.orderId)))).map((event) => event.attempts)).toEqual([0, 0]);
  });

  it('on shutdown waits for the orders in local processing', async () => {
    const other = await startIntakeApp({
      database: t.database,
      recordOtherQueues: false,
      env: { GEOCODER_URL: geocoder.url, GEOCODER_TIMEOUT_MS: '3000', INTAKE_LOCAL_PROCESSING_LEASE_MS: '60000', SHUTDOWN_GRACE_MS: '5000' },
    });
    let closed = false;
    try {
      const order = validOrder(account.restaurantId, { deliveryLatitude: undefined, deliveryLongitude: undefined });
      expect((await other.http.post(ORDER).set(keyHeader(account)).send(order)).status).toBe(202);
      expect((await orderRow(order.orderId)).state).toBe('ACCEPTED');
      await other.close({ keepDatabase: true });
      closed = true;
      // Processed before the app finished closing, well within the 60 s claim.
      expect((await orderRow(order.orderId)).state).toBe('PROCESSED');
      expect(await receivedEvent(order.orderId)).toMatchObject({ published_at: expect.any(Date), attempts: 0 });
    } finally {
      if (!closed) await other.close({ keepDatabase: true });
    }
  });
});
