import { ApiProperty } from '@nestjs/swagger';

/** The 202 answer (decisions.md); a replay answers exactly the first one. */
export class AcceptedOrderDto {
  @ApiProperty({ enum: ['accepted'], example: 'accepted' })
  status: 'accepted';

  @ApiProperty({ example: 'POS-2025-000123' })
  orderId: string;

  @ApiProperty({ format: 'uuid', description: 'Internal id of the order; the webhooks carry it.' })
  yemekKuryeOrderId: string;

  @ApiProperty({ format: 'date-time', example: '2025-11-21T09:30:00.000Z' })
  receivedAt: string;
}
