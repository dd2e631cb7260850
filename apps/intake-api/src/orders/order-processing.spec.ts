import { IntakeAccount } from '../accounts/intake-account';
import { IntakeOrderRow } from './intake-order';
import { orderDetails } from './order-details';
import { failure, refusalOf, success } from './order-processing.service';
import { orderStatusView } from './orders.service';

const account: IntakeAccount = {
  restaurantId: 'rest_abcdefghijklmnopqrstu',
  status: 'active',
  apiSecretHash: 'h',
  thirdParty: { integrationId: 'i-1', providerRestaurantId: 'pos-17', isActive: true },
};

const row = (changes: Partial<IntakeOrderRow> = {}): IntakeOrderRow => ({
  restaurant_id: account.restaurantId,
  order_id: 'ord-1',
  yemek_kurye_order_id: '7c0d7c1e-8f0a-4a0e-9d6a-0d6c2b1f4e21',
  payload_hash: 'x',
  payload: {
    orderId: 'ord-1',
    restaurantId: account.restaurantId,
    customerName: 'Ayşe',
    customerPhone: null,
    deliveryAddress: 'Bağdat Cd. 10',
    subtotal: 10,
    items: [{ productName: 'Çay', quantity: 2, notes: undefined, unitPrice: null }],
  },
  state: 'ACCEPTED',
  attempt: 1,
  received_at: new Date('2025-01-01T10:00:00.000Z'),
  processed_at: null,
  failed_at: null,
  failure_reason: null,
  order_number: null,
  delivery_latitude: null,
  delivery_longitude: null,
  coordinates_source: null,
  ...changes,
});

describe('order processing', () => {
  it('builds order.created details: nulls dropped, TRY and [] by default, coordinates added', () => {
    expect(orderDetails(row().payload, { latitude: 41, longitude: 29 })).toEqual({
      customerName: 'Ayşe',
      deliveryAddress: 'Bağdat Cd. 10',
      currency: 'TRY',
      subtotal: 10,
      items: [{ productName: 'Çay', quantity: 2 }],
      deliveryLatitude: 41,
      deliveryLongitude: 29,
    });
    expect(orderDetails({ customerName: 'a', deliveryAddress: 'b', currency: 'EUR' }, undefined)).toEqual({ customerName: 'a', deliveryAddress: 'b', currency: 'EUR', items: [] });
  });

  it('fails only accounts that are missing, disabled or without THIRD_PARTY', () => {
    expect(refusalOf(account)).toBeUndefined();
    expect(refusalOf({ ...account, thirdParty: { ...account.thirdParty!, isActive: false } })).toBeUndefined();
    expect(refusalOf(null)).toMatch(/unknown/);
    expect(refusalOf({ ...account, status: 'disabled' })).toMatch(/disabled/);
    expect(refusalOf({ ...account, thirdParty: null })).toMatch(/THIRD_PARTY/);
  });

  it('publishes order.created on success and order.canceled (OTHER, System) on failure', () => {
    const done = success(row(), account, { latitude: 41, longitude: 29, source: 'geocoder' }, { 'x-correlation-id': 'c-1' });
    expect(done).toMatchObject({ state: 'PROCESSED', event: { routingKey: 'order.created', headers: { 'x-correlation-id': 'c-1' } } });
    expect(done.event.payload).toMatchObject({ provider: 'THIRD_PARTY', providerRestaurantId: 'pos-17', receivedAt: '2025-01-01T10:00:00.000Z' });
    const failed = failure(row(), null, 'The restaurant account is unknown.', {});
    expect(failed).toMatchObject({ state: 'FAILED', failureReason: 'The restaurant account is unknown.', event: { routingKey: 'order.canceled' } });
    expect(failed.event.payload).toMatchObject({
      cancelReasonId: 'OTHER',
      canceledBy: 'System',
      previousStatus: null,
      orderNumber: null,
      providerRestaurantId: account.restaurantId,
      sequence: 1,
    });
  });
});

describe('orderStatusView', () => {
  it('shows RECEIVED until the lifecycle knows the order (order.opened, sequence 0), then NEW, then the newest change', () => {
    expect(orderStatusView(row(), [])).toMatchObject({ status: 'RECEIVED', history: [], orderNumber: null });
    const processedAt = new Date('2025-01-01T10:00:01.000Z');
    // Processed here, but status-dispatcher has not created it yet: a transition could not find it.
    expect(orderStatusView(row({ state: 'PROCESSED', processed_at: processedAt }), [])).toMatchObject({ status: 'RECEIVED', history: [] });
    const openedAt = new Date('2025-01-01T10:00:02.000Z');
    const opened = { sequence: 0, status: 'NEW', previous_status: null, occurred_at: openedAt };
    expect(orderStatusView(row({ state: 'PROCESSED', processed_at: processedAt, order_number: '7' }), [opened])).toMatchObject({
      status: 'NEW',
      orderNumber: '7',
      history: [{ status: 'NEW', previousStatus: null, timestamp: openedAt.toISOString() }],
    });
    const view = orderStatusView(row({ state: 'PROCESSED', processed_at: processedAt, order_number: '7' }), [
      opened,
      { sequence: 1, status: 'VALIDATED', previous_status: 'NEW', occurred_at: new Date('2025-01-01T10:01:00Z') },
      { sequence: 2, status: 'ROUTED', previous_status: 'VALIDATED', occurred_at: new Date('2025-01-01T10:02:00Z') },
    ]);
    expect(view).toMatchObject({ status: 'ROUTED', orderNumber: '7' });
    expect(view.history.map((entry) => entry.status)).toEqual(['NEW', 'VALIDATED', 'ROUTED']);
  });

  it('shows FAILED with its reason', () => {
    expect(orderStatusView(row({ state: 'FAILED', failure_reason: 'why' }), [])).toMatchObject({ status: 'FAILED', failureReason: 'why' });
  });
});
