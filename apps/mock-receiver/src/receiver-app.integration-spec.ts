import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { acceptOrder, FakeIntake } from './__fixtures__/fake-intake';
import { makeDataDir, startReceiver, TestReceiver } from './__fixtures__/receiver';
import { cancelPayload, catalogDriftPayload, rotationHeaders, signedHeaders, statusPayload, TEST_SECRET } from './__fixtures__/webhooks';

const cents = (amount: number) => Math.round(amount * 100);

// The project-level testTimeout of jest.config.js is not applied to projects; this file sets its own.
jest.setTimeout(30_000);

describe('mock-receiver over HTTP', () => {
  let data: Awaited<ReturnType<typeof makeDataDir>>;
  const intake = new FakeIntake();
  let intakeUrl: string;
  let receiver: TestReceiver | undefined;

  const config = (name: string, extra: Record<string, unknown> = {}) => ({
    SERVICE_API_URL: intakeUrl,
    SERVICE_API_KEY: 'test-intake-key-0001',
    SERVICE_RESTAURANT_ID: 'rest_testRestaurant000000001',
    WEBHOOK_SECRET: TEST_SECRET,
    RECEIVER_DATA_FILE: path.join(data.dir, `${name}.json`),
    ...extra,
  });

  beforeAll(async () => {
    data = await makeDataDir();
    intakeUrl = await intake.start();
  });

  afterEach(async () => {
    await receiver?.app.close();
    receiver = undefined;
    intake.calls.length = 0;
  });

  afterAll(async () => {
    await intake.stop();
    await data.remove();
  });

  const http = () => request(receiver!.app.getHttpServer());

  function postStatus(body: string, headers: Record<string, string>) {
    return http().post('/webhook/status').set(headers).send(body);
  }

  describe('send-order', () => {
    it('sends the default order with X-API-Key and answers with what the service answered', async () => {
      receiver = await startReceiver(config('send-default'));
      const response = await http().post('/api/send-order').send({}).expect(202);

      expect(intake.calls).toHaveLength(1);
      const [call] = intake.calls;
      expect(call.url).toBe('/webhook/third-party/order');
      expect(call.headers['x-api-key']).toBe('test-intake-key-0001');
      const sent = call.body as { orderId: string; restaurantId: string; items: Array<{ totalAmount: number }>; subtotal: number; total: number; deliveryFee: number; serviceFee: number; discount: number };
      expect(sent.restaurantId).toBe('rest_testRestaurant000000001');
      expect(sent.items.length).toBeGreaterThan(0);
      expect(cents(sent.subtotal)).toBe(sent.items.reduce((sum, item) => sum + cents(item.totalAmount), 0));
      expect(cents(sent.total)).toBe(cents(sent.subtotal) + cents(sent.deliveryFee) + cents(sent.serviceFee) - cents(sent.discount));

      expect(response.body).toMatchObject({ status: 'accepted', orderId: sent.orderId, yemekKuryeOrderId: expect.any(String) });
      expect(response.headers['x-receiver-order-id']).toBe(sent.orderId);

      const orders = await http().get('/api/orders').expect(200);
      expect(orders.body.data[0]).toMatchObject({
        orderId: sent.orderId,
        yemekKuryeOrderId: response.body.yemekKuryeOrderId,
        response: { status: 202 },
        status: null,
      });

      await http().post('/api/send-order').send({}).expect(202);
      expect(intake.calls[1].body.orderId).not.toBe(sent.orderId);
    });

    it('sends the items and totals of a JSON body, computing what it leaves out', async () => {
      receiver = await startReceiver(config('send-custom'));
      const items = [{ productCode: 'P-1', productName: 'Mercimek çorbası', quantity: 2, unitPrice: 95.5 }];
      await http().post('/api/send-order').send({ items, deliveryFee: 0, serviceFee: 0 }).expect(202);
      expect(intake.calls[0].body).toMatchObject({ items: [{ ...items[0], totalAmount: 191 }], subtotal: 191, total: 191, deliveryFee: 0 });
    });

    it("passes the service's refusals through with their status and content type", async () => {
      receiver = await startReceiver(config('send-refused'));
      intake.reply = () => ({
        status: 409,
        contentType: 'application/problem+json',
        body: { type: 'about:blank', title: 'Conflict', status: 409, code: 'DUPLICATE_ORDER_ID', detail: 'orderId already used' },
      });
      try {
        const response = await http().post('/api/send-order').send({ orderId: 'dup-1' }).expect(409);
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(response.body.code).toBe('DUPLICATE_ORDER_ID');
        const orders = await http().get('/api/orders').expect(200);
        expect(orders.body.data[0]).toMatchObject({ orderId: 'dup-1', response: { status: 409, body: { code: 'DUPLICATE_ORDER_ID' } } });
        expect(orders.body.data[0].yemekKuryeOrderId).toBeUndefined();
      } finally {
        intake.reply = acceptOrder;
      }
    });

    it('passes an answer through byte for byte, and a redirect as it is (never followed)', async () => {
      receiver = await startReceiver(config('send-verbatim'));
      const pretty = '{\n  "code" : "DUPLICATE_ORDER_ID",\n  "status": 409\n}';
      intake.reply = () => ({ status: 409, contentType: 'application/problem+json', body: pretty });
      try {
        const refused = await http().post('/api/send-order').send({}).buffer(true).parse((res, done) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk));
          res.on('end', () => done(null, text));
        });
        expect(refused.status).toBe(409);
        expect(refused.body).toBe(pretty);
        intake.reply = (call) => ({ status: 307, headers: { Location: `/elsewhere${call.url}` }, contentType: 'text/plain', body: 'moved' });
        const moved = await http().post('/api/send-order').send({}).expect(307);
        expect(moved.text).toBe('moved');
        expect(intake.calls.map((call) => call.url)).toEqual(['/webhook/third-party/order', '/webhook/third-party/order']);
      } finally {
        intake.reply = acceptOrder;
      }
    });

    it('gives up after SERVICE_TIMEOUT_MS: 502 SERVICE_UNREACHABLE, "timed out"', async () => {
      // A service that takes the request and never answers.
      const silent = createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      try {
        receiver = await startReceiver(config('send-timeout', { SERVICE_API_URL: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, SERVICE_TIMEOUT_MS: 200 }));
        const response = await http().post('/api/send-order').send({}).expect(502);
        expect(response.body).toMatchObject({ code: 'SERVICE_UNREACHABLE', detail: expect.stringMatching(/timed out$/) });
      } finally {
        silent.closeAllConnections();
        await new Promise((resolve) => silent.close(resolve));
      }
    });

    it('answers 502 SERVICE_UNREACHABLE when the service is down, and still records the attempt', async () => {
      // A port that was free a moment ago: nothing listens there.
      const closed = new FakeIntake();
      const downUrl = await closed.start();
      await closed.stop();
      receiver = await startReceiver(config('send-down', { SERVICE_API_URL: downUrl }));
      const response = await http().post('/api/send-order').send({}).expect(502);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body).toMatchObject({ code: 'SERVICE_UNREACHABLE', status: 502 });
      const orders = await http().get('/api/orders').expect(200);
      expect(orders.body.data[0]).toMatchObject({ orderId: response.body.orderId, error: expect.stringMatching(/ECONNREFUSED/) });
    });

    it('refuses bad input with problem JSON and sends nothing', async () => {
      receiver = await startReceiver(config('send-bad'));
      const invalid = await http().post('/api/send-order').set('Content-Type', 'application/json').send('{"items": [').expect(400);
      expect(invalid.body.code).toBe('INVALID_PAYLOAD');
      const unknown = await http().post('/api/send-order').send({ restaurantId: 'rest_other', tip: 5 }).expect(422);
      expect(unknown.body.code).toBe('VALIDATION_ERROR');
      expect(unknown.body.errors.map((error: { field: string }) => error.field).sort()).toEqual(['restaurantId', 'tip']);
      await http().post('/api/send-order').send({ items: [{ quantity: 'two' }] }).expect(422);
      expect(intake.calls).toHaveLength(0);
    });

    it('sends the default order for a POST with no body, as curl -X POST does; a JSON body as before; another non-empty body is 415', async () => {
      receiver = await startReceiver(config('send-no-body'), { listen: true });
      const url = `${receiver.baseUrl}/api/send-order`;
      // curl -X POST http://localhost:4444/api/send-order: no body, no content type.
      const bare = await fetch(url, { method: 'POST' });
      expect(bare.status).toBe(202);
      expect(await bare.json()).toMatchObject({ status: 'accepted' });
      expect(intake.calls[0].body).toMatchObject({ restaurantId: 'rest_testRestaurant000000001', items: expect.any(Array) });
      // An empty body, with or without a JSON content type.
      expect((await http().post('/api/send-order').set('Content-Type', 'application/json').set('Content-Length', '0')).status).toBe(202);
      expect((await http().post('/api/send-order').set('Content-Type', 'text/plain').set('Content-Length', '0')).status).toBe(202);
      expect((await http().post('/api/send-order').send({ deliveryFee: 0 })).status).toBe(202);
      expect(intake.calls.map((call) => call.body.deliveryFee === 0)).toEqual([false, false, false, true]);
      const plain = await http().post('/api/send-order').set('Content-Type', 'text/plain').send('{}');
      expect(plain.status).toBe(415);
      expect(plain.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
      expect((await http().post('/api/send-order').set('Content-Type', 'application/x-www-form-urlencoded').send('a=1')).status).toBe(415);
      expect(intake.calls).toHaveLength(4);
    });

    it('refuses cross-site sends by Host, Sec-Fetch-Site and Origin; curl and the dashboard itself still send', async () => {
      receiver = await startReceiver(config('send-csrf', { RECEIVER_ALLOWED_HOSTS: 'receiver.test, tools.test:8080' }), { listen: true });
      const port = new URL(receiver.baseUrl!).port;
      const send = (headers: Record<string, string>) => http().post('/api/send-order').set(headers);
      const refused = async (headers: Record<string, string>) => {
        const response = await send(headers);
        expect({ headers, status: response.status, code: response.body.code, type: response.headers['content-type'] }).toEqual({
          headers,
          status: 403,
          code: 'FORBIDDEN',
          type: expect.stringMatching(/^application\/problem\+json/),
        });
      };
      // DNS rebinding: the attacker's name resolves to this machine; the page's requests carry it as Host (and are "same-origin").
      await refused({ Host: `evil.example:${port}`, Origin: `http://evil.example:${port}`, 'Sec-Fetch-Site': 'same-origin' });
      await refused({ Host: `evil.example:${port}` });
      await refused({ Host: 'localhost:1' });
      await refused({ Host: 'tools.test:9090' });
      // A page of another site, or of the same site on another port (http://localhost:3001 is same-site with the receiver).
      await refused({ 'Sec-Fetch-Site': 'cross-site' });
      await refused({ Host: `localhost:${port}`, 'Sec-Fetch-Site': 'same-site', Origin: 'http://localhost:3001' });
      await refused({ Origin: 'http://evil.example' });
      await refused({ Origin: 'null' });
      expect(intake.calls).toHaveLength(0);

      // Non-browser clients send neither header; the dashboard sends same-origin with its own Origin.
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'receiver.test', 'tools.test:8080']) {
        expect((await send({ Host: host })).status).toBe(202);
      }
      expect((await send({ Host: `localhost:${port}`, Origin: `http://localhost:${port}`, 'Sec-Fetch-Site': 'same-origin' })).status).toBe(202);
      expect((await fetch(`${receiver.baseUrl}/api/send-order`, { method: 'POST', headers: { Origin: receiver.baseUrl! } })).status).toBe(202);
      expect(intake.calls).toHaveLength(7);

      // The webhooks are posted server to server, under whatever name the service was given.
      const payload = JSON.stringify(statusPayload({ orderId: 'o-host', yemekKuryeOrderId: 'yk-host', status: 'VALIDATED', timestamp: '2025-05-01T10:00:00Z' }));
      expect((await postStatus(payload, { ...signedHeaders(payload), Host: 'mock-receiver:4444' })).status).toBe(200);
    });
  });

  describe('order moves', () => {
    it('without SERVICE_INTERNAL_URL says what moves an order (409 MOVES_NOT_CONFIGURED); refuses cross-site calls and bad actions; an order it never sent is 404', async () => {
      receiver = await startReceiver(config('moves-off'), { listen: true });
      expect((await http().get('/api/config')).body.orderMoves).toEqual({ enabled: false });
      const sent = (await http().post('/api/send-order').send({}).expect(202)).body as { orderId: string };
      const off = await http().post(`/api/orders/${sent.orderId}/moves`).send({ action: 'next' });
      expect(off.status).toBe(409);
      expect(off.body).toMatchObject({ code: 'MOVES_NOT_CONFIGURED', detail: expect.stringContaining('/internal/orders/{yemekKuryeOrderId}/transitions') });
      const url = `${receiver.baseUrl}/api/orders/${sent.orderId}/moves`;
      expect((await fetch(url, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{"action":"deliver"}' })).status).toBe(415);
      expect((await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: 'http://evil.example' }, body: '{"action":"deliver"}' })).status).toBe(403);
      const moves = () => http().post(`/api/orders/${sent.orderId}/moves`);
      expect((await moves().set({ 'Sec-Fetch-Site': 'cross-site' }).send({ action: 'deliver' })).status).toBe(403);
      expect((await moves().set({ Host: `rebound.example:${new URL(receiver.baseUrl!).port}` }).send({ action: 'deliver' })).body).toMatchObject({ status: 403, code: 'FORBIDDEN' });
      expect((await http().post(`/api/orders/${sent.orderId}/moves`).send({ action: 'teleport' })).status).toBe(422);
      await receiver.app.close();

      receiver = await startReceiver({ ...config('moves-on'), SERVICE_INTERNAL_URL: 'http://127.0.0.1:9', SERVICE_INTERNAL_API_KEY: 'internal-key-0123456789' }, { listen: true });
      expect((await http().get('/api/config')).body.orderMoves).toMatchObject({ enabled: true });
      expect((await http().get('/api/config')).body.variables.SERVICE_INTERNAL_API_KEY).toBe('****6789');
      expect((await http().post('/api/orders/never-sent/moves').send({ action: 'next' })).body).toMatchObject({ code: 'ORDER_NOT_FOUND' });
    });
  });

  describe('webhooks', () => {
    const ids = { orderId: 'mock-wh-1', yemekKuryeOrderId: '0a1b2c3d-0000-4000-8000-0000000000aa' };
    const body = (status: string, timestamp: string, previousStatus?: string) =>
      JSON.stringify(statusPayload({ ...ids, status, timestamp, previousStatus }));

    it('401s a missing or wrong signature with problem JSON', async () => {
      receiver = await startReceiver(config('wh-auth'));
      const payload = body('VALIDATED', '2025-05-01T10:00:00Z');
      const missing = await postStatus(payload, { 'Content-Type': 'application/json' }).expect(401);
      expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(missing.body).toMatchObject({ status: 401, code: 'INVALID_SIGNATURE' });
      const wrong = signedHeaders(payload);
      wrong['X-Service-Signature'] = wrong['X-Service-Signature'].replace(/^./, (c) => (c === '0' ? '1' : '0'));
      await postStatus(payload, wrong).expect(401);
      const list = await http().get('/api/webhooks').expect(200);
      expect(list.body.data.map((entry: { outcome: string; verdicts: { serviceSignature: { state: string } } }) => [entry.outcome, entry.verdicts.serviceSignature.state])).toEqual([
        ['rejected', 'invalid'],
        ['rejected', 'missing'],
      ]);
    });

    it('verifies over the exact bytes received, whatever their spacing', async () => {
      receiver = await startReceiver(config('wh-bytes'));
      const spaced = JSON.stringify(JSON.parse(body('VALIDATED', '2025-05-01T10:00:00Z')), null, 2);
      const response = await postStatus(spaced, signedHeaders(spaced, { id: 'wh-spaced' })).expect(200);
      expect(response.body).toEqual({ received: true, webhookId: 'wh-spaced', outcome: 'applied' });
      const [entry] = (await http().get('/api/webhooks').expect(200)).body.data;
      expect(entry.verdicts).toMatchObject({ serviceSignature: { state: 'valid' }, standardWebhooks: { state: 'valid' } });
    });

    it('during a secret rotation grace period accepts the webhook holding the new secret or the old one, and refuses it holding neither', async () => {
      const previous = `whsec_${Buffer.from('the-secret-before-the-rotation-0').toString('base64')}`;
      const other = `whsec_${Buffer.from('a-secret-of-another-account-0123').toString('base64')}`;
      for (const [name, held, status] of [
        ['rot-new', TEST_SECRET, 200],
        ['rot-old', previous, 200],
        ['rot-other', other, 401],
      ] as const) {
        receiver = await startReceiver(config(name, { WEBHOOK_SECRET: held }));
        const payload = body('VALIDATED', '2025-05-01T10:00:00Z');
        await postStatus(payload, rotationHeaders(payload, { current: TEST_SECRET, previous, id: `wh-${name}` })).expect(status);
        const [entry] = (await http().get('/api/webhooks').expect(200)).body.data;
        const state = status === 200 ? 'valid' : 'invalid';
        expect(entry.verdicts).toMatchObject({ serviceSignature: { state }, standardWebhooks: { state } });
        await receiver.app.close();
        receiver = undefined;
      }
    });

    it('acknowledges with 200, marks a repeated id duplicate and an older status stale', async () => {
      receiver = await startReceiver(config('wh-lifecycle'));
      const first = body('VALIDATED', '2025-05-01T10:00:00Z');
      const headers = signedHeaders(first, { id: 'wh-a' });
      expect((await postStatus(first, headers).expect(200)).body.outcome).toBe('applied');
      expect((await postStatus(first, { ...headers, 'X-Webhook-Attempt': '2' }).expect(200)).body.outcome).toBe('duplicate');
      const next = body('ASSIGNED', '2025-05-01T10:10:00Z', 'VALIDATED');
      expect((await postStatus(next, signedHeaders(next)).expect(200)).body.outcome).toBe('applied');
      const late = body('ROUTED', '2025-05-01T10:05:00Z', 'VALIDATED');
      expect((await postStatus(late, signedHeaders(late)).expect(200)).body.outcome).toBe('stale');
      const cancel = JSON.stringify(cancelPayload({ ...ids, timestamp: '2025-05-01T10:20:00Z' }));
      const canceled = await http().post('/webhook/cancel').set(signedHeaders(cancel)).send(cancel).expect(200);
      expect(canceled.body.outcome).toBe('applied');

      const list = (await http().get('/api/webhooks').expect(200)).body.data;
      expect(list.map((entry: { kind: string; status: string; outcome: string }) => `${entry.kind}:${entry.status}:${entry.outcome}`)).toEqual([
        'cancel:CANCELED:applied',
        'status:ROUTED:stale',
        'status:ASSIGNED:applied',
        'status:VALIDATED:duplicate',
        'status:VALIDATED:applied',
      ]);
      expect((await http().get('/api/webhooks?limit=2').expect(200)).body.data).toHaveLength(2);
      await http().get('/api/webhooks?limit=zero').expect(422);
    });

    it('answers 400 INVALID_PAYLOAD to invalid JSON and 422 to a payload of the wrong event, never 500', async () => {
      receiver = await startReceiver(config('wh-bad', { WEBHOOK_SECRET: '' }));
      const invalid = await http().post('/webhook/status').set('Content-Type', 'application/json').send('{"event": "order.status_changed",').expect(400);
      expect(invalid.body).toMatchObject({ code: 'INVALID_PAYLOAD', status: 400 });
      await http().post('/webhook/cancel').set('Content-Type', 'application/json').send('').expect(400);
      await http().post('/webhook/status').set('Content-Type', 'text/plain').send('hello').expect(400);
      const wrongEvent = JSON.stringify(cancelPayload({ ...ids, timestamp: '2025-05-01T10:20:00Z' }));
      const mismatch = await http().post('/webhook/status').set('Content-Type', 'application/json').send(wrongEvent).expect(422);
      expect(mismatch.body.errors).toEqual(expect.arrayContaining([{ field: 'event', message: 'must be order.status_changed' }]));
      const tooLarge = await http().post('/webhook/status').set('Content-Type', 'application/json').send(`{"x":"${'a'.repeat(300 * 1024)}"}`).expect(413);
      expect(tooLarge.body.code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('with a whsec_ secret requires the Standard Webhooks signature: without the webhook-* headers the replay check cannot be skipped', async () => {
      receiver = await startReceiver(config('wh-standard-required'));
      const payload = body('VALIDATED', '2025-05-01T10:00:00Z');
      const serviceOnly = signedHeaders(payload, { standard: false });
      const refused = await postStatus(payload, serviceOnly).expect(401);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.body).toMatchObject({ status: 401, code: 'INVALID_SIGNATURE', detail: expect.stringMatching(/^Standard Webhooks signature/) });
      // A replay of a delivery captured more than 5 minutes ago, its webhook-* headers dropped: refused as well.
      const [entry] = (await http().get('/api/webhooks').expect(200)).body.data;
      expect(entry).toMatchObject({ outcome: 'rejected', httpStatus: 401, verdicts: { serviceSignature: { state: 'valid' }, standardWebhooks: { state: 'missing' } } });
      expect((await postStatus(payload, signedHeaders(payload)).expect(200)).body.outcome).toBe('applied');
      await receiver.app.close();

      // A secret not in the whsec_ form cannot key Standard Webhooks: X-Service-Signature alone is checked.
      receiver = await startReceiver(config('wh-plain-secret', { WEBHOOK_SECRET: 'plain-secret-0123456789' }));
      expect((await postStatus(payload, signedHeaders(payload, { secret: 'plain-secret-0123456789' })).expect(200)).body.outcome).toBe('applied');
      expect((await http().get('/api/config')).body.signatureVerification.standardWebhooks).toMatch(/^off/);
    });

    it('refuses a wrong Standard Webhooks signature next to a right X-Service-Signature', async () => {
      receiver = await startReceiver(config('wh-standard'));
      const payload = body('VALIDATED', '2025-05-01T10:00:00Z');
      const headers = { ...signedHeaders(payload), 'webhook-signature': signedHeaders('{"other":true}')['webhook-signature'] };
      const response = await postStatus(payload, headers).expect(401);
      expect(response.body.detail).toMatch(/Standard Webhooks/);
    });
  });

  it('follows a sent order through its webhooks', async () => {
    receiver = await startReceiver(config('lifecycle'));
    const sent = (await http().post('/api/send-order').send({}).expect(202)).body as { orderId: string; yemekKuryeOrderId: string };
    const moves: Array<[string, string]> = [
      ['NEW', 'VALIDATED'],
      ['VALIDATED', 'PREPARED'],
      ['PREPARED', 'ON_DELIVERY'],
      ['ON_DELIVERY', 'DELIVERED'],
    ];
    let minute = 0;
    for (const [previousStatus, status] of moves) {
      minute += 1;
      const payload = JSON.stringify(statusPayload({ ...sent, status, previousStatus, timestamp: `2025-05-01T10:0${minute}:00+03:00` }));
      await postStatus(payload, signedHeaders(payload)).expect(200);
    }
    const [order] = (await http().get('/api/orders').expect(200)).body.data;
    expect(order).toMatchObject({ orderId: sent.orderId, status: 'DELIVERED', statusAt: '2025-05-01T10:04:00+03:00' });
    expect(order.statusHistory.map((entry: { status: string }) => entry.status)).toEqual(['DELIVERED', 'ON_DELIVERY', 'PREPARED', 'VALIDATED']);
  });

  it("shows a status whose webhook arrived after a later one in the order's history, marked late, and the platform of a platform order", async () => {
    receiver = await startReceiver(config('late-and-platform'));
    const sent = (await http().post('/api/send-order').expect(202)).body as { orderId: string; yemekKuryeOrderId: string };
    const post = async (status: string, timestamp: string, id: string) => {
      const payload = JSON.stringify(statusPayload({ ...sent, status, timestamp }));
      return (await postStatus(payload, signedHeaders(payload, { id })).expect(200)).body.outcome as string;
    };
    expect(await post('VALIDATED', '2025-05-01T10:01:00Z', 'wh-v')).toBe('applied');
    expect(await post('ROUTED', '2025-05-01T10:03:00Z', 'wh-r')).toBe('applied');
    // ASSIGNED happened before ROUTED, but its webhook comes after: not applied (stale), yet shown.
    expect(await post('ASSIGNED', '2025-05-01T13:02:00+03:00', 'wh-a')).toBe('stale');
    const [order] = (await http().get('/api/orders').expect(200)).body.data;
    expect(order).toMatchObject({ orderId: sent.orderId, provider: 'THIRD_PARTY', status: 'ROUTED', statusAt: '2025-05-01T10:03:00Z' });
    expect(order.statusHistory).toEqual([
      { status: 'ROUTED', timestamp: '2025-05-01T10:03:00Z', webhookId: 'wh-r' },
      { status: 'ASSIGNED', timestamp: '2025-05-01T13:02:00+03:00', webhookId: 'wh-a', late: true },
      { status: 'VALIDATED', timestamp: '2025-05-01T10:01:00Z', webhookId: 'wh-v' },
    ]);

    // A platform order: the receiver never sent it; its webhooks name the platform.
    const platform = JSON.stringify({ ...statusPayload({ orderId: 'getir-5f1c', yemekKuryeOrderId: 'yk-platform-1', status: 'VALIDATED', timestamp: '2025-05-01T10:04:00Z' }), provider: 'PLATFORM_A' });
    await postStatus(platform, signedHeaders(platform, { id: 'wh-platform' })).expect(200);
    const tracked = (await http().get('/api/tracked-orders').expect(200)).body.data;
    expect(tracked.map(({ orderId, provider, status, sentHere }: Record<string, unknown>) => ({ orderId, provider, status, sentHere }))).toEqual([
      { orderId: 'getir-5f1c', provider: 'PLATFORM_A', status: 'VALIDATED', sentHere: false },
      { orderId: sent.orderId, provider: 'THIRD_PARTY', status: 'ROUTED', sentHere: true },
    ]);
    expect(tracked[1].statusHistory).toEqual(order.statusHistory);
    const [webhook] = (await http().get('/api/webhooks').expect(200)).body.data;
    expect(webhook).toMatchObject({ webhookId: 'wh-platform', provider: 'PLATFORM_A' });
    expect((await http().get('/api/tracked-orders?limit=1').expect(200)).body.data).toHaveLength(1);
  });

  it('keeps its state across a restart, in a file written atomically and bounded', async () => {
    const settings = config('restart', { RECEIVER_HISTORY_LIMIT: 3 });
    receiver = await startReceiver(settings);
    await http().post('/api/send-order').send({}).expect(202);
    const ids = { orderId: 'o-r', yemekKuryeOrderId: 'yk-restart' };
    for (let n = 1; n <= 4; n += 1) {
      const payload = JSON.stringify(statusPayload({ ...ids, status: `S${n}`, timestamp: `2025-05-01T10:0${n}:00Z` }));
      await postStatus(payload, signedHeaders(payload, { id: `wh-r${n}` })).expect(200);
    }
    await receiver.flush();
    const file = JSON.parse(await readFile(receiver.dataFile, 'utf8'));
    expect(file.webhooks.map((entry: { webhookId: string }) => entry.webhookId)).toEqual(['wh-r4', 'wh-r3', 'wh-r2']);
    expect((await readdir(data.dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const ordersBefore = (await http().get('/api/orders').expect(200)).body.data;
    await receiver.app.close();

    receiver = await startReceiver(settings);
    expect((await http().get('/api/orders').expect(200)).body.data).toEqual(ordersBefore);
    expect((await http().get('/api/webhooks').expect(200)).body.data).toHaveLength(3);
    // Ids accepted before the restart are still recognised, even one that left the history.
    const again = JSON.stringify(statusPayload({ ...ids, status: 'S1', timestamp: '2025-05-01T10:01:00Z' }));
    expect((await postStatus(again, signedHeaders(again, { id: 'wh-r1' })).expect(200)).body.outcome).toBe('duplicate');
    const stale = JSON.stringify(statusPayload({ ...ids, status: 'S0', timestamp: '2025-05-01T10:00:00Z' }));
    expect((await postStatus(stale, signedHeaders(stale)).expect(200)).body.outcome).toBe('stale');
  });

  it('lists the menu drift webhooks at /api/catalog-drift, found latest first, bounded, across a restart', async () => {
    const settings = config('drift', { RECEIVER_HISTORY_LIMIT: 2 });
    receiver = await startReceiver(settings);
    const drift = async (minute: number) => {
      const payload = catalogDriftPayload({ integrationId: 'i-drift', timestamp: `2025-05-01T10:0${minute}:00Z` });
      const body = JSON.stringify(payload);
      await postStatus(body, signedHeaders(body, { id: `wh-drift-${minute}` })).expect(200);
      return payload.driftEventId as string;
    };
    const found = { 1: await drift(1), 3: await drift(3), 2: await drift(2) };
    const listed = (await http().get('/api/catalog-drift').expect(200)).body.data;
    // The one found first fell out of the bounded list; the late one is in its place.
    expect(listed.map((report: { driftEventId: string }) => report.driftEventId)).toEqual([found[3], found[2]]);
    expect(listed[0]).toMatchObject({ integrationId: 'i-drift', provider: 'SOME_PLATFORM', detectedAt: '2025-05-01T10:03:00Z', webhookId: 'wh-drift-3', changes: [{ kind: 'price', before: 90, after: 95.5 }, { kind: 'added', productCode: null }] });
    expect((await http().get('/api/catalog-drift?limit=1').expect(200)).body.data).toHaveLength(1);
    const bad = await http().get('/api/catalog-drift?limit=0').expect(422);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
    await receiver.flush();
    await receiver.app.close();

    receiver = await startReceiver(settings);
    expect((await http().get('/api/catalog-drift').expect(200)).body.data).toEqual(listed);
  });

  it('starts empty, keeping an unreadable state file aside', async () => {
    const settings = config('corrupt');
    await writeFile(settings.RECEIVER_DATA_FILE, '{"version":1,"orders":[', 'utf8');
    receiver = await startReceiver(settings);
    expect((await http().get('/api/orders').expect(200)).body.data).toEqual([]);
    expect((await readdir(data.dir)).some((name) => name.startsWith('corrupt.json.unreadable-'))).toBe(true);
  });

  it('shows its configuration with the secrets masked, and answers /health', async () => {
    receiver = await startReceiver(config('config'));
    const response = await http().get('/api/config').expect(200);
    expect(response.body.variables).toMatchObject({
      SERVICE_API_URL: intakeUrl,
      SERVICE_RESTAURANT_ID: 'rest_testRestaurant000000001',
      SERVICE_API_KEY: '****0001',
      WEBHOOK_SECRET: `****${TEST_SECRET.slice(-4)}`,
    });
    expect(JSON.stringify(response.body)).not.toContain('test-intake-key-0001');
    expect(JSON.stringify(response.body)).not.toContain(TEST_SECRET);
    expect(response.body.signatureVerification.standardWebhooks).toMatch(/^required/);
    expect((await http().get('/health').expect(200)).body).toEqual({ status: 'ok' });
  });

  it('serves the dashboard with a strict content security policy', async () => {
    receiver = await startReceiver(config('dashboard'));
    const page = await http().get('/').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.text).toContain('<main id="main"');
    await http().get('/assets/dashboard.js').expect(200).expect('Content-Type', /javascript/);
    await http().get('/assets/dashboard.css').expect(200).expect('Content-Type', /css/);
    const missing = await http().get('/assets/secrets.json').expect(404);
    expect(missing.body.code).toBe('NOT_FOUND');
    // Names of Object.prototype are no assets either: 404 problem JSON, and no install path in any answer.
    for (const name of ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__']) {
      const inherited = await http().get(`/assets/${name}`);
      expect({ name, status: inherited.status, code: inherited.body.code }).toEqual({ name, status: 404, code: 'NOT_FOUND' });
      expect(inherited.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(inherited.text).not.toContain(path.sep + 'apps' + path.sep);
    }
  });

  it('streams each recorded webhook to server-sent-event clients as it arrives', async () => {
    receiver = await startReceiver(config('sse'), { listen: true });
    const received: string[] = [];
    const stream = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      const req = httpRequest(`${receiver!.baseUrl}/api/events`, { headers: { Accept: 'text/event-stream' } }, resolve);
      req.on('error', reject);
      req.end();
    });
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => received.push(chunk));
    const waitFor = async (text: string) => {
      for (let i = 0; i < 100 && !received.join('').includes(text); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
      return received.join('');
    };
    expect(await waitFor('event: ready')).toContain('event: ready');

    const payload = JSON.stringify(statusPayload({ orderId: 'o-sse', yemekKuryeOrderId: 'yk-sse', status: 'VALIDATED', timestamp: '2025-05-01T10:00:00Z' }));
    await request(receiver.baseUrl!).post('/webhook/status').set(signedHeaders(payload, { id: 'wh-sse' })).send(payload).expect(200);
    const text = await waitFor('"webhookId":"wh-sse"');
    const event = text.split('\n\n').find((block) => block.includes('event: webhook'));
    expect(event).toBeDefined();
    const data = JSON.parse(event!.split('\n').find((line) => line.startsWith('data: '))!.slice(6));
    expect(data).toMatchObject({ webhookId: 'wh-sse', outcome: 'applied', status: 'VALIDATED' });
    // Closing the app ends open streams instead of waiting for the clients to leave.
    const ended = new Promise<void>((resolve) => stream.on('end', () => resolve()));
    await receiver.app.close();
    receiver = undefined;
    await ended;
  });
});
