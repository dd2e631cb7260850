import { PlatformASimulator } from './getir.simulator';
import cancelledOrder from './examples/cancelled-order.json';
import cancelledOrderWrapped from './examples/cancelled-order-wrapped.json';
import newOrder from './examples/new-order.json';
import newOrderWrapped from './examples/new-order-wrapped.json';
import newScheduledOrder from './examples/new-scheduled-order.json';
import { parsePlatformAOrder } from './getir.orders';

/** The parser on Getir-shaped payloads (simulators/platform-a/examples, each with its source in G). */
describe('parsePlatformAOrder', () => {
  const expectedNewOrder = {
    platformOrderId: '6512f0c2a1b2c3d4e5f60718',
    providerRestaurantId: '5e8f2a1b3c4d5e6f7a8b9c0d',
    orderNumber: 'K7X2',
    state: 'new',
    scheduledDeliveryTime: null,
    platformData: { deliveryType: 2, isScheduled: false, status: 400, checkoutAt: '2026-11-20T11:42:07.000Z' },
    details: {
      customerName: 'Mehmet Demir',
      customerPhone: '+908502220000',
      deliveryAddress: 'Caferağa Mah. Moda Cd. No:12, Moda Apt., 2, 4, Kadıköy, İstanbul',
      deliveryLatitude: 40.9862,
      deliveryLongitude: 29.0256,
      paymentMethod: 'Online Payment',
      total: 301.5,
      currency: 'TRY',
      notes: 'Lütfen zili çalmayın, Köşedeki eczanenin üstü',
      items: [
        { platformProductId: '60a1b2c3d4e5f60718293a4b', productName: 'Adana Dürüm', quantity: 1, unitPrice: 180, totalAmount: 180, productNote: 'Soğansız' },
        { platformProductId: '60a1b2c3d4e5f60718293a4c', productName: 'Mercimek Çorbası', quantity: 2, unitPrice: 70, totalAmount: 140 },
      ],
    },
  };

  it('reads the new-order webhook body, bare and wrapped in { foodOrder }, the same way', () => {
    expect(parsePlatformAOrder(newOrder)).toEqual({ ok: true, order: expect.objectContaining(expectedNewOrder) });
    expect(parsePlatformAOrder(newOrderWrapped)).toEqual(parsePlatformAOrder(newOrder));
  });

  it('reads a scheduled order awaiting approval (325) with its scheduled time', () => {
    expect(parsePlatformAOrder(newScheduledOrder)).toMatchObject({ ok: true, order: { state: 'new', scheduledDeliveryTime: new Date('2026-11-20T18:30:00.000Z'), platformData: { status: 325, isScheduled: true, deliveryType: 1 } } });
  });

  it('reads the cancelled-order webhook body (cancelDate, cancelNote, cancelReason), bare and wrapped', () => {
    const parsed = parsePlatformAOrder(cancelledOrder, { restaurantRequired: false });
    expect(parsed).toMatchObject({ ok: true, order: { platformOrderId: '6512f0c2a1b2c3d4e5f60718', state: 'canceled', cancelNote: 'Müşteri adres değişikliği istedi' } });
    expect(parsePlatformAOrder(cancelledOrderWrapped, { restaurantRequired: false })).toEqual(parsed);
    const { cancelNote: _note, ...withoutNote } = cancelledOrder;
    expect(parsePlatformAOrder({ ...withoutNote, status: 1234 })).toMatchObject({ ok: true, order: { state: 'canceled', cancelNote: 'The customer cancelled the order' } });
  });

  it('gives field errors, never an exception, for bodies it cannot use', () => {
    expect(parsePlatformAOrder({ id: 'x' })).toEqual({ ok: false, errors: [{ field: 'restaurant.id', message: 'is required' }] });
    expect(parsePlatformAOrder({ foodOrder: { id: 'x' } })).toEqual({ ok: false, errors: [{ field: 'restaurant.id', message: 'is required' }] });
    expect(parsePlatformAOrder({ id: 'x' }, { restaurantRequired: false })).toMatchObject({ ok: true });
    expect(parsePlatformAOrder([])).toMatchObject({ ok: false, errors: [{ field: 'body' }] });
    expect(parsePlatformAOrder({ foodOrder: [] })).toMatchObject({ ok: false, errors: [{ field: 'id' }, { field: 'restaurant.id' }] });
    expect(parsePlatformAOrder({ id: { $ne: 1 }, restaurant: { id: 'r' } })).toMatchObject({ ok: false, errors: [{ field: 'id', message: 'must be a string' }] });
    expect(parsePlatformAOrder({ ...newOrder, products: [{ ...newOrder.products[0], count: 'two' }] })).toMatchObject({ ok: false, errors: [{ field: 'products[0].count' }] });
  });

  it('the simulator sends food orders with the example\'s fields (Getir\'s shape), and they parse', () => {
    const sim = new PlatformASimulator({ appSecretKey: 'app-secret-key-0001', restaurants: [] });
    const placed = sim.createOrder('getir-r-1');
    const sent = sim.foodOrder(placed);
    expect(Object.keys(sent).sort()).toEqual(Object.keys(newOrder).sort());
    expect(parsePlatformAOrder(sent)).toMatchObject({ ok: true, order: { platformOrderId: placed.id, state: 'new', platformData: { status: 400 } } });
    sim.cancelOnPlatform(placed.id);
    // The example was verified before it was cancelled (verifyDate); this order was not.
    expect(Object.keys(sim.foodOrder(placed)).sort()).toEqual(Object.keys(cancelledOrder).filter((key) => key !== 'verifyDate').sort());
  });
});
