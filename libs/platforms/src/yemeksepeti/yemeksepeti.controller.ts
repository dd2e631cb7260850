import { Body, Controller, Get, HttpCode, Logger, Param, Post, Put, Query, UseFilters, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ErrorCode, FieldError } from '@courier/contracts';
import { apiProblemsDecorator, ProblemDto, ProblemException, RATE_LIMIT_HEADER_DOCS } from '@courier/http';
import { STATUS_CODES } from 'node:http';
import { isRecord } from '../common/payload-reader';
import { InboundIntegration, PlatformOrderIntake, VendorClosure } from '../common/platform-order-intake';
import { PlatformBPluginAnswerFilter } from './yemeksepeti-plugin-answer.filter';
import { PlatformBPluginGuard } from './yemeksepeti-plugin.guard';
import { PLATFORM_B_CANCELLED_STATUS, PLATFORM_B_PICKED_UP_STATUS, PLATFORM_B_UNPROCESSABLE_REASON } from './yemeksepeti.assumptions';
import { parsePlatformBOrder } from './yemeksepeti.orders';
import { PLATFORM_B_PLUGIN_STATUSES, platformBVendorRefusal, PlatformBVendorState } from './yemeksepeti.plugin-answers';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Canonical UUID text only: anything else is an id that cannot exist. */
function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** `closures` of an availability body, each checked; a field error list when malformed. */
export function readClosures(body: unknown): { closures: VendorClosure[]; timestamp: Date | null } | { errors: Array<{ field: string; message: string }> } {
  if (!isRecord(body)) return { errors: [{ field: 'body', message: 'must be a JSON object' }] };
  const raw = body.closures ?? [];
  if (!Array.isArray(raw) || raw.length > 100) return { errors: [{ field: 'closures', message: 'must be an array of at most 100 closures' }] };
  const errors: Array<{ field: string; message: string }> = [];
  const closures: VendorClosure[] = [];
  raw.forEach((closure, index) => {
    const start = isRecord(closure) ? closure.start : undefined;
    const end = isRecord(closure) ? closure.end : undefined;
    if (!isRecord(closure) || typeof start !== 'string' || Number.isNaN(Date.parse(start)) || (end !== undefined && end !== null && (typeof end !== 'string' || Number.isNaN(Date.parse(end))))) {
      errors.push({ field: `closures[${index}]`, message: 'needs start (date-time) and, when given, end (date-time)' });
      return;
    }
    closures.push({ reason: typeof closure.reason === 'string' ? closure.reason.slice(0, 100) : 'UNKNOWN', start, end: (end as string | null | undefined) ?? null, changeable: closure.changeable === true });
  });
  const timestamp = typeof body.timestamp === 'string' && !Number.isNaN(Date.parse(body.timestamp)) ? new Date(body.timestamp) : null;
  return errors.length ? { errors } : { closures, timestamp };
}

const PLATFORM = 'PLATFORM_B';
export const REMOTE_ID = { name: 'remoteId', description: 'The vendor (posVendorId): the integration\'s providerRestaurantId.' };

/** A payload the plugin cannot process: 400 `{ reason, message }` as the middleware reads it (it does not retry a 400), with our problem fields. */
export function unprocessable(message: string, errors?: FieldError[]): ProblemException {
  return new ProblemException(400, ErrorCode.ValidationError, message, errors, { reason: PLATFORM_B_UNPROCESSABLE_REASON, message });
}

const VENDOR_REFUSALS: Record<PlatformBVendorState, { code: ErrorCode; message: (remoteId: string) => string }> = {
  unknown: { code: ErrorCode.IntegrationNotFound, message: (remoteId) => `No ${PLATFORM} integration has the vendor ${remoteId} yet; retry.` },
  gone: { code: ErrorCode.IntegrationNotFound, message: (remoteId) => `The vendor ${remoteId} is no longer connected here (its integration was deleted or moved to another account).` },
  paused: { code: ErrorCode.IntegrationDisabled, message: (remoteId) => `Order intake from ${PLATFORM} is paused for the vendor ${remoteId} (integration inactive or account disabled).` },
};

