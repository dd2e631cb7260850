import { spawnSync } from 'node:child_process';
import { createCipheriv } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { validateConfig } from '@courier/config';
import { PlatformDSimulator } from '../../simulators/platform-d/platform-d.simulator';
import orderCreated from '../../simulators/platform-d/examples/order-created.json';
import orderCancelled from '../../simulators/platform-d/examples/order-cancelled.json';
import { platformRequest } from '../common/platform-http';
import { PlatformClientConfig } from '../platform-client.config';
import type { IntegrationCredentials, PlatformOrderRef } from '../platform-adapter';
import { PlatformDAdapter } from './platform-d.adapter';
import { decryptPlatformDValue, encryptPlatformDBody, platformDKey, spacedJson } from './platform-d.crypto';
import { parsePlatformDWebhook } from './platform-d.orders';

const STORE = { storeId: '23000000101833', storeGroupId: '511', apiKey: 'migros-store-key-0001' };
const OTHER_STORE = { storeId: '23000000101834', storeGroupId: '511', apiKey: 'migros-store-key-0002' };
const credentials: IntegrationCredentials = { integrationId: 'int-d-1', providerRestaurantId: STORE.storeId, settings: { providerMerchantId: STORE.storeGroupId }, secrets: { apiKey: STORE.apiKey } };

/**
 * Produced once with OpenSSL 3.0 (the command names the key as hex: 'migros-test-key-0001' zero-padded to 32 bytes):
 *   printf '%s' '{"orderId": 455221, "storeId": 23000000101833, "orderStatus": "Approved"}' |
 *     openssl enc -aes-256-cbc -K 6d6967726f732d746573742d6b65792d30303031000000000000000000000000 \
 *       -iv 00000000000000000000000000000000 -base64 -A
 */
const OPENSSL_FIXTURE = {
  key: 'migros-test-key-0001',
  keyHex: '6d6967726f732d746573742d6b65792d30303031000000000000000000000000',
  body: { orderId: 455221, storeId: 23000000101833, orderStatus: 'Approved' },
  plaintext: '{"orderId": 455221, "storeId": 23000000101833, "orderStatus": "Approved"}',
  ciphertext: 'kDGIxDcvA1DVJKD+Ea8uaGR6BOBtL8oF1rt/hGBGOZXyMddI6IPSWuDU5UePBgSkqr05lmZDY+L3V4P6FhvYnOfZWKbgSCoXFbITuKGDcnY=',
};

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

describe('PLATFORM_D encryption (Migros: AES-256-CBC, zero IV, PKCS7, key zero-padded to 32 bytes, spaced JSON)', () => {
  it('produces exactly what openssl enc produces for a fixed key and body', () => {
    expect(spacedJson(OPENSSL_FIXTURE.body)).toBe(OPENSSL_FIXTURE.plaintext);
    expect(encryptPlatformDBody(OPENSSL_FIXTURE.body, OPENSSL_FIXTURE.key)).toEqual({ value: OPENSSL_FIXTURE.ciphertext });
    expect(decryptPlatformDValue(OPENSSL_FIXTURE.ciphertext, OPENSSL_FIXTURE.key)).toBe(OPENSSL_FIXTURE.plaintext);
    expect(platformDKey(OPENSSL_FIXTURE.key).toString('hex')).toBe(OPENSSL_FIXTURE.keyHex);
  });

  (hasOpenssl ? it : it.skip)('is decrypted by openssl enc -d (when openssl is installed)', () => {
    const body = { orderId: 455222, storeId: 23000000101833, notifyUser: true, cancelReasonId: 2, note: 'çiğ köfte: "acılı", lütfen' };
    const { value } = encryptPlatformDBody(body, OPENSSL_FIXTURE.key);
    const result = spawnSync('openssl', ['enc', '-d', '-aes-256-cbc', '-K', OPENSSL_FIXTURE.keyHex, '-iv', '0'.repeat(32), '-base64', '-A'], { input: value });
    expect(result.status).toBe(0);
    expect(result.stdout.toString('utf8')).toBe(spacedJson(body));
    expect(JSON.parse(result.stdout.toString('utf8'))).toEqual(body);
  });

  it('spaces only separators outside strings, and pads or cuts the key to 32 bytes', () => {
    expect(spacedJson({ a: 'x:y, "z"', b: [1, 2], c: { d: null } })).toBe('{"a": "x:y, \\"z\\"", "b": [1, 2], "c": {"d": null}}');
    expect(platformDKey('k').toString('hex')).toBe('6b' + '00'.repeat(31));
    expect(platformDKey('ş'.repeat(20))).toEqual(Buffer.from('ş'.repeat(16), 'utf8'));
    expect(decryptPlatformDValue(OPENSSL_FIXTURE.ciphertext, 'another-key')).toBeUndefined();
  });
});

