import type { AddressInfo } from 'node:net';
import { slowDripRequest } from '@courier/testing';
import { credentials, SenderApp, startSender, TestAccount } from '../../test/harness';

jest.setTimeout(120_000);

const BASE = '/api/v1/my/webhooks/deliveries';
const UNSTORABLE = 'must not contain NUL characters or unpaired surrogates';

/** Bad input at the delivery log: NUL or a lone surrogate in a filter is a 422, not a 500. */
describe('webhook-sender input handling', () => {
  let sender: SenderApp;
  let account: TestAccount;

  beforeAll(async () => {
    // Short HTTP limits and no /docs, from the environment as in a deployment.
    sender = await startSender({ env: { LOG_LEVEL: 'warn', HTTP_REQUEST_TIMEOUT_MS: '600', HTTP_HEADERS_TIMEOUT_MS: '300', OPENAPI_DOCS_ENABLED: 'false' } });
    account = await sender.createAccount({});
  });
  afterAll(() => sender?.close());

  // A lone surrogate cannot reach a query string (invalid UTF-8 decodes to U+FFFD): NUL is the case.
  it.each(['orderId', 'yemekKuryeOrderId', 'status', 'cursor'])('refuses %s=%00 with 422', async (filter) => {
    for (const value of ['%00', 'a%00b']) {
      const response = await sender.http.get(`${BASE}?${filter}=${value}`).set(credentials(account));
      expect(response.status).toBe(422);
      expect(response.body.errors).toContainEqual({ field: filter, message: UNSTORABLE });
    }
  });

  it('refuses NUL in a delivery id and answers every response with nosniff', async () => {
    const response = await sender.http.get(`${BASE}/%00`).set(credentials(account));
    expect(response.status).toBe(422);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const redeliver = await sender.http.post(`${BASE}/a%00/redeliver`).set(credentials(account));
    expect(redeliver.status).toBe(422);
    expect((await sender.http.get(BASE).set(credentials(account))).headers['x-content-type-options']).toBe('nosniff');
  });

  it('never quotes a malformed body', async () => {
    const response = await sender.http.post(`${BASE}/x/redeliver`).set(credentials(account)).set('Content-Type', 'application/json').send('{"secret": DEADBEEF-secret}');
    expect(response.status).toBe(400);
    expect(response.text).not.toContain('DEADBEEF');
  });

  it('cuts a slow-drip request after HTTP_REQUEST_TIMEOUT_MS (408, connection closed), and serves no /docs when OPENAPI_DOCS_ENABLED=false', async () => {
    await sender.app.listen(0, '127.0.0.1');
    const port = (sender.app.getHttpServer().address() as AddressInfo).port;
    // Headers in full, then a byte of the body every 50 ms: 50 s for the whole body.
    const received = await slowDripRequest(
      port,
      `POST ${BASE}/x/redeliver HTTP/1.1\r\nHost: sender\r\nX-API-Key: ${account.apiKey}\r\nX-API-Secret: ${account.apiSecret}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
    );
    expect(received).toMatch(/^HTTP\/1\.1 408/);
    expect((await sender.http.get('/docs-json')).status).toBe(404);
    expect((await sender.http.get('/docs')).status).toBe(404);
  });
});
