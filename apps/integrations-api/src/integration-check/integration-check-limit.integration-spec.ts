import { PlatformASimulator } from '@courier/platforms/simulators';
import { awayFromWindowEdge, parsePrometheusText, waitFor } from '@courier/testing';
import { credentials, startTestApp, TestApp } from '../../test/harness';

jest.setTimeout(60_000);

const APP_KEY = 'getir-app-secret-key-limit-1';
const LOGIN = '/auth/login';

/** The limits of POST /api/v1/my/integrations/{id}/check: each check is a real platform login. */
describe('POST /api/v1/my/integrations/{id}/check limits', () => {
  const a = new PlatformASimulator({
    appSecretKey: APP_KEY,
    restaurants: [1, 2, 3, 4, 5, 6].map((n) => ({ restaurantId: `getir-limit-${n}`, secretKey: `getir-limit-secret-${n}` })),
  });
  let t: TestApp;
  let second: TestApp | undefined;

  beforeAll(async () => {
    await a.start();
    t = await startTestApp({ env: env() });
  });
  afterAll(async () => {
    await second?.close({ keepDatabase: true });
    await t?.close();
    await a.stop();
  });

  function env(): Record<string, string> {
    return { PLATFORM_A_BASE_URL: a.baseUrl, PLATFORM_A_APP_SECRET_KEY: APP_KEY, PLATFORM_HTTP_TIMEOUT_MS: '2000', INTEGRATION_CHECK_ACCOUNT_LIMIT_PER_HOUR: '5' };
  }

  async function integration(app: TestApp, restaurant: Awaited<ReturnType<TestApp['createRestaurant']>>, n: number, secretKey = `getir-limit-secret-${n}`): Promise<string> {
    const response = await app.http.post('/api/v1/my/integrations').set(credentials(restaurant)).send({ platform: 'PLATFORM_A', providerRestaurantId: `getir-limit-${n}`, secretKey });
    if (response.status !== 201) throw new Error(`${response.status} ${JSON.stringify(response.body)}`);
    // The verification a create starts (one login) is over before the checks are counted.
    const id: string = response.body.id;
    await waitFor('verification', async () => ['verified', 'failed'].includes((await app.http.get(`/api/v1/my/integrations/${id}`).set(credentials(restaurant))).body.verification.state));
    return id;
  }
  const logins = () => a.callsTo('POST', LOGIN).length;

  async function checkCount(app: TestApp, result: string): Promise<number> {
    const samples = parsePrometheusText((await app.http.get('/metrics')).text);
    return samples.find((sample) => sample.name === 'platform_credential_checks_total' && sample.labels.platform === 'PLATFORM_A' && sample.labels.result === result)?.value ?? 0;
  }

  it('lets 3 checks of one integration a minute reach the platform and answers the rest 429 with Retry-After, counted by result', async () => {
    const restaurant = await t.createRestaurant();
    const id = await integration(t, restaurant, 1);
    const wrong = await integration(t, restaurant, 2, 'getir-limit-wrong-secret');
    await awayFromWindowEdge(10_000);
    const before = logins();
    const answers = await Promise.all(Array.from({ length: 12 }, () => t.http.post(`/api/v1/my/integrations/${id}/check`).set(credentials(restaurant))));

    expect(answers.filter((answer) => answer.status === 200).map((answer) => answer.body.result)).toEqual(['ok', 'ok', 'ok']);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(9);
    for (const answer of refused) {
      expect(answer.body).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED', detail: expect.stringContaining('this integration') });
      expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(answer.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    expect(logins() - before).toBe(3);

    // A refused login is counted too: the platform's verdict, by platform and result.
    expect((await t.http.post(`/api/v1/my/integrations/${wrong}/check`).set(credentials(restaurant))).body).toMatchObject({ result: 'rejected' });
    expect(await checkCount(t, 'ok')).toBe(3);
    expect(await checkCount(t, 'rejected')).toBe(1);
    expect(await checkCount(t, 'rate_limited')).toBe(9);
  });

  it('limits the checks of an account across its integrations to INTEGRATION_CHECK_ACCOUNT_LIMIT_PER_HOUR, the rest of the hour', async () => {
    const restaurant = await t.createRestaurant();
    const [one, two] = [await integration(t, restaurant, 3), await integration(t, restaurant, 4)];
    const other = await t.createRestaurant({ name: 'Other' });
    const others = await integration(t, other, 5);
    await awayFromWindowEdge(10_000);
    const before = logins();
    const check = (id: string, who = restaurant) => t.http.post(`/api/v1/my/integrations/${id}/check`).set(credentials(who));

    expect((await Promise.all([check(one), check(one), check(one)])).map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect((await check(two)).status).toBe(200);
    expect((await check(two)).status).toBe(200);
    const refused = await check(two);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', detail: expect.stringContaining('an hour for this account') });
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(logins() - before).toBe(5);

    // Another account's checks are its own; an id that is not the caller's is neither checked nor counted.
    expect((await check(others, other)).status).toBe(200);
    expect((await check(others)).body).toMatchObject({ status: 404, code: 'INTEGRATION_NOT_FOUND' });
    expect(logins() - before).toBe(6);
  });

  it('holds across two instances of the app (shared counters)', async () => {
    second = await startTestApp({ database: t.database, env: env() });
    const restaurant = await t.createRestaurant();
    const id = await integration(t, restaurant, 6);
    await awayFromWindowEdge(10_000);
    const before = logins();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => (index % 2 === 0 ? t : second!).http.post(`/api/v1/my/integrations/${id}/check`).set(credentials(restaurant))));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(5);
    expect(logins() - before).toBe(3);
  });
});
