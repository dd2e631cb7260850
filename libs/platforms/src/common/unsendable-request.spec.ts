import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IntegrationCredentials, PlatformOrderRef } from './platform-adapter';
import { platformClientConfig } from '../platforms';
import { PlatformDAdapter } from '../migros-yemek/migros-yemek.adapter';
import { checkOfError, outcomeOfError, pollResultOfError } from './outcomes';
import { platformRequest, UnsendableRequestError } from './platform-http';

const UNSAFE = 'anahtar-şifre-ğüç';

/**
 * A header value Node cannot write (above U+00FF: ERR_INVALID_CHAR, thrown before any I/O) or would
 * write as Latin-1 (another value than the one stored) is refused before the call: a final failure
 * naming the header, never its value, instead of an exception every retry hits again.
 */
describe('a request with a header value a header cannot carry', () => {
  let server: http.Server;
  let base: string;
  const received: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      received.push(req.headers);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ data: { id: 1 }, success: true }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => (received.length = 0));

  it.each([
    ['above U+00FF (Node throws ERR_INVALID_CHAR)', UNSAFE],
    ['Latin-1 (Node would send other bytes)', 'schlüssel'],
    ['a line break', 'key\r\nX-Injected: 1'],
  ])('is refused before any I/O: %s', async (_case, value) => {
    const attempt = platformRequest({ method: 'GET', url: `${base}/x`, headers: { XApiKey: value }, timeoutMs: 1000 });
    await expect(attempt).rejects.toThrow(UnsendableRequestError);
    const error = (await attempt.then(() => undefined, (caught: unknown) => caught)) as UnsendableRequestError;
    expect(error.header).toBe('XApiKey');
    expect(error.message).toContain('XApiKey');
    expect(error.message).not.toContain(value);
    expect(received).toHaveLength(0);
  });

  it('a header name Node refuses is the same final failure (Node\'s own check, caught)', async () => {
    await expect(platformRequest({ method: 'GET', url: `${base}/x`, headers: { 'bad name': 'v' }, timeoutMs: 1000 })).rejects.toThrow(UnsendableRequestError);
    expect(received).toHaveLength(0);
  });

  it('visible ASCII, spaces and tabs inside, goes out unchanged', async () => {
    const response = await platformRequest({ method: 'GET', url: `${base}/x`, headers: { XApiKey: 'k-1 ~!\tx', Authorization: 'Bearer abc.def' }, timeoutMs: 1000 });
    expect(response.status).toBe(200);
    expect(received[0]).toMatchObject({ xapikey: 'k-1 ~!\tx', authorization: 'Bearer abc.def' });
  });

  it('is a final failure for a status call and a poll, and a clear check result, naming the header', () => {
    const error = new UnsendableRequestError('XApiKey');
    expect(outcomeOfError(error)).toEqual({ kind: 'failed', answer: { httpStatus: null, body: null, error: error.message }, reason: expect.stringContaining('XApiKey') });
    expect(pollResultOfError(error)).toMatchObject({ kind: 'failed', reason: expect.stringContaining('XApiKey') });
    expect(checkOfError(error)).toEqual({ result: 'rejected', detail: expect.stringContaining('XApiKey') });
  });

  describe('PLATFORM_D with a stored apiKey a header cannot carry', () => {
    const adapter = () => new PlatformDAdapter(platformClientConfig({ PLATFORM_D_BASE_URL: base }));
    const credentials = (): IntegrationCredentials => ({ integrationId: 'int-d-unsafe', providerRestaurantId: '23000000101833', settings: { providerMerchantId: '511' }, secrets: { apiKey: UNSAFE } });
    const order: PlatformOrderRef = { platformOrderId: '455221', yemekKuryeOrderId: 'ord-1', platformData: { deliveryProvider: 'RESTAURANT' } };

    it('a status call ends failed (not thrown, not retried), naming XApiKey, never the value; nothing is sent', async () => {
      for (const action of ['VERIFY', 'CANCEL'] as const) {
        const outcome = await adapter().status.send(credentials(), order, action);
        expect(outcome).toMatchObject({ kind: 'failed', reason: expect.stringContaining('XApiKey') });
        expect(JSON.stringify(outcome)).not.toContain(UNSAFE);
      }
      expect(received).toHaveLength(0);
    });

    it('the credential check answers rejected with the reason', async () => {
      const check = await adapter().checkCredentials(credentials());
      expect(check).toEqual({ result: 'rejected', detail: expect.stringContaining('XApiKey') });
      expect(check.detail).not.toContain(UNSAFE);
      expect(received).toHaveLength(0);
    });
  });
});
