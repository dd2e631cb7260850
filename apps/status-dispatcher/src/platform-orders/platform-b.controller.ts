import { Body, Controller, Get, HttpCode, Logger, Param, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ErrorCode, FieldError } from '@courier/contracts';
import { ProblemException } from '@courier/http';
import { isRecord, parsePlatformBOrder, PLATFORM_B_CANCELLED_STATUS, PLATFORM_B_PICKED_UP_STATUS, PLATFORM_B_UNPROCESSABLE_REASON } from '@courier/platforms';
import { isUuid } from '../common/ids';
import { ApiProblems } from '../common/api-problems';
import { IntegrationDirectory } from '../platform-sessions/integration-directory';
import { PlatformBPluginGuard } from './platform-b-plugin.guard';
import { PlatformBPluginService, readClosures } from './platform-b-plugin.service';
import { requireActiveIntegration } from './platform-callback.auth';
import { PlatformOrdersService } from './platform-orders.service';

const PLATFORM = 'PLATFORM_B';
const REMOTE_ID = { name: 'remoteId', description: 'The vendor (posVendorId): the integration\'s providerRestaurantId.' };

/** A payload the plugin cannot process: 400 `{ reason, message }` as the middleware reads it (it does not retry a 400), with our problem fields. */
function unprocessable(message: string, errors?: FieldError[]): ProblemException {
  return new ProblemException(400, ErrorCode.ValidationError, message, errors, { reason: PLATFORM_B_UNPROCESSABLE_REASON, message });
}

/**
 * PLATFORM_B's POS plugin endpoints, called by the DH middleware; each call carries a JWT signed with
 * PLATFORM_B_PLUGIN_SECRET (PlatformBPluginGuard). The plugin base URL to register at the platform
 * is `{pos_url}/platforms/platform-b`.
 */
@ApiTags('platform callbacks')
@ApiBearerAuth('bearerJwt')
@ApiProblems([401, 'AUTHENTICATION_FAILED (reason UNAUTHORIZED): no JWT, or not HMAC-signed with PLATFORM_B_PLUGIN_SECRET, alg not HS256/384/512, no service "middleware" claim, or expired.'], 413, 500)
@UseGuards(PlatformBPluginGuard)
@Controller('platforms/platform-b')
export class PlatformBController {
  private readonly logger = new Logger('PlatformBPlugin');

