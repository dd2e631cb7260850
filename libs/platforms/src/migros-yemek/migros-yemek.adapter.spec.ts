import { spawnSync } from 'node:child_process';
import { createCipheriv } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PlatformDSimulator } from './migros-yemek.simulator';
import orderCreated from './examples/order-created.json';
import orderCancelled from './examples/order-cancelled.json';
import deliveryStatus from './examples/delivery-status.json';
import { platformRequest } from '../common/platform-http';
import { platformClientConfig } from '../platforms';
import type { IntegrationCredentials, PlatformOrderRef } from '../common/platform-adapter';
import { PlatformDAdapter } from './migros-yemek.adapter';
import { decryptPlatformDValue, encryptPlatformDBody, openPlatformDValue, platformDKey, spacedJson } from './migros-yemek.crypto';
import { parsePlatformDWebhook } from './migros-yemek.orders';

const STORE = { storeId: '23000000101833', storeGroupId: '511', apiKey: 'migros-store-key-0001' };
const OTHER_STORE = { storeId: '23000000101834', storeGroupId: '511', apiKey: 'migros-store-key-0002' };
const credentials: IntegrationCredentials = { integrationId: 'int-d-1', providerRestaurantId: STORE.storeId, settings: { providerMerchantId: STORE.storeGroupId }, secrets: { apiKey: STORE.apiKey } };

/**
 * Produced once with OpenSSL 3.0 on this machine, independently of our code (the commands name the
 * key as hex: 'migros-test-key-0001' zero-padded to 32 bytes, as AJ and M-py pad it):
 *   printf '%s' '{"orderId": 455221, "storeId": 23000000101833, "orderStatus": "Approved"}' |
 *     openssl enc -aes-256-ecb -K 6d6967726f732d746573742d6b65792d30303031000000000000000000000000 -base64 -A
 *   (the same with -aes-256-cbc -iv 00000000000000000000000000000000 for the CBC vector)
 *   printf '%s' '{"data": {"id": 455221, "status": "CANCELLED"}, "success": true}' | openssl enc -aes-256-ecb -K ... -base64 -A
 */
const OPENSSL_FIXTURE = {
  key: 'migros-test-key-0001',
  keyHex: '6d6967726f732d746573742d6b65792d30303031000000000000000000000000',
  body: { orderId: 455221, storeId: 23000000101833, orderStatus: 'Approved' },
  plaintext: '{"orderId": 455221, "storeId": 23000000101833, "orderStatus": "Approved"}',
  ecb: 'kDGIxDcvA1DVJKD+Ea8uaA9dbwyjcYV9QfYMRXPpIt7n2cRTTuT6t96pnIgUp0pWNsrIpRfFtdnISc+82elVA2CEYL7SaCijeC4QDVhoJWk=',
  cbc: 'kDGIxDcvA1DVJKD+Ea8uaGR6BOBtL8oF1rt/hGBGOZXyMddI6IPSWuDU5UePBgSkqr05lmZDY+L3V4P6FhvYnOfZWKbgSCoXFbITuKGDcnY=',
  ecbAnswer: 'sj161qUtyoj8gqLuRuljiSrbJn2WkiatmVHkzZbpXoZtDWjfkNzY9AxrSdL18IvisLU01a0EUwpvEJpf1CP3P9USGxgt56OV4Bwf2KTHbs0=',
};

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

