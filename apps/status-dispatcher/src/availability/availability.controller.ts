import { Body, Controller, Get, HttpCode, Param, Put, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '@courier/contracts';
import { ApiCredentialsGuard, CurrentAccount, ProblemException } from '@courier/http';
import { ApiProblems } from '../common/api-problems';
import type { DirectoryAccount } from '../account-directory/account-directory.model';
import { AvailabilityService } from './availability.service';
import { ProductAvailabilityRequestDto, StoreAvailabilityRequestDto } from './dto/availability-request.dto';
import { AvailabilityViewDto, ProductChangeAcceptedDto, ProductsAvailabilityDto, StoreChangeAcceptedDto } from './dto/availability-response.dto';

const AUTH_401 = [401, 'AUTHENTICATION_FAILED: X-API-Key and X-API-Secret missing, wrong, or of a disabled account.'] as const;
const STORE_422 =
  'VALIDATION_ERROR: unknown fields, state not OPEN/CLOSED/BUSY, until not ISO 8601 or more than 31 days ahead or given with OPEN, busyMinutes missing for BUSY, given for another state, or not 1-120, reason empty or over 200 characters, integrationIds empty, repeated or over 50. UNTIL_IN_PAST: until is not in the future.';

/** The restaurant's availability on its delivery platforms, from one call (docs/availability.md). */
@ApiTags('availability')
@ApiSecurity({ 'X-API-Key': [], 'X-API-Secret': [] })
@ApiProblems(AUTH_401, 500)
@UseGuards(ApiCredentialsGuard)
@Controller('api/v1/my')
export class AvailabilityController {
  constructor(private readonly availability: AvailabilityService) {}

  @Put('availability')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Open, close or make busy the restaurant on all its platforms (or the listed integrations).',
    description:
      'Every active integration verified by its platform (or each of integrationIds, which must be the account\'s, active and verified) gets the change as a durable platform command: ' +
      'sent within the platform\'s call budget, retried on network errors, 429 and 5xx, final on a refusal, never sent twice; a later change supersedes one not sent yet (it is never sent). ' +
      '`until` ends a close or busy spell: OPEN is sent by itself then. Per integration the answer is `queued` (with a code and message when the platform does something close instead, e.g. a fixed close duration) ' +
      'or `unsupported` with the reason (nothing is sent). Follow it with GET /api/v1/my/availability.',
  })
  @ApiAcceptedResponse({ type: StoreChangeAcceptedDto })
  @ApiProblems(
    400,
    [404, 'INTEGRATION_NOT_FOUND: an id of integrationIds is not a delivery-platform integration of this account.'],
    [409, 'INTEGRATION_DISABLED: a listed integration is not active. INTEGRATION_NOT_VERIFIED: a listed integration is not verified by its platform yet.'],
    413,
    [422, STORE_422],
  )
  requestStore(@CurrentAccount() { restaurantId }: DirectoryAccount, @Body() body: StoreAvailabilityRequestDto): Promise<StoreChangeAcceptedDto> {
    return this.availability.requestStore(restaurantId, body, 'restaurant');
  }

  @Get('availability')
  @ApiOperation({ summary: 'Per integration: what was asked last (by whom, until when), what the platform last confirmed and when, what it reported by itself, the pending command and the last platform answer.' })
  @ApiOkResponse({ type: AvailabilityViewDto })
  view(@CurrentAccount() { restaurantId }: DirectoryAccount): Promise<AvailabilityViewDto> {
    return this.availability.view(restaurantId);
  }

  @Put('integrations/:integrationId/products/:platformProductId/availability')
  @HttpCode(202)
  @ApiOperation({
    summary: 'One product sold out (available: false, optionally until a time it comes back by itself) or back on.',
    description: 'A durable platform command like the store\'s (budget, retries, last request wins per product). `unsupported` with a code when the platform cannot switch products.',
  })
  @ApiParam({ name: 'integrationId', description: 'An integration of the account.' })
  @ApiParam({ name: 'platformProductId', description: 'The product\'s id on the platform (1-128 characters).' })
  @ApiAcceptedResponse({ type: ProductChangeAcceptedDto })
  @ApiProblems(
    400,
    [404, 'INTEGRATION_NOT_FOUND: no delivery-platform integration of this account has this id.'],
    [409, 'INTEGRATION_DISABLED: the integration is not active. INTEGRATION_NOT_VERIFIED: not verified by its platform yet.'],
    413,
    [422, 'VALIDATION_ERROR: available missing or not a boolean, until not ISO 8601, with available: true, or more than 31 days ahead, platformProductId over 128 characters. UNTIL_IN_PAST: until is not in the future.'],
  )
  requestProduct(
    @CurrentAccount() { restaurantId }: DirectoryAccount,
    @Param('integrationId') integrationId: string,
    @Param('platformProductId') platformProductId: string,
    @Body() body: ProductAvailabilityRequestDto,
  ): Promise<ProductChangeAcceptedDto> {
    return this.availability.requestProduct(restaurantId, integrationId, checkedProductId(platformProductId), body);
  }

  @Get('integrations/:integrationId/products/availability')
  @ApiOperation({ summary: 'The integration\'s products switched off now (or with a command still on its way), with when they come back and what the platform confirmed.' })
  @ApiParam({ name: 'integrationId', description: 'An integration of the account.' })
  @ApiOkResponse({ type: ProductsAvailabilityDto })
  @ApiProblems([404, 'INTEGRATION_NOT_FOUND: no delivery-platform integration of this account has this id.'])
  products(@CurrentAccount() { restaurantId }: DirectoryAccount, @Param('integrationId') integrationId: string): Promise<ProductsAvailabilityDto> {
    return this.availability.products(restaurantId, integrationId);
  }
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

function checkedProductId(platformProductId: string): string {
  if (platformProductId.length > 128 || CONTROL_CHARACTERS.test(platformProductId)) {
    throw new ProblemException(422, ErrorCode.ValidationError, 'platformProductId must be 1-128 characters without control characters.', [{ field: 'platformProductId', message: 'must be 1-128 characters without control characters' }]);
  }
  return platformProductId;
}
