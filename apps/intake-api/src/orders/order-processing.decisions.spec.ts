import { IntakeAccount } from '../accounts/intake-account';
import { IntakeOrder } from './intake-order';
import { orderDetails } from './order-details';
import { afterProcessingError, failure, processingDecision, refusalOf, success } from './order-processing.decisions';
import { orderStatusView } from './orders.service';

const account: IntakeAccount = {
  restaurantId: 'rest_abcdefghijklmnopqrstu',
  status: 'active',
  apiSecretHash: 'h',
  thirdParty: { integrationId: 'i-1', providerRestaurantId: 'pos-17', isActive: true },
};

const order = (changes: Partial<IntakeOrder> = {}): IntakeOrder => ({
  restaurantId: account.restaurantId,
  orderId: 'ord-1',
  yemekKuryeOrderId: '7c0d7c1e-8f0a-4a0e-9d6a-0d6c2b1f4e21',
  payloadHash: 'x',
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
  receivedAt: new Date('2025-01-01T10:00:00.000Z'),
  processedAt: null,
  failedAt: null,
  failureReason: null,
  orderNumber: null,
  deliveryLatitude: null,
  deliveryLongitude: null,
  coordinatesSource: null,
  ...changes,
});

describe('order processing', () => {
  it('builds order.created details: nulls dropped, TRY and [] by default, coordinates added', () => {
    expect(orderDetails(order().payload, { latitude: 41, longitude: 29 })).toEqual({
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
    const done = success(order(), account, { latitude: 41, longitude: 29, source: 'geocoder' }, { 'x-correlation-id': 'c-1' }, new Date('2025-01-01T10:00:01.000Z'));
    expect(done).toMatchObject({ state: 'PROCESSED', event: { routingKey: 'order.created', headers: { 'x-correlation-id': 'c-1' } } });
    expect(done.event.payload).toMatchObject({ provider: 'THIRD_PARTY', providerRestaurantId: 'pos-17', receivedAt: '2025-01-01T10:00:00.000Z' });
    const failed = failure(order(), null, 'The restaurant account is unknown.', {}, new Date('2025-01-01T10:00:01.000Z'));
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

describe('processingDecision', () => {
  it('skips an order that is gone or no longer ACCEPTED, whatever its account', () => {
    expect(processingDecision(undefined, account)).toEqual({ decision: 'skip' });
    expect(processingDecision(order({ state: 'PROCESSED' }), account)).toEqual({ decision: 'skip' });
    expect(processingDecision(order({ state: 'FAILED' }), null)).toEqual({ decision: 'skip' });
  });

  it('fails an ACCEPTED order whose account refuses it, and processes the others', () => {
    expect(processingDecision(order(), null)).toEqual({ decision: 'fail', reason: refusalOf(null) });
    expect(processingDecision(order(), { ...account, status: 'disabled' })).toEqual({ decision: 'fail', reason: refusalOf({ ...account, status: 'disabled' }) });
    expect(processingDecision(order(), account)).toEqual({ decision: 'process' });
    expect(processingDecision(order(), { ...account, thirdParty: { ...account.thirdParty!, isActive: false } })).toEqual({ decision: 'process' });
  });
});

describe('afterProcessingError', () => {
  it('redelivers before the last delivery, and when the order was not read or is no longer ACCEPTED', () => {
    expect(afterProcessingError({ deliveryCount: 1, deliveryLimit: 5, state: 'ACCEPTED' })).toBe('redeliver');
    expect(afterProcessingError({ deliveryCount: 4, deliveryLimit: 5, state: 'ACCEPTED' })).toBe('redeliver');
    expect(afterProcessingError({ deliveryCount: 5, deliveryLimit: 5, state: undefined })).toBe('redeliver');
    expect(afterProcessingError({ deliveryCount: 5, deliveryLimit: 5, state: 'PROCESSED' })).toBe('redeliver');
  });

  it('ends an ACCEPTED order FAILED on the last delivery', () => {
    expect(afterProcessingError({ deliveryCount: 5, deliveryLimit: 5, state: 'ACCEPTED' })).toBe('fail');
    expect(afterProcessingError({ deliveryCount: 6, deliveryLimit: 5, state: 'ACCEPTED' })).toBe('fail');
  });
});

describe('orderStatusView', () => {
  it('shows RECEIVED until the lifecycle knows the order (order.opened, sequence 0), then NEW, then the newest change', () => {
    expect(orderStatusView(order(), [])).toMatchObject({ status: 'RECEIVED', history: [], orderNumber: null });
    const processedAt = new Date('2025-01-01T10:00:01.000Z');
    // Processed here, but status-dispatcher has not created it yet: a transition could not find it.
    expect(orderStatusView(order({ state: 'PROCESSED', processedAt }), [])).toMatchObject({ status: 'RECEIVED', history: [] });
    const openedAt = new Date('2025-01-01T10:00:02.000Z');
    const opened = { sequence: 0, status: 'NEW', previousStatus: null, occurredAt: openedAt };
    expect(orderStatusView(order({ state: 'PROCESSED', processedAt, orderNumber: '7' }), [opened])).toMatchObject({
      status: 'NEW',
      orderNumber: '7',
      history: [{ status: 'NEW', previousStatus: null, timestamp: openedAt.toISOString() }],
    });
    const view = orderStatusView(order({ state: 'PROCESSED', processedAt, orderNumber: '7' }), [
      opened,
      { sequence: 1, status: 'VALIDATED', previousStatus: 'NEW', occurredAt: new Date('2025-01-01T10:01:00Z') },
      { sequence: 2, status: 'ROUTED', previousStatus: 'VALIDATED', occurredAt: new Date('2025-01-01T10:02:00Z') },
    ]);
    expect(view).toMatchObject({ status: 'ROUTED', orderNumber: '7' });
    expect(view.history.map((entry) => entry.status)).toEqual(['NEW', 'VALIDATED', 'ROUTED']);
  });

  it('shows FAILED with its reason', () => {
    expect(orderStatusView(order({ state: 'FAILED', failureReason: 'why' }), [])).toMatchObject({ status: 'FAILED', failureReason: 'why' });
  });
});