describe('PLATFORM_D encryption (Migros: AES-256-ECB by default, CBC with a zero IV selectable; PKCS7, key zero-padded to 32 bytes, spaced JSON)', () => {
  it('sends ECB by default: exactly what openssl enc -aes-256-ecb produces for a fixed key and body', () => {
    expect(spacedJson(OPENSSL_FIXTURE.body)).toBe(OPENSSL_FIXTURE.plaintext);
    expect(encryptPlatformDBody(OPENSSL_FIXTURE.body, OPENSSL_FIXTURE.key)).toEqual({ value: OPENSSL_FIXTURE.ecb });
    expect(encryptPlatformDBody(OPENSSL_FIXTURE.body, OPENSSL_FIXTURE.key, 'ECB')).toEqual({ value: OPENSSL_FIXTURE.ecb });
    expect(decryptPlatformDValue(OPENSSL_FIXTURE.ecb, OPENSSL_FIXTURE.key, 'ECB')).toBe(OPENSSL_FIXTURE.plaintext);
    expect(platformDKey(OPENSSL_FIXTURE.key).toString('hex')).toBe(OPENSSL_FIXTURE.keyHex);
  });

  it('keeps CBC with a zero IV when asked: exactly what openssl enc -aes-256-cbc produces', () => {
    expect(encryptPlatformDBody(OPENSSL_FIXTURE.body, OPENSSL_FIXTURE.key, 'CBC')).toEqual({ value: OPENSSL_FIXTURE.cbc });
    expect(decryptPlatformDValue(OPENSSL_FIXTURE.cbc, OPENSSL_FIXTURE.key, 'CBC')).toBe(OPENSSL_FIXTURE.plaintext);
  });

  it('opens an inbound { value } in either mode, the preferred one first, and nothing that is not JSON in both', () => {
    for (const preferred of ['ECB', 'CBC'] as const) {
      expect(openPlatformDValue(OPENSSL_FIXTURE.ecb, OPENSSL_FIXTURE.key, preferred)).toEqual({ json: OPENSSL_FIXTURE.body, mode: 'ECB' });
      expect(openPlatformDValue(OPENSSL_FIXTURE.cbc, OPENSSL_FIXTURE.key, preferred)).toEqual({ json: OPENSSL_FIXTURE.body, mode: 'CBC' });
      expect(openPlatformDValue(OPENSSL_FIXTURE.ecbAnswer, OPENSSL_FIXTURE.key, preferred)).toEqual({ json: { data: { id: 455221, status: 'CANCELLED' }, success: true }, mode: 'ECB' });
    }
    // A wrong mode reads the first block right and the rest wrong: never taken for the body.
    expect(decryptPlatformDValue(OPENSSL_FIXTURE.cbc, OPENSSL_FIXTURE.key, 'ECB')).not.toBe(OPENSSL_FIXTURE.plaintext);
    expect(openPlatformDValue(OPENSSL_FIXTURE.ecb, 'another-key')).toBeUndefined();
    expect(openPlatformDValue(Buffer.from('not encrypted at all, 32 bytes!!').toString('base64'), OPENSSL_FIXTURE.key)).toBeUndefined();
  });

  (hasOpenssl ? it : it.skip)('is decrypted by openssl enc -d in both modes (when openssl is installed)', () => {
    const body = { orderId: 455222, storeId: 23000000101833, notifyUser: true, cancelReasonId: 2, note: 'çiğ köfte: "acılı", lütfen' };
    for (const [mode, args] of [['ECB', ['-aes-256-ecb']], ['CBC', ['-aes-256-cbc', '-iv', '0'.repeat(32)]]] as const) {
      const { value } = encryptPlatformDBody(body, OPENSSL_FIXTURE.key, mode);
      const result = spawnSync('openssl', ['enc', '-d', ...args, '-K', OPENSSL_FIXTURE.keyHex, '-base64', '-A'], { input: value });
      expect(result.status).toBe(0);
      expect(JSON.parse(result.stdout.toString('utf8'))).toEqual(body);
    }
  });

  it('spaces only separators outside strings, and pads or cuts the key to 32 bytes', () => {
    expect(spacedJson({ a: 'x:y, "z"', b: [1, 2], c: { d: null } })).toBe('{"a": "x:y, \\"z\\"", "b": [1, 2], "c": {"d": null}}');
    expect(platformDKey('k').toString('hex')).toBe('6b' + '00'.repeat(31));
    expect(platformDKey('ş'.repeat(20))).toEqual(Buffer.from('ş'.repeat(16), 'utf8'));
    expect(decryptPlatformDValue(OPENSSL_FIXTURE.ecb, 'another-key')).toBeUndefined();
  });
});

