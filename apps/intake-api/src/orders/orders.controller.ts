import { Controller, Get, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBasicAuth, ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiProblem } from '@courier/http';
import { CurrentCaller, IntakeAuthGuard, IntakeCaller, IntakeRequest } from '../accounts/intake-auth.guard';
import { RateLimitGuard, RateLimitScope } from '../rate-limit/rate-limit.guard';
import { AcceptedOrderDto } from './dto/accepted-order.dto';
import { OrderStatusDto } from './dto/order-status.dto';
import { INTERNAL_ERROR, RATE_LIMITED, UNAUTHORIZED } from './api-problems';
import { ThirdPartyOrderDto } from './dto/third-party-order.dto';
import { readOrderBody } from './order-request-body';
import { OrdersService } from './orders.service';

export const ORDER_INTAKE_PATH = '/webhook/third-party/order';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * Order intake and order status. Guards run in the check order of decisions.md: authentication
 * (401), then the rate limit (429); the handler then reads the body (415, 413, 400) and the service
 * does the rest (400, 404, 403, 422, 409).
 */
@ApiTags('orders')
@ApiSecurity('X-API-Key')
@ApiBasicAuth()
@ApiProblem(...UNAUTHORIZED)
@ApiProblem(...RATE_LIMITED)
@ApiProblem(...INTERNAL_ERROR)
@UseGuards(IntakeAuthGuard, RateLimitGuard)
@Controller()
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Post(ORDER_INTAKE_PATH)
  @HttpCode(202)
  @RateLimitScope('intake')
  @ApiOperation({
    summary: 'Accept a third-party order (processed asynchronously).',
    description:
      'Checks, in this order: credentials (401), rate limit (429), Content-Type (415), body size (413) and JSON (400 INVALID_PAYLOAD), ' +
      'orderId and restaurantId (400 MISSING_REQUIRED_FIELD), restaurant of the key (404), THIRD_PARTY integration ' +
      'active (403), fields (422), idempotency (409). 202 once the order is durably stored. The same orderId with ' +
      'the same payload (canonical JSON) answers the first 202 again with Idempotent-Replayed: true; an order whose ' +
      'processing failed is accepted again (with a new yemekKuryeOrderId).',
  })
  @ApiBody({ type: ThirdPartyOrderDto })
  @ApiAcceptedResponse({
    type: AcceptedOrderDto,
    description: 'Stored; processing follows. Status via the webhooks or GET /api/v1/orders/{orderId}.',
    headers: { [IDEMPOTENT_REPLAYED_HEADER]: { description: '"true" when this answers an earlier identical request.', schema: { type: 'string' } } },
  })
  @ApiProblem(400, 'INVALID_PAYLOAD: no body, not UTF-8, compressed, invalid JSON, not an object, or nested over 32 levels. MISSING_REQUIRED_FIELD: orderId or restaurantId absent, empty or not a string.')
  @ApiProblem(403, 'INTEGRATION_DISABLED: the restaurant\'s THIRD_PARTY integration is inactive or absent.')
  @ApiProblem(404, 'RESTAURANT_NOT_FOUND: restaurantId is not the restaurant of the API key.')
  @ApiProblem(409, 'DUPLICATE_ORDER_ID: the orderId was already used with a different payload.')
  @ApiProblem(413, 'PAYLOAD_TOO_LARGE: the body is larger than 256 KiB.')
  @ApiProblem(422, 'VALIDATION_ERROR: invalid fields, listed in `errors` as { field, message }.')
  async accept(@Req() request: IntakeRequest, @CurrentCaller() caller: IntakeCaller, @Res({ passthrough: true }) response: Response): Promise<AcceptedOrderDto> {
    const body = await readOrderBody(request);
    const result = await this.orders.accept(caller, body);
    if (result.replayed) response.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return result.body;
  }

  @Get('api/v1/orders/:orderId')
  @RateLimitScope('read')
  @ApiOperation({ summary: 'The order of the authenticated restaurant, its status and its history.' })
  @ApiParam({ name: 'orderId', description: 'The orderId the sender gave at intake.' })
  @ApiOkResponse({ type: OrderStatusDto })
  @ApiProblem(404, 'ORDER_NOT_FOUND: no order with this orderId for the restaurant of the API key.')
  async status(@CurrentCaller() caller: IntakeCaller, @Param('orderId') orderId: string): Promise<OrderStatusDto> {
    return this.orders.status(caller, orderId);
  }
}
