import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PlatformBSimulator } from './yemeksepeti.simulator';
import { parsePlatformBOrder } from './yemeksepeti.orders';

/** An example payload in the middleware's own shape (simulators/platform-b/examples, each naming its source). */
function example(name: string): Record<string, unknown> {
  const file = JSON.parse(readFileSync(path.join(__dirname, 'examples', name), 'utf8')) as { _source: string; body: Record<string, unknown> };
  expect(file._source).toMatch(/^\S+\/\S+ \S+/);
  return file.body;
}

describe('parsePlatformBOrder (the middleware\'s dispatch)', () => {
  it('reads the spec\'s vendor-delivery example: amounts as strings, no currency code (the symbol), coordinates, expiryDate, no callbackUrls', () => {
    const parsed = parsePlatformBOrder('vendor-7', example('dispatch-vendor-delivery-item-discounts.json'));
    expect(parsed).toEqual({
      ok: true,
      order: {
        platformOrderId: 'logistics-vendor-one-_-oma_vendor-one-order-one',
        providerRestaurantId: 'vendor-7',
        orderNumber: '1111',
        state: 'new',
        scheduledDeliveryTime: null,
        test: false,
        expiresAt: new Date('2023-03-05T20:40:00.000Z'),
        details: {
          customerName: 'first-name last-name',
          customerPhone: '+4903023125000',
          deliveryAddress: 'Oranienburger Str. 70, Berlin',
          deliveryLatitude: 50.0710387,
          deliveryLongitude: 14.4650663,
          scheduledDeliveryTime: undefined,
          paymentMethod: 'credit-card',
          total: 10,
          currency: 'EUR',
          notes: 'some customer comment',
          items: [{ platformProductId: 'platform-product-id-one', productCode: 'remote-product-code-one', productName: 'Cheese Burger', quantity: 4, unitPrice: 2.5, totalAmount: 10, productNote: undefined }],
        },
        platformData: { token: 'logistics-vendor-one-_-oma_vendor-one-order-one', delivery: 'vendor', expectedAt: '2023-03-05T20:55:00.000Z', expiresAt: '2023-03-05T20:40:00.000Z' },
      },
    });
  });

  it('refuses the spec\'s generic example as it stands (its quantity is the placeholder "string"); with a quantity it is a pickup order with callbackUrls', () => {
    const generic = example('dispatch-generic-order.json');
    expect(parsePlatformBOrder('v', generic)).toEqual({ ok: false, errors: [{ field: 'products[0].quantity', message: 'must be a number' }] });
    const products = generic.products as Array<Record<string, unknown>>;
    const parsed = parsePlatformBOrder('v', { ...generic, products: [{ ...products[0], quantity: '1' }] });
    expect(parsed).toMatchObject({
      ok: true,
      order: {
        orderNumber: '42',
        test: false,
        details: { total: 25.5, currency: 'EUR', items: [{ platformProductId: 'ID_FOR_DOUBLE_CHEESE_BURGER_ON_PLATFORM', productCode: 'ID_FOR_DOUBLE_CHEESE_BURGER_ON_POS', quantity: 1, totalAmount: 8, productNote: 'No cheese please' }] },
        platformData: { delivery: 'pickup', expectedAt: '2016-03-14T17:50:00.000Z', callbackUrls: { orderAcceptedUrl: 'string', orderRejectedUrl: 'string', orderPickedUpUrl: 'string', orderPreparedUrl: 'string' } },
      },
    });
  });

  it('reads who delivers, test orders, the rider pickup time and null callback URLs from the simulator\'s orders', () => {
    const sim = new PlatformBSimulator({ users: [] });
    const rider = sim.createOrder('vendor-7', { delivery: 'platform', test: true });
    const parsed = parsePlatformBOrder('vendor-7', sim.orderPayload(rider));
    expect(parsed).toMatchObject({
      ok: true,
      order: {
        test: true,
        expiresAt: new Date(rider.expiresAt),
        details: { customerName: 'Mehmet Demir', deliveryAddress: 'İstiklal Cd. 12, 34430, İstanbul', total: 185.5, currency: 'TRY', notes: 'Kapıda ödeme, Zili çalın' },
        platformData: { token: rider.token, delivery: 'platform', test: true, expectedAt: expect.any(String) },
      },
    });
    const pickup = parsePlatformBOrder('vendor-7', sim.orderPayload(sim.createOrder('vendor-7', { delivery: 'pickup' })));
    expect(pickup).toMatchObject({ ok: true, order: { test: false, platformData: { delivery: 'pickup' } } });
  });

  it('answers field errors for what it cannot process', () => {
    expect(parsePlatformBOrder('v', { code: 'x' })).toEqual({ ok: false, errors: [{ field: 'token', message: 'is required' }] });
    expect(parsePlatformBOrder('v', 'not an order')).toMatchObject({ ok: false, errors: [{ field: 'body' }] });
    expect(parsePlatformBOrder('v', { token: 't', expiryDate: 'soon', callbackUrls: { orderAcceptedUrl: 42 } })).toMatchObject({
      ok: false,
      errors: expect.arrayContaining([expect.objectContaining({ field: 'expiryDate' }), expect.objectContaining({ field: 'callbackUrls.orderAcceptedUrl' })]),
    });
  });
});
