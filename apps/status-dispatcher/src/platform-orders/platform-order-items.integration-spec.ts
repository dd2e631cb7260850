import { randomUUID } from 'node:crypto';
import { waitFor } from '@courier/testing';
import { internal, orderCreatedEvent, TestApp } from '../../test/harness';
import { CREDENTIALS, Platforms, startPlatformApp, startPlatforms, upsertIntegration } from '../../test/platforms';

jest.setTimeout(120_000);

const MIGROS_STORE = CREDENTIALS.PLATFORM_D.providerRestaurantId;

/**
 * Platform orders speak the restaurant's codes (docs/catalog.md): orders arrive from the simulators,
 * their items keep the platform's product id, and GET /internal/orders/{id} and order.platform_received
 * show the code the catalog links to it (links seeded in SQL, as the catalog's mapping writes them).
 * An item with no code is kept and marked, recorded for the unmapped list and counted; linked later,
 * the order shows its code.
 */
describe('platform order items in the restaurant\'s codes', () => {
  let platforms: Platforms;
  let t: TestApp;
  const integrations: Record<string, { integrationId: string; restaurantId: string }> = {};

  beforeAll(async () => {
    platforms = await startPlatforms();
    platforms.b.options.ackDelayMs = 0;
    t = await startPlatformApp(platforms, { env: { PLATFORM_A_PREPARE_HOLD_MS: '0' } });
    integrations.PLATFORM_D = await upsertIntegration(t, 'PLATFORM_D');
    integrations.PLATFORM_B = await upsertIntegration(t, 'PLATFORM_B');
  });
  afterAll(async () => {
    await t?.close();
    await platforms?.stop();
  });

  const order = async (id: string) => {
    const response = await t.http.get(`/internal/orders/${id}`).set(internal());
    expect(response.status).toBe(200);
    return response.body;
  };
  const announcedItems = async (id: string) => {
    const rows = await t.outbox('order.platform_received', id);
    expect(rows).toHaveLength(1);
    return rows[0].payload.details.items;
  };
  const link = (platform: string, platformProductId: string, productCode: string) =>
    t.sql(`INSERT INTO catalog_links (integration_id, platform_product_id, restaurant_id, product_code, linked_by, linked_at) VALUES ($1, $2, $3, $4, 'manual', now())`, [
      integrations[platform].integrationId,
      platformProductId,
      integrations[platform].restaurantId,
      productCode,
    ]);
  const unmappedCount = async (platform: string): Promise<number> => {
    const text: string = (await t.http.get('/metrics')).text;
    return Number(new RegExp(`^catalog_unmapped_order_items_total\\{[^}]*platform="${platform}"[^}]*\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  };
  const orderProducts = (integrationId: string) =>
    t.sql('SELECT platform_product_id, restaurant_id, platform, name, orders, last_order_id FROM catalog_order_products WHERE integration_id = $1 ORDER BY platform_product_id', [integrationId]);
  /** A Migros order whose items are these `[productId, name, amount]` (kuruş line totals of 100 TL each), through the order webhook. */
  const migrosOrder = async (items: Array<[number, string, number]>) => {
    const { response } = await platforms.d.placeOrder(MIGROS_STORE, {
      payload: { items: items.map(([productId, name, amount], index) => ({ id: index + 1, productId, name, price: 10_000 * amount, priceText: '', amount, note: '', options: [] })) },
    });
    expect(response.status).toBe(200);
    return (response.body as { yemekKuryeOrderId: string }).yemekKuryeOrderId;
  };

  it('shows the linked codes of a platform order\'s items in GET /internal/orders/{id} and in order.platform_received, the platform\'s ids beside them', async () => {
    await link('PLATFORM_D', '55001', 'LAHMACUN-01');
    await link('PLATFORM_D', '55002', 'AYRAN-01');
    const before = await unmappedCount('PLATFORM_D');
    const { response } = await platforms.d.placeOrder(MIGROS_STORE);
    const id = (response.body as { yemekKuryeOrderId: string }).yemekKuryeOrderId;

    const expected = [
      { productCode: 'LAHMACUN-01', platformProductId: '55001', mapped: true, productName: 'Lahmacun', quantity: 2, unitPrice: 90, totalAmount: 180, productNote: 'Acısız', features: 'Yanında: Limon, Maydanoz' },
      { productCode: 'AYRAN-01', platformProductId: '55002', mapped: true, productName: 'Ayran', quantity: 1, unitPrice: 55, totalAmount: 55 },
    ];
    expect((await order(id)).items).toEqual(expected);
    expect(await announcedItems(id)).toEqual(expected);
    expect(await orderProducts(integrations.PLATFORM_D.integrationId)).toEqual([]);
    expect(await unmappedCount('PLATFORM_D')).toBe(before);
  });

  it('keeps an item no code maps, marked mapped: false, recorded for the unmapped list and counted; once linked, the order shows its code', async () => {
    const { integrationId, restaurantId } = integrations.PLATFORM_D;
    const before = await unmappedCount('PLATFORM_D');
    const first = await migrosOrder([
      [55001, 'Lahmacun', 1],
      [66001, 'Künefe', 2],
    ]);

    const unmapped = { productCode: null, platformProductId: '66001', mapped: false, productName: 'Künefe', quantity: 2, unitPrice: 100, totalAmount: 200 };
    const linked = { productCode: 'LAHMACUN-01', platformProductId: '55001', mapped: true, productName: 'Lahmacun', quantity: 1, unitPrice: 100, totalAmount: 100 };
    expect((await order(first)).items).toEqual([linked, unmapped]);
    expect(await announcedItems(first)).toEqual([linked, unmapped]);
    expect((await order(first)).status).toBe('NEW');
    expect(await orderProducts(integrationId)).toEqual([{ platform_product_id: '66001', restaurant_id: restaurantId, platform: 'PLATFORM_D', name: 'Künefe', orders: 1, last_order_id: first }]);
    expect(await unmappedCount('PLATFORM_D')).toBe(before + 1);

    // A second order of the product: one more order on the same row, counted again.
    const second = await migrosOrder([[66001, 'Künefe', 1]]);
    expect(await orderProducts(integrationId)).toEqual([{ platform_product_id: '66001', restaurant_id: restaurantId, platform: 'PLATFORM_D', name: 'Künefe', orders: 2, last_order_id: second }]);
    expect(await unmappedCount('PLATFORM_D')).toBe(before + 2);

    // The operator links the product: both orders show its code from then on (resolved at read time).
    await link('PLATFORM_D', '66001', 'KUNEFE-01');
    expect((await order(first)).items).toEqual([linked, { ...unmapped, productCode: 'KUNEFE-01', mapped: true }]);
    expect((await order(second)).items).toEqual([{ productCode: 'KUNEFE-01', platformProductId: '66001', mapped: true, productName: 'Künefe', quantity: 1, unitPrice: 100, totalAmount: 100 }]);
    // An order after the link is announced with the code, and adds nothing to the unmapped list.
    const third = await migrosOrder([[66001, 'Künefe', 1]]);
    expect(await announcedItems(third)).toEqual([expect.objectContaining({ productCode: 'KUNEFE-01', platformProductId: '66001', mapped: true })]);
    expect((await orderProducts(integrationId))[0]).toMatchObject({ orders: 2, last_order_id: second });
    expect(await unmappedCount('PLATFORM_D')).toBe(before + 2);
  });

  it('takes the code Delivery Hero carries (remoteCode) without a link, and the link over it once there is one', async () => {
    const dispatch = async () => {
      const { response } = await platforms.b.dispatchOrder(CREDENTIALS.PLATFORM_B.providerRestaurantId);
      expect(response.status).toBe(200);
      return (response.body as { remoteResponse: { remoteOrderId: string } }).remoteResponse.remoteOrderId;
    };
    const carried = await dispatch();
    const item = { productCode: 'iskender-1', platformProductId: 'dh-77', mapped: true, productName: 'İskender', quantity: 1, unitPrice: 185.5, totalAmount: 185.5 };
    expect((await order(carried)).items).toEqual([item]);
    expect(await announcedItems(carried)).toEqual([item]);
    expect(await orderProducts(integrations.PLATFORM_B.integrationId)).toEqual([]);

    await link('PLATFORM_B', 'dh-77', 'ISKENDER-01');
    expect((await order(carried)).items).toEqual([{ ...item, productCode: 'ISKENDER-01' }]);
  });

  it('resolves a withheld order\'s items when it is released (the links of that moment), and records its unmapped products then', async () => {
    const { integrationId, restaurantId } = await upsertIntegration(t, 'PLATFORM_A', { verification: 'unverified' });
    integrations.PLATFORM_A = { integrationId, restaurantId };
    const { response } = await platforms.a.placeOrder(CREDENTIALS.PLATFORM_A.providerRestaurantId);
    const id = (response.body as { yemekKuryeOrderId: string }).yemekKuryeOrderId;
    expect(await orderProducts(integrationId)).toEqual([]);

    // Getir's order line names its menu product in `product` (the line's own id is `id`).
    const lahmacun = { platformProductId: '5f9a1b2c3d4e5f6a7b8c9d11', productName: 'Lahmacun', quantity: 2, unitPrice: 60, totalAmount: 120, productNote: 'acılı' };
    await upsertIntegration(t, 'PLATFORM_A', { integrationId, restaurantId, verification: 'verified' });
    await waitFor('the withheld order released', async () => (await t.outbox('order.platform_received', id)).length === 1);
    expect(await announcedItems(id)).toEqual([{ ...lahmacun, productCode: null, mapped: false }]);
    expect(await orderProducts(integrationId)).toEqual([{ platform_product_id: lahmacun.platformProductId, restaurant_id: restaurantId, platform: 'PLATFORM_A', name: 'Lahmacun', orders: 1, last_order_id: id }]);
    await link('PLATFORM_A', lahmacun.platformProductId, 'LAHMACUN-01');
    expect((await order(id)).items).toEqual([{ ...lahmacun, productCode: 'LAHMACUN-01', mapped: true }]);
  });

  it('shows a THIRD_PARTY order\'s items as the sender gave them, mapped where it named a code', async () => {
    const event = orderCreatedEvent();
    event.details.items = [{ productCode: 'P1', productName: 'Lahmacun', quantity: 2, unitPrice: 60.25, totalAmount: 120.5 }, { productName: 'Ayran', quantity: 1 }];
    await t.deliver('order.created', event);
    await waitFor('the intake order created', async () => (await t.http.get(`/internal/orders/${event.yemekKuryeOrderId}`).set(internal())).status === 200);
    expect((await order(event.yemekKuryeOrderId)).items).toEqual([
      { productCode: 'P1', platformProductId: null, mapped: true, productName: 'Lahmacun', quantity: 2, unitPrice: 60.25, totalAmount: 120.5 },
      { productCode: null, platformProductId: null, mapped: false, productName: 'Ayran', quantity: 1 },
    ]);
    expect((await t.http.get(`/internal/orders/${randomUUID()}`).set(internal())).status).toBe(404);
  });
});
