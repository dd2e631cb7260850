import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IntegrationCredentials } from '../common/platform-adapter';
import type { PlatformResponse } from '../common/platform-http';
import { PlatformNetworkError } from '../common/platform-http';
import { parsePlatformCMenu, PlatformCCatalog } from './trendyol-go.catalog';

const example = (name: string) => JSON.parse(readFileSync(join(__dirname, 'examples', name), 'utf8')) as { status: number; body: Record<string, unknown> };
const credentials: IntegrationCredentials = {
  integrationId: 'int-c-1',
  providerRestaurantId: 'ty-r-1',
  settings: { supplierId: '104523', storeId: '88211' },
  secrets: { apiKey: 'k', secretKey: 's' },
};

/** A catalog whose calls answer from a queue (the port mocked); the requests it made are kept. */
function catalogAnswering(...answers: Array<Partial<PlatformResponse> | Error>) {
  const requests: Array<{ method: string; path: string; json?: unknown }> = [];
  const catalog = new PlatformCCatalog({
    call: async (_credentials, method, path, json) => {
      requests.push({ method, path, json });
      const next = answers.shift();
      if (!next) throw new Error('no answer queued');
      if (next instanceof Error) throw next;
      return { status: 200, headers: {}, body: undefined, ...next } as PlatformResponse;
    },
    credentialProblem: (stored) => (stored.settings.supplierId ? undefined : 'the stored supplierId is missing'),
  });
  return { catalog, requests };
}

describe('PLATFORM_C catalog: the menu answer', () => {
  it('reads products with their section, price in lira, status, options from modifier groups and extra ingredients', () => {
    const parsed = parsePlatformCMenu(example('menu.json').body);
    if (!parsed.ok) throw new Error(parsed.reason);
    // The sauces are options of MANTI (modifier products in no section), not menu products.
    expect(parsed.products.map((product) => product.platformProductId)).toEqual(['319239', '317823']);
    expect(parsed.products[0]).toEqual({
      platformProductId: '319239',
      name: 'MANTI',
      price: 185.5,
      category: 'Ana Yemekler',
      status: 'ACTIVE',
      externalCode: null,
      options: [
        {
          id: '71',
          name: 'Sos Seçimi',
          options: [
            { id: '318001', name: 'ACI SOS', price: 10 },
            { id: '318002', name: 'SARIMSAKLI SOS', price: 0 },
          ],
        },
        { id: 'extraIngredients', name: 'extraIngredients', options: [{ id: '502', name: 'Ekstra Tereyağı', price: 15 }] },
      ],
      platformData: { productId: 319239, sectionId: 9001, originalPrice: 185.5 },
    });
    expect(parsed.products[1]).toMatchObject({ name: 'AYRAN', price: 35, category: 'İçecekler', status: 'INACTIVE', externalCode: 'AYRAN-01', options: [] });
  });

  it('tolerates missing optional parts: no sections, no groups, a nested price, bare section refs, no status', () => {
    expect(parsePlatformCMenu({ products: [] })).toEqual({ ok: true, products: [] });
    const parsed = parsePlatformCMenu({
      products: [
        { id: 1, name: 'PİDE', price: { sellingPrice: 120.25 } },
        { id: '2', sellingPrice: '45.5', status: 'INACTIVE', modifierGroups: [{ id: 99 }], barcode: 'P-2' },
        { id: 3, name: '  ', price: 60, status: 'active' },
      ],
      sections: [{ id: 5, name: 'Pideler', products: [1, { id: 3 }] }],
    });
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.products).toEqual([
      expect.objectContaining({ platformProductId: '1', name: 'PİDE', price: 120.25, category: 'Pideler', status: 'ACTIVE', externalCode: null, options: [] }),
      expect.objectContaining({ platformProductId: '2', name: '2', price: 45.5, category: null, status: 'INACTIVE', externalCode: 'P-2', options: [] }),
      expect.objectContaining({ platformProductId: '3', name: '3', price: 60, category: 'Pideler', status: 'ACTIVE' }),
    ]);
  });

  it('a section taken off sale takes its products off sale; one still on sale in another section is on sale there', () => {
    const parsed = parsePlatformCMenu({
      products: [
        { id: 1, name: 'KÜNEFE', sellingPrice: 150, status: 'ACTIVE' },
        { id: 2, name: 'SÜTLAÇ', sellingPrice: 90, status: 'ACTIVE' },
      ],
      sections: [
        { id: 7, name: 'Tatlılar', status: 'PASSIVE', products: [{ id: 1 }, { id: 2 }] },
        { id: 8, name: 'Günün Tatlısı', status: 'ACTIVE', products: [{ id: 2 }] },
      ],
    });
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.products.map((product) => [product.platformProductId, product.category, product.status, product.platformData.sectionId])).toEqual([
      ['1', 'Tatlılar', 'INACTIVE', 7],
      ['2', 'Günün Tatlısı', 'ACTIVE', 8],
    ]);
  });

  it('a body of another shape is a reason, never an exception', () => {
    expect(parsePlatformCMenu(null)).toEqual({ ok: false, reason: 'the body is not a JSON object' });
    expect(parsePlatformCMenu([{ id: 1 }])).toEqual({ ok: false, reason: 'the body is not a JSON object' });
    expect(parsePlatformCMenu({ content: [{ id: 1 }] })).toEqual({ ok: false, reason: 'the body has no `products` array' });
    expect(parsePlatformCMenu({ products: [{ name: 'no id' }] })).toEqual({ ok: false, reason: 'a product has no `id`' });
  });
});

