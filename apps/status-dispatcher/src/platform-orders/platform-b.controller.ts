import { Body, Controller, Headers, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '@courier/contracts';
import { ProblemException } from '@courier/http';
import { isRecord, parsePlatformBOrder, platformBOrderState } from '@courier/platforms';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { isUuid } from '../common/ids';
import { ApiProblems } from '../common/problem.dto';
import { IntegrationDirectory } from '../platform-sessions/integration-directory';
import { callbackUnauthorized, invalidPlatformPayload, presentedKeyMatches, requireActiveIntegration } from './platform-callback.auth';
import { PlatformOrdersService } from './platform-orders.service';

const PLATFORM = 'PLATFORM_B';
const REMOTE_ID = { name: 'remoteId', description: 'The vendor (posVendorId): the integration\'s providerRestaurantId.' };

function bearer(authorization: unknown): string | undefined {
  return typeof authorization === 'string' ? /^Bearer (.+)$/.exec(authorization)?.[1] : undefined;
}

/**
 * PLATFORM_B's POS plugin endpoints, called by the middleware with `Authorization: Bearer
 * PLATFORM_B_PLUGIN_TOKEN`. The plugin base URL to register at the platform is
 * `{pos_url}/platforms/platform-b`.
 */
@ApiTags('platform callbacks')
@ApiHeader({ name: 'Authorization', required: true, description: 'Bearer PLATFORM_B_PLUGIN_TOKEN' })
@ApiProblems([401, 'AUTHENTICATION_FAILED: no Bearer token, or not PLATFORM_B_PLUGIN_TOKEN.'], 400, 413, 500)
@Controller('platforms/platform-b')
export class PlatformBController {
  constructor(
    private readonly config: DispatcherConfig,
    private readonly directory: IntegrationDirectory,
    private readonly orders: PlatformOrdersService,
  ) {}

  @Post('order/:remoteId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'PLATFORM_B order dispatch (POST /order/{remoteId}).',
    description: 'Stored and answered at once with our order id as remoteOrderId. The middleware retries an order it got no answer for; the same token again answers the same remoteOrderId.',
  })
  @ApiParam(REMOTE_ID)
  @ApiBody({ schema: { type: 'object', description: 'The middleware\'s order (token, code, shortCode, customer, delivery, products, price, ...).', additionalProperties: true } })
  @ApiOkResponse({ schema: { type: 'object', properties: { remoteResponse: { type: 'object', properties: { remoteOrderId: { type: 'string', format: 'uuid' } } } } } })
  @ApiProblems([403, 'INTEGRATION_DISABLED: the integration is inactive or the account disabled.'], [404, 'INTEGRATION_NOT_FOUND: no PLATFORM_B integration has this remoteId.'], [422, 'VALIDATION_ERROR: no token, or malformed fields.'])
  async dispatch(@Headers('authorization') authorization: unknown, @Param('remoteId') remoteId: string, @Body() body: unknown) {
    if (!presentedKeyMatches(bearer(authorization), this.config.PLATFORM_B_PLUGIN_TOKEN)) throw callbackUnauthorized('Authorization: Bearer');
    const parsed = parsePlatformBOrder(remoteId, body);
    if (!parsed.ok) throw invalidPlatformPayload(parsed.errors);
    const integration = requireActiveIntegration(await this.directory.forPlatformRestaurant(PLATFORM, remoteId), PLATFORM, remoteId);
    const received = await this.orders.receive(integration, parsed.order);
    return { remoteResponse: { remoteOrderId: received.yemekKuryeOrderId } };
  }

  @Put('remoteId/:remoteId/remoteOrder/:remoteOrderId/posOrderStatus')
  @HttpCode(200)
  @ApiOperation({
    summary: 'PLATFORM_B order status change (cancellations).',
    description: 'status ORDER_CANCELLED cancels the order (order.canceled, OTHER / System, the message as reason); other statuses are acknowledged and ignored. A repeat answers 200.',
  })
  @ApiParam(REMOTE_ID)
  @ApiParam({ name: 'remoteOrderId', description: 'Our order id, as answered to the dispatch.' })
  @ApiBody({ schema: { type: 'object', properties: { status: { type: 'string', example: 'ORDER_CANCELLED' }, message: { type: 'string' }, reason: { type: 'string' } }, required: ['status'] } })
  @ApiOkResponse({ schema: { type: 'object', properties: { status: { type: 'string', example: 'ok' }, result: { type: 'string', enum: ['canceled', 'already_final', 'ignored'] } } } })
  @ApiProblems([404, 'ORDER_NOT_FOUND: no PLATFORM_B order of this remoteId has this remoteOrderId.'], [422, 'VALIDATION_ERROR: no status.'])
  async orderStatus(@Headers('authorization') authorization: unknown, @Param('remoteId') remoteId: string, @Param('remoteOrderId') remoteOrderId: string, @Body() body: unknown) {
    if (!presentedKeyMatches(bearer(authorization), this.config.PLATFORM_B_PLUGIN_TOKEN)) throw callbackUnauthorized('Authorization: Bearer');
    const status = isRecord(body) && typeof body.status === 'string' && body.status.length <= 64 ? body.status : undefined;
    if (!status) throw invalidPlatformPayload([{ field: 'status', message: 'is required (a string of at most 64 characters)' }]);
    const notFound = new ProblemException(404, ErrorCode.OrderNotFound, 'No PLATFORM_B order of this vendor has this remoteOrderId.');
    if (!isUuid(remoteOrderId)) throw notFound;
    if (platformBOrderState(status) !== 'canceled') return { status: 'ok', result: 'ignored' };
    const message = isRecord(body) && typeof body.message === 'string' ? body.message : undefined;
    const result = await this.orders.cancelById(PLATFORM, remoteOrderId.toLowerCase(), remoteId, message);
    if (result === 'unknown') throw notFound;
    return { status: 'ok', result };
  }
}
