import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { OwnOriginGuard } from '../origin/own-origin.guard';
import { MoveOrderDto } from './dto/move-order.dto';
import { OrderMovesService } from './order-moves.service';

@ApiTags('orders')
@Controller('api/orders')
export class OrderMovesController {
  constructor(private readonly moves: OrderMovesService) {}

  @Post(':orderId/moves')
  @HttpCode(200)
  @UseGuards(OwnOriginGuard)
  @ApiOperation({
    summary: 'Move a sent order as the courier core does (one step, the whole happy path, or a cancellation)',
    description:
      'Calls the service\'s POST /internal/orders/{yemekKuryeOrderId}/transitions with SERVICE_INTERNAL_API_KEY; each step sends its webhook to this receiver. ' +
      'Needs SERVICE_INTERNAL_URL and SERVICE_INTERNAL_API_KEY (set by the one-machine mode). Same Host, Sec-Fetch-Site and Origin rules as POST /api/send-order (403 FORBIDDEN); the body is JSON.',
  })
  @ApiParam({ name: 'orderId', description: 'The orderId this receiver sent.' })
  @ApiResponse({ status: 200, description: 'The steps made and their answers (a refused step ends the run; its code is in `steps`).' })
  @ApiResponse({ status: 403, description: "FORBIDDEN: not addressed to one of the receiver's host names, or sent from another site or origin" })
  @ApiResponse({ status: 415, description: 'UNSUPPORTED_MEDIA_TYPE: a body that is not application/json' })
  @ApiResponse({ status: 404, description: 'ORDER_NOT_FOUND: this receiver sent no accepted order with this orderId' })
  @ApiResponse({ status: 409, description: 'MOVES_NOT_CONFIGURED: SERVICE_INTERNAL_URL / SERVICE_INTERNAL_API_KEY not set' })
  @ApiResponse({ status: 502, description: 'SERVICE_UNREACHABLE / SERVICE_REFUSED' })
  move(@Param('orderId') orderId: string, @Body() body: MoveOrderDto) {
    return this.moves.move(orderId, body);
  }
}
