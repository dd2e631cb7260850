import { CatalogDriftDetectedEvent, OrderCanceledEvent, OrderStatusChangedEvent, RestaurantAvailabilityChangedEvent } from '@courier/contracts';

/** Events as status-dispatcher publishes them (libs/contracts), for the sender's tests. */
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

/** A platform closed a store the restaurant wants open (status-dispatcher's restaurant.availability_changed). */
export const availabilityChanged: RestaurantAvailabilityChangedEvent = {
  changeEventId: '6a1f2b3c-4d5e-4f60-8172-8394a5b6c7d8',
  restaurantId: 'rest_abcdefghijklmnopqrstu',
  integrationId: '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9',
  provider: 'SOME_PLATFORM',
  providerRestaurantId: 'store-77',
  state: 'CLOSED',
  until: null,
  expectedState: 'OPEN',
  detectedBy: 'read_back',
  platformReason: 'Closed by the platform: orders left unanswered',
  occurredAt: '2026-11-21T12:10:00.000Z',
};

/** A re-import found the platform's menu changed on its own (status-dispatcher's catalog.drift_detected). */
export const catalogDriftDetected: CatalogDriftDetectedEvent = {
  driftEventId: '9c2e4f61-7a3b-4d8e-b5f0-2a1c6e8d4b37',
  restaurantId: 'rest_abcdefghijklmnopqrstu',
  integrationId: '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9',
  provider: 'SOME_PLATFORM',
  providerRestaurantId: 'store-77',
  importId: '3f7a9b2c-1d4e-4f60-a718-9b2c3d4e5f60',
  changes: [
    { kind: 'price', platformProductId: 'prd-101', productCode: 'LHM-1', before: 90, after: 95.5 },
    { kind: 'name', platformProductId: 'prd-102', productCode: 'AYR-1', before: 'Ayran', after: 'Ayran 300 ml' },
    { kind: 'status', platformProductId: 'prd-103', productCode: null, before: 'ACTIVE', after: 'INACTIVE' },
    { kind: 'added', platformProductId: 'prd-104', productCode: null, before: null, after: null },
  ],
  omittedChanges: 0,
  detectedAt: '2026-11-21T12:20:00.000Z',
};
