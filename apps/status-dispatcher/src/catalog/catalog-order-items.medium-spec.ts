import { randomBytes } from 'node:crypto';
import type { PlatformOrderItemPayload } from '@courier/contracts';
import { DispatcherMedium, startDispatcherMedium, storeIntegration } from '../../test/medium';
import { PlatformOrdersService } from '../platform-orders/platform-orders.service';
import { CatalogOrderItemsRepository } from './catalog-order-items.repository';

/** A platform order's receipt with the real order and catalog repositories on PostgreSQL: items in codes, unmapped products recorded with the order. */
describe('platform order items on receipt (medium)', () => {
  let m: DispatcherMedium;

  beforeAll(async () => {
    m = await startDispatcherMedium();
  });
  afterAll(() => m?.close());

  const receive = async (integration: Awaited<ReturnType<typeof storeIntegration>>, items: PlatformOrderItemPayload[]) => {
    const platformOrderId = `po-${randomBytes(6).toString('hex')}`;
    const received = await m.ctx.get(PlatformOrdersService).receive(integration, {
      platformOrderId,
      providerRestaurantId: integration.providerRestaurantId,
      orderNumber: platformOrderId.slice(-4),
      state: 'new',
      scheduledDeliveryTime: null,
      details: { customerName: 'Ada Lovelace', deliveryAddress: 'Moda Cd. 1, Kadıköy, İstanbul', currency: 'TRY', items },
      platformData: {},
    });
    return received.yemekKuryeOrderId;
  };
  const announcedItems = async (id: string) =>
    (await m.db.sql<{ items: unknown }>("SELECT payload->'details'->'items' AS items FROM outbox_messages WHERE routing_key = 'order.platform_received' AND payload->>'yemekKuryeOrderId' = $1", [id])).map((row) => row.items);
  const orderProducts = (integrationId: string) =>
    m.db.sql('SELECT platform_product_id, name, orders, last_order_id FROM catalog_order_products WHERE integration_id = $1 ORDER BY platform_product_id', [integrationId]);

  it('announces the items in codes, stores them with the platform\'s ids, and records the unmapped products in the order\'s transaction', async () => {
    const integration = await storeIntegration(m.ctx, 'PLATFORM_D', { apiKey: 'k' });
    await m.db.sql(`INSERT INTO catalog_links (integration_id, platform_product_id, restaurant_id, product_code, linked_by, linked_at) VALUES ($1, '1', $2, 'LAHMACUN-01', 'confirmed', now())`, [
      integration.integrationId,
      integration.restaurantId,
    ]);
    const id = await receive(integration, [
      { platformProductId: '1', productName: 'Lahmacun', quantity: 2 },
      { platformProductId: '2', productName: 'Ayran', quantity: 1 },
      { platformProductId: '2', productName: 'Ayran', quantity: 1, productNote: 'buzlu' },
    ]);

    expect(await announcedItems(id)).toEqual([
      [
        { productCode: 'LAHMACUN-01', platformProductId: '1', mapped: true, productName: 'Lahmacun', quantity: 2 },
        { productCode: null, platformProductId: '2', mapped: false, productName: 'Ayran', quantity: 1 },
        { productCode: null, platformProductId: '2', mapped: false, productName: 'Ayran', quantity: 1, productNote: 'buzlu' },
      ],
    ]);
    const [stored] = await m.db.sql<{ items: unknown }>("SELECT details->'items' AS items FROM orders WHERE id = $1", [id]);
    expect(stored.items).toEqual([
      { platformProductId: '1', productName: 'Lahmacun', quantity: 2 },
      { platformProductId: '2', productName: 'Ayran', quantity: 1 },
      { platformProductId: '2', productName: 'Ayran', quantity: 1, productNote: 'buzlu' },
    ]);
    // One order of the product, however many of its lines name it.
    expect(await orderProducts(integration.integrationId)).toEqual([{ platform_product_id: '2', name: 'Ayran', orders: 1, last_order_id: id }]);
    // The read resolves against the links as they are then.
    expect((await m.ctx.get(CatalogOrderItemsRepository).orderItems(id))?.links).toEqual({ '1': 'LAHMACUN-01' });
  });

  it('records concurrent orders naming the same unmapped products in any order, each once', async () => {
    const integration = await storeIntegration(m.ctx, 'PLATFORM_D', { apiKey: 'k' });
    const products = ['a', 'b', 'c', 'd'];
    const ids = await Promise.all(
      Array.from({ length: 12 }, (_, index) => receive(integration, (index % 2 === 0 ? products : [...products].reverse()).map((platformProductId) => ({ platformProductId, productName: `P-${platformProductId}` })))),
    );
    const rows = await orderProducts(integration.integrationId);
    expect(rows.map((row) => [row.platform_product_id, row.orders])).toEqual(products.map((product) => [product, 12]));
    for (const row of rows) expect(ids).toContain(row.last_order_id);
  });

  it('records nothing for a replay of an order already received', async () => {
    const integration = await storeIntegration(m.ctx, 'PLATFORM_D', { apiKey: 'k' });
    const order = {
      platformOrderId: `po-${randomBytes(6).toString('hex')}`,
      providerRestaurantId: integration.providerRestaurantId,
      orderNumber: '1',
      state: 'new' as const,
      scheduledDeliveryTime: null,
      details: { customerName: 'Ada', deliveryAddress: 'Moda', currency: 'TRY', items: [{ platformProductId: 'x', productName: 'X' }] },
      platformData: {},
    };
    const first = await m.ctx.get(PlatformOrdersService).receive(integration, order);
    const again = await m.ctx.get(PlatformOrdersService).receive(integration, order);
    expect(again).toEqual({ yemekKuryeOrderId: first.yemekKuryeOrderId, created: false });
    expect(await orderProducts(integration.integrationId)).toEqual([{ platform_product_id: 'x', name: 'X', orders: 1, last_order_id: first.yemekKuryeOrderId }]);
  });
});
