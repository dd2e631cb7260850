import { Equals, IsISO8601, IsNotEmpty, IsObject, IsString, IsUUID } from 'class-validator';
import { RoutingKey, type OrderCreatedEvent } from '@courier/contracts';
import { MalformedMessageError } from '@courier/messaging';

/**
 * What the dispatcher checks of an `order.created` payload before it stores the order. The order
 * body itself (`details`) was validated by intake-api and is kept as sent, except that a
 * scheduledDeliveryTime must be readable, because the final approval is computed from it.
 */
export class OrderCreatedPayload implements Omit<OrderCreatedEvent, 'details'> {
  @IsUUID()
  yemekKuryeOrderId!: string;

  @IsString()
  @IsNotEmpty()
  orderId!: string;

  @IsString()
  @IsNotEmpty()
  restaurantId!: string;

  @Equals('THIRD_PARTY')
  provider!: 'THIRD_PARTY';

  @IsString()
  @IsNotEmpty()
  providerRestaurantId!: string;

  @IsISO8601({ strict: true })
  receivedAt!: string;

  @IsObject()
  details!: Record<string, unknown>;
}

/** The scheduled delivery time of `details`, or null; throws when it is present but unreadable. */
export function scheduledDeliveryTimeOf(details: Record<string, unknown>): Date | null {
  const value = details.scheduledDeliveryTime;
  if (value === undefined || value === null) return null;
  const time = typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(time.getTime())) throw new MalformedMessageError(RoutingKey.OrderCreated, ['details.scheduledDeliveryTime is not a date']);
  return time;
}
