import { Injectable, OnModuleInit } from '@nestjs/common';
import { Queues, RoutingKey } from '@courier/contracts';
import { IncomingMessage, Messaging } from '@courier/messaging';
import { OrderProcessingService } from './order-processing.service';
import { OrderStatusHistoryService } from './order-status-history.service';

/** The one consumer of intake's order queue (one per queue, so each message reaches its handler). */
@Injectable()
export class OrderEventsConsumer implements OnModuleInit {
  constructor(
    private readonly messaging: Messaging,
    private readonly processing: OrderProcessingService,
    private readonly history: OrderStatusHistoryService,
  ) {}

  onModuleInit(): void {
    this.messaging.subscribe(Queues.intakeOrderEvents, (message) => this.handle(message));
  }

  async handle(message: IncomingMessage): Promise<void> {
    switch (message.routingKey) {
      case RoutingKey.OrderReceived:
        return this.processing.process(message);
      case RoutingKey.OrderOpened:
      case RoutingKey.OrderStatusChanged:
      case RoutingKey.OrderCanceled:
        return this.history.record(message);
      default:
        return;
    }
  }
}