describe('PLATFORM_D adapter against the Migros simulator', () => {
  let sim: PlatformDSimulator;
  let adapter: PlatformDAdapter;

  beforeAll(async () => {
    sim = new PlatformDSimulator({ stores: [STORE, OTHER_STORE] });
    await sim.start();
    adapter = new PlatformDAdapter(platformClientConfig({ PLATFORM_D_BASE_URL: sim.baseUrl, PLATFORM_HTTP_TIMEOUT_MS: '2000' }));
  });
  afterAll(() => sim.stop());
  afterEach(() => {
    sim.clearFaults();
    sim.options.encryptAnswers = false;
  });

  const order = (deliveryProvider: 'RESTAURANT' | 'MIGROS' = 'RESTAURANT'): PlatformOrderRef => {
    const simulated = sim.createOrder(STORE.storeId, { deliveryProvider });
    return { platformOrderId: String(simulated.id), yemekKuryeOrderId: 'a1b2c3d4-4444-4555-8666-777788889999', platformData: { storeId: STORE.storeId, storeGroupId: STORE.storeGroupId, deliveryProvider, userId: String(simulated.userId) } };
  };
  const lastReceived = () => sim.received.at(-1)!;
  const status = (ref: PlatformOrderRef) => sim.orders.get(ref.platformOrderId)!.status;

  it('sends VERIFY, PREPARE, HANDOVER, DELIVER as UpdateOrderStatus Approved, Prepared, Delivery, Completed, encrypted, with XApiKey', async () => {
    const ref = order();
    const expected = { VERIFY: 'Approved', PREPARE: 'Prepared', HANDOVER: 'Delivery', DELIVER: 'Completed' } as const;
    for (const [action, orderStatus] of Object.entries(expected)) {
      expect(await adapter.status.send(credentials, ref, action as keyof typeof expected)).toMatchObject({ kind: 'done', answer: { httpStatus: 200, body: { success: true } } });
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
    for (const action of ['VERIFY', 'PREPARE'] as const) expect(await adapter.status.send(credentials, ref, action)).toMatchObject({ kind: 'done' });
    const calls = sim.calls.length;
    for (const action of ['HANDOVER', 'DELIVER'] as const) expect(await adapter.status.send(credentials, ref, action)).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/MIGROS/) });
    expect(sim.calls).toHaveLength(calls);
    expect(status(ref)).toBe('Prepared');
  });

  it('rejects a new order with UpdateOrderStatus Rejected and the cancelReasonId the push names (by id or text), else the first offered', async () => {
    const byText = order();
    expect(await adapter.status.send(credentials, byText, 'REJECT', 'restoran çok YOĞUN')).toMatchObject({ kind: 'done' });
    expect(lastReceived().body).toEqual({ orderId: Number(byText.platformOrderId), storeId: 23000000101833, orderStatus: 'Rejected', cancelReasonId: 2 });
    expect(sim.orders.get(byText.platformOrderId)).toMatchObject({ status: 'Rejected', cancelReasonId: 2 });
    const byId = order();
    expect(await adapter.status.send(credentials, byId, 'CANCEL', '3')).toMatchObject({ kind: 'done' });
    expect(sim.orders.get(byId.platformOrderId)).toMatchObject({ status: 'Rejected', cancelReasonId: 3 });
    const unnamed = order();
    expect(await adapter.status.send(credentials, unnamed, 'REJECT', 'something else')).toMatchObject({ kind: 'done' });
    expect(sim.orders.get(unnamed.platformOrderId)).toMatchObject({ status: 'Rejected', cancelReasonId: 1 });
    expect(sim.callsTo('GET', '/Mapping/v2/GetCancelReasons').length).toBeGreaterThanOrEqual(3);
  });

  it('cancels an approved order with CancelOrder carrying both storeId and userId (the customer); a prepared one is refused (final)', async () => {
    const ref = order();
    await adapter.status.send(credentials, ref, 'VERIFY');
    expect(await adapter.status.send(credentials, ref, 'CANCEL', '4')).toMatchObject({ kind: 'done' });
    const userId = sim.orders.get(ref.platformOrderId)!.userId;
    expect(lastReceived()).toEqual({ path: '/Order/v2/CancelOrder', body: { orderId: Number(ref.platformOrderId), storeId: 23000000101833, userId, notifyUser: true, cancelReasonId: 4 }, at: expect.any(Number) });
    expect(status(ref)).toBe('Cancelled');
    expect(sim.callsTo('GET', '/Order/v2/GetOrderDetail').at(-1)!.query.get('orderId')).toBe(ref.platformOrderId);

    // An order kept without a customer id: userId 0 (M-hp), storeId names the store.
    const anonymous = order();
    await adapter.status.send(credentials, anonymous, 'VERIFY');
    expect(await adapter.status.send(credentials, { ...anonymous, platformData: { storeId: STORE.storeId } }, 'CANCEL')).toMatchObject({ kind: 'done' });
    expect(lastReceived().body).toMatchObject({ storeId: 23000000101833, userId: 0 });
    expect(status(anonymous)).toBe('Cancelled');

    const prepared = order();
    await adapter.status.send(credentials, prepared, 'VERIFY');
    await adapter.status.send(credentials, prepared, 'PREPARE');
    expect(await adapter.status.send(credentials, prepared, 'CANCEL')).toMatchObject({ kind: 'failed', answer: { httpStatus: 400, body: { success: false, errorMessage: { errorCode: 'ORDER_CANNOT_BE_CANCELLED' } } }, reason: expect.stringMatching(/ORDER_CANNOT_BE_CANCELLED/) });
    expect(status(prepared)).toBe('Prepared');
  });

  it('has a simulator whose CancelOrder takes storeId or userId alone (the sources disagree) and refuses another customer', async () => {
    const cancelOrder = async (fields: Record<string, unknown>) => {
      const simulated = sim.createOrder(STORE.storeId, { status: 'Approved' });
      const response = await platformRequest({ method: 'POST', url: `${sim.baseUrl}/Order/v2/CancelOrder`, headers: { XApiKey: STORE.apiKey }, json: encryptPlatformDBody({ orderId: simulated.id, ...fields, notifyUser: true, cancelReasonId: 1 }, STORE.apiKey), timeoutMs: 2000 });
      return { response, simulated: sim.orders.get(String(simulated.id))!, userId: simulated.userId };
    };
    expect((await cancelOrder({ storeId: Number(STORE.storeId) })).simulated.status).toBe('Cancelled');
    const neither = await cancelOrder({});
    expect(neither.response).toMatchObject({ status: 400, body: { errorMessage: { errorCode: 'STORE_MISMATCH' } } });
    const simulated = sim.createOrder(STORE.storeId, { status: 'Approved' });
    const asAj = await platformRequest({ method: 'POST', url: `${sim.baseUrl}/Order/v2/CancelOrder`, headers: { XApiKey: STORE.apiKey }, json: encryptPlatformDBody({ orderId: simulated.id, userId: simulated.userId, cancelReasonId: 1, notifyUser: true }, STORE.apiKey), timeoutMs: 2000 });
    expect(asAj).toMatchObject({ status: 200, body: { success: true } });
    expect(simulated.status).toBe('Cancelled');
    expect((await cancelOrder({ storeId: Number(STORE.storeId), userId: 1 })).response).toMatchObject({ status: 400, body: { errorMessage: { errorCode: 'USER_MISMATCH' } } });
  });

  it('reads an order back with the store\'s key (GetOrderDetail): found with Migros\' own content and read status, unknown for another store\'s order, unavailable when Migros fails', async () => {
    const simulated = sim.createOrder(STORE.storeId, { deliveryProvider: 'MIGROS' });
    expect(await adapter.readOrder(credentials, String(simulated.id))).toMatchObject({
      kind: 'found',
      status: 'NEW_PENDING',
      cancelled: false,
      order: { platformOrderId: String(simulated.id), providerRestaurantId: STORE.storeId, platformData: { deliveryProvider: 'MIGROS', userId: String(simulated.userId) }, details: { customerName: 'Ayşe Yılmaz', total: 210 } },
    });
    sim.orders.get(String(simulated.id))!.status = 'Cancelled';
    expect(await adapter.readOrder(credentials, String(simulated.id))).toMatchObject({ kind: 'found', status: 'CANCELLED', cancelled: true });
    const others = sim.createOrder(OTHER_STORE.storeId);
    expect(await adapter.readOrder(credentials, String(others.id))).toMatchObject({ kind: 'unknown', httpStatus: 400 });
    expect(await adapter.readOrder(credentials, '999999999')).toMatchObject({ kind: 'unknown' });
    expect(await adapter.readOrder({ ...credentials, secrets: { apiKey: OTHER_STORE.apiKey } }, String(simulated.id))).toMatchObject({ kind: 'unknown' });
    sim.failNext({ status: 503 });
    expect(await adapter.readOrder(credentials, String(simulated.id))).toMatchObject({ kind: 'unavailable', httpStatus: 503 });
    sim.setDown(true);
    try {
      expect(await adapter.readOrder(credentials, String(simulated.id))).toMatchObject({ kind: 'unavailable' });
    } finally {
      sim.setDown(false);
    }
  });

  it('encrypts in CBC for an integration whose encryptionMode is CBC, or a deployment whose PLATFORM_D_ENCRYPTION_MODE is; ECB otherwise', async () => {
    const cbc = new PlatformDSimulator({ stores: [STORE], cipherMode: 'CBC' });
    await cbc.start();
    try {
      const ref = () => ({ platformOrderId: String(cbc.createOrder(STORE.storeId).id), yemekKuryeOrderId: 'x', platformData: {} });
      const byDefault = new PlatformDAdapter(platformClientConfig({ PLATFORM_D_BASE_URL: cbc.baseUrl }));
      const refused = ref();
      expect(await byDefault.status.send(credentials, refused, 'VERIFY')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/DECRYPTION_FAILED/) });
      expect(cbc.orders.get(refused.platformOrderId)!.status).toBe('NEW_PENDING');
      const perIntegration = ref();
      expect(await byDefault.status.send({ ...credentials, settings: { ...credentials.settings, encryptionMode: 'CBC' } }, perIntegration, 'VERIFY')).toMatchObject({ kind: 'done' });
      expect(cbc.orders.get(perIntegration.platformOrderId)!.status).toBe('Approved');
      const perDeployment = ref();
      const cbcDeployment = new PlatformDAdapter(platformClientConfig({ PLATFORM_D_BASE_URL: cbc.baseUrl, PLATFORM_D_ENCRYPTION_MODE: 'CBC' }));
      expect(await cbcDeployment.status.send(credentials, perDeployment, 'VERIFY')).toMatchObject({ kind: 'done' });
      // The integration's own setting wins over the deployment's.
      expect(await cbcDeployment.status.send({ ...credentials, settings: { encryptionMode: 'ECB' } }, ref(), 'VERIFY')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/DECRYPTION_FAILED/) });
      // Answers encrypted in CBC are read by an ECB adapter too.
      cbc.options.encryptAnswers = true;
      expect(await byDefault.checkCredentials(credentials)).toMatchObject({ result: 'ok' });
    } finally {
      await cbc.stop();
    }
  });

  it('treats success:false as final (also in an HTTP 200), the simulator\'s impossible moves included', async () => {
    const ref = order();
    expect(await adapter.status.send(credentials, ref, 'PREPARE')).toMatchObject({ kind: 'failed', answer: { httpStatus: 400 }, reason: expect.stringMatching(/ORDER_STATUS_NOT_ALLOWED: the order is NEW_PENDING/) });
    sim.failNext({ status: 200, body: { data: null, success: false, errorMessage: { errorCode: 'E1001', errorTitle: 'Hata', errorDetail: 'Sipariş bulunamadı' } } });
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 200 }, reason: 'PLATFORM_D refused the call (E1001: Sipariş bulunamadı)' });
    expect(status(ref)).toBe('NEW_PENDING');
    expect(await adapter.status.send({ ...credentials, providerRestaurantId: OTHER_STORE.storeId }, ref, 'VERIFY')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/STORE_MISMATCH/) });
  });

  it('retries on 429 (with Retry-After), 5xx and network errors; fails on a refused key', async () => {
    const ref = order();
    sim.failNext({ status: 429, headers: { 'Retry-After': '7' } });
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'retry', answer: { httpStatus: 429 }, retryAfterMs: 7000 });
    sim.failNext({ status: 503 });
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'retry', answer: { httpStatus: 503 } });
    sim.failNext({ status: 502, match: (request) => request.path === '/Mapping/v2/GetCancelReasons' });
    expect(await adapter.status.send(credentials, ref, 'REJECT')).toMatchObject({ kind: 'retry', answer: { httpStatus: 502 } });
    sim.setDown(true);
    try {
      expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'retry', answer: { httpStatus: null } });
    } finally {
      sim.setDown(false);
    }
    expect(await adapter.status.send({ ...credentials, secrets: { apiKey: 'wrong-key' } }, ref, 'VERIFY')).toMatchObject({ kind: 'failed', answer: { httpStatus: 401 }, reason: expect.stringMatching(/refused the API key \(UNAUTHORIZED/) });
    expect(status(ref)).toBe('NEW_PENDING');
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done' });
  });

  it('fails a cancellation when Migros offers no reason', async () => {
    sim.failNext({ status: 200, body: { data: [], success: true }, match: (request) => request.path === '/Mapping/v2/GetCancelReasons' });
    expect(await adapter.status.send(credentials, order(), 'CANCEL')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/no cancel reason/) });
  });

  it('reads answers that come back encrypted as { value }', async () => {
    sim.options.encryptAnswers = true;
    const ref = order();
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done', answer: { body: { success: true } } });
    expect(await adapter.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done' });
    expect(await adapter.status.send(credentials, ref, 'DELIVER')).toMatchObject({ kind: 'failed', answer: { body: { errorMessage: { errorCode: 'ORDER_STATUS_NOT_ALLOWED' } } } });
    expect(await adapter.status.send(credentials, ref, 'CANCEL', '2')).toMatchObject({ kind: 'done' });
    expect(status(ref)).toBe('Cancelled');
  });

  it('encrypts with PLATFORM_D_SECRET_KEY when the integrator has one (the simulator then reads nothing else)', async () => {
    const secret = new PlatformDSimulator({ stores: [STORE], secretKey: 'integrator-wide-secret-key-32by' });
    await secret.start();
    try {
      const ref = { platformOrderId: String(secret.createOrder(STORE.storeId).id), yemekKuryeOrderId: 'x', platformData: {} };
      const withKey = new PlatformDAdapter(platformClientConfig({ PLATFORM_D_BASE_URL: secret.baseUrl, PLATFORM_D_SECRET_KEY: 'integrator-wide-secret-key-32by' }));
      const withoutKey = new PlatformDAdapter(platformClientConfig({ PLATFORM_D_BASE_URL: secret.baseUrl }));
      expect(await withoutKey.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/DECRYPTION_FAILED/) });
      expect(await withKey.status.send(credentials, ref, 'VERIFY')).toMatchObject({ kind: 'done' });
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
      const raw = new PlatformDAdapter(platformClientConfig({ PLATFORM_D_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
      expect(await raw.checkCredentials(credentials)).toMatchObject({ result: 'ok' });
      await raw.status.send(credentials, order(), 'VERIFY');
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
  const cbc = (text: string) => {
    const cipher = createCipheriv('aes-256-cbc', platformDKey(STORE.apiKey), Buffer.alloc(16, 0));
    return Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]).toString('base64');
  };

  it('refuses plain JSON, CBC, compact JSON and a missing key; takes the ECB body (openssl\'s vector)', async () => {
    const id = sim.createOrder(STORE.storeId).id;
    const request = { orderId: id, storeId: Number(STORE.storeId), orderStatus: 'Approved' };
    expect(await post(request)).toMatchObject({ status: 400, body: { success: false, errorMessage: { errorCode: 'INVALID_REQUEST' } } });
    expect(await post({ value: cbc(spacedJson(request)) })).toMatchObject({ status: 400, body: { errorMessage: { errorCode: 'DECRYPTION_FAILED' } } });
    expect(await post({ value: sim.encrypt(JSON.stringify(request), STORE.apiKey) })).toMatchObject({ status: 400, body: { errorMessage: { errorCode: 'DECRYPTION_FAILED', errorDetail: expect.stringMatching(/space/) } } });
    expect(await post(encryptPlatformDBody(request, STORE.apiKey), 'nope')).toMatchObject({ status: 401, body: { success: false, errorMessage: { errorCode: 'UNAUTHORIZED' } } });
    expect(sim.orders.get(String(id))!.status).toBe('NEW_PENDING');
    expect(await post(encryptPlatformDBody(request, STORE.apiKey))).toMatchObject({ status: 200, body: { success: true } });
    expect(sim.orders.get(String(id))!.status).toBe('Approved');
  });

  it('reads the openssl ECB vector as Migros would (a body computed without our code)', async () => {
    const keyed = new PlatformDSimulator({ stores: [{ ...STORE, apiKey: OPENSSL_FIXTURE.key }] });
    await keyed.start();
    try {
      keyed.createOrder(STORE.storeId, { id: 455221 });
      const call = (value: string) => platformRequest({ method: 'POST', url: `${keyed.baseUrl}/Order/v2/UpdateOrderStatus`, headers: { XApiKey: OPENSSL_FIXTURE.key }, json: { value }, timeoutMs: 2000 });
      expect(await call(OPENSSL_FIXTURE.cbc)).toMatchObject({ status: 400, body: { errorMessage: { errorCode: 'DECRYPTION_FAILED' } } });
      expect(await call(OPENSSL_FIXTURE.ecb)).toMatchObject({ status: 200, body: { success: true } });
      expect(keyed.received.at(-1)!.body).toEqual(OPENSSL_FIXTURE.body);
      expect(keyed.orders.get('455221')!.status).toBe('Approved');
    } finally {
      await keyed.stop();
    }
  });

  it('sends its order webhook in the shape of the example (examples/order-created.json)', () => {
    const shape = (value: unknown): unknown =>
      Array.isArray(value) ? (value.length ? shape(value[0]) : []) : typeof value === 'object' && value !== null ? Object.fromEntries(Object.keys(value).filter((key) => key !== '_source').sort().map((key) => [key, shape((value as Record<string, unknown>)[key])])) : typeof value;
    const simulated = sim.createOrder(STORE.storeId);
    expect(shape(sim.orderPayload(simulated))).toEqual(shape(orderCreated));
    expect(shape(sim.cancellationPayload(simulated))).toEqual(shape(orderCancelled));
    expect(shape(sim.deliveryStatusPayload({ ...simulated, deliveryProvider: 'MIGROS' }, 'ASSIGNED_FOR_DELIVERY'))).toEqual(shape(deliveryStatus));
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
        platformData: { storeId: '23000000101833', storeGroupId: '511', deliveryProvider: 'RESTAURANT', userId: '8812345', status: 'NEW_PENDING' },
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
            { platformProductId: '70011', productName: 'Adana Dürüm', quantity: 1, unitPrice: 240, totalAmount: 240, productNote: 'Az acılı', features: 'Ekstra: Közlenmiş biber, without Soğan' },
            { platformProductId: '70042', productName: 'Şalgam', quantity: 2, unitPrice: 40, totalAmount: 80, productNote: undefined, features: undefined },
          ],
        },
      },
    });
  });

  it('maps the cancellation example { OrderId, StoreId, UserId }', () => {
    expect(parsePlatformDWebhook(orderCancelled)).toEqual({ ok: true, kind: 'cancellation', orderId: '455221', storeId: '23000000101833', userId: '8812345' });
  });

  it('maps the delivery-status webhook (AJ, M-py), both spellings of the ids', () => {
    expect(parsePlatformDWebhook(deliveryStatus)).toMatchObject({ ok: true, kind: 'delivery_status', orderId: '455221', storeId: '23000000101833', deliveryStatus: 'ASSIGNED_FOR_DELIVERY', isCancelled: false, deliveryProvider: 'MIGROS' });
    const body = { orderId: 100069761, storeId: 23000000101013, status: 'APPROVED', deliveryStatus: 'ASSIGNED_FOR_DELIVERY', isCancelled: false, deliveryProvider: 'RESTAURANT', courierName: 'Ahmet Yılmaz' };
    expect(parsePlatformDWebhook(body)).toEqual({ ok: true, kind: 'delivery_status', orderId: '100069761', storeId: '23000000101013', status: 'APPROVED', deliveryStatus: 'ASSIGNED_FOR_DELIVERY', isCancelled: false, deliveryProvider: 'RESTAURANT', courierName: 'Ahmet Yılmaz' });
    expect(parsePlatformDWebhook({ OrderId: 7, StoreId: 8, isCancelled: true, deliveryStatus: null })).toMatchObject({ ok: true, kind: 'delivery_status', orderId: '7', storeId: '8', isCancelled: true, deliveryStatus: undefined });
    expect(parsePlatformDWebhook({ orderId: 7, deliveryStatus: 'DELIVERED' })).toMatchObject({ ok: false, errors: [{ field: 'StoreId', message: 'is required' }] });
    expect(parsePlatformDWebhook({ orderId: 7, storeId: 8, isCancelled: 'yes' })).toMatchObject({ ok: false, errors: [{ field: 'isCancelled' }] });
  });

  it('takes the total when there is no discount, and unitPrice when Migros sends it', () => {
    const parsed = parsePlatformDWebhook({ ...orderCreated, prices: { total: { amountAsPenny: 12345 } }, items: [{ id: 9, name: 'Pide', price: 30000, unitPrice: 10000, amount: 3 }] });
    expect(parsed).toMatchObject({ ok: true, order: { details: { total: 123.45, items: [{ platformProductId: '9', quantity: 3, unitPrice: 100, totalAmount: 300 }] } } });
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
