import { Logger } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { OrderOpenedEvent, Queues, RoutingKey } from '@courier/contracts';
import { finalApprovalDueAt, INITIAL_ORDER_STATUS, isScheduledOrder } from '@courier/domain';
import { MessageConsumer, MessageContext, TransactionContext, UnitOfWork } from '@courier/messaging';
import { FinalApprovalScheduler } from './final-approval.scheduler';
import { OrderCreatedPayload, scheduledDeliveryTimeOf } from './order-created.payload';
import { Order } from './order.model';
import { OrderRepository } from './order.repository';

export const ORDER_CREATION_CONSUMER = 'status-dispatcher.order-creation';

/**
 * Creates orders from `order.created`, once: the inbox (consumeOnce) drops a redelivered message,
 * and the per-restaurant counter lock plus an existence check drop a second message for the same
 * order. The order number comes from that counter, in the same transaction (no gaps, no repeats).
 */
@MessageConsumer()
export class OrderCreationConsumer {
  private readonly logger = new Logger('OrderCreation');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly finalApproval: FinalApprovalScheduler,
    private readonly orders: OrderRepository,
  ) {}

  @EventPattern(RoutingKey.OrderCreated, { queue: Queues.dispatcherOrderEvents })
  async onOrderCreated(@Payload() event: OrderCreatedPayload, @Ctx() context: MessageContext): Promise<void> {
    const message = context.message;
    const scheduledDeliveryTime = scheduledDeliveryTimeOf(event.details);
    const applied = await this.unitOfWork.consumeOnce(ORDER_CREATION_CONSUMER, message, (tx) => this.create(tx, event, scheduledDeliveryTime));
    if (!applied) this.logger.log({ messageId: message.messageId, yemekKuryeOrderId: event.yemekKuryeOrderId }, 'order.created redelivered; already applied');
  }

  private async create(tx: TransactionContext, event: OrderCreatedPayload, scheduledDeliveryTime: Date | null): Promise<void> {
    const yemekKuryeOrderId = event.yemekKuryeOrderId.toLowerCase();
    await this.orders.lockOrderNumbers(tx.manager, event.restaurantId);
    const existing = await this.orders.idOfSenderOrder(tx.manager, yemekKuryeOrderId, event.restaurantId, event.provider, event.orderId);
    if (existing) {
      const sameOrder = existing === yemekKuryeOrderId;
      this.logger[sameOrder ? 'log' : 'warn'](
        { yemekKuryeOrderId, existingId: existing, restaurantId: event.restaurantId },
        sameOrder ? 'order already exists; order.created ignored' : 'restaurant already has an order with this orderId under another id; order.created ignored',
      );
      return;
    }

    const receivedAt = new Date(event.receivedAt);
    const scheduled = isScheduledOrder({ scheduledDeliveryTime, acceptedAt: receivedAt });
    const order: Order = {
      id: yemekKuryeOrderId,
      orderId: event.orderId,
      restaurantId: event.restaurantId,
      provider: event.provider,
      providerRestaurantId: event.providerRestaurantId,
      orderNumber: await this.orders.nextOrderNumber(tx.manager, event.restaurantId),
      status: INITIAL_ORDER_STATUS,
      sequence: 0,
      receivedAt,
      scheduledDeliveryTime,
      finalApprovalDueAt: scheduled ? finalApprovalDueAt(scheduledDeliveryTime!) : null,
      finalApprovedAt: null,
      statusChangedAt: receivedAt,
    };
    await this.orders.insert(tx.manager, order, event.details);
    const opened: OrderOpenedEvent = {
      yemekKuryeOrderId,
      orderId: order.orderId,
      restaurantId: order.restaurantId,
      orderNumber: order.orderNumber,
      status: 'NEW',
      timestamp: new Date().toISOString(),
      sequence: 0,
    };
    await tx.publish(RoutingKey.OrderOpened, opened);
    if (order.finalApprovalDueAt) await this.finalApproval.schedule(tx, order.id, order.finalApprovalDueAt);
    this.logger.log({ yemekKuryeOrderId, restaurantId: order.restaurantId, orderNumber: order.orderNumber, scheduled }, 'order created');
  }
}
