import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiProblems } from '../common/api-problems';
import { ReencryptionReport } from '../secrets/secrets-reencryption';
import { AdminService } from './admin.service';
import { AdminTokenGuard } from './admin-token.guard';
import { CreateRestaurantDto } from './dto/create-restaurant.dto';
import { ListRestaurantsQuery } from './dto/list-restaurants.query';
import { CreatedRestaurantDto, ReencryptionReportDto, RestaurantDto, RestaurantPageDto, RotatedKeysDto } from './dto/restaurant.dto';

const RESTAURANT_ID = { name: 'id', description: 'Restaurant id (rest_...). Unknown or malformed: 404 RESTAURANT_NOT_FOUND.' };

/** The operator's API: provisioning of restaurant accounts. Behind X-Admin-Token. */
@ApiTags('admin')
@ApiSecurity('X-Admin-Token')
@ApiProblems([401, 'AUTHENTICATION_FAILED: X-Admin-Token missing or wrong (or ADMIN_TOKEN not configured).'], 500)
@UseGuards(AdminTokenGuard)
@Controller('admin/v1')
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  @Post('restaurants')
  @ApiOperation({
    summary: 'Create a restaurant account with its THIRD_PARTY integration (active).',
    description:
      'Returns the API key pair once (and the webhook signing secret, when generateSigningSecret is true). Webhook URLs given here are checked like PUT /api/v1/my/webhooks.',
  })
  @ApiCreatedResponse({ type: CreatedRestaurantDto, headers: { Location: { description: 'URL of the account.', schema: { type: 'string' } } } })
  @ApiProblems(400, 422)
  async create(@Body() body: CreateRestaurantDto, @Res({ passthrough: true }) response: Response): Promise<CreatedRestaurantDto> {
    const created = await this.admin.create(body);
    response.setHeader('Location', `/admin/v1/restaurants/${created.restaurantId}`);
    return created;
  }

  @Get('restaurants')
  @ApiOperation({ summary: 'List restaurant accounts, oldest first, by pages.' })
  @ApiOkResponse({ type: RestaurantPageDto })
  @ApiProblems(422)
  list(@Query() query: ListRestaurantsQuery): Promise<RestaurantPageDto> {
    return this.admin.list(query);
  }

  @Get('restaurants/:id')
  @ApiOperation({ summary: 'One restaurant account.' })
  @ApiParam(RESTAURANT_ID)
  @ApiOkResponse({ type: RestaurantDto })
  @ApiProblems([404, 'RESTAURANT_NOT_FOUND'])
  get(@Param('id') id: string): Promise<RestaurantDto> {
    return this.admin.get(id);
  }

  @Post('restaurants/:id/disable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Disable an account: its keys stop working on every API (idempotent).' })
  @ApiParam(RESTAURANT_ID)
  @ApiOkResponse({ type: RestaurantDto })
  @ApiProblems([404, 'RESTAURANT_NOT_FOUND'])
  disable(@Param('id') id: string): Promise<RestaurantDto> {
    return this.admin.setStatus(id, 'disabled');
  }

  @Post('restaurants/:id/enable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Enable a disabled account again (idempotent).' })
  @ApiParam(RESTAURANT_ID)
  @ApiOkResponse({ type: RestaurantDto })
  @ApiProblems([404, 'RESTAURANT_NOT_FOUND'])
  enable(@Param('id') id: string): Promise<RestaurantDto> {
    return this.admin.setStatus(id, 'active');
  }

  @Post('restaurants/:id/rotate-keys')
  @HttpCode(200)
  @ApiOperation({ summary: 'Replace the API key pair; the old pair stops working at once. The new pair is shown only here.' })
  @ApiParam(RESTAURANT_ID)
  @ApiOkResponse({ type: RotatedKeysDto })
  @ApiProblems([404, 'RESTAURANT_NOT_FOUND'])
  rotateKeys(@Param('id') id: string): Promise<RotatedKeysDto> {
    return this.admin.rotateKeys(id);
  }

  @Post('secrets/reencrypt')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Re-encrypt every stored secret under the current (first) key of SECRETS_ENCRYPTION_KEYS.',
    description: 'Same as `npm run secrets:reencrypt`. Consumers receive the new ciphertexts as events; afterwards the old key can be removed.',
  })
  @ApiOkResponse({ type: ReencryptionReportDto })
  reencrypt(): Promise<ReencryptionReport> {
    return this.admin.reencryptSecrets();
  }
}
