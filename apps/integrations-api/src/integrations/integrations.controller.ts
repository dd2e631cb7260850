import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiCredentialsGuard, CurrentAccount } from '@courier/http';
import { RestaurantEntity } from '../accounts/restaurant.entity';
import { ApiProblems } from '../common/api-problems';
import { ListIntegrationsQuery } from './dto/list-integrations.query';
import { INTEGRATION_CREATE_BODY, INTEGRATION_PAGE, INTEGRATION_RECORD, INTEGRATION_UPDATE_BODY } from './integration-schemas';
import { IntegrationRecord } from './integration.presenter';
import { IntegrationPage, IntegrationsService } from './integrations.service';

const INTEGRATION_ID = {
  name: 'id',
  description: 'Integration id (UUID). Unknown, malformed, or another account\'s: 404 INTEGRATION_NOT_FOUND.',
  schema: { type: 'string' as const, format: 'uuid' },
};
const NOT_FOUND: [number, string] = [404, 'INTEGRATION_NOT_FOUND: no integration of yours has this id (malformed ids included).'];

/** Integration management: the caller's credentials on the delivery platforms. */
@ApiTags('integrations')
@ApiSecurity({ 'X-API-Key': [], 'X-API-Secret': [] })
@ApiProblems(401, 500)
@UseGuards(ApiCredentialsGuard)
@Controller('api/v1/my/integrations')
export class IntegrationsController {
  constructor(private readonly integrations: IntegrationsService) {}

  @Post()
  @ApiOperation({
    summary: 'Register an integration.',
    description:
      'The body holds the whole field set of its platform (one schema per platform below, told apart by `platform`); isActive is optional (default true). ' +
      'Fields of another platform, unknown fields, empty strings: 422. ' +
        'A delivery platform\'s restaurant (platform + providerRestaurantId, every platform but THIRD_PARTY) belongs to one integration across all accounts: ' +
        'when any integration, of this account or another, holds it (active or not), the answer is 409 INTEGRATION_EXISTS, the same whoever holds it and naming no one ' +
        '(an operator verifies and transfers disputed restaurants). Deleting the integration frees the restaurant. ' +
        'THIRD_PARTY\'s providerRestaurantId is the customer\'s own label, unique per account only; a second THIRD_PARTY: 409 INTEGRATION_EXISTS. ' +
      'Secret fields are encrypted at rest and returned masked (**** + last 4).',
  })
  @ApiBody({ schema: INTEGRATION_CREATE_BODY })
  @ApiCreatedResponse({ schema: INTEGRATION_RECORD, headers: { Location: { description: 'URL of the new integration.', schema: { type: 'string' } } } })
  @ApiProblems(400, [409, 'INTEGRATION_EXISTS: the platform restaurant is held by an integration (yours or another account\'s: the answer does not say).'], 413, 422)
  async create(@CurrentAccount() restaurant: RestaurantEntity, @Body() body: unknown, @Res({ passthrough: true }) response: Response): Promise<IntegrationRecord> {
    const record = await this.integrations.create(restaurant, body);
    response.setHeader('Location', `/api/v1/my/integrations/${record.id}`);
    return record;
  }

  @Get()
  @ApiOperation({ summary: 'List your integrations, oldest first, by pages (filters: platform, isActive).' })
  @ApiOkResponse({ schema: INTEGRATION_PAGE })
  @ApiProblems([422, 'VALIDATION_ERROR: bad limit, cursor, platform or isActive.'])
  list(@CurrentAccount() restaurant: RestaurantEntity, @Query() query: ListIntegrationsQuery): Promise<IntegrationPage> {
    return this.integrations.list(restaurant, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One integration.' })
  @ApiParam(INTEGRATION_ID)
  @ApiOkResponse({ schema: INTEGRATION_RECORD })
  @ApiProblems(NOT_FOUND)
  get(@CurrentAccount() restaurant: RestaurantEntity, @Param('id') id: string): Promise<IntegrationRecord> {
    return this.integrations.get(restaurant, id);
  }

  @Put(':id')
  @ApiOperation({
    summary: 'Change an integration: send only the fields that change (a body with only password is valid).',
    description:
      'Fields must belong to the integration\'s platform. A secret field holding a mask (****...) is refused with 422. ' +
      'A new providerRestaurantId held by any other integration (any account, for a delivery platform): 409 INTEGRATION_EXISTS, as on create.',
  })
  @ApiParam(INTEGRATION_ID)
  @ApiBody({ schema: INTEGRATION_UPDATE_BODY })
  @ApiOkResponse({ schema: INTEGRATION_RECORD })
  @ApiProblems(400, NOT_FOUND, [409, 'INTEGRATION_EXISTS: the new providerRestaurantId is held by another integration (which one is not said), or isActive true on a displaced integration whose restaurant is held.'], 413, 422)
  update(@CurrentAccount() restaurant: RestaurantEntity, @Param('id') id: string, @Body() body: unknown): Promise<IntegrationRecord> {
    return this.integrations.update(restaurant, id, body);
  }

  @Patch(':id/activate')
  @ApiOperation({
    summary: 'Resume order intake from this integration (activating an active one is a no-op).',
    description: 'An integration displaced by an operator\'s transfer or the clean-up of duplicates claims its platform restaurant again: 409 INTEGRATION_EXISTS while another integration holds it.',
  })
  @ApiParam(INTEGRATION_ID)
  @ApiOkResponse({ schema: INTEGRATION_RECORD })
  @ApiProblems(NOT_FOUND, [409, 'INTEGRATION_EXISTS: a displaced integration whose platform restaurant another integration holds.'])
  activate(@CurrentAccount() restaurant: RestaurantEntity, @Param('id') id: string): Promise<IntegrationRecord> {
    return this.integrations.setActive(restaurant, id, true);
  }

  @Patch(':id/deactivate')
  @ApiOperation({ summary: 'Pause order intake from this integration (deactivating an inactive one is a no-op).' })
  @ApiParam(INTEGRATION_ID)
  @ApiOkResponse({ schema: INTEGRATION_RECORD })
  @ApiProblems(NOT_FOUND)
  deactivate(@CurrentAccount() restaurant: RestaurantEntity, @Param('id') id: string): Promise<IntegrationRecord> {
    return this.integrations.setActive(restaurant, id, false);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an integration completely; its platform restaurant is free again (another account may register it).' })
  @ApiParam(INTEGRATION_ID)
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiProblems(NOT_FOUND)
  async remove(@CurrentAccount() restaurant: RestaurantEntity, @Param('id') id: string): Promise<void> {
    await this.integrations.remove(restaurant, id);
  }
}
