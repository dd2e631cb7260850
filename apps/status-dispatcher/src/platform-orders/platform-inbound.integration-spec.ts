import { A_WEBHOOK_KEY, bPluginAuthorization, CREDENTIALS, Platforms, startPlatformApp, startPlatforms, upsertIntegration } from '../../test/platforms';
import { internal, TestApp } from '../../test/harness';

jest.setTimeout(120_000);

const DEPTH_DETAIL = 'The request body nests objects or arrays more than 32 levels deep.';
/** 256 KiB of nested arrays: the body that cost 100-190 ms of event loop each when it was parsed. */
const NESTED = '['.repeat(128 * 1024) + ']'.repeat(128 * 1024);
/** Deep, and broken further on: only a refusal before JSON.parse answers with the depth. */
const NESTED_AND_BROKEN = '['.repeat(64) + '{"not json';
const GARBLED = '{"id": "x", "restaurant": {"id": ';
/** Over the 256 KiB limit: reading it would answer 413. */
const OVERSIZED = JSON.stringify({ notes: 'x'.repeat(300 * 1024) });

/**
 * The platform callbacks' boundary: who is refused before a byte of the body is read or parsed
 * (PLATFORM_A's static key, PLATFORM_B's plugin JWT, both in headers), and the nesting scan that
 * refuses deep bodies before JSON.parse on every route (PLATFORM_D's key is named by the body, so
 * its body is read first: the scan is what protects it).
 */
describe('platform callbacks: authentication before the body, nesting refused before parsing', () => {
  let platforms: Platforms;
  let t: TestApp;

  beforeAll(async () => {
    platforms = await startPlatforms();
    t = await startPlatformApp(platforms);
    await upsertIntegration(t, 'PLATFORM_A');
    await upsertIntegration(t, 'PLATFORM_B');
    await upsertIntegration(t, 'PLATFORM_D');
  });
  afterAll(async () => {
    await t?.close();
    await platforms?.stop();
  });

  const post = (path: string, body: string, headers: Record<string, string>) => t.http.post(path).set({ 'Content-Type': 'application/json', ...headers }).send(body);
  const put = (path: string, body: string, headers: Record<string, string>) => t.http.put(path).set({ 'Content-Type': 'application/json', ...headers }).send(body);

  it('PLATFORM_A: a wrong or missing x-api-key is answered 401 whatever the body (garbled, nested, over the size limit): the body is neither read nor parsed', async () => {
    for (const path of ['/platforms/platform-a/orders', '/platforms/platform-a/orders/cancelled']) {
      for (const [name, body] of Object.entries({ GARBLED, NESTED, NESTED_AND_BROKEN, OVERSIZED })) {
        for (const headers of [{ 'x-api-key': 'wrong-key-wrong-key' }, {}] as Array<Record<string, string>>) {
          const answer = await post(path, body, headers);
          expect({ path, name, status: answer.status, code: answer.body.code }).toEqual({ path, name, status: 401, code: 'AUTHENTICATION_FAILED' });
        }
      }
    }
    // With the key, the same bodies are read: the size limit and the parser answer.
    expect((await post('/platforms/platform-a/orders', OVERSIZED, { 'x-api-key': A_WEBHOOK_KEY })).status).toBe(413);
    expect(await post('/platforms/platform-a/orders', GARBLED, { 'x-api-key': A_WEBHOOK_KEY })).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD', detail: 'The request body is not valid JSON.' } });
  });

  it('PLATFORM_B: a plugin call without a valid JWT is answered 401 whatever the body: the body is neither read nor parsed', async () => {
    const vendor = CREDENTIALS.PLATFORM_B.providerRestaurantId;
    for (const [name, body] of Object.entries({ GARBLED, NESTED, NESTED_AND_BROKEN, OVERSIZED })) {
      for (const headers of [{ Authorization: bPluginAuthorization({}, { secret: 'not-the-plugin-secret-000' }) }, {}] as Array<Record<string, string>>) {
        const dispatch = await post(`/platforms/platform-b/order/${vendor}`, body, headers);
        const availability = await put(`/platforms/platform-b/remoteId/${vendor}/availability`, body, headers);
        for (const answer of [dispatch, availability]) expect({ name, status: answer.status, reason: answer.body.reason }).toEqual({ name, status: 401, reason: 'UNAUTHORIZED' });
      }
    }
  });

  it('refuses nesting deeper than 32 levels with 400 INVALID_PAYLOAD on every platform route, before JSON.parse (a deep body broken further on gets the depth, not "not valid JSON")', async () => {
    const d = CREDENTIALS.PLATFORM_D;
    const routes: Array<[string, (body: string) => ReturnType<typeof post>]> = [
      ['A orders', (body) => post('/platforms/platform-a/orders', body, { 'x-api-key': A_WEBHOOK_KEY })],
      ['A cancelled', (body) => post('/platforms/platform-a/orders/cancelled', body, { 'x-api-key': A_WEBHOOK_KEY })],
      ['B dispatch', (body) => post(`/platforms/platform-b/order/${CREDENTIALS.PLATFORM_B.providerRestaurantId}`, body, { Authorization: bPluginAuthorization() })],
      ['D orders', (body) => post('/platforms/platform-d/orders', body, { XApiKey: d.secrets.apiKey })],
      ['D cancelled', (body) => post('/platforms/platform-d/orders/cancelled', body, {})],
    ];
    const deepOrder = JSON.stringify({ id: 'deep-1', store: { id: d.providerRestaurantId }, restaurant: { id: 'x' }, extra: JSON.parse('['.repeat(40) + ']'.repeat(40)) });
    for (const [route, send] of routes) {
      for (const body of [NESTED, NESTED_AND_BROKEN, deepOrder]) {
        const answer = await send(body);
        expect({ route, status: answer.status, code: answer.body.code, detail: answer.body.detail }).toEqual({ route, status: 400, code: 'INVALID_PAYLOAD', detail: DEPTH_DETAIL });
      }
    }
    // The reader is shared: the internal API's JSON bodies get the same scan, after its key.
    expect(await post('/internal/orders/status', NESTED_AND_BROKEN, internal())).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD', detail: DEPTH_DETAIL } });
    expect(await post('/internal/orders/status', NESTED_AND_BROKEN, {})).toMatchObject({ status: 401 });
  });
});
