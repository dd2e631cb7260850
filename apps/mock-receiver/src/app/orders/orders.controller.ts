import { Body, Controller, Get, HttpCode, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ListQueryDto } from './dto/list-query.dto';
import { SendOrderDto } from './dto/send-order.dto';
import { OrdersService } from './orders.service';
import { OwnOriginGuard } from '../origin/own-origin.guard';

@ApiTags('orders')
@Controller('api')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Post('send-order')
  @HttpCode(200)
  @UseGuards(OwnOriginGuard)
  @ApiOperation({
    summary: 'Send a test order to the intake endpoint',
    description:
      'No body (or {}): the default order with a fresh orderId. A JSON body with Order fields (items, totals, ...) overrides the default; ' +
      'totals left out are computed from the items. Answers with the status and body the service answered; ' +
      'X-Receiver-Order-Id names the orderId sent. 502 SERVICE_UNREACHABLE when the service cannot be reached. ' +
      'Refused with 403 FORBIDDEN: a Host that is not one of the receiver\'s names (localhost, 127.0.0.1, [::1] on its port, RECEIVER_ALLOWED_HOSTS), ' +
      'a browser request from another site (Sec-Fetch-Site other than same-origin or none, or an Origin other than the receiver\'s own). ' +
      'A non-empty body other than JSON: 415.',
  })
  @ApiBody({ type: SendOrderDto, required: false })
  @ApiResponse({ status: 202, description: "The service's answer, passed through (other statuses likewise)" })
  @ApiResponse({ status: 403, description: "FORBIDDEN: not addressed to one of the receiver's host names, or sent from another site or origin" })
  @ApiResponse({ status: 415, description: 'UNSUPPORTED_MEDIA_TYPE: a non-empty body that is not application/json' })
  async send(@Body() body: SendOrderDto, @Res() res: Response): Promise<void> {
    const { order, answer } = await this.orders.send({ ...body });
    res.status(answer.status);
    res.setHeader('X-Receiver-Order-Id', order.orderId);
    res.setHeader('X-Receiver-Send-Id', order.sendId);
    if (answer.contentType) res.setHeader('Content-Type', answer.contentType);
    res.send(answer.bodyText);
  }

  @Get('orders')
  @ApiOperation({
    summary: 'Sent orders, newest first, each with its current status as the webhooks report it',
    description: 'provider: what the status webhooks carry; statusHistory: newest first by timestamp, a status whose webhook arrived after a later one marked late: true.',
  })
  list(@Query() query: ListQueryDto) {
    return { data: this.orders.list(query.limit) };
  }

  @Get('tracked-orders')
  @ApiOperation({
    summary: 'Every order the webhooks reported, sent from here or not (platform orders, orders sent with curl)',
    description:
      'The order whose status was applied last first: provider (THIRD_PARTY, or the platform a platform order came from), status, statusAt, ' +
      'statusHistory newest first by timestamp (a status whose webhook arrived after a later one is in its place with late: true), cancel, and sentHere.',
  })
  trackedOrders(@Query() query: ListQueryDto) {
    return { data: this.orders.tracked(query.limit) };
  }

  @Get('orders/default')
  @ApiOperation({ summary: 'What POST /api/send-order sends with no body (with a sample orderId)' })
  defaultOrder() {
    return this.orders.defaultOrder();
  }
}