/** A vendor without a live (active) integration, answered as platformBVendorRefusal decides, with our code. */
export function vendorRefused(state: PlatformBVendorState, remoteId: string): ProblemException {
  const { status, reason } = platformBVendorRefusal(state);
  const message = VENDOR_REFUSALS[state].message(remoteId.slice(0, 100));
  return new ProblemException(status, VENDOR_REFUSALS[state].code, message, undefined, { reason, message });
}

/** Our problem JSON as the middleware gets it from the plugin: DH's `{ reason, message }` beside our fields. */
export class PluginProblemDto extends ProblemDto {
  @ApiProperty({ example: 'MENU_ACCOUNT_SETTINGS', description: 'DH\'s reason: UNAUTHORIZED on a 401; on a 400 MENU_ACCOUNT_SETTINGS, or CLOSED for a paused integration; TECHNICAL_PROBLEM on a 429 or 500.' })
  reason: string;

  @ApiProperty({ example: 'The order cannot be processed: token is required', description: 'DH\'s message: what went wrong (the detail).' })
  message: string;
}

const pluginProblem = (status: number, code: string, reason: string, detail: string) => ({
  schema: PluginProblemDto,
  example: {
    type: `https://docs.courier-integration.dev/problems/${code.toLowerCase().replace(/_/g, '-')}`,
    title: STATUS_CODES[status],
    status,
    detail,
    code,
    reason,
    message: detail,
    requestId: '3f0c2a49-3d1b-4a3c-9d0e-3c0b9a1f2e11',
  },
});

/**
 * The plugin's refusals (PlatformBPluginAnswerFilter): only statuses of PLATFORM_B_PLUGIN_STATUSES;
 * the middleware retries 429 and 5xx, never 400 or 401 (docs/platform-dispatch.md has the table).
 */
export const ApiPluginProblems = apiProblemsDecorator({
  descriptions: {
    400: 'Not retried by the middleware. VALIDATION_ERROR: malformed fields; INVALID_PAYLOAD: not JSON or nested more than 32 levels (refused before parsing); PAYLOAD_TOO_LARGE: over 256 KiB; UNSUPPORTED_MEDIA_TYPE: not UTF-8 or compressed.',
    401: 'AUTHENTICATION_FAILED (reason UNAUTHORIZED): no JWT, or not HMAC-signed (HS256/384/512 only) with PLATFORM_B_PLUGIN_SECRET, no service "middleware" claim, expired, or an unknown `crit` header. Checked before the body is read.',
    429: 'RATE_LIMIT_EXCEEDED (reason TECHNICAL_PROBLEM): a JWT that does not verify, from an address with too many failed authentications this minute (Retry-After: the rest of the minute); retried by the middleware. A valid JWT is never refused this way.',
    500: 'Retried by the middleware (reason TECHNICAL_PROBLEM): a storage failure, or the vendor cannot be resolved to one integration right now.',
  },
  extensions: {
    400: pluginProblem(400, 'VALIDATION_ERROR', 'MENU_ACCOUNT_SETTINGS', 'The order cannot be processed: token is required'),
    401: pluginProblem(401, 'AUTHENTICATION_FAILED', 'UNAUTHORIZED', 'Authorization: Bearer <JWT> is missing, or not signed with the plugin secret for service "middleware", or expired, or names an unknown critical header.'),
    429: pluginProblem(429, 'RATE_LIMIT_EXCEEDED', 'TECHNICAL_PROBLEM', 'Too many failed authentication attempts from this address or for this key; retry after the Retry-After seconds.'),
    500: pluginProblem(500, 'INTEGRATION_NOT_FOUND', 'TECHNICAL_PROBLEM', 'No PLATFORM_B integration has the vendor ys-vendor-9 yet; retry.'),
  },
  headers: { 429: RATE_LIMIT_HEADER_DOCS },
});
export const UNKNOWN_VENDOR = 'INTEGRATION_NOT_FOUND: no integration has this remoteId yet, and none had it (being set up, or our read model behind): retried by the middleware.';
export const GONE_VENDOR = 'INTEGRATION_NOT_FOUND (reason MENU_ACCOUNT_SETTINGS): the integrations that had this remoteId were deleted or moved to another account: not retried.';

