import { randomUUID } from 'node:crypto';
import { PlatformAdapters } from '@courier/platforms';
import { waitFor } from '@courier/testing';
import { createAccount, installAvailability, RecordingAvailability, TestAccount } from '../../test/availability';
import { installCatalog, ScriptedCatalog, seedLinkedProduct } from '../../test/catalog';
import { startTestApp, TestApp } from '../../test/harness';
import { PlatformCode, upsertIntegration } from '../../test/platforms';

jest.setTimeout(120_000);

// PLATFORM_A's configuration budget (Getir's 2 a minute) is lifted: the platforms here are doubles at the port.
const ENV = { PLATFORM_CALL_BUDGETS: 'PLATFORM_A:configuration=1000/1000', STATUS_PUSH_RETRY_BASE_MS: '50', STATUS_PUSH_RETRY_MAX_DELAY_MS: '200' };

/**
 * Sold out and price by the restaurant's product code over HTTP, a real database and the task runner:
 * what each integration is answered (queued, refused, not_linked), what reaches each platform's
 * catalog or availability at the port, the change followed to its end, and the refusals of bad input.
 * The catalog's links are seeded in SQL, as an import leaves them.
 */
describe('catalog changes by product code (status-dispatcher)', () => {
  let t: TestApp;
  const catalogA = new ScriptedCatalog();
  const catalogC = new ScriptedCatalog({ maxPrice: 100 });
  const availabilityA = new RecordingAvailability();
  const availabilityC = new RecordingAvailability();

  beforeAll(async () => {
    t = await startTestApp({ env: ENV });
    const adapters = t.app.get(PlatformAdapters);
    installCatalog(adapters, 'PLATFORM_A', catalogA);
    installCatalog(adapters, 'PLATFORM_C', catalogC);
    installAvailability(t, 'PLATFORM_A', availabilityA);
    installAvailability(t, 'PLATFORM_C', availabilityC);
  });
  afterAll(() => t?.close());

  const sqlOf = () => ({ query: (text: string, params?: unknown[]) => t.sql(text, params) });

  /** An account whose product `code` is linked on PLATFORM_A and PLATFORM_C, with a PLATFORM_D integration where it is not. */
  async function restaurantWithLinks(code = `CODE-${randomUUID().slice(0, 8)}`) {
    const account = await createAccount(t);
    const integration = async (platform: PlatformCode) => (await upsertIntegration(t, platform, { restaurantId: account.restaurantId, providerRestaurantId: `store-${randomUUID()}` })).integrationId;
    const a = { integrationId: await integration('PLATFORM_A'), platformProductId: `a-${randomUUID().slice(0, 8)}` };
    const c = { integrationId: await integration('PLATFORM_C'), platformProductId: `c-${randomUUID().slice(0, 8)}` };
    const d = await integration('PLATFORM_D');
    for (const [platform, link] of [['PLATFORM_A', a], ['PLATFORM_C', c]] as const) {
      await seedLinkedProduct(sqlOf(), { ...link, restaurantId: account.restaurantId, platform, productCode: code });
    }
    return { account, code, a, c, d };
  }

  const putPrice = (account: TestAccount, code: string, body: unknown) => t.http.put(`/api/v1/my/catalog/products/${encodeURIComponent(code)}/price`).set(account.headers).send(body as object);
  const putAvailability = (account: TestAccount, code: string, body: unknown) => t.http.put(`/api/v1/my/catalog/products/${encodeURIComponent(code)}/availability`).set(account.headers).send(body as object);
  const getChange = (account: TestAccount, changeId: string) => t.http.get(`/api/v1/my/catalog/changes/${changeId}`).set(account.headers);

  /** Waits until every integration with a command in the change is in one of `states`; returns the view. */
  async function waitForChange(account: TestAccount, changeId: string, states: string[]): Promise<any> {
    let last: any;
    try {
      await waitFor(
        `change ${changeId}'s commands in ${states.join('|')}`,
        async () => {
          const response = await getChange(account, changeId);
          last = response.body;
          return response.status === 200 && last.integrations.filter((entry: any) => entry.commandId).every((entry: any) => states.includes(entry.state));
        },
        20_000,
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}; last seen: ${JSON.stringify(last)}`);
    }
    return last;
  }

  const byIntegration = (entries: any[]) => Object.fromEntries(entries.map((entry) => [entry.integrationId, entry]));

  it('a price by code: queued on the linked platform that takes it, refused (nothing sent) where the platform refuses, not_linked on the unlinked one; followed to sent', async () => {
    const { account, code, a, c, d } = await restaurantWithLinks();

    const answer = await putPrice(account, code, { price: 149.9 });

    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ changeId: expect.any(String), productCode: code });
    const results = byIntegration(answer.body.results);
    expect(Object.keys(results).sort()).toEqual([a.integrationId, c.integrationId, d].sort());
    expect(results[a.integrationId]).toMatchObject({ platform: 'PLATFORM_A', platformProductId: a.platformProductId, state: 'queued', commandId: expect.any(String) });
    expect(results[c.integrationId]).toEqual({ integrationId: c.integrationId, platform: 'PLATFORM_C', platformProductId: c.platformProductId, state: 'refused', code: 'PRICE_OUT_OF_RANGE', message: 'the platform takes prices up to 100' });
    expect(results[d]).toMatchObject({ platform: 'PLATFORM_D', platformProductId: null, state: 'not_linked', code: 'PRODUCT_NOT_LINKED' });

    const view = await waitForChange(account, answer.body.changeId, ['sent', 'failed']);
    const entries = byIntegration(view.integrations);
    expect(view).toMatchObject({ changeId: answer.body.changeId, productCode: code, kind: 'price', request: { price: 149.9 }, acceptedAt: expect.any(String) });
    expect(entries[a.integrationId]).toMatchObject({ state: 'sent', attempts: 1, lastAnswer: { outcome: 'done', httpStatus: 200 }, lastError: null });
    expect(entries[c.integrationId]).toMatchObject({ state: 'refused', code: 'PRICE_OUT_OF_RANGE', commandId: null });
    expect(entries[d]).toMatchObject({ state: 'not_linked' });
    expect(catalogA.callsOf(a.integrationId).map((call) => call.change)).toEqual([{ platformProductId: a.platformProductId, price: 149.9 }]);
    expect(catalogC.callsOf(c.integrationId)).toEqual([]);
    const [menu] = await t.sql<{ price: string }>('SELECT price::text AS price FROM catalog_products WHERE integration_id = $1', [a.integrationId]);
    expect(menu.price).toBe('149.90');
  });

  it('sold out by code reaches every linked platform through the product availability commands; the unlinked one is told apart', async () => {
    const { account, code, a, c, d } = await restaurantWithLinks();
    const until = new Date(Date.now() + 3_600_000).toISOString();

    const answer = await putAvailability(account, code, { available: false, until });

    expect(answer.status).toBe(202);
    const results = byIntegration(answer.body.results);
    expect(results[a.integrationId]).toMatchObject({ state: 'queued', platformProductId: a.platformProductId });
    expect(results[c.integrationId]).toMatchObject({ state: 'queued', platformProductId: c.platformProductId });
    expect(results[d]).toMatchObject({ state: 'not_linked', platformProductId: null });
    const view = await waitForChange(account, answer.body.changeId, ['sent']);
    expect(view).toMatchObject({ kind: 'availability', request: { available: false, until } });
    for (const [recording, link] of [[availabilityA, a], [availabilityC, c]] as const) {
      expect(recording.calls.filter((call) => call.integrationId === link.integrationId).map((call) => call.product)).toEqual([{ platformProductId: link.platformProductId, available: false, until: new Date(until) }]);
    }
    // The per-integration products view shows the same change (one machinery).
    const products = await t.http.get(`/api/v1/my/integrations/${a.integrationId}/products/availability`).set(account.headers);
    expect(products.body.products).toEqual([expect.objectContaining({ platformProductId: a.platformProductId, available: false, until, changeId: answer.body.changeId, confirmedAvailable: false })]);
    const statuses = await t.sql<{ status: string }>('SELECT status FROM catalog_products WHERE integration_id = ANY($1::text[])', [[a.integrationId, c.integrationId]]);
    expect(statuses.map((row) => row.status)).toEqual(['INACTIVE', 'INACTIVE']);
  });

  it('refuses bad input with problem JSON and a code, never a 500', async () => {
    const { account, code } = await restaurantWithLinks();
    const other = await restaurantWithLinks();
    const accepted = await putPrice(account, code, { price: 10 });
    expect(accepted.status).toBe(202);
    const soon = new Date(Date.now() + 60_000).toISOString();
    const cases: Array<[string, () => Promise<any>, number, string, string?]> = [
      ['price 0', () => putPrice(account, code, { price: 0 }), 422, 'VALIDATION_ERROR', 'price'],
      ['negative price', () => putPrice(account, code, { price: -3 }), 422, 'VALIDATION_ERROR', 'price'],
      ['three decimals', () => putPrice(account, code, { price: 12.345 }), 422, 'VALIDATION_ERROR', 'price'],
      ['a tiny fraction', () => putPrice(account, code, { price: 1e-7 }), 422, 'VALIDATION_ERROR', 'price'],
      ['the smallest double (0 cents within rounding noise)', () => putPrice(account, code, { price: 5e-324 }), 422, 'VALIDATION_ERROR', 'price'],
      ['over a million', () => putPrice(account, code, { price: 1_000_000.01 }), 422, 'VALIDATION_ERROR', 'price'],
      ['price as text', () => putPrice(account, code, { price: '12.50' }), 422, 'VALIDATION_ERROR', 'price'],
      ['price missing', () => putPrice(account, code, {}), 422, 'VALIDATION_ERROR', 'price'],
      ['unknown field', () => putPrice(account, code, { price: 5, currency: 'TRY' }), 422, 'VALIDATION_ERROR'],
      ['code too long', () => putPrice(account, 'x'.repeat(129), { price: 5 }), 422, 'VALIDATION_ERROR', 'productCode'],
      ['unknown code (price)', () => putPrice(account, 'NO-SUCH-CODE', { price: 5 }), 404, 'PRODUCT_CODE_NOT_FOUND'],
      ['another account\'s code', () => putPrice(account, other.code, { price: 5 }), 404, 'PRODUCT_CODE_NOT_FOUND'],
      ['unknown code (availability)', () => putAvailability(account, 'NO-SUCH-CODE', { available: false }), 404, 'PRODUCT_CODE_NOT_FOUND'],
      ['available missing', () => putAvailability(account, code, {}), 422, 'VALIDATION_ERROR', 'available'],
      ['until with available: true', () => putAvailability(account, code, { available: true, until: soon }), 422, 'VALIDATION_ERROR', 'until'],
      ['until in the past', () => putAvailability(account, code, { available: false, until: new Date(Date.now() - 60_000).toISOString() }), 422, 'UNTIL_IN_PAST', 'until'],
      ['until too far', () => putAvailability(account, code, { available: false, until: new Date(Date.now() + 40 * 24 * 3_600_000).toISOString() }), 422, 'VALIDATION_ERROR', 'until'],
      ['until not a date', () => putAvailability(account, code, { available: false, until: 'tonight' }), 422, 'VALIDATION_ERROR', 'until'],
      ['until an ISO week date (no JavaScript Date)', () => putAvailability(account, code, { available: false, until: '2026-W49-3T10:00Z' }), 422, 'VALIDATION_ERROR', 'until'],
      ['until in the ISO basic format', () => putAvailability(account, code, { available: false, until: '20261206T120000Z' }), 422, 'VALIDATION_ERROR', 'until'],
      ['another account\'s change', () => getChange(other.account, accepted.body.changeId), 404, 'CATALOG_CHANGE_NOT_FOUND'],
      ['a change id that is no uuid', () => getChange(account, 'latest'), 404, 'CATALOG_CHANGE_NOT_FOUND'],
      ['a change that does not exist', () => getChange(account, randomUUID()), 404, 'CATALOG_CHANGE_NOT_FOUND'],
    ];
    for (const [name, call, status, problemCode, field] of cases) {
      const answer = await call();
      expect({ name, status: answer.status, code: answer.body.code, type: answer.headers['content-type'] }).toEqual({ name, status, code: problemCode, type: expect.stringContaining('application/problem+json') });
      if (field) expect({ name, fields: answer.body.errors.map((error: any) => error.field) }).toEqual({ name, fields: expect.arrayContaining([expect.stringContaining(field)]) });
    }
    expect((await t.http.put(`/api/v1/my/catalog/products/${code}/price`).send({ price: 5 })).status).toBe(401);
    expect((await t.http.get(`/api/v1/my/catalog/changes/${accepted.body.changeId}`).set({ ...account.headers, 'X-API-Secret': 'wrong' })).body.code).toBe('AUTHENTICATION_FAILED');
    // Nothing refused was queued: the only commands are the accepted change's, one per linked platform.
    await waitForChange(account, accepted.body.changeId, ['sent']);
    expect(await t.sql('SELECT change_id, platform FROM availability_commands WHERE restaurant_id = $1 ORDER BY platform', [account.restaurantId])).toEqual([
      { change_id: accepted.body.changeId, platform: 'PLATFORM_A' },
      { change_id: accepted.body.changeId, platform: 'PLATFORM_C' },
    ]);
  });
});
