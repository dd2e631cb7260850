import { availabilityChanged } from '../../test/order-events.fixture';
import { availabilityWebhookId, InvalidRestaurantEventError, webhookFromAvailabilityEvent } from './restaurant-webhook-payload';

describe('webhookFromAvailabilityEvent', () => {
  it('the event’s fields in the order webhooks’ shape: event first, the time of the change as timestamp, no restaurantId', () => {
    const draft = webhookFromAvailabilityEvent(availabilityChanged);
    expect(draft.body).toBe(
      '{"event":"restaurant.availability_changed","changeEventId":"6a1f2b3c-4d5e-4f60-8172-8394a5b6c7d8","integrationId":"1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9","provider":"SOME_PLATFORM","providerRestaurantId":"store-77","state":"CLOSED","until":null,"expectedState":"OPEN","detectedBy":"read_back","platformReason":"Closed by the platform: orders left unanswered","timestamp":"2026-11-21T12:10:00.000Z"}',
    );
    expect(draft).toMatchObject({
      event: 'restaurant.availability_changed',
      restaurantId: availabilityChanged.restaurantId,
      orderId: null,
      yemekKuryeOrderId: null,
      integrationId: availabilityChanged.integrationId,
      sourceKey: `restaurant.availability_changed:${availabilityChanged.changeEventId}`,
    });
  });

  it('the webhook id is a version 5 UUID of the change id: the same for the same change, another for another', () => {
    const id = webhookFromAvailabilityEvent(availabilityChanged).deliveryId;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(webhookFromAvailabilityEvent({ ...availabilityChanged, state: 'BUSY' }).deliveryId).toBe(id);
    expect(availabilityWebhookId(availabilityChanged.changeEventId)).toBe(id);
    expect(availabilityWebhookId('another-change')).not.toBe(id);
    // The id is not the change id itself: a receiver cannot mistake one kind of id for the other.
    expect(id).not.toBe(availabilityChanged.changeEventId);
  });

  it('keeps until, a null expected state and a null reason as they are', () => {
    const draft = webhookFromAvailabilityEvent({ ...availabilityChanged, state: 'BUSY', until: '2026-11-21T12:40:00.000Z', expectedState: null, platformReason: null, detectedBy: 'platform_call' });
    expect(JSON.parse(draft.body)).toMatchObject({ state: 'BUSY', until: '2026-11-21T12:40:00.000Z', expectedState: null, platformReason: null, detectedBy: 'platform_call' });
  });

  it('refuses events it cannot turn into a webhook, naming the fields', () => {
    const bad: unknown[] = [
      null,
      [],
      'CLOSED',
      { ...availabilityChanged, changeEventId: '' },
      { ...availabilityChanged, restaurantId: undefined },
      { ...availabilityChanged, state: 'PAUSED' },
      { ...availabilityChanged, expectedState: 'closed' },
      { ...availabilityChanged, until: 'tomorrow' },
      { ...availabilityChanged, detectedBy: 'guess' },
      { ...availabilityChanged, platformReason: 5 },
      { ...availabilityChanged, occurredAt: undefined },
    ];
    for (const payload of bad) expect(() => webhookFromAvailabilityEvent(payload)).toThrow(InvalidRestaurantEventError);
    expect(() => webhookFromAvailabilityEvent({ ...availabilityChanged, state: 'PAUSED', until: 'x' })).toThrow('restaurant.availability_changed without valid state, until');
  });
});