describe('PLATFORM_D adapter against the Migros simulator', () => {
  let sim: PlatformDSimulator;
  let adapter: PlatformDAdapter;

  beforeAll(async () => {
    sim = new PlatformDSimulator({ stores: [STORE, OTHER_STORE] });
    await sim.start();
    adapter = new PlatformDAdapter(validateConfig(PlatformClientConfig, { PLATFORM_D_BASE_URL: sim.baseUrl, PLATFORM_HTTP_TIMEOUT_MS: '2000' }));
  });
  afterAll(() => sim.stop());
  afterEach(() => {
    sim.clearFaults();
    sim.options.encryptAnswers = false;
  });

  const order = (deliveryProvider: 'RESTAURANT' | 'MIGROS' = 'RESTAURANT'): PlatformOrderRef => {
    const simulated = sim.createOrder(STORE.storeId, { deliveryProvider });
    return { platformOrderId: String(simulated.id), yemekKuryeOrderId: 'a1b2c3d4-4444-4555-8666-777788889999', platformData: { storeId: STORE.storeId, storeGroupId: STORE.storeGroupId, deliveryProvider } };
  };
  const lastReceived = () => sim.received.at(-1)!;
  const status = (ref: PlatformOrderRef) => sim.orders.get(ref.platformOrderId)!.status;

  it('sends VERIFY, PREPARE, HANDOVER, DELIVER as UpdateOrderStatus Approved, Prepared, Delivery, Completed, encrypted, with XApiKey', async () => {
    const ref = order();
    const expected = { VERIFY: 'Approved', PREPARE: 'Prepared', HANDOVER: 'Delivery', DELIVER: 'Completed' } as const;
    for (const [action, orderStatus] of Object.entries(expected)) {
      expect(await adapter.sendStatus(credentials, ref, action as keyof typeof expected)).toMatchObject({ kind: 'done', answer: { httpStatus: 200, body: { success: true } } });
      expect(status(ref)).toBe(orderStatus);
      const call = sim.callsTo('POST', '/Order/v2/UpdateOrderStatus').at(-1)!;
      expect(call.headers.xapikey).toBe(STORE.apiKey);
      expect(Object.keys(call.body as object)).toEqual(['value']);
      expect(lastReceived()).toMatchObject({ path: '/Order/v2/UpdateOrderStatus', body: { orderId: Number(ref.platformOrderId), storeId: 23000000101833, orderStatus } });
      expect(Object.keys(lastReceived().body)).toEqual(['orderId', 'storeId', 'orderStatus']);
    }
  });

  it('skips HANDOVER and DELIVER when Migros\' courier delivers the order', async () => {
    const ref = order('MIGROS');
    for (const action of ['VERIFY', 'PREPARE'] as const) expect(await adapter.sendStatus(credentials, ref, action)).toMatchObject({ kind: 'done' });
    const calls = sim.calls.length;
    for (const action of ['HANDOVER', 'DELIVER'] as const) expect(await adapter.sendStatus(credentials, ref, action)).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/MIGROS/) });
    expect(sim.calls).toHaveLength(calls);
    expect(status(ref)).toBe('Prepared');
  });

  it('rejects a new order with UpdateOrderStatus Rejected and the cancelReasonId the push names (by id or text), else the first offered', async () => {
    const byText = order();
    expect(await adapter.sendStatus(credentials, byText, 'REJECT', 'restoran çok YOĞUN')).toMatchObject({ kind: 'done' });
    expect(lastReceived().body).toEqual({ orderId: Number(byText.platformOrderId), storeId: 23000000101833, orderStatus: 'Rejected', cancelReasonId: 2 });
    expect(sim.orders.get(byText.platformOrderId)).toMatchObject({ status: 'Rejected', cancelReasonId: 2 });
    const byId = order();
    expect(await adapter.sendStatus(credentials, byId, 'CANCEL', '3')).toMatchObject({ kind: 'done' });
    expect(sim.orders.get(byId.platformOrderId)).toMatchObject({ status: 'Rejected', cancelReasonId: 3 });
    const unnamed = order();
    expect(await adapter.sendStatus(credentials, unnamed, 'REJECT', 'something else')).toMatchObject({ kind: 'done' });
    expect(sim.orders.get(unnamed.platformOrderId)).toMatchObject({ status: 'Rejected', cancelReasonId: 1 });
    expect(sim.callsTo('GET', '/Mapping/v2/GetCancelReasons').length).toBeGreaterThanOrEqual(3);
  });

  it('cancels an approved order with CancelOrder { orderId, storeId, notifyUser, cancelReasonId }; a prepared one is refused (final)', async () => {
    const ref = order();
    await adapter.sendStatus(credentials, ref, 'VERIFY');
    expect(await adapter.sendStatus(credentials, ref, 'CANCEL', '4')).toMatchObject({ kind: 'done' });
    expect(lastReceived()).toEqual({ path: '/Order/v2/CancelOrder', body: { orderId: Number(ref.platformOrderId), storeId: 23000000101833, notifyUser: true, cancelReasonId: 4 }, at: expect.any(Number) });
    expect(status(ref)).toBe('Cancelled');
    expect(sim.callsTo('GET', '/Order/v2/GetOrderDetail').at(-1)!.query.get('orderId')).toBe(ref.platformOrderId);

    const prepared = order();
    await adapter.sendStatus(credentials, prepared, 'VERIFY');
    await adapter.sendStatus(credentials, prepared, 'PREPARE');
    expect(await adapter.sendStatus(credentials, prepared, 'CANCEL')).toMatchObject({ kind: 'failed', answer: { httpStatus: 400, body: { success: false, errorMessage: { errorCode: 'ORDER_CANNOT_BE_CANCELLED' } } }, reason: expect.stringMatching(/ORDER_CANNOT_BE_CANCELLED/) });
    expect(status(prepared)).toBe('Prepared');
  });

  it('treats success:false as final (also in an HTTP 200), the simulator\'s impossible moves included', async () => {
    const ref = order();
    expect(await adapter.sendStatus(credentials, ref, 'PREPARE')).toMatchObject({ kind: 'failed', answer: { httpStatus: 400 }, reason: expect.stringMatching(/ORDER_STATUS_NOT_ALLOWED: the order is NEW_PENDING/) });
    sim.failNext({ status: 200, body: { data: null, success: false, errorMessage: { errorCode: 'E1001', errorTitle: 'Hata', errorDetail: 'Sipariş bulunamadı' } } });
    expect(await adapter.sendStatus(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 200 }, reason: 'PLATFORM_D refused the call (E1001: Sipariş bulunamadı)' });
    expect(status(ref)).toBe('NEW_PENDING');
    expect(await adapter.sendStatus({ ...credentials, providerRestaurantId: OTHER_STORE.storeId }, ref, 'VERIFY')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/STORE_MISMATCH/) });
  });

  it('retries on 429 (with Retry-After), 5xx and network errors; fails on a refused key', async () => {
    const ref = order();
    sim.failNext({ status: 429, headers: { 'Retry-After': '7' } });
    expect(await adapter.sendStatus(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'retry', answer: { httpStatus: 429 }, retryAfterMs: 7000 });
    sim.failNext({ status: 503 });
    expect(await adapter.sendStatus(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'retry', answer: { httpStatus: 503 } });
    sim.failNext({ status: 502, match: (request) => request.path === '/Mapping/v2/GetCancelReasons' });
    expect(await adapter.sendStatus(credentials, ref, 'REJECT')).toMatchObject({ kind: 'retry', answer: { httpStatus: 502 } });
    sim.setDown(true);
    try {
      expect(await adapter.sendStatus(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'retry', answer: { httpStatus: null } });
    } finally {
      sim.setDown(false);
    }
    expect(await adapter.sendStatus({ ...credentials, secrets: { apiKey: 'wrong-key' } }, ref, 'VERIFY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 401 }, reason: expect.stringMatching(/refused the API key \(UNAUTHORIZED/) });
    expect(status(ref)).toBe('NEW_PENDING');
    expect(await adapter.sendStatus(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done' });
  });

  it('fails a cancellation when Migros offers no reason', async () => {
    sim.failNext({ status: 200, body: { data: [], success: true }, match: (request) => request.path === '/Mapping/v2/GetCancelReasons' });
    expect(await adapter.sendStatus(credentials, order(), 'CANCEL')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/no cancel reason/) });
  });

  it('reads answers that come back encrypted as { value }', async () => {
    sim.options.encryptAnswers = true;
    const ref = order();
    expect(await adapter.sendStatus(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done', answer: { body: { success: true } } });
    expect(await adapter.sendStatus(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done' });
    expect(await adapter.sendStatus(credentials, ref, 'DELIVER')).toMatchObject({ kind: 'failed', answer: { body: { errorMessage: { errorCode: 'ORDER_STATUS_NOT_ALLOWED' } } } });
    expect(await adapter.sendStatus(credentials, ref, 'CANCEL', '2')).toMatchObject({ kind: 'done' });
    expect(status(ref)).toBe('Cancelled');
  });

  it('encrypts with PLATFORM_D_SECRET_KEY when the integrator has one (the simulator then reads nothing else)', async () => {
    const secret = new PlatformDSimulator({ stores: [STORE], secretKey: 'integrator-wide-secret-key-32by' });
    await secret.start();
    try {
      const ref = { platformOrderId: String(secret.createOrder(STORE.storeId).id), yemekKuryeOrderId: 'x', platformData: {} };
      const withKey = new PlatformDAdapter(validateConfig(PlatformClientConfig, { PLATFORM_D_BASE_URL: secret.baseUrl, PLATFORM_D_SECRET_KEY: 'integrator-wide-secret-key-32by' }));
      const withoutKey = new PlatformDAdapter(validateConfig(PlatformClientConfig, { PLATFORM_D_BASE_URL: secret.baseUrl }));
      expect(await withoutKey.sendStatus(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/DECRYPTION_FAILED/) });
      expect(await withKey.sendStatus(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done' });
      expect(secret.orders.get(ref.platformOrderId)!.status).toBe('Approved');
    } finally {
      await secret.stop();
    }
  });

  it('sends the header as XApiKey, that exact spelling, and JSON', async () => {
    const seen: string[][] = [];
    const server = http.createServer((req, res) => {
      seen.push(req.rawHeaders);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data":{"id":23000000101833,"storeGroupId":511},"success":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const raw = new PlatformDAdapter(validateConfig(PlatformClientConfig, { PLATFORM_D_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
      expect(await raw.checkCredentials(credentials)).toMatchObject({ result: 'ok' });
      await raw.sendStatus(credentials, order(), 'VERIFY');
      expect(seen).toHaveLength(2);
      for (const headers of seen) {
        expect(headers[headers.indexOf('XApiKey') + 1]).toBe(STORE.apiKey);
        expect(headers[headers.indexOf('Content-Type') + 1]).toBe('application/json');
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  describe('credential check (GET /Store/GetStoreDetail)', () => {
    it('is ok for the store\'s own key and rejects a wrong key or another store\'s key', async () => {
      expect(await adapter.checkCredentials(credentials)).toMatchObject({ result: 'ok', httpStatus: 200, detail: expect.stringContaining(STORE.storeId) });
      expect(await adapter.checkCredentials({ ...credentials, secrets: { apiKey: 'wrong' } })).toMatchObject({ result: 'rejected', httpStatus: 401 });
      expect(await adapter.checkCredentials({ ...credentials, secrets: { apiKey: OTHER_STORE.apiKey } })).toMatchObject({ result: 'wrong_restaurant', detail: expect.stringContaining(OTHER_STORE.storeId) });
      expect(await adapter.checkCredentials({ ...credentials, settings: { providerMerchantId: '999' } })).toMatchObject({ result: 'wrong_restaurant', detail: expect.stringMatching(/store group 511/) });
      expect(sim.callsTo('GET', '/Store/GetStoreDetail').at(-1)!.body).toBeUndefined();
    });

    it('is unreachable when Migros is down or answers 5xx, and rejected on success:false', async () => {
      sim.failNext({ status: 503 });
      expect(await adapter.checkCredentials(credentials)).toMatchObject({ result: 'unreachable', httpStatus: 503 });
      sim.failNext({ status: 200, body: { data: null, success: false, errorMessage: { errorCode: 'STORE_PASSIVE' } } });
      expect(await adapter.checkCredentials(credentials)).toMatchObject({ result: 'rejected', detail: expect.stringMatching(/STORE_PASSIVE/) });
      sim.setDown(true);
      try {
        expect(await adapter.checkCredentials(credentials)).toMatchObject({ result: 'unreachable' });
      } finally {
        sim.setDown(false);
      }
    });
  });
});

describe('PLATFORM_D simulator: only what Migros reads', () => {
  let sim: PlatformDSimulator;
  beforeAll(async () => {
    sim = new PlatformDSimulator({ stores: [STORE] });
    await sim.start();
  });
  afterAll(() => sim.stop());

  const post = (body: unknown, key = STORE.apiKey) => platformRequest({ method: 'POST', url: `${sim.baseUrl}/Order/v2/UpdateOrderStatus`, headers: { XApiKey: key }, json: body, timeoutMs: 2000 });
  const ecb = (text: string) => {
    const cipher = createCipheriv('aes-256-ecb', platformDKey(STORE.apiKey), null);
    return Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]).toString('base64');
  };

  it('refuses plain JSON, ECB, compact JSON and a missing key; takes the documented CBC body', async () => {
    const id = sim.createOrder(STORE.storeId).id;
    const request = { orderId: id, storeId: Number(STORE.storeId), orderStatus: 'Approved' };
    expect(await post(request)).toMatchObject({ status: 400, body: { success: false, errorMessage: { errorCode: 'INVALID_REQUEST' } } });
    expect(await post({ value: ecb(spacedJson(request)) })).toMatchObject({ status: 400, body: { errorMessage: { errorCode: 'DECRYPTION_FAILED' } } });
    expect(await post({ value: sim.encrypt(JSON.stringify(request), STORE.apiKey) })).toMatchObject({ status: 400, body: { errorMessage: { errorCode: 'DECRYPTION_FAILED', errorDetail: expect.stringMatching(/space/) } } });
    expect(await post(encryptPlatformDBody(request, STORE.apiKey), 'nope')).toMatchObject({ status: 401, body: { success: false, errorMessage: { errorCode: 'UNAUTHORIZED' } } });
    expect(sim.orders.get(String(id))!.status).toBe('NEW_PENDING');
    expect(await post(encryptPlatformDBody(request, STORE.apiKey))).toMatchObject({ status: 200, body: { success: true } });
    expect(sim.orders.get(String(id))!.status).toBe('Approved');
  });

  it('sends its order webhook in the shape of the example (examples/order-created.json)', () => {
    const shape = (value: unknown): unknown =>
      Array.isArray(value) ? (value.length ? shape(value[0]) : []) : typeof value === 'object' && value !== null ? Object.fromEntries(Object.keys(value).filter((key) => key !== '_source').sort().map((key) => [key, shape((value as Record<string, unknown>)[key])])) : typeof value;
    const simulated = sim.createOrder(STORE.storeId);
    expect(shape(sim.orderPayload(simulated))).toEqual(shape(orderCreated));
    expect(shape(sim.cancellationPayload(simulated))).toEqual(shape(orderCancelled));
  });
});

describe('PLATFORM_D webhook parser (on Migros-shaped examples)', () => {
  it('maps the Order Created example: kuruş to TRY, line totals, options, the discounted total, the store', () => {
    const parsed = parsePlatformDWebhook(orderCreated);
    expect(parsed).toEqual({
      ok: true,
      kind: 'order',
      storeId: '23000000101833',
      order: {
        platformOrderId: '455221',
        providerRestaurantId: '23000000101833',
        orderNumber: '455221',
        state: 'new',
        scheduledDeliveryTime: null,
        platformData: { storeId: '23000000101833', storeGroupId: '511', deliveryProvider: 'RESTAURANT', status: 'NEW_PENDING' },
        details: {
          customerName: 'Mehmet Demir',
          customerPhone: '+905551112233',
          deliveryAddress: 'Moda Cd. No: 45 D: 5, Caferağa, Kadıköy, İstanbul',
          deliveryLatitude: 40.9862,
          deliveryLongitude: 29.0261,
          paymentMethod: 'CASH_ON_DELIVERY',
          total: 290,
          currency: 'TRY',
          notes: 'Kapıya bırakmayın, Address directions: Yeşil kapı, 2. kat',
          items: [
            { productCode: '70011', productName: 'Adana Dürüm', quantity: 1, unitPrice: 240, totalAmount: 240, productNote: 'Az acılı', features: 'Ekstra: Közlenmiş biber, without Soğan' },
            { productCode: '70042', productName: 'Şalgam', quantity: 2, unitPrice: 40, totalAmount: 80, productNote: undefined, features: undefined },
          ],
        },
      },
    });
  });

  it('maps the cancellation example { OrderId, StoreId, UserId }', () => {
    expect(parsePlatformDWebhook(orderCancelled)).toEqual({ ok: true, kind: 'cancellation', orderId: '455221', storeId: '23000000101833', userId: '8812345' });
  });

  it('takes the total when there is no discount, and unitPrice when Migros sends it', () => {
    const parsed = parsePlatformDWebhook({ ...orderCreated, prices: { total: { amountAsPenny: 12345 } }, items: [{ id: 9, name: 'Pide', price: 30000, unitPrice: 10000, amount: 3 }] });
    expect(parsed).toMatchObject({ ok: true, order: { details: { total: 123.45, items: [{ productCode: '9', quantity: 3, unitPrice: 100, totalAmount: 300 }] } } });
  });

  it('refuses malformed bodies with field errors', () => {
    expect(parsePlatformDWebhook('not an object')).toEqual({ ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] });
    expect(parsePlatformDWebhook({ ...orderCreated, id: undefined, store: {} })).toMatchObject({ ok: false, errors: [{ field: 'id', message: 'is required' }, { field: 'store.id', message: 'is required' }] });
    expect(parsePlatformDWebhook({ ...orderCreated, items: 'two' })).toMatchObject({ ok: false, errors: [{ field: 'items' }] });
    expect(parsePlatformDWebhook({ ...orderCreated, customer: { deliveryAddress: { geoLocation: { latitude: 123, longitude: 29 } } } })).toMatchObject({ ok: false, errors: [{ field: 'customer.deliveryAddress.geoLocation.latitude' }] });
    expect(parsePlatformDWebhook({ ...orderCreated, items: [{ id: 1, price: -5, amount: 1 }] })).toMatchObject({ ok: false, errors: [{ field: 'items[0].price' }] });
    expect(parsePlatformDWebhook({ OrderId: 1 })).toMatchObject({ ok: false, errors: [{ field: 'StoreId', message: 'is required' }] });
    expect(parsePlatformDWebhook({ OrderId: { nested: true }, StoreId: 5 })).toMatchObject({ ok: false, errors: [{ field: 'OrderId', message: 'must be a string' }] });
  });
});
