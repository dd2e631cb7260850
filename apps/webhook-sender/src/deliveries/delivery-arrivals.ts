import { currentCorrelationId } from '@courier/logging';
import { IncomingMessage, traceHeaders } from '@courier/messaging';
import { WriteCoalescer } from '@courier/persistence';
import { DeliveriesRepository } from '../repositories/deliveries.repository';
import type { DeliveryArrival, StoredDelivery } from '../repositories/delivery.model';
import { DeliveryPump } from '../sending/delivery-pump';
import type { WebhookDraft } from './webhook-payload';

/** A webhook with the message it came from, its correlation id and trace: read in the message's scope (the batch is written later, outside it). */
export function arrivalOf(webhook: WebhookDraft, message: Pick<IncomingMessage, 'messageId'>): DeliveryArrival {
  return { ...webhook, messageId: message.messageId, correlationId: currentCorrelationId() ?? null, traceparent: traceHeaders().traceparent ?? null };
}

/**
 * Stores a consumer's new deliveries: each message's inbox row (under `consumer`) and delivery in one
 * statement (a redelivered message does nothing), messages that arrive together in one batch (one
 * message alone when a batch fails), and hands the ones that fit to the pump at once.
 */
export class DeliveryArrivals {
  private readonly batches = new WriteCoalescer<DeliveryArrival, void>(
    async (arrivals) => {
      await this.store(arrivals);
      return arrivals.map(() => undefined);
    },
    { maxBatch: 100, maxInFlight: 3 },
  );

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly pump: DeliveryPump,
    private readonly consumer: string,
  ) {}

  submit(arrival: DeliveryArrival): Promise<void> {
    return this.batches.submit(arrival);
  }

  private async store(arrivals: DeliveryArrival[]): Promise<void> {
    // Free slots of the pump: the new deliveries that fit are leased by the store statement and started at once,
    // which saves the pump a claim per delivery (measured: docs/benchmarks.md).
    const handover = this.pump.reserve(arrivals.length);
    let stored: StoredDelivery[] = [];
    try {
      stored = await this.deliveries.store(this.consumer, arrivals, handover);
    } finally {
      this.pump.start(
        handover,
        stored.filter((delivery) => delivery.handedOver),
      );
    }
    // Queued without a lease (no free slot, or their host is busy): the pump claims them.
    if (stored.some((delivery) => !delivery.handedOver)) this.pump.nudge();
  }
}
