import { Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiCredentialsGuard, CurrentRestaurant } from '../accounts/api-credentials.guard';
import { RestaurantEntity } from '../accounts/restaurant.entity';
import { ApiProblems } from '../common/api-problems';
import { IntegrationCheckDto } from './dto/integration-check.dto';
import { IntegrationCheckService } from './integration-check.service';

/** POST /api/v1/my/integrations/{id}/check: do the stored credentials work on the platform? */
@ApiTags('integrations')
@ApiSecurity({ 'X-API-Key': [], 'X-API-Secret': [] })
@ApiProblems(401, 500)
@UseGuards(ApiCredentialsGuard)
@Controller('api/v1/my/integrations')
export class IntegrationCheckController {
  constructor(private readonly checks: IntegrationCheckService) {}

  @Post(':id/check')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Check an integration\'s stored credentials against its platform.',
    description:
      'Logs in to the platform with the stored credentials (PLATFORM_A, PLATFORM_B), or makes a harmless authenticated read (PLATFORM_C, PLATFORM_D). ' +
      'Always 200 when the integration exists: `result` says what the platform answered. The verdict is the integration\'s verification: ok verifies it ' +
      '(its withheld platform orders are then handed over), wrong_restaurant or rejected fails it, no verdict changes nothing. No credential is changed.',
  })
  @ApiParam({ name: 'id', description: 'Integration id (UUID). Unknown, malformed, or another account\'s: 404 INTEGRATION_NOT_FOUND.', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: IntegrationCheckDto })
  @ApiProblems([404, 'INTEGRATION_NOT_FOUND: no integration of yours has this id (malformed ids included).'])
  check(@CurrentRestaurant() restaurant: RestaurantEntity, @Param('id') id: string): Promise<IntegrationCheckDto> {
    return this.checks.check(restaurant, id);
  }
}
