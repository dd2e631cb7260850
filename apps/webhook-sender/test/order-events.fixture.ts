import { OrderCanceledEvent, OrderStatusChangedEvent } from '@courier/contracts';

/** Order events as status-dispatcher publishes them (libs/contracts), for the sender's tests. */
export const statusChanged: OrderStatusChangedEvent = {
  yemekKuryeOrderId: '0f8b3a4e-2c1d-4e5f-8a9b-0c1d2e3f4a5b',
  orderId: 'pos-1001',
  restaurantId: 'rest_abcdefghijklmnopqrstu',
  orderNumber: '17',
  status: 'VALIDATED',
  previousStatus: 'NEW',
  timestamp: '2026-11-21T12:00:00.000+03:00',
  provider: 'THIRD_PARTY',
  providerRestaurantId: 'pos-rest-9',
  sequence: 2,
};

export const canceled: OrderCanceledEvent = {
  yemekKuryeOrderId: '0f8b3a4e-2c1d-4e5f-8a9b-0c1d2e3f4a5b',
  orderId: 'pos-1001',
  restaurantId: 'rest_abcdefghijklmnopqrstu',
  orderNumber: '17',
  previousStatus: 'ASSIGNED',
  reason: 'Müşteri "vazgeçti"',
  cancelReasonId: 'CUSTOMER_REQUEST',
  canceledBy: 'Restaurant',
  timestamp: '2026-11-21T12:05:00.000+03:00',
  provider: 'THIRD_PARTY',
  providerRestaurantId: 'pos-rest-9',
  sequence: 3,
};
