import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePlatformCPackage } from './trendyol-go.orders';

/** The first package of an example page (trendyol-go/examples). */
function examplePackage(name: string): Record<string, unknown> {
  const example = JSON.parse(readFileSync(join(__dirname, 'examples', name), 'utf8')) as { body: { content: Array<Record<string, unknown>> } };
  return example.body.content[0];
}

describe('parsePlatformCPackage on Trendyol Go\'s package shape', () => {
  it('reads a new STORE package: 64-character id, numeric storeId, one item per unit, packageItemIds as strings', () => {
    const pkg = examplePackage('packages-page-created-store.json');
    expect(parsePlatformCPackage(pkg)).toEqual({
      ok: true,
      order: {
        platformOrderId: '4f0e9c3d2a1b8e7f6a5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a39',
        providerRestaurantId: '153',
        orderNumber: '1199521762',
        state: 'new',
        scheduledDeliveryTime: null,
        details: {
          customerName: 'Oms M',
          customerPhone: '5554443322',
          deliveryAddress: 'Gündoğdu Koleji Yanı, B Blok, Kazımdirik, Bornova, İzmir',
          deliveryLatitude: 38.4622,
          deliveryLongitude: 27.2166,
          total: 290,
          currency: 'TRY',
          notes: 'Servis İstiyorum',
          items: [{ platformProductId: '319240', productName: 'Big King Menü', quantity: 2, unitPrice: 145, totalAmount: 290 }],
        },
        platformData: { deliveryType: 'STORE', packageItemIds: ['1000008723596', '1000008723597'], packageStatus: 'Created', preparationTime: 25, packageModificationDate: 1783520347146 },
        cancelNote: 'package Created on the platform',
      },
    });
  });

  it('reads a GO package in Picking as accepted and leaves cancelled items out of quantity and packageItemIds', () => {
    const parsed = parsePlatformCPackage(examplePackage('packages-page-go-partly-cancelled.json'));
    expect(parsed).toMatchObject({
      ok: true,
      order: {
        state: 'accepted',
        details: { items: [{ productName: 'Penne', quantity: 2, unitPrice: 91, totalAmount: 182 }] },
        platformData: { deliveryType: 'GO', packageItemIds: ['1000008723602', '1000008723603'], packageStatus: 'Picking' },
      },
    });
  });

  it('reads a cancelled package as canceled, with the platform\'s reason in the note', () => {
    expect(parsePlatformCPackage(examplePackage('packages-page-cancelled.json'))).toMatchObject({ ok: true, order: { state: 'canceled', cancelNote: 'package Cancelled on the platform (601 Adres yanlış)' } });
    for (const packageStatus of ['UnSupplied', 'Cancelled']) expect(parsePlatformCPackage({ id: 'p', storeId: 1, packageStatus })).toMatchObject({ ok: true, order: { state: 'canceled' } });
    for (const packageStatus of ['Picking', 'Invoiced', 'Shipped', 'Delivered']) expect(parsePlatformCPackage({ id: 'p', storeId: 1, packageStatus })).toMatchObject({ ok: true, order: { state: 'accepted' } });
    expect(parsePlatformCPackage({ id: 'p', storeId: 1, packageStatus: 'Created' })).toMatchObject({ ok: true, order: { state: 'new' } });
  });

  it('marks a test package (testPackage: true) as the platform\'s test order, never a real one', () => {
    const pkg = examplePackage('packages-page-created-store.json');
    expect(parsePlatformCPackage({ ...pkg, testPackage: true })).toMatchObject({ ok: true, order: { test: true } });
    for (const testPackage of [false, undefined, null]) expect((parsePlatformCPackage({ ...pkg, testPackage }) as { order: object }).order).not.toHaveProperty('test');
  });

  it('marks a store pickup (storePickupSelected: true) in the order and in what its status calls need', () => {
    const pkg = examplePackage('packages-page-created-store.json');
    expect(parsePlatformCPackage({ ...pkg, storePickupSelected: true })).toMatchObject({ ok: true, order: { details: { pickup: true }, platformData: { storePickup: true } } });
    const delivered = parsePlatformCPackage({ ...pkg, storePickupSelected: false }) as { order: { details: object; platformData: object } };
    expect(delivered.order.details).not.toHaveProperty('pickup');
    expect(delivered.order.platformData).not.toHaveProperty('storePickup');
  });

  it('marks model 2\'s placeholder address and proxy phone (deliveryType GO, or a placeholder address, or the call centre\'s phone)', () => {
    const pkg = examplePackage('packages-page-created-store.json');
    const placeholder = { address1: 'Trendyol Yemek', address2: 'Trendyol Yemek', city: 'Trendyol Yemek', phone: '08502221212' };
    expect(parsePlatformCPackage({ ...pkg, deliveryType: 'GO', callCenterPhone: '08502221212', address: placeholder })).toMatchObject({
      ok: true,
      order: { details: { deliveryAddress: expect.stringContaining('Trendyol Yemek'), deliveryAddressPlaceholder: true, customerPhone: '08502221212', customerPhoneProxy: true } },
    });
    // Grocery's spelling (KB) and another client's, without deliveryType: still a placeholder.
    for (const address1 of ['Trendyol Go by Uber Eats - Market', 'TGO Yemek']) {
      expect(parsePlatformCPackage({ ...pkg, deliveryType: undefined, address: { address1 } })).toMatchObject({ ok: true, order: { details: { deliveryAddressPlaceholder: true } } });
    }
    expect(parsePlatformCPackage({ ...pkg, deliveryModel: 'GO', deliveryType: undefined })).toMatchObject({ ok: true, order: { details: { deliveryAddressPlaceholder: true, customerPhoneProxy: true }, platformData: { deliveryType: 'GO' } } });
    const own = parsePlatformCPackage(pkg) as { order: { details: object } };
    expect(own.order.details).not.toHaveProperty('deliveryAddressPlaceholder');
    expect(own.order.details).not.toHaveProperty('customerPhoneProxy');
  });

  it('refuses what it cannot use, naming the field', () => {
    const pkg = examplePackage('packages-page-created-store.json');
    expect(parsePlatformCPackage({ ...pkg, id: 'a'.repeat(65) })).toMatchObject({ ok: false, errors: [{ field: 'id' }] });
    expect(parsePlatformCPackage({ ...pkg, storeId: undefined })).toMatchObject({ ok: false, errors: [{ field: 'storeId', message: 'is required' }] });
    expect(parsePlatformCPackage({ ...pkg, lines: [{ price: 1, items: [{ lineItemId: 1 }] }] })).toMatchObject({ ok: false, errors: [{ field: 'lines[0].items[0].packageItemId', message: 'is required' }] });
    expect(parsePlatformCPackage({ ...pkg, lines: 'many' })).toMatchObject({ ok: false, errors: [{ field: 'lines' }] });
    expect(parsePlatformCPackage([])).toMatchObject({ ok: false, errors: [{ field: 'body' }] });
  });
});
