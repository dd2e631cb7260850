import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { Queues, RoutingKey } from '@courier/contracts';
import { CORRELATION_HEADER } from '@courier/logging';
import { MessageConsumer, MessageContext } from '@courier/messaging';
import { OrderProcessingService } from './order-processing.service';
import { OrderReceivedEvent } from './order-received.event';
import { OrderStatusHistoryService } from './order-status-history.service';

const fromOrderEvents = { queue: Queues.intakeOrderEvents };

/** Intake's order queue: orders to process, and the status history the order read shows. */
@MessageConsumer()
export class OrderEventsConsumer {
  constructor(
    private readonly processing: OrderProcessingService,
    private readonly history: OrderStatusHistoryService,
  ) {}

  /** An order accepted by another process (or redelivered): processed once. */
  @EventPattern(RoutingKey.OrderReceived, fromOrderEvents)
  async onOrderReceived(@Payload() event: OrderReceivedEvent, @Ctx() context: MessageContext): Promise<void> {
    await this.processing.process(event, { deliveryCount: context.deliveryCount, correlationId: context.headers[CORRELATION_HEADER] });
  }

  /** The status events carry no contract class: the history checks what an entry needs (statusChangeOf). */
  @EventPattern([RoutingKey.OrderOpened, RoutingKey.OrderStatusChanged, RoutingKey.OrderCanceled], fromOrderEvents)
  async onStatusEvent(@Payload() event: unknown, @Ctx() context: MessageContext): Promise<void> {
    await this.history.record(context.routingKey, event, context.messageId);
  }
}
