import { Body, Controller, HttpCode, Param, Put, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '@courier/contracts';
import { ProblemException } from '@courier/http';
import { ApiProblems } from '../common/api-problems';
import { RESTAURANT_ID } from '../common/ids';
import { AccountDirectoryRepository } from '../account-directory/account-directory.repository';
import { INTERNAL_API_KEY_HEADER, InternalApiKeyGuard } from '../internal-auth/internal-api-key.guard';
import { AvailabilityService } from './availability.service';
import { StoreAvailabilityRequestDto } from './dto/availability-request.dto';
import { StoreChangeAcceptedDto } from './dto/availability-response.dto';

/** The courier core's availability call: busy or closed because couriers are short. */
@ApiTags('availability')
@ApiSecurity(INTERNAL_API_KEY_HEADER)
@ApiProblems(401, 500)
@UseGuards(InternalApiKeyGuard)
@Controller('internal/restaurants')
export class InternalAvailabilityController {
  constructor(
    private readonly availability: AvailabilityService,
    private readonly accounts: AccountDirectoryRepository,
  ) {}

  @Put(':restaurantId/availability')
  @HttpCode(202)
  @ApiOperation({
    summary: 'The courier core opens, closes or makes busy a restaurant on all its platforms (or the listed integrations).',
    description: 'As PUT /api/v1/my/availability, with the change recorded as the courier core\'s (asked.by: courier_core). A later change by the restaurant or the courier core supersedes it.',
  })
  @ApiParam({ name: 'restaurantId', description: 'The restaurant account (rest_...).' })
  @ApiAcceptedResponse({ type: StoreChangeAcceptedDto })
  @ApiProblems(
    400,
    [404, 'RESTAURANT_NOT_FOUND: no account has this restaurantId. INTEGRATION_NOT_FOUND: an id of integrationIds is not a delivery-platform integration of this restaurant.'],
    [409, 'INTEGRATION_DISABLED or INTEGRATION_NOT_VERIFIED: a listed integration is not active, or not verified by its platform yet.'],
    413,
    [422, 'VALIDATION_ERROR or UNTIL_IN_PAST, as for PUT /api/v1/my/availability.'],
  )
  async requestStore(@Param('restaurantId') restaurantId: string, @Body() body: StoreAvailabilityRequestDto): Promise<StoreChangeAcceptedDto> {
    if (!RESTAURANT_ID.test(restaurantId) || !(await this.accounts.accountExists(restaurantId))) throw new ProblemException(404, ErrorCode.RestaurantNotFound, 'No restaurant account has this restaurantId.');
    return this.availability.requestStore(restaurantId, body, 'courier_core');
  }
}
