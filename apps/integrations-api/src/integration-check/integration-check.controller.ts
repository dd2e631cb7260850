import { Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { PlatformRegistry } from '@courier/platforms';
import { ApiCredentialsGuard, CurrentAccount } from '@courier/http';
import { RestaurantEntity } from '../accounts/restaurant.entity';
import { ApiProblems } from '../common/api-problems';
import { IntegrationCheckDto } from './dto/integration-check.dto';
import { IntegrationCheckLimitGuard } from './integration-check-limit.guard';
import { IntegrationCheckMetrics } from './integration-check.metrics';
import { IntegrationCheckService } from './integration-check.service';

/** POST /api/v1/my/integrations/{id}/check: do the stored credentials work on the platform? */
@ApiTags('integrations')
@ApiSecurity({ 'X-API-Key': [], 'X-API-Secret': [] })
@ApiProblems(401, 500)
@UseGuards(ApiCredentialsGuard)
@Controller('api/v1/my/integrations')
export class IntegrationCheckController {
  constructor(
    private readonly checks: IntegrationCheckService,
    private readonly metrics: IntegrationCheckMetrics,
    private readonly registry: PlatformRegistry,
  ) {}

  @Post(':id/check')
  @HttpCode(200)
  @UseGuards(IntegrationCheckLimitGuard)
  @ApiOperation({
    summary: 'Check an integration\'s stored credentials against its platform.',
    description:
      'Logs in to the platform with the stored credentials where its API has a login, else makes a harmless authenticated read (docs/platforms.md says which, per platform). ' +
      'Always 200 when the integration exists: `result` says what the platform answered. The verdict is the integration\'s verification: ok verifies it ' +
      '(its withheld platform orders are then handed over), wrong_restaurant or rejected fails it, no verdict changes nothing. No credential is changed. ' +
      'Each check is a real platform call: at most INTEGRATION_CHECK_LIMIT_PER_MINUTE (3) a minute per integration and INTEGRATION_CHECK_ACCOUNT_LIMIT_PER_HOUR (30) an hour per account, ' +
      'shared by the replicas; past either, 429 RATE_LIMIT_EXCEEDED with Retry-After (the rest of that minute or hour).',
  })
  @ApiParam({ name: 'id', description: 'Integration id (UUID). Unknown, malformed, or another account\'s: 404 INTEGRATION_NOT_FOUND.', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: IntegrationCheckDto })
  @ApiProblems(
    [404, 'INTEGRATION_NOT_FOUND: no integration of yours has this id (malformed ids included).'],
    [429, 'RATE_LIMIT_EXCEEDED: too many checks of this integration this minute, or of this account\'s integrations this hour; Retry-After says when to try again.'],
  )
  async check(@CurrentAccount() restaurant: RestaurantEntity, @Param('id') id: string): Promise<IntegrationCheckDto> {
    const answer = await this.checks.check(restaurant, id);
    this.metrics.record(this.registry.byWireCode(answer.platform)?.code ?? answer.platform, answer.result);
    return answer;
  }
}
