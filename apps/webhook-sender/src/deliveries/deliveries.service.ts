import { Injectable } from '@nestjs/common';
import { ErrorCode } from '@courier/contracts';
import { DEFAULT_PAGE_SIZE, ListPosition, ProblemException } from '@courier/http';
import { decodeCursor, encodeCursor, UUID } from '../common/cursor';
import { DeliveriesRepository } from '../repositories/deliveries.repository';
import type { Delivery } from '../repositories/delivery.model';
import { DeliveryPump } from '../sending/delivery-pump';
import { DeliveryDetailDto, DeliveryDto, DeliveryPageDto, ListDeliveriesQueryDto } from './dto/deliveries.dto';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function deliveryView(delivery: Delivery): DeliveryDto {
  return {
    id: delivery.id,
    event: delivery.event,
    orderId: delivery.orderId,
    yemekKuryeOrderId: delivery.yemekKuryeOrderId,
    integrationId: delivery.integrationId,
    status: delivery.status,
    url: delivery.url,
    attemptCount: delivery.attempts,
    nextAttemptAt: iso(delivery.nextAttemptAt),
    lastAttemptAt: iso(delivery.lastAttemptAt),
    lastStatusCode: delivery.lastStatusCode,
    lastError: delivery.lastError,
    deliveredAt: iso(delivery.deliveredAt),
    alertRaisedAt: iso(delivery.alertRaisedAt),
    createdAt: delivery.createdAt.toISOString(),
  };
}

function deliveryNotFound(): ProblemException {
  return new ProblemException(404, ErrorCode.DeliveryNotFound, 'No webhook delivery with this id.');
}

/** The account's delivery log: list, one delivery with its attempts, redelivery. */
@Injectable()
export class DeliveriesService {
  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly pump: DeliveryPump,
  ) {}

  async list(restaurantId: string, query: ListDeliveriesQueryDto): Promise<DeliveryPageDto> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    let after: ListPosition | undefined;
    if (query.cursor !== undefined) {
      after = decodeCursor(query.cursor);
      if (!after) throw new ProblemException(422, ErrorCode.ValidationError, 'The request has invalid fields.', [{ field: 'cursor', message: 'is not a cursor of this list' }]);
    }
    const filter = { status: query.status, event: query.event, orderId: query.orderId, yemekKuryeOrderId: query.yemekKuryeOrderId };
    const rows = await this.deliveries.list(restaurantId, filter, limit + 1, after);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { data: page.map(deliveryView), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
  }

  async get(restaurantId: string, id: string): Promise<DeliveryDetailDto> {
    if (!UUID.test(id)) throw deliveryNotFound();
    const found = await this.deliveries.findWithAttempts(restaurantId, id);
    if (!found) throw deliveryNotFound();
    const { delivery, attempts } = found;
    return {
      ...deliveryView(delivery),
      payload: JSON.parse(delivery.body) as Record<string, unknown>,
      attempts: attempts.map((attempt) => ({
        attempt: attempt.attempt,
        url: attempt.url,
        startedAt: attempt.startedAt.toISOString(),
        statusCode: attempt.statusCode,
        latencyMs: attempt.latencyMs,
        error: attempt.error,
      })),
    };
  }

  /**
   * Sends the delivery again now, with the same webhook id, whatever its status: a new retry cycle
   * begins (schedule, alert and max age count from now). An attempt in flight finishes and hands
   * over to the new cycle (the pump sees the cycle moved on).
   */
  async redeliver(restaurantId: string, id: string): Promise<DeliveryDto> {
    if (!UUID.test(id)) throw deliveryNotFound();
    const redelivered = await this.deliveries.redeliver(restaurantId, id, new Date());
    if (!redelivered) throw deliveryNotFound();
    this.pump.nudge();
    return deliveryView(redelivered);
  }
}
