import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ProblemException } from '@courier/http';
import { ReceiverEvents } from '../events/receiver-events.service';
import { RECEIVER_CONFIG } from '../receiver.tokens';
import { ReceiverConfig } from '../receiver.config';
import { SentOrder, SentOrderView, TrackedOrderView } from '../state/receiver-state';
import { ReceiverStore } from '../state/receiver-state.store';
import { IntakeAnswer, IntakeClient, IntakeUnreachableError } from './intake.client';
import { buildTestOrder, TestOrderInput } from './test-order';

export interface SendResult {
  order: SentOrderView;
  answer: IntakeAnswer;
}

@Injectable()
export class OrdersService {
  private readonly logger = new Logger(OrdersService.name);

  constructor(
    @Inject(RECEIVER_CONFIG) private readonly config: ReceiverConfig,
    private readonly intake: IntakeClient,
    private readonly store: ReceiverStore,
    private readonly events: ReceiverEvents,
  ) {}

  /** A preview of what POST /api/send-order sends with no body. */
  defaultOrder() {
    return buildTestOrder({}, this.config.SERVICE_RESTAURANT_ID);
  }

  /**
   * Sends a test order to the intake endpoint and records it with the service's answer. When the
   * service cannot be reached the attempt is recorded too, and a 502 problem is thrown.
   */
  async send(input: TestOrderInput): Promise<SendResult> {
    const order = buildTestOrder(input, this.config.SERVICE_RESTAURANT_ID);
    const sent: SentOrder = {
      sendId: randomUUID(),
      orderId: order.orderId,
      sentAt: new Date().toISOString(),
      intakeUrl: this.intake.url,
      request: { ...order },
    };
    let answer: IntakeAnswer;
    try {
      answer = await this.intake.send(order);
    } catch (error) {
      if (!(error instanceof IntakeUnreachableError)) throw error;
      sent.error = error.message;
      this.record(sent);
      this.logger.warn({ orderId: order.orderId, url: error.url }, error.message);
      throw new ProblemException(502, 'SERVICE_UNREACHABLE', error.message, undefined, { orderId: order.orderId });
    }
    sent.response = { status: answer.status, body: answer.body };
    const yemekKuryeOrderId = (answer.body as { yemekKuryeOrderId?: unknown } | null)?.yemekKuryeOrderId;
    if (answer.status >= 200 && answer.status < 300 && typeof yemekKuryeOrderId === 'string') sent.yemekKuryeOrderId = yemekKuryeOrderId;
    const view = this.record(sent);
    this.logger.log({ orderId: order.orderId, status: answer.status, yemekKuryeOrderId: sent.yemekKuryeOrderId }, 'test order sent');
    return { order: view, answer };
  }

  list(limit?: number): SentOrderView[] {
    return this.store.state.listOrders(limit);
  }

  tracked(limit?: number): TrackedOrderView[] {
    return this.store.state.listTrackedOrders(limit);
  }

  private record(sent: SentOrder): SentOrderView {
    this.store.state.addOrder(sent);
    this.store.changed();
    const view = this.store.state.view(sent);
    this.events.publish({ type: 'order', data: view });
    return view;
  }
}
