import { platformRequest } from '../../adapters/common/platform-http';
import { GETIR_MENU_PRODUCT_IDS } from './platform-a.availability-routes';
import { PlatformASimulator } from './platform-a.simulator';

/** Getir's availability calls as G describes them, by plain HTTP (the adapter's view is in platform-a.availability.spec.ts). */
describe('PlatformASimulator availability', () => {
  let sim: PlatformASimulator;
  let now = Date.now();
  const MINUTE_MS = 1_000;

  beforeAll(async () => {
    sim = new PlatformASimulator({
      appSecretKey: 'app-secret-key-0001',
      restaurants: [
        { restaurantId: 'getir-r-1', secretKey: 'restaurant-secret-1' },
        { restaurantId: 'getir-r-2', secretKey: 'restaurant-secret-2' },
      ],
      availability: { minuteMs: MINUTE_MS, now: () => now },
    });
    await sim.start();
  });
  afterAll(() => sim.stop());

  /** A fresh token (each has its own configuration budget). */
  async function login(secret = 'restaurant-secret-1'): Promise<string> {
    const response = await platformRequest({
      method: 'POST',
      url: `${sim.baseUrl}/auth/login`,
      json: { appSecretKey: 'app-secret-key-0001', restaurantSecretKey: secret },
      timeoutMs: 2000,
    });
    return (response.body as { token: string }).token;
  }
  const call = (token: string, method: 'GET' | 'PUT', path: string, json?: unknown) =>
    platformRequest({ method, url: `${sim.baseUrl}${path}`, headers: { token }, json, timeoutMs: 2000 });
  const admin = (method: 'GET' | 'POST', path: string) =>
    platformRequest({ method, url: `${sim.baseUrl}/_simulator${path}`, timeoutMs: 2000 });

  it('closes for a timeOffAmount of 15, 30 or 45 minutes and reopens by itself; a close without one lasts until an open', async () => {
    let token = await login();
    expect(await call(token, 'PUT', '/restaurants/status/close', { timeOffAmount: 30 })).toMatchObject({ status: 200 });
    expect(await call(token, 'GET', '/restaurants')).toMatchObject({
      status: 200,
      body: { id: 'getir-r-1', status: 200, isStatusChangedByUser: true, closedSource: 1 },
    });
    now += 30 * MINUTE_MS;
    expect((await admin('GET', '/restaurants/getir-r-1/availability')).body).toMatchObject({ status: 100, closedUntil: null });

    token = await login();
    expect(await call(token, 'PUT', '/restaurants/status/close')).toMatchObject({ status: 200 });
    now += 120 * MINUTE_MS;
    expect((await admin('GET', '/restaurants/getir-r-1/availability')).body).toMatchObject({ status: 200 });
    expect(await call(token, 'PUT', '/restaurants/status/open')).toMatchObject({ status: 200, body: {} });
    expect((await admin('GET', '/restaurants/getir-r-1/availability')).body).toMatchObject({ status: 100, closedSource: 0 });
  });

  it('refuses any other duration with a ValidationError (code -2) and leaves the restaurant as it was', async () => {
    // The limiter counts a refused call too: a token per attempt.
    for (const timeOffAmount of [20, 60, '15']) {
      expect(await call(await login(), 'PUT', '/restaurants/status/close', { timeOffAmount })).toMatchObject({
        status: 400,
        body: { code: -2, error: 'ValidationError', source: 'body' },
      });
    }
    expect((await admin('GET', '/restaurants/getir-r-1/availability')).body).toMatchObject({ status: 100 });
  });

  it('turns busy mode on with 15, 30 or 45 extra minutes (15 when not given) and off', async () => {
    let token = await login('restaurant-secret-2');
    expect(
      await call(token, 'PUT', '/restaurants/delivery-duration/busyness', { isBusy: true, busynessDifferenceDuration: 45 }),
    ).toMatchObject({ status: 200 });
    expect((await admin('GET', '/restaurants/getir-r-2/availability')).body).toMatchObject({
      isBusy: true,
      busynessDifferenceDuration: 45,
      status: 100,
    });
    expect(
      await call(token, 'PUT', '/restaurants/delivery-duration/busyness', { isBusy: true, busynessDifferenceDuration: 20 }),
    ).toMatchObject({ status: 400, body: { code: -2 } });
    token = await login('restaurant-secret-2');
    expect(await call(token, 'PUT', '/restaurants/delivery-duration/busyness', {})).toMatchObject({ status: 400, body: { code: -2 } });
    expect(await call(token, 'PUT', '/restaurants/delivery-duration/busyness', { isBusy: true })).toMatchObject({ status: 200 });
    expect((await admin('GET', '/restaurants/getir-r-2/availability')).body).toMatchObject({
      isBusy: true,
      busynessDifferenceDuration: 15,
    });
    token = await login('restaurant-secret-2');
    expect(await call(token, 'PUT', '/restaurants/delivery-duration/busyness', { isBusy: false })).toMatchObject({ status: 200 });
    expect((await admin('GET', '/restaurants/getir-r-2/availability')).body).toMatchObject({ isBusy: false });
  });

  it('allows 2 configuration calls a minute per token, then blocks the family for 30 s with 429; product calls are not in it', async () => {
    const token = await login();
    expect(await call(token, 'PUT', '/restaurants/status/open')).toMatchObject({ status: 200 });
    expect(await call(token, 'GET', '/restaurants')).toMatchObject({ status: 200 });
    expect(await call(token, 'PUT', `/products/${GETIR_MENU_PRODUCT_IDS[0]}/status`, { status: 100 })).toMatchObject({ status: 200 });
    expect(await call(token, 'PUT', '/restaurants/status/close')).toMatchObject({
      status: 429,
      body: { code: 429, error: 'TooManyRequests' },
    });
    expect((await admin('GET', '/restaurants/getir-r-1/availability')).body).toMatchObject({ status: 100 });
    // Blocked 30 s from the refusal: past the minute's end it is still refused until the block ends.
    now += 29_000;
    expect(await call(token, 'GET', '/restaurants')).toMatchObject({ status: 429 });
    now += 1_000;
    expect(await call(token, 'PUT', '/restaurants/status/close')).toMatchObject({ status: 200 });
    // Another token has its own budget.
    expect(await call(await login(), 'GET', '/restaurants')).toMatchObject({ status: 200, body: { status: 200 } });
    expect(await call(token, 'PUT', '/restaurants/status/open')).toMatchObject({ status: 200 });
  });

  it('switches a product to 200 (inactive), 400 (inactive for the day, back the next day) and 100; refuses a product not of the restaurant (code 40)', async () => {
    const token = await login();
    const path = `/products/${GETIR_MENU_PRODUCT_IDS[1]}/status`;
    expect(await call(token, 'PUT', path, { status: 200 })).toMatchObject({ status: 200 });
    expect(await call(token, 'GET', path)).toMatchObject({ status: 200, body: { id: GETIR_MENU_PRODUCT_IDS[1], status: 200 } });
    expect(await call(token, 'PUT', path, { status: 400 })).toMatchObject({ status: 200 });
    expect(await call(token, 'GET', path)).toMatchObject({ body: { status: 400 } });
    now += 86_400_000;
    expect(await call(token, 'GET', path)).toMatchObject({ body: { status: 100 } });
    expect(await call(token, 'PUT', path, { status: 300 })).toMatchObject({ status: 400, body: { code: -2 } });
    expect(await call(token, 'PUT', '/products/5f9a1b2c3d4e5f6a7b8c9dff/status', { status: 200 })).toMatchObject({
      status: 400,
      body: { code: 40, error: 'ProductNotBelongsToRestaurantError' },
    });
    expect(await call(await login('restaurant-secret-2'), 'GET', path)).toMatchObject({ body: { status: 100 } });
  });

  it('closes a restaurant by Getir itself (unanswered orders) through the admin route: isStatusChangedByUser false, closedSource 2', async () => {
    expect(await admin('POST', '/restaurants/getir-r-2/close')).toMatchObject({
      status: 200,
      body: { restaurantId: 'getir-r-2', status: 200, isStatusChangedByUser: false, closedSource: 2 },
    });
    expect(await call(await login('restaurant-secret-2'), 'GET', '/restaurants')).toMatchObject({
      body: { status: 200, isStatusChangedByUser: false, closedSource: 2 },
    });
    expect(await admin('GET', '/restaurants/nope/availability')).toMatchObject({ status: 404 });
    expect(sim.callsTo('GET', '/restaurants').length).toBeGreaterThan(0);
  });
});
