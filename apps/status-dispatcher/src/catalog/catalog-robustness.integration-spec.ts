import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type request from 'supertest';
import { IntegrationCredentials, MenuProduct, MenuReadOutcome, PlatformAdapters } from '@courier/platforms';
import { waitFor } from '@courier/testing';
import { createAccount, installAvailability, RecordingAvailability, TestAccount } from '../../test/availability';
import { installCatalog, ScriptedCatalog, seedLinkedProduct } from '../../test/catalog';
import { startTestApp, TestApp } from '../../test/harness';
import { PlatformCode, upsertIntegration } from '../../test/platforms';

jest.setTimeout(180_000);

// The platforms are doubles at the port: their budgets must not hold the imports and commands back.
const ENV = { LOG_LEVEL: 'warn', CATALOG_IMPORT_INTERVAL_MS: '0', PLATFORM_CALL_BUDGETS: 'PLATFORM_A:configuration=1000/1000' };

/** A catalog at the port that reads every store the same small menu (prices and sends like ScriptedCatalog). */
class FixedMenuCatalog extends ScriptedCatalog {
  async readMenu(credentials: IntegrationCredentials): Promise<MenuReadOutcome> {
    const products: MenuProduct[] = ['m-1', 'm-2', 'm-3'].map((id, index) => ({
      platformProductId: `${credentials.providerRestaurantId}-${id}`,
      name: ['Ayran', 'Lahmacun', 'Künefe'][index],
      price: 30 + index * 10,
      category: 'Menü',
      status: 'ACTIVE',
      externalCode: index === 0 ? 'AYRAN' : null,
      options: [],
      platformData: {},
    }));
    return { kind: 'ok', products, answer: { httpStatus: 200, body: null } };
  }
}

/**
 * Property-based: random bodies, content types, path ids, product codes and query strings at every
 * catalog endpoint, and concurrent requests on the same codes and products, never get a 5xx; every
 * error is problem JSON with a code. The account has real integrations, links and order products,
 * so that well-formed input reaches the services and the database.
 */
