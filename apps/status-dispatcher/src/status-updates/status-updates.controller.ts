import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../common/api-problems';
import { INTERNAL_API_KEY_HEADER, InternalApiKeyGuard } from '../internal-auth/internal-api-key.guard';
import { StatusUpdateRequestDto } from './dto/status-update-request.dto';
import { StatusUpdateAcceptedDto, StatusUpdateDto } from './dto/status-update.dto';
import { StatusPushService } from './status-push.service';
import { StatusUpdatesService } from './status-updates.service';

/** The internal status push of platform orders and the status updates it creates. */
@ApiTags('status push')
@ApiSecurity(INTERNAL_API_KEY_HEADER)
@ApiProblems(401, 500)
@UseGuards(InternalApiKeyGuard)
@Controller('internal')
export class StatusUpdatesController {
  constructor(
    private readonly push: StatusPushService,
    private readonly updates: StatusUpdatesService,
  ) {}

  @Post('orders/status')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Report a status change of a platform order; the platform it came from is told.',
    description:
      'An order withheld because its integration is not verified by its platform yet is refused first (409 ORDER_WITHHELD: nothing is stored or sent; it is released to the account once verified). ' +
      'Guards (first match wins): a repeat of an action already accepted for the order answers 202 with the first statusUpdateId and nothing is sent again (also under concurrent pushes); ' +
      'nothing is accepted for a cancelled order (409 ORDER_CANCELED); VERIFY of an order approved on the platform (409 ALREADY_VERIFIED); DELIVER before PREPARE or HANDOVER (409 DELIVER_BEFORE_PREPARE); ' +
      'on a platform whose rules hold PREPARE after approval, PREPARE within that hold (60 s by default, the platform\'s own setting) of approval is held until then. The order\'s status moves at once (VERIFY → VALIDATED, PREPARE → PREPARED, ' +
      'HANDOVER → ON_DELIVERY, DELIVER → DELIVERED, CANCEL/REJECT → CANCELED) with its events; updates of one order reach the platform in the order they were accepted, ' +
      'retried with backoff on network errors, 429 and 5xx. Follow one with GET /internal/status-updates/{statusUpdateId}. ' +
      'Platform order ids are unique per platform store only: when orders of several stores share providerOrderId, the push must name the restaurant (`restaurantId`), else 409 AMBIGUOUS_PROVIDER_ORDER_ID.',
  })
  @ApiAcceptedResponse({ type: StatusUpdateAcceptedDto })
  @ApiProblems(
    400,
    [404, 'ORDER_NOT_FOUND: no order of this platform has this providerOrderId (of restaurantId\'s restaurant, when given).'],
    [409, 'ORDER_WITHHELD (the order\'s integration is not verified by its platform yet), or DELIVER_BEFORE_PREPARE, ALREADY_VERIFIED or ORDER_CANCELED (guards 1-3); `currentStatus` is the order\'s status. AMBIGUOUS_PROVIDER_ORDER_ID: orders of several platform stores have this providerOrderId and no restaurantId names one.'],
    413,
    [422, 'VALIDATION_ERROR: missing or unknown fields, unknown action or platform, previousStatus not an order status, reason empty or over 500 characters, restaurantId not a restaurant id.'],
  )
  create(@Body() body: StatusUpdateRequestDto): Promise<StatusUpdateAcceptedDto> {
    return this.push.push(body);
  }

  @Get('status-updates/:statusUpdateId')
  @ApiOperation({ summary: 'A status update: queued, held (releaseAt), sent, retrying (nextAttemptAt), failed or skipped, with attempts and the platform\'s last answer.' })
  @ApiParam({ name: 'statusUpdateId', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: StatusUpdateDto })
  @ApiProblems([404, 'STATUS_UPDATE_NOT_FOUND: no status update has this id (malformed ids included).'])
  get(@Param('statusUpdateId') statusUpdateId: string): Promise<StatusUpdateDto> {
    return this.updates.get(statusUpdateId);
  }
}