/**
 * PLATFORM_B's POS plugin endpoints, called by the DH middleware; each call carries a JWT signed with
 * PLATFORM_B_PLUGIN_SECRET (PlatformBPluginGuard). The plugin base URL to register at the platform
 * is `{pos_url}/platforms/platform-b`. Every answer is one the middleware expects
 * (PLATFORM_B_PLUGIN_STATUSES, PlatformBPluginAnswerFilter).
 */
@ApiTags('platform callbacks')
@ApiBearerAuth('bearerJwt')
@ApiExtraModels(PluginProblemDto)
@ApiPluginProblems(400, 401, 429, 500)
@UseGuards(PlatformBPluginGuard)
@UseFilters(PlatformBPluginAnswerFilter)
@Controller('platforms/platform-b')
export class PlatformBController {
  private readonly logger = new Logger('PlatformBPlugin');

  constructor(private readonly orders: PlatformOrderIntake) {}

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
      'Stored and answered at once with our order id as remoteOrderId; the same token again (for the same vendor) answers the same remoteOrderId; another vendor\'s order with the same token is that vendor\'s own. A test order (`test: true`) is answered alike but kept apart (table platform_test_orders): never an order of the courier core. ' +
      'A payload we cannot process: 400 `{ reason, message }` (not retried by the middleware); a storage failure or a vendor we may know soon: 500 (retried); a vendor whose integration was deleted or moved, or is paused, and this vendor\'s order received for another integration (PLATFORM_ORDER_OF_ANOTHER_INTEGRATION): 400. ' +
      `Only ${PLATFORM_B_PLUGIN_STATUSES.join(', ')} are ever answered.`,
  })
  @ApiParam(REMOTE_ID)
  @ApiBody({ schema: { type: 'object', description: 'The middleware\'s order (token, code, shortCode, expeditionType, test, expiryDate, customer, delivery, products, price, callbackUrls, ...).', additionalProperties: true } })
  @ApiOkResponse({ schema: { type: 'object', properties: { remoteResponse: { type: 'object', properties: { remoteOrderId: { type: 'string', format: 'uuid' } } } } } })
  @ApiPluginProblems(
    [400, `VALIDATION_ERROR (reason MENU_ACCOUNT_SETTINGS): no token, or malformed fields. ${GONE_VENDOR} INTEGRATION_DISABLED (reason CLOSED): the integration is inactive or the account disabled: not retried. PLATFORM_ORDER_OF_ANOTHER_INTEGRATION: this vendor's order with this token was received for another integration (the vendor's integration replaced). Also INVALID_PAYLOAD, PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE.`],
    [500, `${UNKNOWN_VENDOR} Also a storage failure, or a vendor two integrations hold for a moment (SERVICE_UNAVAILABLE).`],
  )
  async dispatch(@Param('remoteId') remoteId: string, @Body() body: unknown) {
    const parsed = parsePlatformBOrder(remoteId, body);
    if (!parsed.ok) throw unprocessable(`The order cannot be processed: ${parsed.errors.map((error) => `${error.field} ${error.message}`).join('; ')}`.slice(0, 500), parsed.errors);
    const integration = await this.vendor(remoteId, { active: true });
    if (parsed.order.test) return { remoteResponse: { remoteOrderId: await this.orders.receiveTestOrder(integration, parsed.order) } };
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
  @ApiPluginProblems([400, 'VALIDATION_ERROR (reason MENU_ACCOUNT_SETTINGS): no status. ORDER_NOT_FOUND (reason MENU_ACCOUNT_SETTINGS): no PLATFORM_B order of this remoteId has this remoteOrderId (every remoteOrderId we answer is stored first, so an unknown one never appears): not retried.'])
  async orderStatus(@Param('remoteId') remoteId: string, @Param('remoteOrderId') remoteOrderId: string, @Body() body: unknown) {
    const status = isRecord(body) && typeof body.status === 'string' && body.status.length > 0 && body.status.length <= 64 ? body.status.toUpperCase() : undefined;
    if (!status) throw unprocessable('status is required (a string of at most 64 characters)', [{ field: 'status', message: 'is required (a string of at most 64 characters)' }]);
    const message = isRecord(body) && typeof body.message === 'string' ? body.message : undefined;
    // Every remoteOrderId we answered was stored before the answer: an unknown one never appears, so a 400.
    const notFound = new ProblemException(400, ErrorCode.OrderNotFound, 'No PLATFORM_B order of this vendor has this remoteOrderId.');
    if (!isUuid(remoteOrderId)) throw notFound;
    const id = remoteOrderId.toLowerCase();
    let result: string;
    if (status === PLATFORM_B_CANCELLED_STATUS) result = await this.orders.cancelById(PLATFORM, id, remoteId, message);
    else if (status === PLATFORM_B_PICKED_UP_STATUS) result = await this.orders.pickedUpById(PLATFORM, id, remoteId);
    else result = (await this.orders.existsById(PLATFORM, id, remoteId)) ? 'ignored' : 'unknown';
    if (result === 'unknown') {
      if (!(await this.orders.testOrderStatus(PLATFORM, id, remoteId, status, message))) throw notFound;
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
  @ApiPluginProblems([400, `VALIDATION_ERROR (reason MENU_ACCOUNT_SETTINGS): malformed closures. ${GONE_VENDOR}`], [500, UNKNOWN_VENDOR])
  async availability(@Param('remoteId') remoteId: string, @Body() body: unknown): Promise<void> {
    const read = readClosures(body);
    if ('errors' in read) throw unprocessable('The availability cannot be processed: malformed closures.', read.errors);
    await this.orders.recordAvailability(await this.vendor(remoteId, { active: false }), read.closures, read.timestamp);
  }

  @Get('menuimport/:remoteId')
  @HttpCode(202)
  @ApiOperation({
    summary: 'PLATFORM_B menu import request.',
    description: 'Answered 202 without a body, as the middleware expects. The menu push back through the middleware API is not built: the request is logged only.',
  })
  @ApiParam(REMOTE_ID)
  @ApiAcceptedResponse({ description: 'Request taken (logged).' })
  @ApiPluginProblems([400, GONE_VENDOR], [500, UNKNOWN_VENDOR])
  async menuImport(@Param('remoteId') remoteId: string, @Query('vendorCode') vendorCode: unknown, @Query('menuImportId') menuImportId: unknown): Promise<void> {
    const integration = await this.vendor(remoteId, { active: false });
    this.logger.warn(
      { platform: PLATFORM, integrationId: integration.integrationId, providerRestaurantId: remoteId, vendorCode: typeof vendorCode === 'string' ? vendorCode.slice(0, 100) : undefined, menuImportId: typeof menuImportId === 'string' ? menuImportId.slice(0, 100) : undefined },
      'PLATFORM_B asked for the menu; sending menus to the platform is not built, nothing is sent',
    );
  }

  /**
   * The live integration holding the vendor (`active`: and taking orders), else the refusal
   * platformBVendorRefusal decides: never held here (may appear soon), held by integrations since
   * deleted or displaced (never will), or paused.
   */
  private async vendor(remoteId: string, options: { active: boolean }): Promise<InboundIntegration> {
    const integration = await this.orders.forPlatformRestaurant(PLATFORM, remoteId);
    if (integration && (!options.active || (integration.isActive && integration.accountActive))) return integration;
    const state: PlatformBVendorState = integration ? 'paused' : (await this.orders.formerlyHeld(PLATFORM, remoteId)) ? 'gone' : 'unknown';
    this.logger.warn({ platform: PLATFORM, providerRestaurantId: remoteId.slice(0, 100), state }, 'PLATFORM_B call for a vendor without a live integration taking orders refused');
    throw vendorRefused(state, remoteId);
  }
}
