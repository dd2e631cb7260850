import { canceled, statusChanged } from '../../test/order-events.fixture';
import { InvalidOrderEventError, webhookFromOrderEvent } from './webhook-payload';

describe('webhookFromOrderEvent', () => {
  it('order.status_changed: exactly the fields of interface.md, in its order, as compact JSON', () => {
    const draft = webhookFromOrderEvent('order.status_changed', statusChanged);
    expect(draft.body).toBe(
      '{"event":"order.status_changed","orderId":"pos-1001","yemekKuryeOrderId":"0f8b3a4e-2c1d-4e5f-8a9b-0c1d2e3f4a5b","orderNumber":"17","status":"VALIDATED","previousStatus":"NEW","timestamp":"2026-11-21T12:00:00.000+03:00","provider":"THIRD_PARTY","providerRestaurantId":"pos-rest-9"}',
    );
    expect(draft).toMatchObject({ event: 'order.status_changed', restaurantId: statusChanged.restaurantId, orderId: 'pos-1001', yemekKuryeOrderId: statusChanged.yemekKuryeOrderId });
  });

  it('order.canceled: event, orderId, yemekKuryeOrderId, reason, cancelReasonId, canceledBy, timestamp only', () => {
    const draft = webhookFromOrderEvent('order.canceled', canceled);
    expect(Object.keys(JSON.parse(draft.body))).toEqual(['event', 'orderId', 'yemekKuryeOrderId', 'reason', 'cancelReasonId', 'canceledBy', 'timestamp']);
    expect(draft.body).toContain('"reason":"Müşteri \\"vazgeçti\\""');
    expect(draft.body).not.toMatch(/\s"|":\s/);
  });

  it('the same change gives the same source key; another change another one', () => {
    const a = webhookFromOrderEvent('order.status_changed', statusChanged);
    expect(webhookFromOrderEvent('order.status_changed', { ...statusChanged }).sourceKey).toBe(a.sourceKey);
    expect(webhookFromOrderEvent('order.status_changed', { ...statusChanged, sequence: 3 }).sourceKey).not.toBe(a.sourceKey);
    expect(webhookFromOrderEvent('order.canceled', canceled).sourceKey).not.toBe(a.sourceKey);
  });

  it('refuses events it cannot turn into a webhook', () => {
    const bad: Array<[string, unknown]> = [
      ['order.status_changed', null],
      ['order.status_changed', []],
      ['order.status_changed', { ...statusChanged, orderId: '' }],
      ['order.status_changed', { ...statusChanged, status: 5 }],
      ['order.status_changed', { ...statusChanged, sequence: undefined }],
      ['order.canceled', { ...canceled, cancelReasonId: undefined }],
      ['order.created', statusChanged],
    ];
    for (const [key, payload] of bad) expect(() => webhookFromOrderEvent(key, payload)).toThrow(InvalidOrderEventError);
  });
});
