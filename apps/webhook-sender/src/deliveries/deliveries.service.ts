import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ErrorCode } from '@courier/contracts';
import { DEFAULT_PAGE_SIZE, ProblemException } from '@courier/http';
import { decodeCursor, encodeCursor, UUID } from '../common/cursor';
import { DeliveryPump } from '../sending/delivery-pump';
import { hostKeySql } from '../sending/host-limiter';
import { DeliveryDetailDto, DeliveryDto, DeliveryPageDto, ListDeliveriesQueryDto } from './dto/deliveries.dto';
import { WebhookAttemptEntity } from './webhook-attempt.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function deliveryView(delivery: WebhookDeliveryEntity): DeliveryDto {
  return {
    id: delivery.id,
    event: delivery.event,
    orderId: delivery.orderId,
    yemekKuryeOrderId: delivery.yemekKuryeOrderId,
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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly pump: DeliveryPump,
  ) {}

  async list(restaurantId: string, query: ListDeliveriesQueryDto): Promise<DeliveryPageDto> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const builder = this.dataSource
      .getRepository(WebhookDeliveryEntity)
      .createQueryBuilder('d')
      .where('d.restaurantId = :restaurantId', { restaurantId })
      .orderBy('d.createdAt', 'DESC')
      .addOrderBy('d.id', 'DESC')
      .limit(limit + 1);
    if (query.status) builder.andWhere('d.status = :status', { status: query.status });
    if (query.event) builder.andWhere('d.event = :event', { event: query.event });
    if (query.orderId !== undefined) builder.andWhere('d.orderId = :orderId', { orderId: query.orderId });
    if (query.yemekKuryeOrderId !== undefined) builder.andWhere('d.yemekKuryeOrderId = :yemekKuryeOrderId', { yemekKuryeOrderId: query.yemekKuryeOrderId });
    if (query.cursor !== undefined) {
      const position = decodeCursor(query.cursor);
      if (!position) throw new ProblemException(422, ErrorCode.ValidationError, 'The request has invalid fields.', [{ field: 'cursor', message: 'is not a cursor of this list' }]);
      builder.andWhere('(d.created_at, d.id) < (:createdAt, :id)', { createdAt: position.createdAt, id: position.id });
    }
    const rows = await builder.getMany();
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { data: page.map(deliveryView), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
  }

  async get(restaurantId: string, id: string): Promise<DeliveryDetailDto> {
    if (!UUID.test(id)) throw deliveryNotFound();
    // One snapshot for both reads, so the attempts always match the delivery's counters.
    const { delivery, attempts } = await this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const found = await manager.findOne(WebhookDeliveryEntity, { where: { id, restaurantId } });
      if (!found) throw deliveryNotFound();
      return { delivery: found, attempts: await manager.find(WebhookAttemptEntity, { where: { deliveryId: id }, order: { attempt: 'ASC' } }) };
    });
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
    const now = new Date();
    // The answer is read in the redelivery's own transaction: the pump cannot see the queued row
    // before the commit, so the answer is the state the redelivery made (pending), never a later one.
    const redelivered = await this.dataSource.transaction(async (manager) => {
      const updated: unknown[] = await manager.query(
        `WITH redelivered AS (
           UPDATE webhook_deliveries SET status = 'pending', cycle = cycle + 1, cycle_started_at = $3, cycle_failures = 0, next_attempt_at = $3, updated_at = now()
            WHERE id = $1 AND restaurant_id = $2 RETURNING id, url
         )
         -- An attempt in flight keeps its lease; its result then finds the cycle moved on and leaves the row due now.
         INSERT INTO webhook_delivery_queue (delivery_id, host, due_at) SELECT id, coalesce(${hostKeySql('url')}, ''), $3 FROM redelivered
         ON CONFLICT (delivery_id) DO UPDATE SET due_at = EXCLUDED.due_at
         RETURNING delivery_id`,
        [id, restaurantId, now],
      );
      return updated.length === 0 ? null : manager.getRepository(WebhookDeliveryEntity).findOne({ where: { id, restaurantId } });
    });
    if (!redelivered) throw deliveryNotFound();
    this.pump.nudge();
    return deliveryView(redelivered);
  }

  private async find(restaurantId: string, id: string): Promise<WebhookDeliveryEntity> {
    if (!UUID.test(id)) throw deliveryNotFound();
    const delivery = await this.dataSource.getRepository(WebhookDeliveryEntity).findOne({ where: { id, restaurantId } });
    if (!delivery) throw deliveryNotFound();
    return delivery;
  }
}
