/**
 * `order.received`: an order was accepted (stored with state ACCEPTED). Produced and consumed by
 * intake-api alone, to do the processing after the 202; it names the row, which holds the rest.
 */
export interface OrderReceivedEvent {
  yemekKuryeOrderId: string;
  restaurantId: string;
  orderId: string;
}

export function isOrderReceivedEvent(payload: unknown): payload is OrderReceivedEvent {
  const event = payload as Partial<OrderReceivedEvent> | null;
  return (
    typeof event === 'object' &&
    event !== null &&
    typeof event.yemekKuryeOrderId === 'string' &&
    typeof event.restaurantId === 'string' &&
    typeof event.orderId === 'string'
  );
}
