/** A store's state on a delivery platform. */
export type StoreAvailabilityState = 'OPEN' | 'CLOSED' | 'BUSY';

/**
 * `restaurant.availability_changed`: a delivery platform changed a store's state on its own (not
 * as the restaurant last asked), seen by reading the store back or by the platform's own call
 * (a platform's inbound availability call). Published by status-dispatcher, once per change it sees;
 * webhook-sender delivers it to the restaurant's status URL, signed like the order webhooks.
 */
export interface RestaurantAvailabilityChangedEvent {
  /** Unique per change seen: the webhook's id is derived from it (redeliveries keep it). */
  changeEventId: string;
  restaurantId: string;
  integrationId: string;
  /** Neutral platform code. */
  provider: string;
  providerRestaurantId: string;
  /** What the platform reports now. */
  state: StoreAvailabilityState;
  /** Until when the platform keeps that state, where it says (ISO 8601), else null. */
  until: string | null;
  /** What the restaurant (or the courier core) asked for last; null when nothing was ever asked. */
  expectedState: StoreAvailabilityState | null;
  /** How we learned it: our read of the store's status, or the platform's call to us. */
  detectedBy: 'read_back' | 'platform_call';
  /** The platform's own reason or status text, where it gives one. */
  platformReason: string | null;
  /** When the change was seen (ISO 8601). */
  occurredAt: string;
}
