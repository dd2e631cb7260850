import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../common/api-problems';
import { AdminTokenGuard } from './admin-token.guard';
import { PlatformRestaurantDto, PlatformRestaurantQuery, TransferPlatformRestaurantDto, VerifyPlatformRestaurantDto } from './dto/platform-restaurant.dto';
import { PlatformRestaurantsService } from './platform-restaurants.service';

const BAD_PLATFORM: [number, string] = [422, 'VALIDATION_ERROR: missing or invalid fields, or a platform that is not a delivery platform (THIRD_PARTY, unknown).'];

/**
 * The operator's resolution of claimed platform restaurants. A delivery platform's restaurant
 * belongs to one integration across all accounts; customers are told only 409 INTEGRATION_EXISTS,
 * so who holds it, and handing it over, is the operator's. Every call is logged and recorded in
 * the audit table.
 */
@ApiTags('admin')
@ApiSecurity('X-Admin-Token')
@ApiProblems([401, 'AUTHENTICATION_FAILED: X-Admin-Token missing or wrong (or ADMIN_TOKEN not configured).'], 500)
@UseGuards(AdminTokenGuard)
@Controller('admin/v1/platform-restaurants')
export class PlatformRestaurantsController {
  constructor(private readonly restaurants: PlatformRestaurantsService) {}

  @Get()
  @ApiOperation({
    summary: 'Who holds a delivery platform\'s restaurant (operator only).',
    description:
      'The holder (the integration orders are routed to; null when none), the integrations that bore the id and were displaced, and the last verifications, transfers and clean-ups. ' +
      'The lookup itself is recorded in the audit table with `operator`.',
  })
  @ApiOkResponse({ type: PlatformRestaurantDto })
  @ApiProblems(BAD_PLATFORM)
  lookup(@Query() query: PlatformRestaurantQuery): Promise<PlatformRestaurantDto> {
    return this.restaurants.lookup(query);
  }

  @Post('verify')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Confirm that the integration holding the restaurant is its owner.',
    description: 'Records verifiedAt and verifiedBy (= operator) on the holder. `integrationId` must be the holder at the time of the call, so a holder changed since the lookup is not verified by mistake.',
  })
  @ApiOkResponse({ type: PlatformRestaurantDto })
  @ApiProblems([409, 'CONFLICT: the integration does not hold the restaurant (any more).'], BAD_PLATFORM, 400, 413)
  verify(@Body() body: VerifyPlatformRestaurantDto): Promise<PlatformRestaurantDto> {
    return this.restaurants.verify(body);
  }

  @Post('transfer')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Give the restaurant to another integration (of any account), atomically.',
    description:
      'In one transaction: the holder (if any) is deactivated and displaced (it keeps its credentials; activating it again answers 409 INTEGRATION_EXISTS while another integration holds the restaurant), ' +
      'and `toIntegrationId` (same platform) takes the providerRestaurantId, keeps its isActive, and is marked verified by the operator. Both changes reach status-dispatcher as integration.upserted; ' +
      'orders are routed to the new holder from then on. The claimant registers its integration, with its credentials, under a provisional providerRestaurantId first. ' +
      'Transferring to the current holder only marks it verified.',
  })
  @ApiOkResponse({ type: PlatformRestaurantDto })
  @ApiProblems(
    [404, 'INTEGRATION_NOT_FOUND: no integration has toIntegrationId.'],
    [409, 'INTEGRATION_EXISTS: the receiving account has another (displaced) integration with this restaurant; transfer to that one. CONFLICT: a concurrent transfer gave the restaurant to another integration meanwhile.'],
    [422, 'VALIDATION_ERROR: invalid fields, a platform that is not a delivery platform, or toIntegrationId of another platform.'],
    400,
    413,
  )
  transfer(@Body() body: TransferPlatformRestaurantDto): Promise<PlatformRestaurantDto> {
    return this.restaurants.transfer(body);
  }
}