describe('PLATFORM_C catalog: planPrice', () => {
  const { catalog } = catalogAnswering();
  it.each([
    [190, { kind: 'send', params: { productId: 319239, sellingPrice: 190 } }],
    [0.01, { kind: 'send', params: { productId: 319239, sellingPrice: 0.01 } }],
    [185.5, { kind: 'send', params: { productId: 319239, sellingPrice: 185.5 } }],
    [37.1, { kind: 'send', params: { productId: 319239, sellingPrice: 37.1 } }],
    [100_000, { kind: 'send', params: { productId: 319239, sellingPrice: 100_000 } }],
    [0, { kind: 'refused', code: 'PRICE_OUT_OF_RANGE' }],
    [-5, { kind: 'refused', code: 'PRICE_OUT_OF_RANGE' }],
    [100_000.01, { kind: 'refused', code: 'PRICE_OUT_OF_RANGE' }],
    [Number.NaN, { kind: 'refused', code: 'PRICE_OUT_OF_RANGE' }],
    [12.345, { kind: 'refused', code: 'PRICE_PRECISION' }],
  ])('%p TRY → %j', (price, plan) => {
    expect(catalog.planPrice({ platformProductId: '319239', price }, null)).toMatchObject(plan);
  });

  it('keeps an id that is not a number as it is', () => {
    expect(catalog.planPrice({ platformProductId: 'x-7', price: 10 }, null)).toEqual({ kind: 'send', params: { productId: 'x-7', sellingPrice: 10 } });
  });
});

