import { orderCanceledEvent, orderFinalApprovalDueEvent, orderStatusChangedEvent } from './order-events';
import { Order } from './order.model';

const order = (changes: Partial<Order> = {}): Order => ({
  id: '5b0f6a52-8f0e-4f5c-9d5e-1a2b3c4d5e6f',
  orderId: 'POS-1',
  restaurantId: 'rest_aaaaaaaaaaaaaaaaaaaaaaaa',
  provider: 'THIRD_PARTY',
  providerRestaurantId: 'pos-rest-1',
  orderNumber: '42',
  status: 'VALIDATED',
  sequence: 1,
  receivedAt: new Date('2025-06-01T08:00:00.000Z'),
  scheduledDeliveryTime: null,
  finalApprovalDueAt: null,
  finalApprovedAt: null,
  statusChangedAt: new Date('2025-06-01T08:05:00.123Z'),
  ...changes,
});

// interface.md's webhook fields (without `event`, which the sender adds) plus restaurantId and sequence.
const STATUS_WEBHOOK_FIELDS = ['orderId', 'yemekKuryeOrderId', 'orderNumber', 'status', 'previousStatus', 'timestamp', 'provider', 'providerRestaurantId'];
const CANCEL_WEBHOOK_FIELDS = ['orderId', 'yemekKuryeOrderId', 'reason', 'cancelReasonId', 'canceledBy', 'timestamp'];

describe('order events', () => {
  it('order.status_changed carries the webhook fields and the routing fields, nothing else', () => {
    const event = orderStatusChangedEvent(order(), 'NEW');
    expect(Object.keys(event).sort()).toEqual([...STATUS_WEBHOOK_FIELDS, 'restaurantId', 'sequence'].sort());
    expect(event).toEqual({
      yemekKuryeOrderId: '5b0f6a52-8f0e-4f5c-9d5e-1a2b3c4d5e6f',
      orderId: 'POS-1',
      restaurantId: 'rest_aaaaaaaaaaaaaaaaaaaaaaaa',
      orderNumber: '42',
      status: 'VALIDATED',
      previousStatus: 'NEW',
      timestamp: '2025-06-01T08:05:00.123Z',
      provider: 'THIRD_PARTY',
      providerRestaurantId: 'pos-rest-1',
      sequence: 1,
    });
  });

  it('order.canceled carries the cancel webhook fields, the routing fields and the order context', () => {
    const event = orderCanceledEvent(order({ status: 'CANCELED', sequence: 3 }), 'ASSIGNED', { reason: 'No courier', cancelReasonId: 'COURIER_NOT_AVAILABLE', canceledBy: 'System' });
    expect(Object.keys(event)).toEqual(expect.arrayContaining([...CANCEL_WEBHOOK_FIELDS, 'restaurantId', 'sequence']));
    expect(event).toEqual({
      yemekKuryeOrderId: '5b0f6a52-8f0e-4f5c-9d5e-1a2b3c4d5e6f',
      orderId: 'POS-1',
      restaurantId: 'rest_aaaaaaaaaaaaaaaaaaaaaaaa',
      orderNumber: '42',
      previousStatus: 'ASSIGNED',
      reason: 'No courier',
      cancelReasonId: 'COURIER_NOT_AVAILABLE',
      canceledBy: 'System',
      timestamp: '2025-06-01T08:05:00.123Z',
      provider: 'THIRD_PARTY',
      providerRestaurantId: 'pos-rest-1',
      sequence: 3,
    });
  });

  it('order.final_approval_due names the delivery time and the due time', () => {
    const scheduled = order({ scheduledDeliveryTime: new Date('2025-06-01T14:00:00.000Z'), finalApprovalDueAt: new Date('2025-06-01T13:00:00.000Z') });
    expect(orderFinalApprovalDueEvent(scheduled)).toEqual({
      yemekKuryeOrderId: scheduled.id,
      orderId: 'POS-1',
      restaurantId: 'rest_aaaaaaaaaaaaaaaaaaaaaaaa',
      scheduledDeliveryTime: '2025-06-01T14:00:00.000Z',
      dueAt: '2025-06-01T13:00:00.000Z',
    });
  });
});
