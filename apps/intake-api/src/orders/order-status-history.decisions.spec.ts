import { statusChangeOf } from './order-status-history.decisions';

const yemekKuryeOrderId = '7c0d7c1e-8f0a-4a0e-9d6a-0d6c2b1f4e21';
const timestamp = '2025-01-01T13:00:00+03:00';

describe('statusChangeOf', () => {
  it('records order.opened as NEW at sequence 0, with its order number', () => {
    expect(statusChangeOf('order.opened', { yemekKuryeOrderId, orderId: 'o', restaurantId: 'r', orderNumber: '7', status: 'NEW', timestamp, sequence: 0 })).toEqual({
      yemekKuryeOrderId,
      sequence: 0,
      status: 'NEW',
      previousStatus: null,
      orderNumber: '7',
      occurredAt: new Date('2025-01-01T10:00:00Z'),
    });
  });

  it('records order.status_changed with its previous status, and order.canceled as CANCELED', () => {
    expect(statusChangeOf('order.status_changed', { yemekKuryeOrderId, status: 'ROUTED', previousStatus: 'VALIDATED', orderNumber: null, timestamp, sequence: 2 })).toMatchObject({
      status: 'ROUTED',
      previousStatus: 'VALIDATED',
      orderNumber: null,
      sequence: 2,
    });
    expect(statusChangeOf('order.canceled', { yemekKuryeOrderId, previousStatus: 'NEW', orderNumber: '7', timestamp, sequence: 1, reason: 'x' })).toMatchObject({
      status: 'CANCELED',
      previousStatus: 'NEW',
      sequence: 1,
    });
  });

  it('refuses an event without a usable id, sequence, status or time', () => {
    const good = { yemekKuryeOrderId, status: 'ROUTED', timestamp, sequence: 2 };
    expect(statusChangeOf('order.status_changed', good)).toBeDefined();
    expect(statusChangeOf('order.status_changed', null)).toBeUndefined();
    expect(statusChangeOf('order.status_changed', { ...good, yemekKuryeOrderId: 'not-a-uuid' })).toBeUndefined();
    expect(statusChangeOf('order.status_changed', { ...good, sequence: 1.5 })).toBeUndefined();
    expect(statusChangeOf('order.status_changed', { ...good, status: undefined })).toBeUndefined();
    expect(statusChangeOf('order.status_changed', { ...good, timestamp: 'yesterday' })).toBeUndefined();
    expect(statusChangeOf('order.status_changed', { ...good, timestamp: undefined })).toBeUndefined();
  });
});
