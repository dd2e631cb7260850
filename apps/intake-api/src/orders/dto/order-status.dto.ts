import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export const INTAKE_ORDER_STATUSES = ['RECEIVED', 'NEW', 'VALIDATED', 'ROUTED', 'ASSIGNED', 'ACCEPTED', 'PREPARED', 'ON_DELIVERY', 'DELIVERED', 'CANCELED', 'FAILED'] as const;

export class OrderStatusChangeDto {
  @ApiProperty({ example: 'VALIDATED' })
  status: string;

  @ApiProperty({ nullable: true, type: String, example: 'NEW' })
  previousStatus: string | null;

  @ApiProperty({ format: 'date-time' })
  timestamp: string;
}

/** GET /api/v1/orders/{orderId}: the order, its status and its history. */
export class OrderStatusDto {
  @ApiProperty({ example: 'POS-2025-000123' })
  orderId: string;

  @ApiProperty({ example: 'rest_4f9c2a7d1e8b3c6a5d0f7e21' })
  restaurantId: string;

  @ApiProperty({ format: 'uuid' })
  yemekKuryeOrderId: string;

  @ApiProperty({ nullable: true, type: String, description: 'Per-restaurant order number; null until the courier system assigned it.' })
  orderNumber: string | null;

  @ApiProperty({
    enum: INTAKE_ORDER_STATUSES,
    description:
      'RECEIVED: accepted, and not yet known to the order lifecycle (processing, or its creation in the lifecycle in ' +
      'flight). NEW .. CANCELED: the order status table; from NEW on, POST {pos_url}/internal/orders/{yemekKuryeOrderId}/transitions ' +
      'finds the order (read-your-writes: intake shows NEW only once the lifecycle has created it). FAILED: processing failed ' +
      '(order.canceled OTHER/System was sent); sending the order again retries it.',
  })
  status: (typeof INTAKE_ORDER_STATUSES)[number] | string;

  @ApiProperty({ type: [OrderStatusChangeDto], description: 'Oldest first; starts with NEW once the order lifecycle has created the order.' })
  history: OrderStatusChangeDto[];

  @ApiProperty({ format: 'date-time' })
  receivedAt: string;

  @ApiPropertyOptional({ description: 'Why processing failed (FAILED only).' })
  failureReason?: string;
}
