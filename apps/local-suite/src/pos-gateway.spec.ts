import { posRouteFor } from './pos-gateway';

describe('posRouteFor', () => {
  it.each([
    ['/internal/orders/status', 'dispatcher'],
    ['/internal/orders/abc/transitions', 'dispatcher'],
    ['/internal', 'dispatcher'],
    ['/internalx', 'integrations'],
    ['/platforms/platform-a/orders', 'dispatcher'],
    ['/platforms/platform-a/orders/cancelled', 'dispatcher'],
    ['/platforms/platform-b/order/demo-ys-vendor', 'dispatcher'],
    ['/platforms/platform-b/remoteId/v/remoteOrder/o/posOrderStatus?x=1', 'dispatcher'],
    ['/platforms/platform-d/orders', 'dispatcher'],
    ['/platforms', 'dispatcher'],
    ['/platformsx', 'integrations'],
    ['/api/v1/my/webhooks/deliveries', 'sender'],
    ['/api/v1/my/webhooks/deliveries?status=failed', 'sender'],
    ['/api/v1/my/webhooks/deliveries/123/redeliver', 'sender'],
    ['/api/v1/my/webhooks', 'integrations'],
    ['/api/v1/my/webhooks/secret', 'integrations'],
    ['/api/v1/my/integrations', 'integrations'],
    ['/admin/v1/restaurants', 'integrations'],
    ['/admin/v1/withheld-orders?platform=PLATFORM_A', 'dispatcher'],
    ['/health', 'integrations'],
    ['/api/v1/my/availability', 'dispatcher'],
    ['/api/v1/my/availability?x=1', 'dispatcher'],
    ['/api/v1/my/availabilityx', 'integrations'],
    ['/internal/restaurants/rest_abc/availability', 'dispatcher'],
    ['/api/v1/my/integrations/7d0b8d2e/products/lahmacun-2/availability', 'dispatcher'],
    ['/api/v1/my/integrations/7d0b8d2e/products/availability', 'dispatcher'],
    ['/api/v1/my/integrations/7d0b8d2e/productsx', 'integrations'],
    ['/api/v1/my/integrations/7d0b8d2e', 'integrations'],
    ['/api/v1/my/integrations/7d0b8d2e/verify', 'integrations'],
    ['/api/v1/my/integrations/a/b/products', 'integrations'],
  ])('%s -> %s', (url, app) => {
    expect(posRouteFor(url)).toBe(app);
  });
});
