import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { SameOriginJsonGuard } from '../orders/same-origin-json.guard';
import { MoveOrderDto } from './dto/move-order.dto';
import { OrderMovesService } from './order-moves.service';

@ApiTags('orders')
@Controller('api/orders')
export class OrderMovesController {
  constructor(private readonly moves: OrderMovesService) {}

  @Post(':orderId/moves')
  @HttpCode(200)
  @UseGuards(SameOriginJsonGuard)
  @ApiOperation({
    summary: 'Move a sent order as the courier core does (one step, the whole happy path, or a cancellation)',
    description:
      'Calls the service\'s POST /internal/orders/{yemekKuryeOrderId}/transitions with SERVICE_INTERNAL_API_KEY; each step sends its webhook to this receiver. ' +
      'Needs SERVICE_INTERNAL_URL and SERVICE_INTERNAL_API_KEY (set by the one-machine mode). Content-Type: application/json only; a browser\'s Origin must be the receiver\'s own.',
  })
  @ApiParam({ name: 'orderId', description: 'The orderId this receiver sent.' })
  @ApiResponse({ status: 200, description: 'The steps made and their answers (a refused step ends the run; its code is in `steps`).' })
  @ApiResponse({ status: 404, description: 'ORDER_NOT_FOUND: this receiver sent no accepted order with this orderId' })
  @ApiResponse({ status: 409, description: 'MOVES_NOT_CONFIGURED: SERVICE_INTERNAL_URL / SERVICE_INTERNAL_API_KEY not set' })
  @ApiResponse({ status: 502, description: 'SERVICE_UNREACHABLE / SERVICE_REFUSED' })
  move(@Param('orderId') orderId: string, @Body() body: MoveOrderDto) {
    return this.moves.move(orderId, body);
  }
}
