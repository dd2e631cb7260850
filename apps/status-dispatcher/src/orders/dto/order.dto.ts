import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CANCEL_REASON_IDS, CANCELING_PARTIES, HISTORY_TRIGGERS, ORDER_STATUSES } from '@courier/domain';

/** One state of the order: its creation (trigger null, sequence 0) or a move. */
export class OrderStatusChangeDto {
  @ApiProperty({ example: 1, description: '0 at creation, +1 per move; the `sequence` of the change\'s event.' })
  sequence: number;

  @ApiProperty({ enum: ORDER_STATUSES, example: 'VALIDATED' })
  status: string;

  @ApiProperty({ enum: ORDER_STATUSES, nullable: true, example: 'NEW' })
  previousStatus: string | null;

  @ApiProperty({
    enum: HISTORY_TRIGGERS,
    nullable: true,
    example: 'APPROVE',
    description: 'What moved the order: a transition\'s trigger (THIRD_PARTY orders), a status push\'s action, or the platform itself (PLATFORM_CANCEL, PLATFORM_PICKED_UP); null at creation.',
  })
  trigger: string | null;

  @ApiProperty({ example: '2025-06-01T09:30:00.000Z', description: 'Time of the change (UTC), as its event carries it.' })
  timestamp: string;

  @ApiProperty({ nullable: true, type: String })
  reason: string | null;

  @ApiProperty({ enum: CANCEL_REASON_IDS, nullable: true })
  cancelReasonId: string | null;

  @ApiProperty({ enum: CANCELING_PARTIES, nullable: true })
  canceledBy: string | null;
}

/** An order as the internal endpoints return it. */
export class OrderDto {
  @ApiProperty({ format: 'uuid', description: 'The yemekKuryeOrderId.' })
  id: string;

  @ApiProperty({ example: 'POS-10045', description: 'The sender\'s order id.' })
  orderId: string;

  @ApiProperty({ example: '17', description: 'Per-restaurant sequence number (1, 2, ...), as a string.' })
  orderNumber: string;

  @ApiProperty({ example: 'rest_Q2x9...' })
  restaurantId: string;

  @ApiProperty({ example: 'THIRD_PARTY' })
  provider: string;

  @ApiProperty({ description: 'The customer\'s own id for the restaurant.' })
  providerRestaurantId: string;

  @ApiProperty({ enum: ORDER_STATUSES })
  status: string;

  @ApiProperty({ description: 'Number of status changes so far.' })
  sequence: number;

  @ApiProperty({ description: 'When intake accepted the order.' })
  receivedAt: string;

  @ApiProperty({ nullable: true, type: String })
  scheduledDeliveryTime: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'Scheduled orders only: delivery time minus one hour; ROUTE and ASSIGN wait for it.' })
  finalApprovalDueAt: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'When the final approval was marked (order.final_approval_due published).' })
  finalApprovedAt: string | null;

  @ApiProperty({ description: 'Time of the latest status change.' })
  statusChangedAt: string;

  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    example: '2025-06-01T09:35:00.000Z',
    description:
      'Platform orders: when the platform gives up on the order if nobody accepted or rejected it (its accept-by rule, docs/platforms.md "Timing rules"); null for THIRD_PARTY orders and for orders the platform sent already accepted or cancelled.',
  })
  acceptBy: string | null;

  @ApiProperty({
    example: false,
    description: 'True when acceptBy has passed, the order is not finished, and no VERIFY, REJECT or CANCEL of it reached the platform.',
  })
  acceptanceOverdue: boolean;

  @ApiProperty({ type: [OrderStatusChangeDto], description: 'Every state of the order, oldest first.' })
  history: OrderStatusChangeDto[];
}

/** An item of the order in the restaurant's product codes. */
export class OrderItemDto {
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'ADANA-01',
    description:
      'The restaurant\'s product code. Platform orders: the code the catalog links to the item\'s platform product now (GET /api/v1/my/catalog), ' +
      'else the code the platform itself carried (Delivery Hero\'s remoteCode), else null. THIRD_PARTY orders: as the sender gave it.',
  })
  productCode: string | null;

  @ApiProperty({ nullable: true, type: String, example: '60a1b2c3d4e5f60718293a4b', description: 'The platform\'s own id of the product; null for THIRD_PARTY orders (and a platform item that named none).' })
  platformProductId: string | null;

  @ApiProperty({
    example: true,
    description: 'False when no code is known for the item (productCode null): the item is kept and counted, and its platform product listed by GET /api/v1/my/catalog/unmapped until it is linked.',
  })
  mapped: boolean;

  @ApiPropertyOptional({ example: 'Adana Kebap' })
  productName?: string;

  @ApiPropertyOptional({ example: 2 })
  quantity?: number;

  @ApiPropertyOptional({ example: 320 })
  unitPrice?: number;

  @ApiPropertyOptional({ example: 640 })
  totalAmount?: number;

  @ApiPropertyOptional()
  discountAmount?: number;

  @ApiPropertyOptional()
  productNote?: string;

  @ApiPropertyOptional()
  features?: string;
}

/** An order with its items, as GET /internal/orders/{id} returns it. */
export class OrderWithItemsDto extends OrderDto {
  @ApiProperty({ type: [OrderItemDto], description: 'The order\'s items in the restaurant\'s product codes, every item the order has (unmapped ones with `mapped: false`).' })
  items: OrderItemDto[];
}