describe('PLATFORM_C catalog: the price request and its batch', () => {
  const change = { platformProductId: '319239', price: 190 };
  const plan = { kind: 'send' as const, params: { productId: 319239, sellingPrice: 190 } };
  const followUp = { batchRequestId: 'b-1', productId: '319239', requestedAt: Date.now() };
  const batch = (item: Record<string, unknown> | null, status = 'IN_PROGRESS') => ({
    body: { batchRequestId: 'b-1', status, items: item ? [{ requestItem: { restaurantId: 88211, productId: 319239, sellingPrice: 190 }, ...item }] : [] },
  });

  it("posts one item for the integration's store and answers pending with the batch request id", async () => {
    const { catalog, requests } = catalogAnswering({ body: { batchRequestId: 'b-1' } });
    expect(await catalog.setPrice(credentials, change, plan)).toEqual({
      kind: 'pending',
      answer: { httpStatus: 200, body: { batchRequestId: 'b-1' } },
      followUp: { batchRequestId: 'b-1', productId: '319239', requestedAt: expect.any(Number) },
      checkAfterMs: 5_000,
    });
    expect(requests).toEqual([
      { method: 'POST', path: '/integrator/product/meal/suppliers/104523/products/price', json: { items: [{ restaurantId: 88211, productId: 319239, sellingPrice: 190 }] } },
    ]);
  });

  it('a repeated request is done only when the menu already shows the price sent; else sent again after the 15 minutes', async () => {
    const repeated = { status: 400, body: { status: 400, errors: [{ message: '15 dakika boyunca aynı isteği tekrarlı olarak atamazsınız!' }] } };
    const menu = (sellingPrice: number) => ({ body: { products: [{ id: 319239, name: 'MANTI', sellingPrice, status: 'ACTIVE' }] } });
    const { catalog, requests } = catalogAnswering(repeated, menu(190), repeated, menu(175), repeated, { status: 503 }, repeated, new PlatformNetworkError('reset'));
    expect(await catalog.setPrice(credentials, change, plan)).toMatchObject({ kind: 'done', alreadyDone: true, answer: { httpStatus: 400 } });
    // The same body as a request 10 minutes ago, with another price in between: not done.
    for (let attempt = 0; attempt < 3; attempt++) expect(await catalog.setPrice(credentials, change, plan)).toMatchObject({ kind: 'retry', retryAfterMs: 900_000 });
    expect(requests.filter((request) => request.method === 'GET').map((request) => request.path)).toEqual(
      Array.from({ length: 4 }, () => '/integrator/product/meal/suppliers/104523/stores/88211/products'),
    );
  });

  it('reads the price answers: no batch id failed, 4xx failed with the message, 429 / 5xx / network retry', async () => {
    const { catalog } = catalogAnswering(
      { body: {} },
      { status: 400, body: { status: 400, errors: [{ message: 'Gönderdiğiniz istekte liste eleman sayısı minimum 1, maximum 1000 olmalıdır.' }] } },
      { status: 429, body: { status: 429, message: 'too.many.requests' } },
      { status: 502, body: 'bad gateway' },
      new PlatformNetworkError('socket hang up'),
    );
    expect(await catalog.setPrice(credentials, change, plan)).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/without a batchRequestId/) });
    expect(await catalog.setPrice(credentials, change, plan)).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/HTTP 400: Gönderdiğiniz istekte/) });
    expect(await catalog.setPrice(credentials, change, plan)).toMatchObject({ kind: 'retry', retryAfterMs: 10_000 });
    expect(await catalog.setPrice(credentials, change, plan)).toMatchObject({ kind: 'retry', answer: { httpStatus: 502 } });
    expect(await catalog.setPrice(credentials, change, plan)).toMatchObject({ kind: 'retry', answer: { httpStatus: null } });
  });

  it("reads our product's item: pending while processing, done on SUCCESS, failed with the platform's reasons, repeated price done", async () => {
    const { catalog, requests } = catalogAnswering(
      batch(null),
      batch({ status: 'IN_PROGRESS', failureReasons: [] }),
      batch({ status: 'SUCCESS', failureReasons: [] }, 'COMPLETED'),
      { body: example('batch-request-result.json').body },
      batch({ status: 'FAILED', failureReasons: ['Tekrarlı fiyat güncelleme isteği'] }, 'COMPLETED'),
      batch({ status: 'SUCCESS' }, ''),
      batch(null, 'COMPLETED'),
      { body: { batchRequestId: 'b-1', status: 'PROCESSING', items: [] } },
    );
    expect(await catalog.checkPrice(credentials, followUp)).toMatchObject({ kind: 'pending', followUp, checkAfterMs: 5_000 });
    expect(await catalog.checkPrice(credentials, followUp)).toMatchObject({ kind: 'pending' });
    expect(await catalog.checkPrice(credentials, followUp)).toMatchObject({ kind: 'done', answer: { httpStatus: 200, body: { item: { status: 'SUCCESS' } } } });
    expect(await catalog.checkPrice(credentials, { batchRequestId: 'b-1', productId: '317823' })).toMatchObject({
      kind: 'failed',
      reason: 'PLATFORM_C refused the price: Satış fiyatı geçersiz',
    });
    expect(await catalog.checkPrice(credentials, followUp)).toMatchObject({ kind: 'done', alreadyDone: true });
    // A price batch may carry no status of its own: the item's status decides.
    expect(await catalog.checkPrice(credentials, followUp)).toMatchObject({ kind: 'done' });
    expect(await catalog.checkPrice(credentials, followUp)).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/completed batch request b-1 without a result for product 319239/) });
    // An unknown or expired id reads as processing: past the 4 hours it is kept, the price failed.
    const stale = { ...followUp, requestedAt: Date.now() - 4 * 60 * 60_000 - 1 };
    expect(await catalog.checkPrice(credentials, stale)).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/no result for product 319239 in batch request b-1 within the 4 hours/) });
    expect(requests[0]).toEqual({ method: 'GET', path: '/integrator/product/meal/suppliers/104523/batch-requests/b-1', json: undefined });
  });

  it('an unknown batch is final, 429 / 5xx retry, a body that is not an object fails; unusable credentials fail without a call', async () => {
    const { catalog, requests } = catalogAnswering(
      { status: 404, body: { status: 404, errors: [{ message: 'bulunamadı' }] } },
      { status: 429, body: { status: 429, message: 'too.many.requests' } },
      { status: 503 },
      { body: 'ok' },
    );
    expect(await catalog.checkPrice(credentials, followUp)).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/does not know batch request b-1/) });
    expect(await catalog.checkPrice(credentials, followUp)).toMatchObject({ kind: 'retry', retryAfterMs: 10_000 });
    expect(await catalog.checkPrice(credentials, followUp)).toMatchObject({ kind: 'retry' });
    expect(await catalog.checkPrice(credentials, followUp)).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/not a JSON object/) });
    const broken = { ...credentials, settings: { supplierId: '', storeId: '88211' } };
    expect(await catalog.checkPrice(broken, followUp)).toMatchObject({ kind: 'failed', reason: 'the stored supplierId is missing' });
    expect(await catalog.setPrice(broken, change, plan)).toMatchObject({ kind: 'failed' });
    expect(await catalog.readMenu(broken)).toMatchObject({ kind: 'failed' });
    expect(await catalog.checkPrice(credentials, { productId: '1' })).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/no batchRequestId/) });
    expect(requests).toHaveLength(4);
  });
});
