import { Body, Controller, Get, HttpCode, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ListQueryDto } from './dto/list-query.dto';
import { SendOrderDto } from './dto/send-order.dto';
import { OrdersService } from './orders.service';
import { SameOriginJsonGuard } from './same-origin-json.guard';

@ApiTags('orders')
@Controller('api')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Post('send-order')
  @HttpCode(200)
  @UseGuards(SameOriginJsonGuard)
  @ApiOperation({
    summary: 'Send a test order to the intake endpoint',
    description:
      'Content-Type: application/json only (415 otherwise); a browser\'s Origin, when sent, must be the receiver\'s own (403 otherwise). ' +
      '{}: the default order with a fresh orderId. A body with Order fields (items, totals, ...) overrides the default; ' +
      'totals left out are computed from the items. Answers with the status and body the service answered; ' +
      'X-Receiver-Order-Id names the orderId sent. 502 SERVICE_UNREACHABLE when the service cannot be reached.',
  })
  @ApiBody({ type: SendOrderDto, required: false })
  @ApiResponse({ status: 202, description: "The service's answer, passed through (other statuses likewise)" })
  @ApiResponse({ status: 403, description: 'FORBIDDEN: sent from another origin' })
  @ApiResponse({ status: 415, description: 'UNSUPPORTED_MEDIA_TYPE: not application/json' })
  async send(@Body() body: SendOrderDto, @Res() res: Response): Promise<void> {
    const { order, answer } = await this.orders.send({ ...body });
    res.status(answer.status);
    res.setHeader('X-Receiver-Order-Id', order.orderId);
    res.setHeader('X-Receiver-Send-Id', order.sendId);
    if (answer.contentType) res.setHeader('Content-Type', answer.contentType);
    res.send(answer.bodyText);
  }

  @Get('orders')
  @ApiOperation({ summary: 'Sent orders, newest first, each with its current status as the webhooks report it' })
  list(@Query() query: ListQueryDto) {
    return { data: this.orders.list(query.limit) };
  }

  @Get('orders/default')
  @ApiOperation({ summary: 'What POST /api/send-order sends with no body (with a sample orderId)' })
  defaultOrder() {
    return this.orders.defaultOrder();
  }
}
