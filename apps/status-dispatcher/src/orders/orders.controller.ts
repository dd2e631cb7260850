import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../common/api-problems';
import { INTERNAL_API_KEY_HEADER, InternalApiKeyGuard } from '../internal-auth/internal-api-key.guard';
import { OrderDto, OrderWithItemsDto } from './dto/order.dto';
import { TransitionRequestDto } from './dto/transition-request.dto';
import { OrderLifecycleService } from './order-lifecycle.service';

const ORDER_ID = {
  name: 'yemekKuryeOrderId',
  description: 'The order\'s internal UUID (yemekKuryeOrderId). Unknown or malformed: 404 ORDER_NOT_FOUND.',
  schema: { type: 'string' as const, format: 'uuid' },
};
const NOT_FOUND: [number, string] = [
  404,
  'ORDER_NOT_FOUND: no order has this id (malformed ids included). An intake order is known here once intake\'s GET /api/v1/orders/{orderId} says NEW (it says RECEIVED until then).',
];

/** The lifecycle of THIRD_PARTY orders, for the courier core and operators. */
@ApiTags('orders')
@ApiSecurity(INTERNAL_API_KEY_HEADER)
@ApiProblems(401, 500)
@UseGuards(InternalApiKeyGuard)
@Controller('internal/orders')
export class OrdersController {
  constructor(private readonly lifecycle: OrderLifecycleService) {}

  @Post(':yemekKuryeOrderId/transitions')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Move an order along the order status table.',
    description:
      'Applies `trigger` to the order under its row lock (concurrent requests for one order are served one after the other) and publishes, ' +
      'in the same transaction, order.status_changed for a move not into CANCELED, or only order.canceled for a move into CANCELED ' +
      '(with reason, cancelReasonId, canceledBy). A scheduled order (delivery more than 1 h after intake) accepts APPROVE (the pre-approval) ' +
      'at any time, ROUTE and ASSIGN only from its final approval (delivery time − 1 h). Repeating a move that succeeded answers 409 with the new status.',
  })
  @ApiParam(ORDER_ID)
  @ApiOkResponse({ type: OrderDto, description: 'The order after the move, with its history.' })
  @ApiProblems(
    400,
    NOT_FOUND,
    [
      409,
      'INVALID_TRANSITION: the table does not allow this trigger in the current status (`currentStatus` and `allowedTriggers` say where the order is); ' +
        'ORDER_NOT_DUE: ROUTE or ASSIGN of a scheduled order before its final approval (`currentStatus`, `dueAt`).',
    ],
    413,
    [
      422,
      'VALIDATION_ERROR: unknown trigger or field, wrong types, cancelReasonId/canceledBy without CANCEL or not matching each other, ' +
        'occurredAt without an offset, more than 30 s ahead, or earlier than the order\'s last change.',
    ],
  )
  transition(@Param('yemekKuryeOrderId') yemekKuryeOrderId: string, @Body() body: TransitionRequestDto): Promise<OrderDto> {
    return this.lifecycle.transition(yemekKuryeOrderId, body);
  }

  @Get(':yemekKuryeOrderId')
  @ApiOperation({
    summary: 'An order with its status history and its items in the restaurant\'s product codes.',
    description:
      'A platform order\'s items show the code the catalog links to each platform product at the time of the read (a product linked after the order came ' +
      'shows its code from then on), else the code the platform carried; an item with neither has `productCode: null, mapped: false` (never dropped). ' +
      'A platform order withheld because its integration is not verified by its platform yet is not the account\'s: 404 (operators list it with GET /admin/v1/withheld-orders).',
  })
  @ApiParam(ORDER_ID)
  @ApiOkResponse({ type: OrderWithItemsDto })
  @ApiProblems(NOT_FOUND)
  get(@Param('yemekKuryeOrderId') yemekKuryeOrderId: string): Promise<OrderWithItemsDto> {
    return this.lifecycle.get(yemekKuryeOrderId);
  }
}
