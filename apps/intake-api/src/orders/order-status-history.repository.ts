import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OrderStatusChange } from './intake-order';

interface StatusChangeRow {
  yemek_kurye_order_id: string;
  sequence: number;
  status: string;
  previous_status: string | null;
  order_number: string | null;
  occurred_at: Date;
}

/** intake's `order_status_history` table: what GET /api/v1/orders/{orderId} shows after processing. */
@Injectable()
export class OrderStatusHistoryRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records a status change of an order intake knows; false when it was already recorded or the
   * order is not intake's. One CTE with the order's number: the status read never shows a history
   * entry without the order number it came with.
   */
  async record(change: OrderStatusChange): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH recorded AS (
         INSERT INTO order_status_history (yemek_kurye_order_id, sequence, status, previous_status, order_number, occurred_at)
         SELECT $1, $2, $3, $4, $5, $6 WHERE EXISTS (SELECT 1 FROM orders WHERE yemek_kurye_order_id = $1)
         ON CONFLICT (yemek_kurye_order_id, sequence) DO NOTHING
         RETURNING 1
       ), numbered AS (
         UPDATE orders SET order_number = $5
          WHERE yemek_kurye_order_id = $1 AND $5::text IS NOT NULL AND order_number IS DISTINCT FROM $5::text
       )
       SELECT 1 FROM recorded`,
      [change.yemekKuryeOrderId, change.sequence, change.status, change.previousStatus, change.orderNumber, change.occurredAt],
    );
    return rows.length > 0;
  }

  /** The order's status changes, oldest first. */
  async history(yemekKuryeOrderId: string): Promise<OrderStatusChange[]> {
    const rows: StatusChangeRow[] = await this.dataSource.query(
      'SELECT yemek_kurye_order_id, sequence, status, previous_status, order_number, occurred_at FROM order_status_history WHERE yemek_kurye_order_id = $1 ORDER BY sequence',
      [yemekKuryeOrderId],
    );
    return rows.map((row) => ({
      yemekKuryeOrderId: row.yemek_kurye_order_id,
      sequence: row.sequence,
      status: row.status,
      previousStatus: row.previous_status,
      orderNumber: row.order_number,
      occurredAt: row.occurred_at,
    }));
  }
}