describe('no bad input or race on the catalog gives a 5xx (fast-check)', () => {
  let t: TestApp;
  let account: TestAccount;
  let other: TestAccount;
  const integrations: Record<'a' | 'c' | 'unverified' | 'd', string> = { a: '', c: '', unverified: '', d: '' };
  let foreignIntegration: string;
  let importId: string;
  let changeId: string;
  const CODES = ['LAHMACUN', 'KÜNEFE 01', 'PIDE'];
  const products: Record<string, string[]> = {};
  /** Each integration's providerRestaurantId (its menu's product ids start with it). */
  const stores = new Map<string, string>();

  beforeAll(async () => {
    t = await startTestApp({ env: ENV });
    const adapters = t.app.get(PlatformAdapters);
    installCatalog(adapters, 'PLATFORM_A', new FixedMenuCatalog());
    installCatalog(adapters, 'PLATFORM_C', new FixedMenuCatalog({ maxPrice: 100 }));
    installAvailability(t, 'PLATFORM_A', new RecordingAvailability());
    installAvailability(t, 'PLATFORM_C', new RecordingAvailability());
    account = await createAccount(t);
    other = await createAccount(t);
    const integration = async (owner: TestAccount, platform: PlatformCode, verification: 'verified' | 'unverified' = 'verified') => {
      const providerRestaurantId = `store-${randomUUID()}`;
      const { integrationId } = await upsertIntegration(t, platform, { restaurantId: owner.restaurantId, providerRestaurantId, verification });
      stores.set(integrationId, providerRestaurantId);
      return integrationId;
    };
    integrations.a = await integration(account, 'PLATFORM_A');
    integrations.c = await integration(account, 'PLATFORM_C');
    integrations.unverified = await integration(account, 'PLATFORM_A', 'unverified');
    integrations.d = await integration(account, 'PLATFORM_D');
    foreignIntegration = await integration(other, 'PLATFORM_A');
    const db = { query: (text: string, params?: unknown[]) => t.sql(text, params) };
    for (const [key, platform] of [['a', 'PLATFORM_A'], ['c', 'PLATFORM_C']] as const) {
      products[integrations[key]] = [];
      for (const [index, productCode] of CODES.entries()) {
        const platformProductId = `${key}-${index}`;
        products[integrations[key]].push(platformProductId);
        await seedLinkedProduct(db, { integrationId: integrations[key], restaurantId: account.restaurantId, platform, platformProductId, productCode });
      }
      // Products seen in orders only, linked to nothing yet.
      for (const platformProductId of [`${key}-order-1`, `${key}-order-2`]) {
        products[integrations[key]].push(platformProductId);
        await t.sql(
          `INSERT INTO catalog_order_products (integration_id, platform_product_id, restaurant_id, platform, name, orders, first_seen_at, last_seen_at) VALUES ($1, $2, $3, $4, 'Çay', 2, now(), now())`,
          [integrations[key], platformProductId, account.restaurantId, platform],
        );
      }
    }
    const accepted = await t.http.post(`/api/v1/my/integrations/${integrations.a}/catalog/import`).set(account.headers);
    expect(accepted.status).toBe(202);
    importId = accepted.body.importId;
    await waitFor('the import to end', async () => ['done', 'failed'].includes((await t.http.get(`/api/v1/my/catalog/imports/${importId}`).set(account.headers)).body.state), 20_000);
    // The menus' products (PLATFORM_C's once the tests import it); the import marks the seeded ones removed.
    for (const key of ['a', 'c'] as const) products[integrations[key]].push(...['m-1', 'm-2', 'm-3'].map((id) => `${stores.get(integrations[key])}-${id}`));
    const change = await t.http.put('/api/v1/my/catalog/products/LAHMACUN/price').set(account.headers).send({ price: 42.5 });
    expect(change.status).toBe(202);
    changeId = change.body.changeId;
  });
  afterAll(() => t?.close());

  const JUNK = [
    '', ' ', '..', '.', '%2e%2e', '%00', 'a%00b', '%', '%ZZ', '%E0%A4%A', '%ED%A0%80', '%F0%9F', 'a%2Fb', '%2F', '%5C', 'null', 'undefined', '0', '-1',
    "x'--", '%27%3B%20DROP%20TABLE%20catalog_codes%3B--', '%E2%80%AE', '%E2%80%8B', '%EF%BB%BF', '%C2%A0', '%09', '%0A', '%7F', '__proto__', 'constructor',
    '00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', '00000000-0000-0000-0000-00000000000g', '{00000000-0000-0000-0000-000000000000}',
    'x'.repeat(129), 'x'.repeat(4000), encodeURIComponent('ü'.repeat(2000)), encodeURIComponent('\u202eEDOC'), encodeURIComponent(' LAHMACUN'), 'LAHMACUN%20', 'lahmacun',
  ];
  const encoded = (unit: 'grapheme' | 'binary' | undefined) => fc.string({ unit, maxLength: 80 }).map(encodeURIComponent);
  const pathSegments = (valid: () => string[]) =>
    fc.oneof(fc.uuid().map(String), encoded(undefined), encoded('grapheme'), encoded('binary'), fc.constantFrom(...JUNK), fc.nat().map((index) => valid()[index % valid().length]));
  const productCodes = pathSegments(() => CODES.map(encodeURIComponent));

  const pad = (value: number, length = 2) => String(value).padStart(length, '0');
  /** A time near now in the ISO 8601 forms a client may send, JavaScript's Date reads some only. */
  const dateTimes = fc.tuple(fc.date({ min: new Date(Date.now() - 86_400_000), max: new Date(Date.now() + 40 * 86_400_000), noInvalidDate: true }), fc.nat(9)).map(([date, form]) => {
    const [y, m, d, h, min] = [date.getUTCFullYear(), pad(date.getUTCMonth() + 1), pad(date.getUTCDate()), pad(date.getUTCHours()), pad(date.getUTCMinutes())];
    return [
      date.toISOString(),
      `${y}-${m}-${d}`,
      `${y}${m}${d}T${h}${min}00Z`,
      `${y}-${m}-${d}T${h}Z`,
      `${y}-${pad(1 + Math.floor((date.getTime() - Date.UTC(y, 0, 1)) / 86_400_000), 3)}`,
      `${y}-W${pad(1 + (date.getUTCDate() % 52))}-${1 + date.getUTCDay()}T${h}:${min}Z`,
      `${y}-${m}-${d}T${h}:${min}:00+14:00`,
      `${y}-${m}-${d}T${h}:${min}:00.123456789-23:59`,
      `${y}-${m}-${d}T23:59:60Z`,
      `0000-${m}-${d}T${h}:${min}:00Z`,
    ][form];
  });
  const strings = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '\u202e', 'x'.repeat(5000), '2025-01-01T00:00:00Z', '0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z'));
  const numbers = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 1e-7, 0.29, 64.9, 999_999.99, 1_000_000, 1_000_000.01, 1e21, 1e308, Number.MAX_SAFE_INTEGER, 2 ** 63, -1));
  const values = fc.oneof(strings, numbers, fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.object({ maxDepth: 2 }));
  const integrationIds = fc.oneof(
    { arbitrary: fc.constantFrom(...[0, 1, 2, 3, 4]).map((index) => [integrations.a, integrations.c, integrations.unverified, integrations.d, foreignIntegration][index]), weight: 6 },
    { arbitrary: fc.uuid().map(String), weight: 1 },
    { arbitrary: strings, weight: 1 },
  );
  const platformProductIds = fc.oneof(
    { arbitrary: fc.nat().map((index) => { const all = Object.values(products).flat(); return all[index % all.length]; }), weight: 6 },
    { arbitrary: fc.constant(null), weight: 2 },
    { arbitrary: strings, weight: 1 },
    { arbitrary: numbers, weight: 1 },
  );
  const link = fc.oneof(
    { arbitrary: fc.record({ integrationId: integrationIds, platformProductId: platformProductIds }), weight: 8 },
    { arbitrary: fc.record({ integrationId: fc.oneof(integrationIds, values), platformProductId: fc.oneof(platformProductIds, values), extra: values }, { requiredKeys: [] }), weight: 2 },
  );
  const linksBody = fc.oneof(
    { arbitrary: fc.record({ links: fc.array(link, { maxLength: 4 }), name: fc.oneof(strings, fc.constantFrom('Lahmacun', 'Kaşarlı Pide')) }, { requiredKeys: ['links'] }), weight: 8 },
    { arbitrary: fc.record({ links: fc.oneof(fc.array(link, { maxLength: 60 }), values), name: values }, { requiredKeys: [] }), weight: 2 },
  );
  const availabilityBody = fc.oneof(
    { arbitrary: fc.record({ available: fc.boolean(), until: dateTimes }, { requiredKeys: ['available'] }), weight: 8 },
    { arbitrary: fc.record({ available: fc.oneof(fc.boolean(), values), until: fc.oneof(dateTimes, values), extra: values }, { requiredKeys: [] }), weight: 2 },
  );
  const priceBody = fc.oneof(
    { arbitrary: fc.record({ price: numbers }), weight: 8 },
    { arbitrary: fc.record({ price: fc.oneof(numbers, values, fc.constantFrom('64.9', '1e3', 'NaN', 'Infinity')), extra: values }, { requiredKeys: [] }), weight: 2 },
  );
  const anyBody = fc.oneof(linksBody, availabilityBody, priceBody, fc.dictionary(fc.string(), values, { maxKeys: 3 }));
  const rawBody = fc.oneof(
    anyBody.map((body) => JSON.stringify(body)),
    fc.json({ maxDepth: 3 }),
    fc.string(),
    fc.constantFrom('{', '[', 'null', 'true', '""', '[]', '{}', '{"price":1e400}', '{"price":-1e400}', '{"price":64.9,"price":"x"}', '{"links":[{"integrationId":{"$ne":""}}]}', '{"__proto__":{"links":[]}}', '['.repeat(5000) + ']'.repeat(5000)),
  );
  const contentTypes = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'application/merge-patch+json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', '', 'application/json; charset=utf-16');

  function expectSafe(response: request.Response): void {
    if (response.status >= 500) throw new Error(`${response.status} ${JSON.stringify(response.body)} ${(response as unknown as { req?: { method: string; path: string } }).req?.method} ${(response as unknown as { req?: { path: string } }).req?.path}`);
    if (response.status >= 400) {
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(typeof response.body.code).toBe('string');
    }
  }

  const CODE_ENDPOINTS = ['links', 'availability', 'price'] as const;
  const bodyFor: Record<(typeof CODE_ENDPOINTS)[number], fc.Arbitrary<unknown>> = { links: linksBody, availability: availabilityBody, price: priceBody };
  const endpointWithBody = fc.constantFrom(...CODE_ENDPOINTS).chain((endpoint) => fc.tuple(fc.constant(endpoint), bodyFor[endpoint]));

  it('random product codes in the path, with plausible bodies', async () => {
    await fc.assert(
      fc.asyncProperty(productCodes, endpointWithBody, async (code, [endpoint, body]) => {
        expectSafe(await t.http.put(`/api/v1/my/catalog/products/${code}/${endpoint}`).set(account.headers).send(body as object));
      }),
      { numRuns: 250 },
    );
  });

  it('random ids in the paths of imports and changes', async () => {
    const importIds = pathSegments(() => [importId]);
    const integrationPaths = pathSegments(() => Object.values(integrations).concat(foreignIntegration));
    const changeIds = pathSegments(() => [changeId]);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('import', 'importView', 'change'), importIds, integrationPaths, changeIds, async (endpoint, anImportId, anIntegrationId, aChangeId) => {
        const response =
          endpoint === 'import'
            ? await t.http.post(`/api/v1/my/integrations/${anIntegrationId}/catalog/import`).set(account.headers)
            : endpoint === 'importView'
              ? await t.http.get(`/api/v1/my/catalog/imports/${anImportId}`).set(account.headers)
              : await t.http.get(`/api/v1/my/catalog/changes/${aChangeId}`).set(account.headers);
        expectSafe(response);
        if (endpoint === 'importView' && /^[0-9a-f-]{36}$/i.test(anImportId) && anImportId !== importId) expect(response.body.code).toBe('IMPORT_NOT_FOUND');
        if (endpoint === 'change' && /^[0-9a-f-]{36}$/i.test(aChangeId) && aChangeId !== changeId) expect(response.body.code).toBe('CATALOG_CHANGE_NOT_FOUND');
      }),
      { numRuns: 200 },
    );
  });

  it('random raw bodies and content types on the writes', async () => {
    await fc.assert(
      fc.asyncProperty(rawBody, contentTypes, fc.constantFrom(...CODE_ENDPOINTS, 'import' as const), fc.constantFrom(...CODES), async (body, type, endpoint, code) => {
        const call = endpoint === 'import' ? t.http.post(`/api/v1/my/integrations/${integrations.c}/catalog/import`) : t.http.put(`/api/v1/my/catalog/products/${encodeURIComponent(code)}/${endpoint}`);
        call.set(account.headers);
        expectSafe(await (type ? call.set('Content-Type', type) : call).send(body));
      }),
      { numRuns: 250 },
    );
  });

  it('random plausible JSON bodies reach the services: only 2xx, 404, 409 or 422', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CODES, 'NEW-CODE'), endpointWithBody, async (code, [endpoint, body]) => {
        const response = await t.http.put(`/api/v1/my/catalog/products/${encodeURIComponent(code)}/${endpoint}`).set(account.headers).send(body as object);
        expectSafe(response);
        expect([200, 202, 404, 409, 422]).toContain(response.status);
      }),
      { numRuns: 250 },
    );
  });

  it('random query strings on the reads', async () => {
    const limits = fc.oneof(fc.integer().map(String), fc.double().map(String), fc.constantFrom('1', '500', '501', '0', '-0', '-1', '1e2', '1e309', '9999999999999999999999', '0x10', '0b11', '1.5', '%20', '+5', 'NaN', 'Infinity', '1_0'));
    const queryValue = fc.oneof(fc.string().map(encodeURIComponent), fc.constantFrom(...JUNK), dateTimes.map(encodeURIComponent), limits, fc.constantFrom('-000001-01-01T00:00:00Z', '%2B275760-09-13T00:00:00Z', '1000000-01-01'));
    const query = fc.oneof(
      fc.record({ since: dateTimes.map(encodeURIComponent), limit: limits }, { requiredKeys: [] }).map((pairs) => Object.entries(pairs).map(([key, value]) => `${key}=${value}`).join('&')),
      fc.array(fc.tuple(fc.constantFrom('since', 'limit', 'offset', '__proto__', 'since[]', 'limit[$gt]', ''), queryValue), { maxLength: 4 }).map((pairs) => pairs.map(([key, value]) => `${key}=${value}`).join('&')),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('catalog/drift', 'catalog/drift', 'catalog', 'catalog/unmapped'), query, async (path, queryString) => {
        const response = await t.http.get(`/api/v1/my/${path}?${queryString}`).set(account.headers);
        expectSafe(response);
        expect([200, 400, 422]).toContain(response.status);
      }),
      { numRuns: 300 },
    );
  });

  it('concurrent requests on the same codes and products', async () => {
    const ids = [integrations.a, integrations.c];
    const setLinks = fc.record({
      kind: fc.constant('links' as const),
      code: fc.constantFrom(...CODES, 'RACE-1'),
      // Few products, seen in orders (an import never removes them): concurrent requests move the same ones between codes.
      links: fc.uniqueArray(fc.record({ integrationId: fc.constantFrom(...ids), platformProductId: fc.option(fc.constantFrom('order-1', 'order-2'), { freq: 8, nil: null }) }), { selector: (entry) => entry.integrationId, minLength: 1, maxLength: 2 }),
    });
    type LinksRequest = { kind: 'links'; code: string; links: Array<{ integrationId: string; platformProductId: string | null }> };
    const swapRequests = ([x, y]: string[], first: string): LinksRequest[] => {
      const second = first === 'order-1' ? 'order-2' : 'order-1';
      const links = (product: string, order: string[]) => order.map((integrationId) => ({ integrationId, platformProductId: product }));
      return [
        { kind: 'links', code: x, links: links(first, ids) },
        { kind: 'links', code: y, links: links(second, [...ids].reverse()) },
      ];
    };
    const change = fc.record({ kind: fc.constantFrom('price' as const, 'availability' as const), code: fc.constantFrom(...CODES, 'RACE-1', 'RACE-2') });
    const importOf = fc.record({ kind: fc.constant('import' as const), integrationId: fc.constantFrom(...ids) });
    // Two codes taking each other's products on both integrations, in opposite orders (row locks taken crosswise).
    const swap = fc.record({ kind: fc.constant('swap' as const), codes: fc.uniqueArray(fc.constantFrom(...CODES), { minLength: 2, maxLength: 2 }), first: fc.constantFrom('order-1', 'order-2') });
    const operation = fc.oneof(setLinks, setLinks, change, importOf, swap);
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 2, maxLength: 6 }), async (operations) => {
        const requests = operations.flatMap((op): Array<Exclude<typeof op, { kind: 'swap' | 'links' }> | LinksRequest> => (op.kind === 'swap' ? swapRequests(op.codes, op.first) : [op]));
        const responses = await Promise.all(
          requests.map((op) => {
            if (op.kind === 'import') return t.http.post(`/api/v1/my/integrations/${op.integrationId}/catalog/import`).set(account.headers);
            const path = `/api/v1/my/catalog/products/${encodeURIComponent(op.code)}/${op.kind}`;
            if (op.kind !== 'links') return t.http.put(path).set(account.headers).send(op.kind === 'price' ? { price: 50 } : { available: false });
            const body = { links: op.links.map((entry) => ({ integrationId: entry.integrationId, platformProductId: entry.platformProductId === null ? null : `${entry.integrationId === integrations.a ? 'a' : 'c'}-${entry.platformProductId}` })) };
            return t.http.put(path).set(account.headers).send(body);
          }),
        );
        for (const response of responses) {
          expectSafe(response);
          // 409: an import linked the same code at the same moment, twice (CATALOG_LINK_CONFLICT).
          expect([200, 202, 404, 409]).toContain(response.status);
        }
      }),
      { numRuns: 100 },
    );
  });
});
