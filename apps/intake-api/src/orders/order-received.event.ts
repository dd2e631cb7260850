import { IsString } from 'class-validator';

/**
 * `order.received`: an order was accepted (stored with state ACCEPTED). Produced and consumed by
 * intake-api alone, to do the processing after the 202; it names the row, which holds the rest.
 * Its consumer's payload pipe validates it against this class.
 */
export class OrderReceivedEvent {
  @IsString()
  yemekKuryeOrderId!: string;

  @IsString()
  restaurantId!: string;

  @IsString()
  orderId!: string;
}
