import { randomUUID } from 'node:crypto';
import { waitFor } from '@courier/testing';
import { createAccount, TestAccount } from '../../test/availability';
import { seedLinkedProduct } from '../../test/catalog';
import { TestApp } from '../../test/harness';
import { CREDENTIALS, Platforms, startPlatformApp, startPlatforms, upsertIntegration } from '../../test/platforms';

jest.setTimeout(120_000);

/**
 * A price by the restaurant's code against PLATFORM_C's simulator (Trendyol Go's asynchronous price
 * batches) over HTTP: the command is followed while the batch is in progress (checking), to success
 * (the platform's menu and ours at the new price) and to a per-item failure (the platform's reason).
 */
describe('catalog price changes against the platform simulators (status-dispatcher)', () => {
  let platforms: Platforms;
  let t: TestApp;
  let account: TestAccount;
  let integrationId: string;
  const storeId = CREDENTIALS.PLATFORM_C.settings.storeId;

  beforeAll(async () => {
    platforms = await startPlatforms();
    t = await startPlatformApp(platforms);
    account = await createAccount(t);
    ({ integrationId } = await upsertIntegration(t, 'PLATFORM_C', { restaurantId: account.restaurantId }));
  });
  afterAll(async () => {
    await t?.close();
    await platforms?.stop();
  });

  /** A product on the simulator's menu of the store, linked to a new code in our catalog. */
  async function linkedProduct(price: number) {
    const code = `CODE-${randomUUID().slice(0, 8)}`;
    const entry = platforms.c.catalog.addMenuProduct(storeId, { name: 'Lahmacun', category: 'Pide', price });
    await seedLinkedProduct({ query: (text, params) => t.sql(text, params) }, { integrationId, restaurantId: account.restaurantId, platform: 'PLATFORM_C', platformProductId: String(entry.id), productCode: code, price });
    return { code, productId: entry.id };
  }

  async function changeState(changeId: string, states: string[]): Promise<any> {
    let last: any;
    try {
      return await waitFor(
        `change ${changeId} in ${states.join('|')}`,
        async () => {
          last = (await t.http.get(`/api/v1/my/catalog/changes/${changeId}`).set(account.headers)).body;
          return states.includes(last?.integrations?.[0]?.state) ? last.integrations[0] : undefined;
        },
        30_000,
        100,
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}; last seen: ${JSON.stringify(last)}`);
    }
  }

  const menuPrice = async (productId: number) => (await t.sql<{ price: string }>('SELECT price::text AS price FROM catalog_products WHERE integration_id = $1 AND platform_product_id = $2', [integrationId, String(productId)]))[0].price;

  it('follows the batch while in progress (checking), then to success: the new price on the platform and in our menu', async () => {
    const { code, productId } = await linkedProduct(60);

    const answer = await t.http.put(`/api/v1/my/catalog/products/${code}/price`).set(account.headers).send({ price: 77.5 });

    expect(answer.status).toBe(202);
    expect(answer.body.results).toEqual([expect.objectContaining({ integrationId, platform: 'PLATFORM_C', platformProductId: String(productId), state: 'queued' })]);
    const checking = await changeState(answer.body.changeId, ['checking']);
    expect(checking).toMatchObject({ attempts: 1, sentAt: null, lastAnswer: { outcome: 'pending', httpStatus: 200, body: { batchRequestId: expect.any(String) } } });
    expect(platforms.c.catalog.menuProduct(storeId, productId)!.sellingPrice).toBe(60);
    expect(await menuPrice(productId)).toBe('60.00');

    platforms.c.catalog.processBatches();

    const sent = await changeState(answer.body.changeId, ['sent', 'failed']);
    expect(sent).toMatchObject({ state: 'sent', lastError: null, lastAnswer: { outcome: 'done', body: { status: 'COMPLETED', item: { status: 'SUCCESS' } } } });
    expect(platforms.c.catalog.menuProduct(storeId, productId)!.sellingPrice).toBe(77.5);
    expect(await menuPrice(productId)).toBe('77.50');
  });

  it('follows the batch to a per-item failure: failed with the platform\'s reason, both menus keep the old price', async () => {
    const { code, productId } = await linkedProduct(45);
    platforms.c.catalog.refusePriceOf(productId, 'Ürün fiyatı kampanya nedeniyle güncellenemez');

    const answer = await t.http.put(`/api/v1/my/catalog/products/${code}/price`).set(account.headers).send({ price: 39.9 });

    expect(answer.status).toBe(202);
    await changeState(answer.body.changeId, ['checking']);
    platforms.c.catalog.processBatches();
    const failed = await changeState(answer.body.changeId, ['sent', 'failed']);
    expect(failed).toMatchObject({ state: 'failed', lastError: expect.stringContaining('Ürün fiyatı kampanya nedeniyle güncellenemez'), lastAnswer: { outcome: 'failed', body: { item: { status: 'FAILED' } } } });
    expect(platforms.c.catalog.menuProduct(storeId, productId)!.sellingPrice).toBe(45);
    expect(await menuPrice(productId)).toBe('45.00');
  });

  it('refuses before sending a price above the platform\'s ceiling (within ours): answered refused, nothing queued', async () => {
    const { code } = await linkedProduct(50);
    const answer = await t.http.put(`/api/v1/my/catalog/products/${code}/price`).set(account.headers).send({ price: 999_999 });
    expect(answer.status).toBe(202);
    expect(answer.body.results).toEqual([expect.objectContaining({ integrationId, state: 'refused', code: 'PRICE_OUT_OF_RANGE' })]);
    expect(await t.sql('SELECT id FROM availability_commands WHERE change_id = $1', [answer.body.changeId])).toEqual([]);
  });
});
