import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkPlatformBPluginAuthorization } from '../../adapters/platform-b/platform-b.plugin-auth';
import { platformRequest } from '../../adapters/common/platform-http';
import { PlatformBSimulator } from './platform-b.simulator';

/** The middleware's availability rules by plain HTTP (no adapter): what DH's documents and clients say it does. */
describe('PlatformBSimulator availability', () => {
  const secret = 'plugin-secret-for-availability';
  let sim: PlatformBSimulator;
  let plugin: http.Server;
  const received: Array<{ method?: string; url?: string; auth: Awaited<ReturnType<typeof checkPlatformBPluginAuthorization>>; body: unknown }> = [];
  let token = '';
  const path = (remoteId: string) => `/v2/chains/chain-1/remoteVendors/${remoteId}/availability`;

  beforeAll(async () => {
    plugin = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        void checkPlatformBPluginAuthorization(req.headers.authorization, secret).then((auth) => {
          received.push({ method: req.method, url: req.url, auth, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') });
          res.writeHead(200).end();
        });
      });
    });
    await new Promise<void>((resolve) => plugin.listen(0, '127.0.0.1', resolve));
    sim = new PlatformBSimulator({ users: [{ username: 'u', password: 'p' }], pluginUrl: `http://127.0.0.1:${(plugin.address() as AddressInfo).port}`, pluginSecret: secret });
    await sim.start();
    const login = await platformRequest({ method: 'POST', url: `${sim.baseUrl}/v2/login`, form: { username: 'u', password: 'p', grant_type: 'client_credentials' }, timeoutMs: 2000 });
    token = (login.body as { access_token: string }).access_token;
  });
  afterAll(async () => {
    await sim.stop();
    await new Promise((resolve) => plugin.close(resolve));
  });

  const call = (method: 'GET' | 'PUT' | 'POST', url: string, json?: unknown, bearer = token) => platformRequest({ method, url: `${sim.baseUrl}${url}`, headers: { Authorization: `Bearer ${bearer}` }, json, timeoutMs: 2000 });
  type Entry = { platformKey: string; platformRestaurantId: string; availabilityState: string; changeable: boolean; closingMinutes: number[]; closedUntil: string | null; closedReason: string | null };
  const entries = async (remoteId: string) => (await call('GET', path(remoteId))).body as Entry[];

  it('needs the login token, then lists one changeable entry per DH platform with the values it takes', async () => {
    expect(await call('GET', path('v-1'), undefined, 'nope')).toMatchObject({ status: 401 });
    const read = await call('GET', path('v-1'));
    expect(read).toMatchObject({ status: 200, body: [{ platformKey: 'YS_TR', platformRestaurantId: 'ys-v-1', availabilityState: 'OPEN', changeable: true, availabilityStates: expect.arrayContaining(['OPEN', 'CLOSED', 'CLOSED_UNTIL']), closingReasons: expect.arrayContaining(['CLOSED', 'TOO_BUSY_NO_DRIVERS']), closingMinutes: [30, 60, 120, 240] }] });
  });

  it('answers 204 with no body while DH has no answer yet, then the entries', async () => {
    expect(await call('POST', '/_simulator/availability/vendors/v-2/pending', { reads: 2 })).toMatchObject({ status: 200 });
    expect(await call('GET', path('v-2'))).toMatchObject({ status: 204, body: null });
    expect(await call('GET', path('v-2'))).toMatchObject({ status: 204 });
    expect(await call('GET', path('v-2'))).toMatchObject({ status: 200, body: [{ availabilityState: 'OPEN' }] });
  });

  it('closes, closes until (a listed closingMinutes, a listed closedReason) and opens; refuses values the entry does not list', async () => {
    const [entry] = await entries('v-3');
    const ids = { platformKey: entry.platformKey, platformRestaurantId: entry.platformRestaurantId };
    expect(await call('PUT', path('v-3'), { availabilityState: 'CLOSED', ...ids })).toMatchObject({ status: 400, body: { code: 'INVALID_CLOSED_REASON' } });
    expect(await call('PUT', path('v-3'), { availabilityState: 'CLOSED', closedReason: 'NOT_A_REASON', ...ids })).toMatchObject({ status: 400, body: { code: 'INVALID_CLOSED_REASON' } });
    expect(await call('PUT', path('v-3'), { availabilityState: 'CLOSED', closedReason: 'CLOSED', ...ids })).toMatchObject({ status: 200 });
    expect(await entries('v-3')).toMatchObject([{ availabilityState: 'CLOSED', closedReason: 'CLOSED', closedUntil: null }]);
    expect(await call('PUT', path('v-3'), { availabilityState: 'CLOSED_UNTIL', closedReason: 'TOO_BUSY_NO_DRIVERS', closingMinutes: 45, ...ids })).toMatchObject({ status: 400, body: { code: 'INVALID_CLOSING_MINUTES' } });
    expect(await call('PUT', path('v-3'), { availabilityState: 'CLOSED_UNTIL', closedReason: 'TOO_BUSY_NO_DRIVERS', ...ids })).toMatchObject({ status: 400, body: { code: 'INVALID_CLOSING_MINUTES' } });
    const before = Date.now();
    expect(await call('PUT', path('v-3'), { availabilityState: 'CLOSED_UNTIL', closedReason: 'TOO_BUSY_NO_DRIVERS', closingMinutes: 60, ...ids })).toMatchObject({ status: 200 });
    const [closed] = await entries('v-3');
    expect(closed).toMatchObject({ availabilityState: 'CLOSED_UNTIL', closedReason: 'TOO_BUSY_NO_DRIVERS' });
    expect(Date.parse(closed.closedUntil!)).toBeGreaterThanOrEqual(before + 60 * 60_000);
    expect(await call('PUT', path('v-3'), { availabilityState: 'INACTIVE', ...ids })).toMatchObject({ status: 400, body: { code: 'AVAILABILITY_STATE_NOT_ALLOWED' } });
    expect(await call('PUT', path('v-3'), { availabilityState: 'SLEEPING', ...ids })).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST' } });
    expect(await call('PUT', path('v-3'), { availabilityState: 'OPEN', platformKey: 'YS_TR', platformRestaurantId: 'another' })).toMatchObject({ status: 404 });
    expect(await call('PUT', path('v-3'), { availabilityState: 'OPEN', ...ids })).toMatchObject({ status: 200 });
    expect(await entries('v-3')).toMatchObject([{ availabilityState: 'OPEN', closedReason: null, closedUntil: null }]);
    expect(sim.availability.vendors.get('v-3')!.changes.map((change) => change.availabilityState)).toEqual(['CLOSED', 'CLOSED_UNTIL', 'OPEN']);
  });

  it('reopens a CLOSED_UNTIL by itself when its time is over', async () => {
    const [entry] = await entries('v-4');
    await call('PUT', path('v-4'), { availabilityState: 'CLOSED_UNTIL', closedReason: 'OTHER', closingMinutes: 30, platformKey: entry.platformKey, platformRestaurantId: entry.platformRestaurantId });
    sim.availability.vendors.get('v-4')!.entries[0].closedUntil = new Date(Date.now() - 1).toISOString();
    expect(await entries('v-4')).toMatchObject([{ availabilityState: 'OPEN', closedUntil: null }]);
  });

  it('closes a vendor by itself (not changeable: a PUT is refused) and tells the plugin with a signed JWT; opening tells it too', async () => {
    received.length = 0;
    const closed = await call('POST', '/_simulator/availability/vendors/v-5/close', { reason: 'TOO_MANY_REJECTED_ORDERS', minutes: 30 });
    expect(closed).toMatchObject({ status: 200, body: { pluginAnswer: { status: 200 }, vendor: { entries: [{ availabilityState: 'CLOSED_UNTIL', changeable: false, closedReason: 'TOO_MANY_REJECTED_ORDERS' }] } } });
    expect(received).toEqual([
      { method: 'PUT', url: '/remoteId/v-5/availability', auth: { ok: true }, body: { timestamp: expect.any(String), closures: [{ reason: 'TOO_MANY_REJECTED_ORDERS', start: expect.any(String), end: expect.any(String), changeable: false }] } },
    ]);
    const [entry] = await entries('v-5');
    expect(await call('PUT', path('v-5'), { availabilityState: 'OPEN', platformKey: entry.platformKey, platformRestaurantId: entry.platformRestaurantId })).toMatchObject({ status: 400, body: { code: 'AVAILABILITY_NOT_CHANGEABLE' } });
    expect(await call('POST', '/_simulator/availability/vendors/v-5/open')).toMatchObject({ status: 200, body: { pluginAnswer: { status: 200 } } });
    expect(received[1]).toMatchObject({ url: '/remoteId/v-5/availability', auth: { ok: true }, body: { closures: [] } });
    expect(await entries('v-5')).toMatchObject([{ availabilityState: 'OPEN', changeable: true }]);
    expect(await call('POST', '/_simulator/availability/vendors/v-5/close', { minutes: -1 })).toMatchObject({ status: 422 });
  });

  it('switches items off (until a time: back by itself) and on; lists the unavailable ones; refuses a body DH would refuse', async () => {
    const items = '/v2/chains/chain-1/vendors/v-6/catalog/items/availability';
    const at = new Date(Date.now() + 3_600_000).toISOString();
    expect(await call('PUT', items, { globalEntityId: 'YS_TR', items: ['iskender-1'], type: 'ITEM', isAvailable: false, willBeAvailable: 'AT_TIMESTAMP', atTimeStamp: at })).toMatchObject({ status: 204 });
    expect(await call('POST', items, { globalEntityId: 'YS_TR', items: ['ayran'], type: 'ITEM', isAvailable: false })).toMatchObject({ status: 204 });
    const unavailable = '/v2/chains/chain-1/vendors/v-6/catalog/items/unavailable';
    expect((await call('GET', unavailable)).body).toEqual([
      { id: 'iskender-1', type: 'ITEM', globalEntityId: 'YS_TR', availableAt: at },
      { id: 'ayran', type: 'ITEM', globalEntityId: 'YS_TR', availableAt: null },
    ]);
    expect(await call('PUT', items, { globalEntityId: 'YS_TR', items: ['ayran'], type: 'ITEM', isAvailable: true })).toMatchObject({ status: 204 });
    sim.availability.vendors.get('v-6')!.unavailable.get('YS_TR/ITEM/iskender-1')!.availableAt = new Date(Date.now() - 1).toISOString();
    expect((await call('GET', unavailable)).body).toEqual([]);
    expect(await call('PUT', items, { items: ['x'], isAvailable: false })).toMatchObject({ status: 400 });
    expect(await call('PUT', items, { globalEntityId: 'OTHER', items: ['x'], isAvailable: false })).toMatchObject({ status: 400 });
    expect(await call('PUT', items, { globalEntityId: 'YS_TR', items: [], isAvailable: false })).toMatchObject({ status: 400 });
    expect(await call('PUT', items, { globalEntityId: 'YS_TR', items: ['x'], isAvailable: true, willBeAvailable: 'NEXT_BUSINESS_DAY' })).toMatchObject({ status: 400 });
    expect(await call('PUT', items, { globalEntityId: 'YS_TR', items: ['x'], isAvailable: false, willBeAvailable: 'AT_TIMESTAMP' })).toMatchObject({ status: 400 });
  });

  it('shows every vendor on GET /_simulator/availability', async () => {
    const all = await call('GET', '/_simulator/availability');
    expect(all.status).toBe(200);
    expect((all.body as Array<{ remoteId: string }>).map((vendor) => vendor.remoteId)).toEqual(expect.arrayContaining(['v-1', 'v-3', 'v-5']));
  });
});
