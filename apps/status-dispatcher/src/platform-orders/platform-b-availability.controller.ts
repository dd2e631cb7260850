import { Body, Controller, HttpCode, Logger, Param, Put, UseFilters, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { PlatformBVendorState, PLATFORM_B_PLUGIN_STATUSES } from '@courier/platforms';
import { AvailabilityService } from '../availability/availability.service';
import { DirectoryIntegration, IntegrationDirectory } from '../platform-sessions/integration-directory';
import { ApiPluginProblems, GONE_VENDOR, REMOTE_ID, UNKNOWN_VENDOR, unprocessable, vendorRefused } from './platform-b.controller';
import { PlatformBPluginAnswerFilter } from './platform-b-plugin-answer.filter';
import { PlatformBPluginGuard } from './platform-b-plugin.guard';
import { PlatformBPluginService, readClosures } from './platform-b-plugin.service';

const PLATFORM = 'PLATFORM_B';

/**
 * PLATFORM_B's plugin call telling us it opened or closed a vendor (`PUT /remoteId/{remoteId}/availability`,
 * the same JWT guard and answers as the other plugin endpoints): recorded as the platform reported it,
 * and compared with what the restaurant asked (a change of the platform's own is published once).
 */
@ApiTags('platform callbacks')
@ApiBearerAuth('bearerJwt')
@ApiPluginProblems(400, 401, 429, 500)
@UseGuards(PlatformBPluginGuard)
@UseFilters(PlatformBPluginAnswerFilter)
@Controller('platforms/platform-b')
export class PlatformBAvailabilityController {
  private readonly logger = new Logger('PlatformBPlugin');

  constructor(
    private readonly directory: IntegrationDirectory,
    private readonly plugin: PlatformBPluginService,
    private readonly availability: AvailabilityService,
  ) {}

  @Put('remoteId/:remoteId/availability')
  @HttpCode(200)
  @ApiOperation({
    summary: 'PLATFORM_B vendor availability (the platform opened or closed the vendor).',
    description:
      'Body `{ timestamp, closures: [{ reason, start, end?, changeable }] }`: the vendor is closed while a closure covers now. Recorded per vendor (newest report wins) and logged; ' +
      'when it differs from what the restaurant asked last (e.g. closed while it should be open), restaurant.availability_changed is published once. Answered 200 at once. ' +
      `Only ${PLATFORM_B_PLUGIN_STATUSES.join(', ')} are ever answered.`,
  })
  @ApiParam(REMOTE_ID)
  @ApiOkResponse({ description: 'Recorded (empty body).' })
  @ApiPluginProblems([400, `VALIDATION_ERROR (reason MENU_ACCOUNT_SETTINGS): malformed closures. ${GONE_VENDOR}`], [500, UNKNOWN_VENDOR])
  async availabilityChanged(@Param('remoteId') remoteId: string, @Body() body: unknown): Promise<void> {
    const read = readClosures(body);
    if ('errors' in read) throw unprocessable('The availability cannot be processed: malformed closures.', read.errors);
    const integration = await this.vendor(remoteId);
    const { open } = await this.plugin.recordAvailability(integration, read.closures, read.timestamp);
    const now = Date.now();
    const covering = read.closures.filter((closure) => Date.parse(closure.start) <= now && (!closure.end || Date.parse(closure.end) > now));
    // Closed until the last covering closure ends; open-ended when any of them is.
    const until = covering.length > 0 && covering.every((closure) => closure.end) ? new Date(Math.max(...covering.map((closure) => Date.parse(closure.end!)))) : null;
    await this.availability.recordPlatformReport(integration, { state: open ? 'OPEN' : 'CLOSED', until, reason: covering[0]?.reason ?? null, source: 'platform_call' });
  }

  /** The live integration holding the vendor (active or not), else the refusal platformBVendorRefusal decides. */
  private async vendor(remoteId: string): Promise<DirectoryIntegration> {
    const integration = await this.directory.forPlatformRestaurant(PLATFORM, remoteId);
    if (integration) return integration;
    const state: PlatformBVendorState = (await this.directory.formerlyHeld(PLATFORM, remoteId)) ? 'gone' : 'unknown';
    this.logger.warn({ platform: PLATFORM, providerRestaurantId: remoteId.slice(0, 100), state }, 'PLATFORM_B availability call for a vendor without a live integration refused');
    throw vendorRefused(state, remoteId);
  }
}
