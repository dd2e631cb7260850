import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { credentials, deliveryIdOf, SenderApp, startSender, TestAccount } from '../../test/harness';
import { startReceiver, TestReceiver } from '../../test/receivers';
import { servedDocument } from '@courier/http';

jest.setTimeout(180_000);

const BASE = '/api/v1/my/webhooks/deliveries';

/** The delivery log API: authentication, ownership, lists and paging, OpenAPI, and no 5xx for any input. */
describe('delivery log API', () => {
  let sender: SenderApp;
  let receiver: TestReceiver;
  let mine: TestAccount;
  let theirs: TestAccount;
  const myIds: string[] = [];
  let theirId: string;
  let firstOrder: { orderId: string; yemekKuryeOrderId: string };

  beforeAll(async () => {
    receiver = await startReceiver((request) => (request.path === '/fail' ? { status: 500 } : { status: 200 }));
    sender = await startSender({ env: { LOG_LEVEL: 'warn', WEBHOOK_RETRY_SCHEDULE: '1h' } });
    mine = await sender.createAccount({ statusUrl: receiver.url('/ok'), cancelUrl: receiver.url('/fail') });
    theirs = await sender.createAccount({ statusUrl: receiver.url('/ok') });
    for (let i = 0; i < 4; i += 1) {
      const event = await sender.publishStatusChanged(mine, i === 0 ? { orderId: 'pos-shared-order' } : {});
      if (i === 0) firstOrder = event;
      myIds.push(await deliveryIdOf(sender, event));
    }
    const canceled = await sender.publishCanceled(mine, { orderId: 'pos-shared-order', yemekKuryeOrderId: firstOrder.yemekKuryeOrderId });
    myIds.push(await deliveryIdOf(sender, canceled, 'order.canceled'));
    theirId = await deliveryIdOf(sender, await sender.publishStatusChanged(theirs));
    for (const id of myIds) await sender.waitForDelivery(mine, id, (delivery) => delivery.attemptCount > 0);
  });
  afterAll(async () => {
    await sender?.close();
    await receiver?.close();
  });

  it('answers 401 AUTHENTICATION_FAILED without both credentials, with wrong ones, or for a disabled account', async () => {
    const refused = async (headers: Record<string, string>) => {
      const response = await sender.http.get(BASE).set(headers);
      expect(response.status).toBe(401);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body.code).toBe('AUTHENTICATION_FAILED');
    };
    await refused({});
    await refused({ 'X-API-Key': mine.apiKey });
    await refused({ 'X-API-Secret': mine.apiSecret });
    await refused({ 'X-API-Key': mine.apiKey, 'X-API-Secret': theirs.apiSecret });
    await refused({ 'X-API-Key': theirs.apiKey, 'X-API-Secret': mine.apiSecret });
    const disabled = await sender.createAccount({ status: 'disabled' });
    await refused(credentials(disabled));
    expect((await sender.http.get(BASE).set(credentials(mine))).status).toBe(200);
  });

  it('lists only the account\'s deliveries, newest first, with cursor paging', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response: { status: number; body: { data: Array<{ id: string }>; nextCursor: string | null } } = await sender.http
        .get(BASE)
        .query({ limit: 2, ...(cursor ? { cursor } : {}) })
        .set(credentials(mine));
      expect(response.status).toBe(200);
      expect(response.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...response.body.data.map((delivery) => delivery.id));
      cursor = response.body.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([...myIds].reverse());
    expect(seen).not.toContain(theirId);
  });

  it('filters by status, event, orderId and yemekKuryeOrderId', async () => {
    const list = async (query: Record<string, string>) => {
      const response = await sender.http.get(BASE).query(query).set(credentials(mine));
      expect(response.status).toBe(200);
      return response.body.data.map((delivery: { id: string }) => delivery.id).sort();
    };
    expect(await list({ orderId: 'pos-shared-order' })).toEqual([myIds[0], myIds[4]].sort());
    expect(await list({ yemekKuryeOrderId: firstOrder.yemekKuryeOrderId, event: 'order.canceled' })).toEqual([myIds[4]]);
    expect(await list({ status: 'retrying' })).toEqual([myIds[4]]);
    expect(await list({ status: 'delivered', event: 'order.status_changed' })).toEqual(myIds.slice(0, 4).sort());
    expect(await list({ status: 'failed' })).toEqual([]);
    const first = (await sender.http.get(BASE).query({ orderId: 'pos-shared-order', event: 'order.canceled' }).set(credentials(mine))).body.data[0];
    expect(first).toMatchObject({ id: myIds[4], status: 'retrying', attemptCount: 1, lastStatusCode: 500, lastError: 'HTTP 500 Internal Server Error', url: receiver.url('/fail') });
    expect(Date.parse(first.nextAttemptAt)).toBeGreaterThan(Date.now() + 50 * 60_000);
  });

  it('refuses bad queries with 422 VALIDATION_ERROR and the fields', async () => {
    for (const query of [{ status: 'lost' }, { limit: '0' }, { limit: '201' }, { limit: 'ten' }, { cursor: 'not-a-cursor' }, { event: 'order.created' }, { colour: 'red' }, { orderId: 'x'.repeat(65) }]) {
      const response = await sender.http.get(BASE).query(query).set(credentials(mine));
      expect(response.status).toBe(422);
      expect(response.body.code).toBe('VALIDATION_ERROR');
      expect(response.body.errors.length).toBeGreaterThan(0);
    }
  });

  it('shows one delivery with its attempts, and 404 DELIVERY_NOT_FOUND for unknown, malformed or another account\'s ids', async () => {
    const detail = await sender.http.get(`${BASE}/${myIds[4]}`).set(credentials(mine));
    expect(detail.status).toBe(200);
    expect(detail.body.payload).toMatchObject({ event: 'order.canceled', orderId: 'pos-shared-order' });
    expect(detail.body.attempts).toEqual([{ attempt: 1, url: receiver.url('/fail'), startedAt: expect.any(String), statusCode: 500, latencyMs: expect.any(Number), error: 'HTTP 500 Internal Server Error' }]);
    for (const id of [theirId, randomUUID(), 'nope', '1', `${myIds[0]}x`]) {
      for (const call of [sender.http.get(`${BASE}/${id}`), sender.http.post(`${BASE}/${id}/redeliver`)]) {
        const response = await call.set(credentials(mine));
        expect(response.status).toBe(404);
        expect(response.body.code).toBe('DELIVERY_NOT_FOUND');
      }
    }
    // The other account's delivery was not touched by the refused redelivery.
    expect((await sender.delivery(theirs, theirId)).attemptCount).toBe(1);
  });

  it('documents the three endpoints in OpenAPI with the key pair and problem answers', async () => {
    const document = (await sender.http.get('/docs-json')).body;
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining([BASE, `${BASE}/{id}`, `${BASE}/{id}/redeliver`]));
    expect(document.paths[`${BASE}/{id}/redeliver`].post.responses).toHaveProperty('202');
    expect(document.paths[`${BASE}/{id}`].get.responses).toHaveProperty('404');
    // Both headers in one requirement: the key pair together, not either header alone.
    for (const operation of [document.paths[BASE].get, document.paths[`${BASE}/{id}`].get, document.paths[`${BASE}/{id}/redeliver`].post]) {
      expect(operation.security).toEqual([{ 'X-API-Key': [], 'X-API-Secret': [] }]);
    }
    expect(document).toEqual(servedDocument(JSON.parse(readFileSync(path.resolve(__dirname, '../../../../docs/openapi/webhook-sender.json'), 'utf8'))));
    expect(document.components.securitySchemes).toHaveProperty('X-API-Secret');
    expect(document.paths[BASE].get.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(
      expect.arrayContaining(['status', 'event', 'orderId', 'yemekKuryeOrderId', 'limit', 'cursor']),
    );
  });

  describe('no input gives a 5xx (fast-check)', () => {
    const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 300 });
    const expectSafe = (response: { status: number; body: { code?: unknown }; headers: Record<string, string> }) => {
      if (response.status >= 500) throw new Error(`${response.status} ${JSON.stringify(response.body)}`);
      if (response.status >= 400) {
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(typeof response.body.code).toBe('string');
      }
    };

    it('random query strings on the list', async () => {
      const query = fc.dictionary(fc.constantFrom('limit', 'cursor', 'status', 'event', 'orderId', 'yemekKuryeOrderId', 'x', 'limit[]', 'status[a]', '__proto__'), fc.oneof(printable, fc.constantFrom('0', '-1', '1e3', 'delivered', 'order.canceled', '')), { maxKeys: 4 });
      await fc.assert(
        fc.asyncProperty(query, async (parameters) => {
          expectSafe(await sender.http.get(BASE).query(parameters).set(credentials(mine)));
        }),
        { numRuns: 300 },
      );
    });

    it('random ids on the id routes', async () => {
      const ids = fc.oneof(fc.uuid(), fc.string().map(encodeURIComponent), fc.string({ unit: 'grapheme' }).map(encodeURIComponent), fc.constantFrom('%', '%E0%A4%A', '..', '%2e%2e', 'null', '0', "x'--", '%00', 'a%2Fb', theirId));
      await fc.assert(
        fc.asyncProperty(ids, fc.boolean(), async (id, redeliver) => {
          const response = await (redeliver ? sender.http.post(`${BASE}/${id}/redeliver`) : sender.http.get(`${BASE}/${id}`)).set(credentials(mine));
          expectSafe(response);
          if (/^[0-9a-f-]{36}$/i.test(id)) expect(response.status).toBe(404);
        }),
        { numRuns: 300 },
      );
    });

    it('random credentials and bodies', async () => {
      const headers = fc.record({ 'X-API-Key': fc.oneof(printable, fc.constant(mine.apiKey)), 'X-API-Secret': fc.oneof(printable, fc.constant(mine.apiSecret)), 'Content-Type': fc.constantFrom('application/json', 'text/plain', '') }, { requiredKeys: [] });
      await fc.assert(
        fc.asyncProperty(headers, fc.oneof(fc.string(), fc.json()), fc.constantFrom(BASE, `${BASE}/${myIds[0]}`, `${BASE}/${myIds[0]}/redeliver`), async (set, body, path) => {
          const call = path.endsWith('redeliver') ? sender.http.post(path) : sender.http.get(path);
          expectSafe(await call.set(set as Record<string, string>).send(body));
        }),
        { numRuns: 200 },
      );
    });

    it('still works after the storm', async () => {
      expect((await sender.http.get(`${BASE}/${myIds[1]}`).set(credentials(mine))).status).toBe(200);
      expect((await sender.http.get('/health')).status).toBe(200);
    });
  });
});