  constructor(
    private readonly directory: IntegrationDirectory,
    private readonly orders: PlatformOrdersService,
    private readonly plugin: PlatformBPluginService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'PLATFORM_B plugin health check (GET /).' })
  @ApiOkResponse({ schema: { type: 'object', properties: { status: { type: 'string', example: 'ok' } } } })
  health() {
    return { status: 'ok' };
  }

  @Post('order/:remoteId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'PLATFORM_B order dispatch (POST /order/{remoteId}).',
    description:
      'Stored and answered at once with our order id as remoteOrderId; the same token again (for the same vendor) answers the same remoteOrderId; another vendor\'s order with the same token is that vendor\'s own. A test order (`test: true`) is answered alike but kept apart (table platform_test_orders): never an order of the courier core. A payload we cannot process: 400 `{ reason, message }` (not retried by the middleware); a storage failure: 500 (retried).',
  })
  @ApiParam(REMOTE_ID)
  @ApiBody({ schema: { type: 'object', description: 'The middleware\'s order (token, code, shortCode, expeditionType, test, expiryDate, customer, delivery, products, price, callbackUrls, ...).', additionalProperties: true } })
  @ApiOkResponse({ schema: { type: 'object', properties: { remoteResponse: { type: 'object', properties: { remoteOrderId: { type: 'string', format: 'uuid' } } } } } })
  @ApiProblems(
    [400, 'VALIDATION_ERROR with reason/message: no token, or malformed fields.'],
    [403, 'INTEGRATION_DISABLED: the integration is inactive or the account disabled.'],
    [404, 'INTEGRATION_NOT_FOUND: no PLATFORM_B integration has this remoteId.'],
    [409, 'PLATFORM_ORDER_OF_ANOTHER_INTEGRATION: this vendor\'s order with this token was received for another integration (the vendor\'s integration replaced).'],
  )
  async dispatch(@Param('remoteId') remoteId: string, @Body() body: unknown) {
    const parsed = parsePlatformBOrder(remoteId, body);
    if (!parsed.ok) throw unprocessable(`The order cannot be processed: ${parsed.errors.map((error) => `${error.field} ${error.message}`).join('; ')}`.slice(0, 500), parsed.errors);
    const integration = requireActiveIntegration(await this.directory.forPlatformRestaurant(PLATFORM, remoteId), PLATFORM, remoteId);
    if (parsed.order.test) return { remoteResponse: { remoteOrderId: await this.plugin.receiveTestOrder(integration, parsed.order) } };
    const received = await this.orders.receive(integration, parsed.order);
    return { remoteResponse: { remoteOrderId: received.yemekKuryeOrderId } };
  }

  @Put('remoteId/:remoteId/remoteOrder/:remoteOrderId/posOrderStatus')
  @HttpCode(200)
  @ApiOperation({
    summary: 'PLATFORM_B order status change (posOrderStatus).',
    description:
      'ORDER_CANCELLED cancels the order (order.canceled, OTHER / System, the message as reason); ORDER_PICKED_UP (the platform\'s rider or the customer collected it) moves it on to ON_DELIVERY; other statuses (rider arrived, waiting warnings, modification results; the list grows) are acknowledged. A repeat answers 200. For a test order the status is recorded there.',
  })
  @ApiParam(REMOTE_ID)
  @ApiParam({ name: 'remoteOrderId', description: 'Our order id, as answered to the dispatch.' })
  @ApiBody({ schema: { type: 'object', properties: { status: { type: 'string', example: 'ORDER_CANCELLED' }, message: { type: 'string' } }, required: ['status'] } })
  @ApiOkResponse({ schema: { type: 'object', properties: { status: { type: 'string', example: 'ok' }, result: { type: 'string', enum: ['canceled', 'already_final', 'picked_up', 'already', 'ignored', 'test_order'] } } } })
  @ApiProblems([400, 'VALIDATION_ERROR with reason/message: no status.'], [404, 'ORDER_NOT_FOUND: no PLATFORM_B order of this remoteId has this remoteOrderId.'])
  async orderStatus(@Param('remoteId') remoteId: string, @Param('remoteOrderId') remoteOrderId: string, @Body() body: unknown) {
    const status = isRecord(body) && typeof body.status === 'string' && body.status.length > 0 && body.status.length <= 64 ? body.status.toUpperCase() : undefined;
    if (!status) throw unprocessable('status is required (a string of at most 64 characters)', [{ field: 'status', message: 'is required (a string of at most 64 characters)' }]);
    const message = isRecord(body) && typeof body.message === 'string' ? body.message : undefined;
    const notFound = new ProblemException(404, ErrorCode.OrderNotFound, 'No PLATFORM_B order of this vendor has this remoteOrderId.');
    if (!isUuid(remoteOrderId)) throw notFound;
    const id = remoteOrderId.toLowerCase();
    let result: string;
    if (status === PLATFORM_B_CANCELLED_STATUS) result = await this.orders.cancelById(PLATFORM, id, remoteId, message);
    else if (status === PLATFORM_B_PICKED_UP_STATUS) result = await this.orders.pickedUpById(PLATFORM, id, remoteId);
    else result = (await this.orders.existsById(PLATFORM, id, remoteId)) ? 'ignored' : 'unknown';
    if (result === 'unknown') {
      if (!(await this.plugin.testOrderStatus(PLATFORM, id, remoteId, status, message))) throw notFound;
      result = 'test_order';
    }
    if (result === 'ignored') this.logger.log({ platform: PLATFORM, yemekKuryeOrderId: id, status }, 'PLATFORM_B order status acknowledged; nothing to change');
    return { status: 'ok', result };
  }

  @Put('remoteId/:remoteId/availability')
  @HttpCode(200)
  @ApiOperation({
    summary: 'PLATFORM_B vendor availability (the platform opened or closed the vendor).',
    description: 'Body `{ timestamp, closures: [{ reason, start, end?, changeable }] }`: the vendor is closed while a closure covers now. Recorded per vendor (newest report wins) and logged; answered 200 at once.',
  })
  @ApiParam(REMOTE_ID)
  @ApiOkResponse({ description: 'Recorded (empty body).' })
  @ApiProblems([400, 'VALIDATION_ERROR with reason/message: malformed closures.'], [404, 'INTEGRATION_NOT_FOUND: no PLATFORM_B integration has this remoteId.'])
  async availability(@Param('remoteId') remoteId: string, @Body() body: unknown): Promise<void> {
    const read = readClosures(body);
    if ('errors' in read) throw unprocessable('The availability cannot be processed: malformed closures.', read.errors);
    await this.plugin.recordAvailability(this.knownVendor(await this.directory.forPlatformRestaurant(PLATFORM, remoteId), remoteId), read.closures, read.timestamp);
  }

  @Get('menuimport/:remoteId')
  @HttpCode(202)
  @ApiOperation({
    summary: 'PLATFORM_B menu import request.',
    description: 'Answered 202 without a body, as the middleware expects. The menu push back through the middleware API is not built: the request is logged only.',
  })
  @ApiParam(REMOTE_ID)
  @ApiAcceptedResponse({ description: 'Request taken (logged).' })
  @ApiProblems([404, 'INTEGRATION_NOT_FOUND: no PLATFORM_B integration has this remoteId.'])
  async menuImport(@Param('remoteId') remoteId: string, @Query('vendorCode') vendorCode: unknown, @Query('menuImportId') menuImportId: unknown): Promise<void> {
    const integration = this.knownVendor(await this.directory.forPlatformRestaurant(PLATFORM, remoteId), remoteId);
    this.logger.warn(
      { platform: PLATFORM, integrationId: integration.integrationId, providerRestaurantId: remoteId, vendorCode: typeof vendorCode === 'string' ? vendorCode.slice(0, 100) : undefined, menuImportId: typeof menuImportId === 'string' ? menuImportId.slice(0, 100) : undefined },
      'PLATFORM_B asked for the menu; sending menus to the platform is not built, nothing is sent',
    );
  }

  private knownVendor<T>(integration: T | undefined, remoteId: string): T {
    if (!integration) throw new ProblemException(404, ErrorCode.IntegrationNotFound, `No ${PLATFORM} integration has the restaurant ${remoteId}.`);
    return integration;
  }
}
