import { Ctx, EventPattern } from '@nestjs/microservices';
import { Queues, RoutingKey } from '@courier/contracts';
import { MessageConsumer, MessageContext } from '@courier/messaging';
import { OrderProcessingService } from './order-processing.service';
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
  async onOrderReceived(@Ctx() context: MessageContext): Promise<void> {
    await this.processing.process(context.message);
  }

  @EventPattern([RoutingKey.OrderOpened, RoutingKey.OrderStatusChanged, RoutingKey.OrderCanceled], fromOrderEvents)
  async onStatusEvent(@Ctx() context: MessageContext): Promise<void> {
    await this.history.record(context.message);
  }
}
